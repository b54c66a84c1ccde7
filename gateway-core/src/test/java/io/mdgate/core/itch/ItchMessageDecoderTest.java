package io.mdgate.core.itch;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ItchMessageDecoderTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final ItchMessageDecoder decoder = new ItchMessageDecoder();
    private final RecordingItchHandler handler = new RecordingItchHandler();

    @Test
    void shouldReportEveryByteThatIsNotAnItchTypeAsUnknownAndCountIt()
    {
        int unknown = 0;
        for (int type = 0; type < 256; type++)
        {
            if (ItchMessageType.isKnown((byte)type))
            {
                continue;
            }
            buffer.putByte(0, (byte)type);
            assertEquals(ItchMessageDecoder.UNKNOWN_TYPE, decoder.decode(buffer, 0, 36, handler), "type " + type);
            unknown++;
        }

        assertEquals(256 - 23, unknown);
        assertEquals(unknown, decoder.unknownTypeCount());
        assertEquals(unknown, decoder.malformedCount());
        assertEquals(0, decoder.decodedCount());
        assertEquals(0, handler.calls);
    }

    @Test
    void shouldReportALengthThatDisagreesWithTheTypeAndCountIt()
    {
        for (final byte type : ItchMessageType.ALL)
        {
            final int length = ItchMessageType.lengthOf(type);
            buffer.putByte(0, type);
            assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(buffer, 0, length - 1, handler));
            assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(buffer, 0, length + 1, handler));
        }

        assertEquals(2 * 23, decoder.lengthMismatchCount());
        assertEquals(2 * 23, decoder.malformedCount());
        assertEquals(0, decoder.decodedCount());
        assertEquals(0, handler.calls);
    }

    @Test
    void shouldReportAnEmptyOrNegativeLengthAsMismatchWithoutReadingTheType()
    {
        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(buffer, 0, 0, handler));
        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(buffer, 0, -5, handler));
        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(buffer, buffer.capacity(), 0, handler));
        assertEquals(3, decoder.lengthMismatchCount());
    }

    @Test
    void shouldRefuseAMessageThatDoesNotLieInsideTheBufferInsteadOfThrowing()
    {
        final UnsafeBuffer shortBuffer = new UnsafeBuffer(new byte[20]);
        shortBuffer.putByte(0, ItchMessageType.ADD_ORDER);
        shortBuffer.putByte(10, ItchMessageType.ORDER_DELETE);

        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(shortBuffer, 0, 36, handler));
        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(shortBuffer, 10, 19, handler));
        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(shortBuffer, -1, 19, handler));
        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, decoder.decode(shortBuffer, 30, 19, handler));

        assertEquals(4, decoder.lengthMismatchCount());
        assertEquals(0, handler.calls);
    }

    @Test
    void shouldDispatchEachKnownTypeWhenItsLengthIsRight()
    {
        for (final byte type : ItchMessageType.ALL)
        {
            buffer.setMemory(0, buffer.capacity(), (byte)0);
            buffer.putByte(0, type);
            assertEquals(ItchMessageDecoder.OK,
                decoder.decode(buffer, 0, ItchMessageType.lengthOf(type), handler), "type " + (char)type);
            assertEquals(type, handler.message.type());
        }

        assertEquals(23, decoder.decodedCount());
        assertEquals(23, handler.calls);
        assertEquals(0, decoder.malformedCount());
    }

    @Test
    void shouldKeepDecodingAfterRefusingMalformedMessages()
    {
        buffer.putByte(0, (byte)'Z');
        decoder.decode(buffer, 0, 19, handler);
        buffer.putByte(0, ItchMessageType.ORDER_DELETE);
        decoder.decode(buffer, 0, 20, handler);
        buffer.putLong(11, 42L, java.nio.ByteOrder.BIG_ENDIAN);

        assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, 0, 19, handler));

        assertEquals(42L, ((OrderDeleteFlyweight)handler.message).orderReference());
        assertEquals(1, decoder.unknownTypeCount());
        assertEquals(1, decoder.lengthMismatchCount());
        assertEquals(1, decoder.decodedCount());
    }
}
