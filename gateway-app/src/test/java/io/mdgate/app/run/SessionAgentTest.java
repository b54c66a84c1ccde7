package io.mdgate.app.run;

import io.mdgate.app.run.counters.CountersFile;
import io.mdgate.app.run.counters.CountersFileWriter;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.itch.SystemEventFlyweight;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.TickRing;
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
        final SystemEventFlyweight event = new SystemEventFlyweight();
        event.wrapForEncode(message, 0);
        event.stockLocate(0).trackingNumber(0).timestamp(34_200_000_000_000L);
        event.eventCode(code);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder().wrap(packet, 0, packet.capacity())
            .session(MoldUdp64Session.of(session)).sequenceNumber(sequence);
        encoder.tryAppend(message, 0, event.length());
        final int index = packets.tryClaim(PacketRingDescriptor.typeId(line),
            PacketRingDescriptor.PAYLOAD_OFFSET + encoder.length());
        packets.buffer().putLong(index, System.currentTimeMillis() * 1_000_000L, ByteOrder.LITTLE_ENDIAN);
        packets.buffer().putBytes(index + PacketRingDescriptor.PAYLOAD_OFFSET, packet, 0, encoder.length());
        packets.commit(index);
    }

    @Test
    void shouldTurnPacketsOfTheAcceptedSessionIntoStampedTicksForTheEgressAndFollowTheMarketsSystemEvents()
    {
        final TickRing egress = new TickRing(1024);
        final TickStamps stamps = new TickStamps(1024);
        final MarketState market = new MarketState();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 256, 4096);
            StageLatency latency = new StageLatency("ingress_to_session", counters, null, 0))
        {
            final SessionAgent agent = new SessionAgent(packets, 64, new FeedSession.Context().firstSequence(1),
                new OrderBooks(new BookContext().conclude()), new ExchangeClock(LocalDate.of(2025, 1, 2)), 41,
                MoldUdp64Session.of("ACCEPTED01"), null, null, egress, stamps, market,
                () -> System.currentTimeMillis() * 1_000_000L, latency, counters);
            agent.onStart();
            systemEvent("OTHERSESS1", 1, 'Q', FeedLines.A);
            systemEvent("ACCEPTED01", 1, 'Q', FeedLines.A);
            systemEvent("ACCEPTED01", 1, 'Q', FeedLines.B);
            agent.doWork();
            assertEquals(MarketState.OPEN, market.feedState(), "start of market hours");

            final List<long[]> ticks = new ArrayList<>();
            egress.poll((buffer, offset) -> ticks.add(new long[] {
                buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN),
                buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET) }), 16);
            assertEquals(2, ticks.size(),
                "the session's start and one event: the other session's packet refused, line B's copy a duplicate");
            assertEquals(41, ticks.get(0)[0], "the gateway sequence starts where it was told");
            assertEquals(EventType.SESSION.value(), ticks.get(0)[1]);
            assertEquals(EventType.SYSTEM_EVENT.value(), ticks.get(1)[1]);
            assertNotEquals(TickStamps.UNKNOWN, stamps.stampOf(42), "stamped for the later stages");

            systemEvent("ACCEPTED01", 2, 'E', FeedLines.A);
            agent.doWork();
            assertEquals(MarketState.CLOSED, market.feedState(), "end of system hours");
            agent.onClose();
            try (CountersFile file = CountersFile.open(dir.resolve("c")))
            {
                assertEquals(1, file.snapshot().value("feed.refused_session_packets"));
                assertEquals(3, file.snapshot().value("session.ticks"));
                assertEquals(43, file.snapshot().value("session.last_sequence"));
                assertEquals(2, file.snapshot().value("feed.messages.delivered"));
                assertEquals(1, file.snapshot().value("feed.B.duplicates"));
            }
        }
    }

    @Test
    void shouldWaitForRoomInAFullEgressRingRatherThanDropATick() throws Exception
    {
        final int count = 300;
        final int ticks = count + 1;
        final TickRing egress = new TickRing(64);
        final TickStamps stamps = new TickStamps(1024);
        final List<Long> received = new ArrayList<>();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 256, 4096);
            StageLatency latency = new StageLatency("ingress_to_session", counters, null, 0))
        {
            final SessionAgent agent = new SessionAgent(packets, 1024, new FeedSession.Context().firstSequence(1),
                new OrderBooks(new BookContext().conclude()), new ExchangeClock(LocalDate.of(2025, 1, 2)), 1,
                MoldUdp64Session.of("ACCEPTED01"), null, null, egress, stamps, new MarketState(),
                () -> System.currentTimeMillis() * 1_000_000L, latency, counters);
            agent.onStart();
            for (int i = 1; i <= count; i++)
            {
                systemEvent("ACCEPTED01", i, 'Q', FeedLines.A);
            }
            final Thread slowEgress = new Thread(() ->
            {
                while (received.size() < ticks)
                {
                    egress.poll((buffer, offset) -> received.add(
                        buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN)), 8);
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                }
            });
            slowEgress.start();
            agent.doWork();
            slowEgress.join(30_000);
            agent.onClose();

            assertEquals(ticks, received.size(), "every tick, the session's start included, reached the egress");
            for (int i = 0; i < ticks; i++)
            {
                assertEquals(i + 1, received.get(i), "in sequence, no hole");
            }
            try (CountersFile file = CountersFile.open(dir.resolve("c")))
            {
                assertEquals(ticks, file.snapshot().value("session.ticks"));
                assertNotEquals(0, file.snapshot().value("egress.ring.back_pressured"), "the waits were counted");
            }
        }
    }
}
