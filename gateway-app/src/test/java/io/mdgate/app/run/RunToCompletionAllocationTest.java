package io.mdgate.app.run;

import io.mdgate.app.run.counters.CountersFileWriter;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.egress.MonotonicEpochClock;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressStats;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.TickJournal;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.LocalDate;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The run-to-completion duty cycle allocates nothing in steady state: an ingress on the session's thread hands
 * both lines' packets (line A losing one in eight, filled by B) straight to the session, which writes the ticks into
 * the tick log; the journal appends them to Chronicle from its reader and the egress's reader follows it.
 */
@Timeout(120)
class RunToCompletionAllocationTest
{
    private static final int PACKETS = 4_096;
    private static final int MESSAGES_PER_PACKET = 4;

    @TempDir
    Path dir;

    /** Replays prepared packets, A and B, one pair per poll, without allocating. */
    private static final class PreparedPort implements Ingress
    {
        private final UnsafeBuffer[] packets;
        private int next;

        PreparedPort(final UnsafeBuffer[] packets)
        {
            this.packets = packets;
        }

        boolean done()
        {
            return next >= packets.length;
        }

        @Override
        public void start()
        {
        }

        @Override
        public int poll(final PacketHandler handler)
        {
            if (done())
            {
                return 0;
            }
            final UnsafeBuffer packet = packets[next];
            if (next % 8 != 3)
            {
                handler.onPacket(FeedLines.A, packet, 0, packet.capacity(), 1L);
            }
            handler.onPacket(FeedLines.B, packet, 0, packet.capacity(), 1L);
            next++;
            return 2;
        }

        @Override
        public IngressStats stats()
        {
            return null;
        }

        @Override
        public void close()
        {
        }
    }

    @Test
    void shouldNotAllocateWhileReceivingArbitratingNormalizingJournalingAndReadingOnOneThread()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter unavailable");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        final UnsafeBuffer[] warm = packets(1);
        final UnsafeBuffer[] measured = packets(1 + (long)PACKETS * MESSAGES_PER_PACKET);

        final TickLog log = new TickLog(1 << 16, "journal", "egress");
        log.reader(1).follow(log.reader(0));
        final long[] egressTicks = { 0 };
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 512, 4096);
            StageLatency toSession = new StageLatency("ingress_to_session", counters, null, 0);
            StageLatency toJournal = new StageLatency("ingress_to_journal", counters, null, 0);
            TickJournal journal = TickJournal.open(new JournalContext().directory(dir.resolve("journal"))))
        {
            final MonotonicEpochClock clock = new MonotonicEpochClock();
            final SessionAgent session = new SessionAgent(null, 1024, new FeedSession.Context().firstSequence(1),
                new OrderBooks(new BookContext().conclude()), new ExchangeClock(LocalDate.of(2025, 1, 2)), 1, log,
                journal.publisher(), new MarketState(), clock, toSession, counters);
            final JournalStage journalStage = new JournalStage(journal, log.reader(0), toJournal, clock, counters);
            final PreparedPort warmPort = new PreparedPort(warm);
            final PreparedPort measuredPort = new PreparedPort(measured);
            final IngressAgent warmIngress = new IngressAgent("ingress:p0:0", warmPort, t -> {}, counters)
                .input(session);
            final IngressAgent measuredIngress = new IngressAgent("ingress:p1:0", measuredPort, t -> {}, counters)
                .input(session);
            warmIngress.onStart();
            measuredIngress.onStart();
            session.onStart();
            journalStage.onStart();
            final io.mdgate.core.tick.TickHandler counting = (b, o) -> egressTicks[0]++;
            final Runnable egress = () -> log.reader(1).poll(counting, 1024);

            for (int cycles = 0; !warmPort.done() && cycles < 1_000_000; cycles++)
            {
                warmIngress.doWork();
                session.doWork();
                journalStage.doWork();
                egress.run();
            }
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (int cycles = 0; !measuredPort.done() && cycles < 1_000_000; cycles++)
            {
                measuredIngress.doWork();
                session.doWork();
                journalStage.doWork();
                egress.run();
            }
            for (int i = 0; i < 10; i++)
            {
                session.doWork();
                journalStage.doWork();
                egress.run();
            }
            final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            journalStage.onClose();

            assertEquals(0, allocated, "bytes allocated in steady state");
            assertEquals(2L * PACKETS * MESSAGES_PER_PACKET, session.session().messages(FeedLines.A) +
                session.session().messages(FeedLines.B), "every message delivered once");
            assertEquals(log.published(), egressTicks[0], "the egress read every tick");
            assertEquals(log.published(), journal.journaledSequence(), "the journal holds every tick");
        }
    }

    private static UnsafeBuffer[] packets(final long firstSequence)
    {
        final UnsafeBuffer[] packets = new UnsafeBuffer[PACKETS];
        for (int i = 0; i < PACKETS; i++)
        {
            packets[i] = new UnsafeBuffer(moldPacketOfAdds(SESSION, firstSequence + (long)i * MESSAGES_PER_PACKET,
                MESSAGES_PER_PACKET));
        }
        return packets;
    }
}
