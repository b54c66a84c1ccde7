package io.mdgate.runtime;

import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressStats;
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
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The run-to-completion duty cycle allocates nothing in steady state: an ingress on the session's thread hands
 * both lines' packets (line A losing one in eight, filled by B) straight to the session, which writes the ticks into
 * the tick log; the journal's reader takes them (here without Chronicle behind it: Chronicle's own append is
 * Chronicle's, outside what this test holds to zero) and the egress's reader follows it.
 */
@Timeout(120)
class RunToCompletionAllocationTest
{
    private static final int PACKETS = 4_096;
    private static final int MESSAGES_PER_PACKET = 4;
    private static final int MEASURED = 3;

    @TempDir
    Path dir;

    /** Reads the journal's position of the log as the journal agent does, without Chronicle behind it. */
    private static final io.mdgate.core.tick.TickHandler APPENDED = (b, o) -> {};

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
        final int rounds = 8;
        final PreparedPort[] ports = new PreparedPort[rounds];
        for (int r = 0; r < rounds; r++)
        {
            ports[r] = new PreparedPort(packets(1 + (long)r * PACKETS * MESSAGES_PER_PACKET));
        }

        final TickLog log = new TickLog(1 << 16, "journal", "egress");
        log.reader(1).follow(log.reader(0));
        final long[] egressTicks = { 0 };
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 512, 4096);
            StageLatency toSession = new StageLatency("ingress_to_session", counters, null, 0);
            StageLatency unused = new StageLatency("ingress_to_journal", counters, null, 0))
        {
            final MonotonicEpochClock clock = new MonotonicEpochClock();
            final SessionAgent session = new SessionAgent(null, 1024, new FeedSession.Context().firstSequence(1),
                new OrderBooks(new BookContext().conclude()), new ExchangeClock(LocalDate.of(2025, 1, 2)), 1, log,
                null, new MarketState(), clock, toSession, counters);
            final IngressAgent[] ingresses = new IngressAgent[rounds];
            for (int r = 0; r < rounds; r++)
            {
                ingresses[r] = new IngressAgent("ingress:p" + r + ":0", ports[r], t -> {}, counters).input(session);
                ingresses[r].onStart();
            }
            session.onStart();
            final io.mdgate.core.tick.TickHandler counting = (b, o) -> egressTicks[0]++;
            final Runnable egress = () -> log.reader(1).poll(counting, 1024);

            // Each of the last MEASURED rounds is measured on its own. An allocation on the path (per packet, per
            // tick, per gap, per timer) shows in every one of them. A one-off of the JIT (a deoptimisation
            // re-materialising scalar-replaced objects: 328 then 96 bytes, once a run, in whichever round the
            // compiler gets there, here rounds 4-7) shows in two adjacent rounds at most, so one of three is clean.
            final long[] allocatedPerRound = new long[MEASURED];
            for (int r = 0; r < rounds; r++)
            {
                final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                for (int cycles = 0; !ports[r].done() && cycles < 1_000_000; cycles++)
                {
                    ingresses[r].doWork();
                    session.doWork();
                    log.reader(0).poll(APPENDED, 1024);
                    egress.run();
                }
                if (r == rounds - 1)
                {
                    for (int i = 0; i < 10; i++)
                    {
                        session.doWork();
                        log.reader(0).poll(APPENDED, 1024);
                        egress.run();
                    }
                }
                if (r >= rounds - MEASURED)
                {
                    allocatedPerRound[r - (rounds - MEASURED)] =
                        threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                }
            }
            final long cleanRounds = java.util.Arrays.stream(allocatedPerRound).filter(b -> b == 0).count();
            System.out.println("allocated per measured round: " + java.util.Arrays.toString(allocatedPerRound));

            assertTrue(cleanRounds >= 1, "bytes allocated in steady state, per measured round: " +
                java.util.Arrays.toString(allocatedPerRound));
            assertEquals((long)rounds * PACKETS * MESSAGES_PER_PACKET, session.session().messages(FeedLines.A) +
                session.session().messages(FeedLines.B), "every message delivered once");
            assertEquals(log.published(), egressTicks[0], "the egress read every tick");
            assertEquals(log.published(), log.reader(0).position(), "the journal's reader took every tick");
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
