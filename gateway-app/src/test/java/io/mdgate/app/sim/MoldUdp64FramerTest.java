package io.mdgate.app.sim;

import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class MoldUdp64FramerTest
{
    private static final byte[] SESSION = MoldUdp64Session.of("TEST000001");
    private static final long SECOND = 1_000_000_000L;

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);

    private static ItchSessionGenerator generator()
    {
        return new ItchSessionGenerator(new SimulationConfig().seed(21).instruments(30).messages(30_000));
    }

    private RecordedPackets frame(final int maxPayload, final int maxMessages)
    {
        final RecordedPackets recorded = new RecordedPackets();
        final MoldUdp64Framer framer = new MoldUdp64Framer(SESSION, maxPayload, maxMessages, 10_000, SECOND, recorded);
        final ItchSessionGenerator generator = generator();
        int length;
        long expected = 1;
        while ((length = generator.next(message, 0)) > 0)
        {
            assertEquals(expected++, framer.onMessage(generator.timestamp(), message, 0, length));
        }
        framer.finish(generator.timestamp());
        assertEquals(30_001, framer.nextSequence());
        return recorded;
    }

    @Test
    void shouldCarryEveryGeneratedMessageInOrderThenEndTheSession()
    {
        final RecordedPackets recorded = frame(1_472, 0);
        final RecordedPackets.Decoded decoded = RecordedPackets.decodePackets(recorded.packets);

        assertEquals(0, decoded.malformedPackets);
        assertEquals(0, decoded.malformedMessages);
        assertEquals(30_000, decoded.messages.size());
        final ItchSessionGenerator again = generator();
        for (int i = 0; i < 30_000; i++)
        {
            final int length = again.next(message, 0);
            final byte[] expected = new byte[length];
            message.getBytes(0, expected);
            assertArrayEquals(expected, decoded.messages.get(i), "message " + (i + 1));
            assertEquals(i + 1, decoded.sequences.get(i));
        }
        assertEquals(1, decoded.endOfSession);
        assertEquals(30_001, decoded.endOfSessionNextSequence);
        assertTrue(decoded.heartbeats >= 3, "the pre-open and closing idle times carry heartbeats");
        final byte[] last = recorded.packets.get(recorded.packets.size() - 1).bytes();
        assertEquals(20, last.length);
        assertTrue(recorded.packets.stream().allMatch(p -> p.bytes().length <= 1_472));
        for (int i = 1; i < recorded.packets.size(); i++)
        {
            assertTrue(recorded.packets.get(i).timestamp() >= recorded.packets.get(i - 1).timestamp());
        }
    }

    @Test
    void shouldRespectTheMessagesPerPacketLimitAndTheDatagramSize()
    {
        final RecordedPackets byCount = frame(1_472, 3);
        assertTrue(byCount.packets.stream().allMatch(p -> RecordedPackets.decode(List.of(p.bytes())).messages.size() <= 3));
        assertEquals(30_000, RecordedPackets.decodePackets(byCount.packets).messages.size());

        final RecordedPackets bySize = frame(100, 0);
        assertTrue(bySize.packets.stream().allMatch(p -> p.bytes().length <= 100));
        assertEquals(30_000, RecordedPackets.decodePackets(bySize.packets).messages.size());
    }

    @Test
    void shouldSendAHeartbeatForEverySecondOfIdleExchangeTime()
    {
        final RecordedPackets recorded = new RecordedPackets();
        final MoldUdp64Framer framer = new MoldUdp64Framer(SESSION, 1_472, 0, 10_000, SECOND, recorded);
        message.putByte(0, (byte)'B');
        framer.onMessage(10 * SECOND, message, 0, 19);
        framer.onMessage(13 * SECOND + 500, message, 0, 19);
        framer.finish(13 * SECOND + 500);

        assertEquals(List.of(10 * SECOND, 11 * SECOND, 12 * SECOND, 13 * SECOND, 13 * SECOND + 500,
            13 * SECOND + 500), recorded.packets.stream().map(RecordedPackets.Packet::timestamp).toList());
        final RecordedPackets.Decoded decoded = RecordedPackets.decodePackets(recorded.packets);
        assertEquals(3, decoded.heartbeats);
        assertEquals(3, framer.heartbeats());
        assertEquals(2, framer.dataPackets());
        assertEquals(1, framer.endOfSessionPackets());
        assertEquals(List.of(1L, 2L), decoded.sequences);
    }

    @Test
    void shouldRepeatTheEndOfSessionWithTheSameNextSequenceAndNoEarlierTimestamp()
    {
        final RecordedPackets recorded = new RecordedPackets();
        final MoldUdp64Framer framer = new MoldUdp64Framer(SESSION, 1_472, 0, 10_000, SECOND, recorded);
        message.putByte(0, (byte)'B');
        framer.onMessage(10 * SECOND, message, 0, 19);
        framer.finish(10 * SECOND);
        framer.repeatEndOfSession(11 * SECOND);
        framer.repeatEndOfSession(5 * SECOND);

        final RecordedPackets.Decoded decoded = RecordedPackets.decodePackets(recorded.packets);
        assertEquals(3, decoded.endOfSession);
        assertEquals(3, framer.endOfSessionPackets());
        assertEquals(2, decoded.endOfSessionNextSequence);
        assertEquals(List.of(1L), decoded.sequences, "no data repeated");
        assertEquals(List.of(10 * SECOND, 10 * SECOND, 11 * SECOND, 11 * SECOND),
            recorded.packets.stream().map(RecordedPackets.Packet::timestamp).toList().subList(0, 4));
    }
}
