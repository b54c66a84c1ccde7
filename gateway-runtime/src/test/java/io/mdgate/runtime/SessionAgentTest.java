package io.mdgate.runtime;

import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.itch.SystemEventFlyweight;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.core.ticklog.TickLogReader;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressStats;
import org.agrona.DirectBuffer;
import java.util.ArrayDeque;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionAgentTest
{
    @TempDir
    Path dir;

    private final ManyToOneRingBuffer packets = new ManyToOneRingBuffer(new UnsafeBuffer(
        BufferUtil.allocateDirectAligned(65536 + RingBufferDescriptor.TRAILER_LENGTH, 64)));
    private final UnsafeBuffer packet = new UnsafeBuffer(new byte[1500]);
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);

    /** Puts a packet of one system event with {@code code} in session {@code session} into the ring. */
    private void systemEvent(final String session, final long sequence, final char code, final int line)
    {
        final int length = encode(session, sequence, code);
        final int index = packets.tryClaim(PacketRingDescriptor.typeId(line),
            PacketRingDescriptor.PAYLOAD_OFFSET + length);
        packets.buffer().putLong(index, System.currentTimeMillis() * 1_000_000L, ByteOrder.LITTLE_ENDIAN);
        packets.buffer().putBytes(index + PacketRingDescriptor.PAYLOAD_OFFSET, packet, 0, length);
        packets.commit(index);
    }

    /** Encodes a packet of one system event into {@link #packet}. */
    private int encode(final String session, final long sequence, final char code)
    {
        final SystemEventFlyweight event = new SystemEventFlyweight();
        event.wrapForEncode(message, 0);
        event.stockLocate(0).trackingNumber(0).timestamp(34_200_000_000_000L);
        event.eventCode(code);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder().wrap(packet, 0, packet.capacity())
            .session(MoldUdp64Session.of(session)).sequenceNumber(sequence);
        encoder.tryAppend(message, 0, event.length());
        return encoder.length();
    }

    private SessionAgent agent(final ManyToOneRingBuffer ring, final TickLog log, final long firstSequence,
        final MarketState market, final CountersFileWriter counters, final StageLatency latency)
    {
        // A second's wait for the other line: a paused line B drains its backlog a burst per cycle, here slowly.
        return new SessionAgent(ring, 1024, new FeedSession.Context().firstSequence(1).gapWaitNanos(1_000_000_000L),
            new OrderBooks(new BookContext().conclude()), new ExchangeClock(LocalDate.of(2025, 1, 2)), firstSequence,
            log, null, market, () -> System.currentTimeMillis() * 1_000_000L, latency, counters);
    }

    private static List<long[]> read(final TickLogReader reader, final int limit)
    {
        final List<long[]> ticks = new ArrayList<>();
        reader.poll((buffer, offset) -> ticks.add(new long[] {
            buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN),
            buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET),
            buffer.getLong(offset + io.mdgate.core.tick.sbe.TickEncoder.exchangeSequenceEncodingOffset(), ByteOrder.LITTLE_ENDIAN) }), limit);
        return ticks;
    }

    @Test
    void shouldWriteEachTickOnceIntoTheLogAndFollowTheMarketsSystemEvents()
    {
        final TickLog log = new TickLog(1024, "journal", "egress");
        final MarketState market = new MarketState();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 256, 4096);
            StageLatency latency = new StageLatency("ingress_to_session", counters, null, 0))
        {
            final SessionAgent agent = agent(packets, log, 41, market, counters, latency);
            agent.onStart();
            systemEvent("ACCEPTED01", 1, 'Q', FeedLines.A);
            systemEvent("ACCEPTED01", 1, 'Q', FeedLines.B);
            agent.doWork();
            assertEquals(MarketState.OPEN, market.feedState(), "start of market hours");

            final List<long[]> ticks = read(log.reader(0), 16);
            assertEquals(2, ticks.size(), "the session's start and one event tick: line B's copy a duplicate");
            assertEquals(41, ticks.get(0)[0], "the gateway sequence starts where it was told");
            assertEquals(EventType.SESSION.value(), ticks.get(0)[1]);
            assertEquals(EventType.SYSTEM_EVENT.value(), ticks.get(1)[1]);
            assertEquals(2, read(log.reader(1), 16).size(), "the egress reads the same one copy");

            systemEvent("ACCEPTED01", 2, 'E', FeedLines.A);
            agent.doWork();
            assertEquals(MarketState.CLOSED, market.feedState(), "end of system hours");
            agent.onClose();
            try (CountersFile file = CountersFile.open(dir.resolve("c")))
            {
                assertEquals(3, file.snapshot().value("session.ticks"));
                assertEquals(43, file.snapshot().value("session.last_sequence"));
                assertEquals(2, file.snapshot().value("feed.messages.delivered"));
                assertEquals(1, file.snapshot().value("feed.B.duplicates"));
                assertEquals(0, file.snapshot().value("tick_log.overruns"));
            }
        }
    }

    @Test
    void shouldLeavePacketsInTheRingWhileTheLogIsFullAndLoseNoTickOnOneThread()
    {
        final int count = 300;
        final TickLog log = new TickLog(64, "journal");
        final List<Long> received = new ArrayList<>();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 256, 4096);
            StageLatency latency = new StageLatency("ingress_to_session", counters, null, 0))
        {
            final SessionAgent agent = agent(packets, log, 1, new MarketState(), counters, latency);
            agent.onStart();
            for (int i = 1; i <= count; i++)
            {
                systemEvent("ACCEPTED01", i, 'Q', FeedLines.A);
            }
            agent.doWork();
            assertTrue(packets.size() > 0, "the session stopped taking packets when the log had no room");
            assertTrue(log.published() <= log.capacity(), "and never wrote past the reader");
            for (int cycle = 0; cycle < 10_000 && received.size() < count; cycle++)
            {
                read(log.reader(0), 8).stream().filter(t -> t[1] != EventType.SESSION.value())
                    .forEach(t -> received.add(t[0]));
                agent.doWork();
            }
            agent.onClose();

            assertEquals(count, received.size(), "every tick reached the reader");
            for (int i = 0; i < count; i++)
            {
                assertEquals(i + 2, received.get(i), "in sequence after the SESSION tick, no hole");
            }
            assertEquals(0, log.overruns());
            try (CountersFile file = CountersFile.open(dir.resolve("c")))
            {
                assertEquals(count + 1, file.snapshot().value("session.ticks"), "and the SESSION tick");
                assertNotEquals(0, file.snapshot().value("session.back_pressured"), "the pauses were counted");
                assertEquals(0, file.snapshot().value("feed.gaps.lost"));
            }
        }
    }

    /**
     * A port with a receive queue of limited depth, as a NIC's: packets arrive whether or not it is polled; those
     * that find the queue full are dropped and counted.
     */
    private final class QueuedPort implements Ingress
    {
        private final int line;
        private final int depth;
        private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
        int dropped;

        QueuedPort(final int line, final int depth)
        {
            this.line = line;
            this.depth = depth;
        }

        void arrive(final long sequence)
        {
            final int length = encode("ACCEPTED01", sequence, 'Q');
            if (queue.size() >= depth)
            {
                dropped++;
                return;
            }
            final byte[] bytes = new byte[length];
            packet.getBytes(0, bytes);
            queue.add(bytes);
        }

        @Override
        public void start()
        {
        }

        @Override
        public int poll(final PacketHandler handler)
        {
            int n = 0;
            while (n < 32 && !queue.isEmpty())
            {
                final byte[] bytes = queue.poll();
                handler.onPacket(line, new UnsafeBuffer(bytes), 0, bytes.length, System.currentTimeMillis() * 1_000_000L);
                n++;
            }
            return n;
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
    void shouldPauseTheIngressesOnItsThreadWhileTheLogIsFullAndRecoverWhatAPortDroppedFromTheOtherLine()
    {
        final int count = 25_000;
        final TickLog log = new TickLog(1 << 15, "journal");
        final QueuedPort portA = new QueuedPort(FeedLines.A, 8);
        final QueuedPort portB = new QueuedPort(FeedLines.B, count);
        final List<Long> exchangeSequences = new ArrayList<>();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 256, 4096);
            StageLatency latency = new StageLatency("ingress_to_session", counters, null, 0))
        {
            final SessionAgent agent = agent(null, log, 1, new MarketState(), counters, latency);
            final IngressAgent a = new IngressAgent("ingress:a:0", portA, t -> {}, counters).input(agent);
            final IngressAgent b = new IngressAgent("ingress:b:0", portB, t -> {}, counters).input(agent);
            a.onStart();
            b.onStart();
            agent.onStart();
            final int journalStallsFrom = 200;
            int next = 1;
            for (int cycle = 0; cycle < 200_000 && exchangeSequences.size() < count; cycle++)
            {
                if (next <= count)
                {
                    portA.arrive(next);
                    portB.arrive(next);
                    next++;
                }
                a.doWork();
                b.doWork();
                agent.doWork();
                final boolean stalled = next > journalStallsFrom && next < journalStallsFrom + 20_000;
                if (!stalled)
                {
                    read(log.reader(0), 4096).stream().filter(t -> t[1] != EventType.SESSION.value())
                        .forEach(t -> exchangeSequences.add(t[2]));
                }
            }
            agent.onClose();

            assertTrue(portA.dropped > 0, "line A's port overflowed while the ingress was paused");
            try (CountersFile file = CountersFile.open(dir.resolve("c")))
            {
                assertEquals(count, exchangeSequences.size(), "every message once; " + file.snapshot().values());
            }
            for (int i = 0; i < count; i++)
            {
                assertEquals(i + 1, exchangeSequences.get(i), "in order");
            }
            try (CountersFile file = CountersFile.open(dir.resolve("c")))
            {
                assertTrue(file.snapshot().value("ingress.a.0.paused") > 0, "the pause was counted");
                assertEquals(0, file.snapshot().value("feed.gaps.lost"), "nothing lost: B had it all");
                assertEquals(0, file.snapshot().value("tick_log.overruns"));
            }
        }
    }
}
