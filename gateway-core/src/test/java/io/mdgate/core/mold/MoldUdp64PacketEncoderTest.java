package io.mdgate.core.mold;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.mdgate.core.mold.PacketBytes.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MoldUdp64PacketEncoderTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
    private final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
    private final RecordingMessageHandler handler = new RecordingMessageHandler();

    private boolean append(final String message)
    {
        final byte[] bytes = ascii(message);
        return encoder.tryAppend(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    private byte[] packetBytes(final int offset)
    {
        final byte[] bytes = new byte[encoder.length()];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    @Test
    void shouldWriteTheHeaderAndBlocksExactlyAsTheSpecificationLaysThemOut()
    {
        encoder.wrap(buffer, 0, 1400).session(MoldUdp64Session.of("ABC")).sequenceNumber(0x0A0B0C0D0E0F1011L);
        append("hi");
        append("xyz");

        final byte[] expected = new PacketBytes("ABC", 0x0A0B0C0D0E0F1011L, 2)
            .block(ascii("hi"))
            .block(ascii("xyz"))
            .toBytes();
        assertArrayEquals(expected, packetBytes(0));
        assertEquals(
            List.of((byte)'A', (byte)'B', (byte)'C', (byte)' ', (byte)0x0A, (byte)0x11, (byte)0x00, (byte)0x02),
            List.of(expected[0], expected[1], expected[2], expected[9], expected[10], expected[17], expected[18],
                expected[19]),
            "the hand-built reference itself follows the layout");
        assertEquals(20 + 2 + 2 + 2 + 3, encoder.length());
        assertEquals(2, encoder.messageCount());
    }

    @Test
    void shouldRoundTripMessagesThroughTheDecoder()
    {
        encoder.wrap(buffer, 100, 1400).session(MoldUdp64Session.of("000010059B")).sequenceNumber(5_000_000_000L);
        final String[] messages = { "alpha", "", "gamma gamma", "d" };
        for (final String message : messages)
        {
            assertTrue(append(message));
        }

        assertEquals(4, decoder.decode(buffer, 100, encoder.length(), handler));

        assertEquals(List.of(5_000_000_000L, 5_000_000_001L, 5_000_000_002L, 5_000_000_003L), handler.sequences);
        for (int i = 0; i < messages.length; i++)
        {
            assertArrayEquals(ascii(messages[i]), handler.messages.get(i));
        }
        assertEquals("000010059B", decoder.sessionString());
        assertEquals(5_000_000_004L, encoder.nextSequenceNumber());
    }

    @Test
    void shouldRefuseAMessageThatWouldExceedTheCapacityAndLeaveThePacketUnchanged()
    {
        encoder.wrap(buffer, 0, 20 + 2 + 10 + 2 + 5).sequenceNumber(1);
        assertTrue(append("0123456789"));
        final byte[] before = packetBytes(0);

        assertFalse(append("012345"));
        assertArrayEquals(before, packetBytes(0));
        assertEquals(1, encoder.messageCount());

        assertTrue(append("01234"));
        assertEquals(20 + 2 + 10 + 2 + 5, encoder.length());
        assertEquals(-2, encoder.remaining());
        assertFalse(append(""));
    }

    @Test
    void shouldWriteAHeartbeatCarryingTheNextSequence()
    {
        encoder.wrap(buffer, 0, 1400).session(MoldUdp64Session.of("HB"));
        append("discarded");

        assertEquals(20, encoder.heartbeat(77));

        assertArrayEquals(new PacketBytes("HB", 77, 0).toBytes(), packetBytes(0));
        assertEquals(0, decoder.decode(buffer, 0, encoder.length(), handler));
        assertTrue(decoder.isHeartbeat());
        assertEquals(77, decoder.sequenceNumber());
    }

    @Test
    void shouldWriteAnEndOfSessionPacket()
    {
        encoder.wrap(buffer, 0, 1400).session(MoldUdp64Session.of("EOS"));

        assertEquals(20, encoder.endOfSession(123456));

        assertArrayEquals(new PacketBytes("EOS", 123456, 0xFFFF).toBytes(), packetBytes(0));
        assertEquals(0, decoder.decode(buffer, 0, encoder.length(), handler));
        assertTrue(decoder.isEndOfSession());
    }

    @Test
    void shouldRefuseToAppendToAHeartbeatOrEndOfSessionUntilReset()
    {
        encoder.wrap(buffer, 0, 1400);
        encoder.heartbeat(10);
        assertFalse(append("a"));
        encoder.endOfSession(10);
        assertFalse(append("a"));
        assertArrayEquals(new PacketBytes("", 10, 0xFFFF).toBytes(), packetBytes(0));

        encoder.reset(10);
        assertTrue(append("a"));
        assertEquals(1, encoder.messageCount());
    }

    @Test
    void shouldStartANewPacketWithTheSameSessionOnReset()
    {
        encoder.wrap(buffer, 0, 1400).session(MoldUdp64Session.of("KEEP")).sequenceNumber(1);
        append("one");
        append("two");

        encoder.reset(encoder.nextSequenceNumber());
        append("three");

        assertArrayEquals(new PacketBytes("KEEP", 3, 1).block(ascii("three")).toBytes(), packetBytes(0));
    }

    @Test
    void shouldKeepABinarySessionAsGiven()
    {
        final byte[] zeros = new byte[10];
        encoder.wrap(buffer, 0, 1400).session(zeros).sequenceNumber(1);
        encoder.reset(2);

        final byte[] session = new byte[10];
        decoder.decode(buffer, 0, encoder.length(), handler);
        decoder.session(session);
        assertArrayEquals(zeros, session);
    }

    @Test
    void shouldRefuseACapacityThatCannotHoldAHeaderOrExceedsTheBuffer()
    {
        assertThrows(IllegalArgumentException.class, () -> encoder.wrap(buffer, 0, 19));
        assertThrows(IllegalArgumentException.class, () -> encoder.wrap(buffer, 100, buffer.capacity()));
    }

    @Test
    void shouldRefuseASessionThatIsNotTenBytes()
    {
        encoder.wrap(buffer, 0, 1400);
        assertThrows(IllegalArgumentException.class, () -> encoder.session(new byte[9]));
        assertThrows(IllegalArgumentException.class, () -> encoder.session(new byte[11]));
    }
}
