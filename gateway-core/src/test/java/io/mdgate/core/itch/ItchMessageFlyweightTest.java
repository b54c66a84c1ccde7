package io.mdgate.core.itch;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ItchMessageFlyweightTest
{
    private static final long U48_MAX = 0xFFFF_FFFF_FFFFL;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OrderDeleteFlyweight.LENGTH]);
    private final OrderDeleteFlyweight message = new OrderDeleteFlyweight();

    @BeforeEach
    void wrap()
    {
        message.wrapForEncode(buffer, 0).stockLocate(0x1111).trackingNumber(0x2222);
        message.orderReference(0x3333_3333_3333_3333L);
    }

    @Test
    void shouldCarryTheLargestSixByteTimestampWithoutSignExtension()
    {
        message.timestamp(U48_MAX);

        assertEquals(U48_MAX, message.timestamp());
        assertEquals(U48_MAX, new OrderDeleteFlyweight().wrap(buffer, 0).timestamp());
        for (int i = 5; i < 11; i++)
        {
            assertEquals((byte)0xFF, buffer.getByte(i), "timestamp byte " + i);
        }
        assertEquals(0x2222, message.trackingNumber(), "the field before the timestamp is untouched");
        assertEquals(0x3333_3333_3333_3333L, message.orderReference(), "the field after it is untouched");
    }

    @Test
    void shouldCarryTheLastNanosecondOfTheDay()
    {
        final long lastNanosecond = 24L * 60 * 60 * 1_000_000_000L - 1;

        message.timestamp(lastNanosecond);

        assertEquals(lastNanosecond, message.timestamp());
    }

    @Test
    void shouldKeepOnlyTheLowFortyEightBitsOfATimestamp()
    {
        message.timestamp((1L << 48) | 5);

        assertEquals(5, message.timestamp());
        assertEquals(0x2222, message.trackingNumber());
    }

    @Test
    void shouldReadTheHeaderIntegersAsUnsigned()
    {
        message.stockLocate(0xFFFF).trackingNumber(0x8000);

        assertEquals(65_535, message.stockLocate());
        assertEquals(32_768, message.trackingNumber());
    }

    @Test
    void shouldWriteItsTypeByteWhenWrappedForEncoding()
    {
        assertEquals('D', buffer.getByte(0));
        assertEquals(ItchMessageType.ORDER_DELETE, message.type());
        assertEquals(19, message.length());
    }
}
