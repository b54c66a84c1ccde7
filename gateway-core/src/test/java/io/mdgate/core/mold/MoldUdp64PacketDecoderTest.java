package io.mdgate.core.mold;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.mdgate.core.mold.PacketBytes.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MoldUdp64PacketDecoderTest
{
    private final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
    private final RecordingMessageHandler handler = new RecordingMessageHandler();

    private int decode(final byte[] packet)
    {
        return decoder.decode(new UnsafeBuffer(packet), 0, packet.length, handler);
    }

    @Test
    void shouldDispatchEveryMessageWithItsSequenceNumber()
    {
        final byte[] packet = new PacketBytes("SESSION01", 1000, 3)
            .block(ascii("first"))
            .block(ascii("second message"))
            .block(ascii("3"))
            .toBytes();

        assertEquals(3, decode(packet));

        assertEquals(List.of(1000L, 1001L, 1002L), handler.sequences);
        assertArrayEquals(ascii("first"), handler.messages.get(0));
        assertArrayEquals(ascii("second message"), handler.messages.get(1));
        assertArrayEquals(ascii("3"), handler.messages.get(2));
        assertEquals(1000, decoder.sequenceNumber());
        assertEquals(3, decoder.messageCount());
        assertEquals(1003, decoder.nextSequenceNumber());
        assertFalse(decoder.isHeartbeat());
        assertFalse(decoder.isEndOfSession());
        assertEquals("SESSION01", decoder.sessionString());
        assertEquals(1, decoder.messagePacketCount());
        assertEquals(3, decoder.messagesDispatched());
        assertEquals(0, decoder.malformedCount());
    }

    @Test
    void shouldOfferEveryMessageOfAPacketForPrefetchBeforeDispatchingTheFirst()
    {
        final byte[] packet = new PacketBytes("SESSION01", 1000, 3)
            .block(ascii("first"))
            .block(ascii("second"))
            .block(ascii("third"))
            .toBytes();

        assertEquals(3, decode(packet));

        assertEquals(List.of(
            "prefetch:first", "prefetch:second", "prefetch:third",
            "message:first", "message:second", "message:third"), handler.events);
    }

    @Test
    void shouldOfferOnlyBlocksInsideTheDatagramForPrefetchAndDispatchNothingOfAMalformedPacket()
    {
        final byte[] whole = new PacketBytes("S", 1, 2).block(ascii("aaaa")).block(ascii("bbbb")).toBytes();

        decoder.decode(new UnsafeBuffer(whole), 0, whole.length - 1, handler);

        assertEquals(List.of("prefetch:aaaa"), handler.events);
    }

    @Test
    void shouldDecodePacketAtAnOffsetInsideALargerBuffer()
    {
        final byte[] packet = new PacketBytes("S", 7, 1).block(ascii("hello")).toBytes();
        final byte[] frame = new byte[packet.length + 40];
        System.arraycopy(packet, 0, frame, 13, packet.length);

        assertEquals(1, decoder.decode(new UnsafeBuffer(frame), 13, packet.length, handler));

        assertEquals(List.of(7L), handler.sequences);
        assertArrayEquals(ascii("hello"), handler.messages.get(0));
    }

    @Test
    void shouldReportHeartbeatWithTheNextExpectedSequenceAndDispatchNothing()
    {
        final byte[] packet = new PacketBytes("HB", 42, 0).toBytes();

        assertEquals(0, decode(packet));

        assertTrue(decoder.isHeartbeat());
        assertFalse(decoder.isEndOfSession());
        assertEquals(42, decoder.sequenceNumber());
        assertEquals(0, decoder.messageCount());
        assertTrue(handler.sequences.isEmpty());
        assertEquals(1, decoder.heartbeatCount());
        assertEquals(0, decoder.malformedCount());
    }

    @Test
    void shouldReportEndOfSessionWithoutTreatingItsCountAsMessages()
    {
        final byte[] packet = new PacketBytes("EOS", 9001, 0xFFFF).toBytes();

        assertEquals(0, decode(packet));

        assertTrue(decoder.isEndOfSession());
        assertFalse(decoder.isHeartbeat());
        assertEquals(9001, decoder.sequenceNumber());
        assertEquals(0, decoder.messageCount());
        assertEquals(9001, decoder.nextSequenceNumber());
        assertTrue(handler.sequences.isEmpty());
        assertEquals(1, decoder.endOfSessionCount());
    }

    @Test
    void shouldRefuseTheWholePacketWhenTheLastBlockOverrunsTheDatagram()
    {
        final byte[] whole = new PacketBytes("S", 1, 3)
            .block(ascii("aaaa"))
            .block(ascii("bbbb"))
            .block(ascii("cccc"))
            .toBytes();

        final int result = decoder.decode(new UnsafeBuffer(whole), 0, whole.length - 1, handler);

        assertEquals(MoldUdp64PacketDecoder.BLOCK_OVERRUN, result);
        assertTrue(handler.sequences.isEmpty(), "no block of a malformed packet may be dispatched");
        assertEquals(1, decoder.blockOverrunCount());
        assertEquals(1, decoder.malformedCount());
        assertEquals(0, decoder.messagesDispatched());
        assertEquals(1, decoder.sequenceNumber(), "the header as read stays available for diagnostics");
    }

    @Test
    void shouldRefuseThePacketWhenTheDatagramEndsInsideABlockLengthField()
    {
        final byte[] packet = new PacketBytes("S", 1, 2).block(ascii("abc")).raw(0x00).toBytes();

        assertEquals(MoldUdp64PacketDecoder.BLOCK_OVERRUN, decode(packet));
        assertTrue(handler.sequences.isEmpty());
    }

    @Test
    void shouldRefuseThePacketWhenItDeclaresMoreBlocksThanItHolds()
    {
        final byte[] packet = new PacketBytes("S", 1, 5).block(ascii("abc")).block(ascii("de")).toBytes();

        assertEquals(MoldUdp64PacketDecoder.BLOCK_OVERRUN, decode(packet));
        assertTrue(handler.sequences.isEmpty());
    }

    @Test
    void shouldRefuseEveryHeaderShorterThanTwentyBytes()
    {
        final byte[] full = new PacketBytes("S", 1, 0).toBytes();
        for (int length = 0; length < MoldUdp64PacketDecoder.HEADER_LENGTH; length++)
        {
            final int result = decoder.decode(new UnsafeBuffer(full), 0, length, handler);
            assertEquals(MoldUdp64PacketDecoder.MALFORMED_HEADER, result, "length " + length);
            assertEquals(0, decoder.sequenceNumber());
            assertFalse(decoder.isHeartbeat());
        }
        assertEquals(MoldUdp64PacketDecoder.HEADER_LENGTH, decoder.malformedHeaderCount());
        assertEquals(MoldUdp64PacketDecoder.HEADER_LENGTH, decoder.packetCount());
    }

    @Test
    void shouldRefuseADatagramThatDoesNotLieInsideTheBuffer()
    {
        final byte[] packet = new PacketBytes("S", 1, 0).toBytes();
        final UnsafeBuffer buffer = new UnsafeBuffer(packet);

        assertEquals(MoldUdp64PacketDecoder.MALFORMED_HEADER, decoder.decode(buffer, 0, packet.length + 1, handler));
        assertEquals(MoldUdp64PacketDecoder.MALFORMED_HEADER, decoder.decode(buffer, -1, packet.length, handler));
        assertEquals(MoldUdp64PacketDecoder.MALFORMED_HEADER, decoder.decode(buffer, 1, packet.length, handler));
        assertEquals(3, decoder.malformedHeaderCount());
    }

    @Test
    void shouldRefuseBytesAfterTheLastDeclaredBlock()
    {
        final byte[] packet = new PacketBytes("S", 1, 1).block(ascii("abc")).raw(0x41).toBytes();

        assertEquals(MoldUdp64PacketDecoder.TRAILING_BYTES, decode(packet));

        assertTrue(handler.sequences.isEmpty());
        assertEquals(1, decoder.trailingBytesCount());
    }

    @Test
    void shouldRefuseBytesAfterAHeartbeatHeader()
    {
        final byte[] packet = new PacketBytes("S", 1, 0).raw(0x00, 0x03, 'a', 'b', 'c').toBytes();

        assertEquals(MoldUdp64PacketDecoder.TRAILING_BYTES, decode(packet));
        assertEquals(0, decoder.heartbeatCount());
        assertEquals(1, decoder.trailingBytesCount());
    }

    @Test
    void shouldDispatchAZeroLengthBlockAndLetItTakeASequenceNumber()
    {
        final byte[] packet = new PacketBytes("S", 50, 3)
            .block(ascii("x"))
            .block()
            .block(ascii("z"))
            .toBytes();

        assertEquals(3, decode(packet));

        assertEquals(List.of(50L, 51L, 52L), handler.sequences);
        assertEquals(0, handler.messages.get(1).length);
        assertArrayEquals(ascii("z"), handler.messages.get(2));
    }

    @Test
    void shouldCarryTheLargestBlockItsLengthFieldAllows()
    {
        final byte[] message = new byte[0xFFFF];
        message[0] = 'A';
        message[0xFFFE] = 'Z';
        final byte[] packet = new PacketBytes("S", 1, 1).block(message).toBytes();

        assertEquals(1, decode(packet));
        assertArrayEquals(message, handler.messages.get(0));
    }

    @Test
    void shouldReadTheSequenceNumberAsSixtyFourBitsBigEndian()
    {
        final byte[] packet = new PacketBytes("S", 0x0102030405060708L, 0).toBytes();

        decode(packet);

        assertEquals(0x0102030405060708L, decoder.sequenceNumber());
    }

    @Test
    void shouldExposeTheSessionBytesOfTheLastPacket()
    {
        final byte[] packet = new PacketBytes("000010059B", 1, 0).toBytes();
        decode(packet);

        final byte[] session = new byte[MoldUdp64PacketDecoder.SESSION_LENGTH];
        decoder.session(session);

        assertArrayEquals(ascii("000010059B"), session);
        assertTrue(decoder.sessionEquals(MoldUdp64Session.of("000010059B")));
        assertFalse(decoder.sessionEquals(MoldUdp64Session.of("000010059C")));
        assertEquals("000010059B", decoder.sessionString());
    }

    @Test
    void shouldKeepCountingAcrossGoodAndBadPackets()
    {
        decode(new PacketBytes("S", 1, 2).block(ascii("a")).block(ascii("b")).toBytes());
        decode(new PacketBytes("S", 3, 0).toBytes());
        decode(new PacketBytes("S", 3, 1).block(ascii("c")).raw(1).toBytes());
        decode(new byte[5]);
        decode(new PacketBytes("S", 3, 1).block(ascii("c")).toBytes());

        assertEquals(5, decoder.packetCount());
        assertEquals(2, decoder.messagePacketCount());
        assertEquals(1, decoder.heartbeatCount());
        assertEquals(2, decoder.malformedCount());
        assertEquals(3, decoder.messagesDispatched());
        assertEquals(List.of(1L, 2L, 3L), handler.sequences);
    }
}
