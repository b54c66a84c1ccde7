package io.mdgate.runtime;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.itch.SystemEventFlyweight;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.egress.TickArchive;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.TickJournal;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Each module's counters are in the counters file, under their labels, the moment the module counts: the runtime
 * gives the file to the module's context and copies nothing.
 */
@Timeout(60)
class ModuleCountersInFileTest
{
    @TempDir
    Path dir;

    private static CountersSnapshot read(final Path path)
    {
        try (CountersFile file = CountersFile.open(path))
        {
            return file.snapshot();
        }
    }

    /** A MoldUDP64 packet of one system event, sequence {@code sequence}. */
    private static UnsafeBuffer systemEventPacket(final long sequence, final int[] length)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        final SystemEventFlyweight event = new SystemEventFlyweight();
        event.wrapForEncode(message, 0);
        event.stockLocate(0).trackingNumber(0).timestamp(34_200_000_000_000L);
        event.eventCode('Q');
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[1500]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder().wrap(packet, 0, packet.capacity())
            .session(MoldUdp64Session.of("ACCEPTED01")).sequenceNumber(sequence);
        encoder.tryAppend(message, 0, event.length());
        length[0] = encoder.length();
        return packet;
    }

    private static UnsafeBuffer tick(final long sequence)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        new TickEncoder().wrap(buffer, 0).gatewaySequence(sequence).instrumentId(1).sessionId(1)
            .eventType(EventType.ADD);
        return buffer;
    }

    @Test
    void shouldShowTheFeedSessionsCountsInTheFileAsSoonAsThePacketIsTakenWithNoDutyCycleInBetween()
    {
        final Path path = dir.resolve("counters");
        try (CountersFileWriter counters = CountersFileWriter.create(path, "t", 256, 4096);
            StageLatency latency = new StageLatency("ingress_to_session", counters, null, 0))
        {
            final SessionAgent agent = new SessionAgent(null, 1024, new FeedSession.Context().firstSequence(1),
                new OrderBooks(new BookContext().conclude()), new ExchangeClock(LocalDate.of(2025, 1, 2)), 1,
                new TickLog(1024, "egress"), null, new MarketState(), System::nanoTime, latency, counters);
            agent.onStart();
            final int[] length = new int[1];
            final UnsafeBuffer packet = systemEventPacket(1, length);
            agent.onPacket(FeedLines.A, packet, 0, length[0], System.nanoTime());
            agent.onPacket(FeedLines.B, packet, 0, length[0], System.nanoTime());

            final CountersSnapshot snapshot = read(path);
            assertEquals(1, snapshot.value("feed.A.packets"));
            assertEquals(1, snapshot.value("feed.B.packets"));
            assertEquals(1, snapshot.value("feed.A.messages"));
            assertEquals(1, snapshot.value("feed.B.duplicates"));
            assertEquals(1, snapshot.value("feed.messages.delivered"));
            assertEquals(2, snapshot.value("feed.next_sequence"));
            assertEquals(1, snapshot.value("feed.session_number"));
        }
    }

    @Test
    void shouldShowTheJournalsCountsInTheFileAsItsAgentAppends() throws Exception
    {
        final Path path = dir.resolve("counters");
        Files.createDirectories(dir.resolve("journal"));
        try (CountersFileWriter counters = CountersFileWriter.create(path, "t", 64, 4096);
            TickJournal journal = TickJournal.open(new JournalContext().directory(dir.resolve("journal"))
                .counters(counters)))
        {
            journal.agent().onStart();
            journal.publisher().onTick(tick(1), 0);
            journal.publisher().onTick(tick(2), 0);
            journal.publisher().onTick(tick(2), 0);
            journal.agent().doWork();

            final CountersSnapshot snapshot = read(path);
            assertEquals(2, snapshot.value("journal.ticks"));
            assertEquals(1, snapshot.value("journal.ticks_out_of_sequence"));
            assertEquals(2, snapshot.value("journal.position"));
            journal.agent().onClose();
        }
    }

    @Test
    void shouldShowThePublishersCountsInTheFileAsItPublishes() throws Exception
    {
        final Path path = dir.resolve("counters");
        Files.createDirectories(dir.resolve("shm"));
        try (CountersFileWriter counters = CountersFileWriter.create(path, "t", 64, 4096);
            ShmTransport transport = new ShmTransport(new ShmContext().directory(dir.resolve("shm"))
                .instance("counters-test-" + ProcessHandle.current().pid()).conclude());
            EgressPublisher publisher = new EgressPublisher(new PublisherContext().transport(transport)
                .recoverySource(new TickArchive(1 << 10)).token("alpha", "alpha-token")
                .counters(counters)))
        {
            publisher.onTick(tick(1), 0);
            publisher.onTick(tick(2), 0);
            publisher.onTick(tick(4), 0);

            final CountersSnapshot snapshot = read(path);
            assertEquals(3, snapshot.value("egress.ticks_published"));
            assertEquals(4, snapshot.value("egress.last_sequence"));
            assertEquals(1, snapshot.value("egress.input_gaps"));
            assertEquals(0, snapshot.value("egress.consumers"));
        }
    }
}
