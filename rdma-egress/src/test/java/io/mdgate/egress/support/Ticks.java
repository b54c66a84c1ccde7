package io.mdgate.egress.support;

import io.mdgate.core.itch.Alpha;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds ticks for tests with the generated encoder. A plain event tick ({@code ADD}) carries fields derived from
 * its sequence so a receiver can check every byte came through.
 */
public final class Ticks
{
    private static final TickEncoder ENCODER = new TickEncoder();

    private Ticks()
    {
    }

    /** @return an ADD tick for {@code instrument} with fields derived from {@code sequence}. */
    public static UnsafeBuffer add(final long sequence, final int instrument, final long receiveTimestamp)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, instrument, receiveTimestamp);
        return buffer;
    }

    public static void writeAdd(final MutableDirectBuffer buffer, final int offset, final long sequence,
        final int instrument, final long receiveTimestamp)
    {
        ENCODER.wrap(buffer, offset)
            .gatewaySequence(sequence)
            .exchangeSequence(sequence * 3)
            .exchangeTimestamp(1_735_828_200_000_000_000L + sequence)
            .receiveTimestamp(receiveTimestamp)
            .orderReference(sequence * 7 + 1)
            .matchOrNewReference(0)
            .quantity(100 + sequence % 900)
            .instrumentId(instrument)
            .sessionId(1)
            .eventType(EventType.ADD)
            .side(sequence % 2 == 0 ? Side.BUY : Side.SELL);
        ENCODER.price().mantissa((int)(1_000_000 + sequence % 10_000));
        ENCODER.flags().clear();
    }

    /** @return an INSTRUMENT tick naming {@code instrument} {@code symbol}. */
    public static UnsafeBuffer instrument(final long sequence, final int instrument, final String symbol)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, instrument, 0);
        ENCODER.wrap(buffer, 0).eventType(EventType.INSTRUMENT).orderReference(Alpha.pack8(symbol)).side(Side.NONE);
        return buffer;
    }

    /** @return a TOP_OF_BOOK tick for one side. */
    public static UnsafeBuffer topOfBook(final long sequence, final int instrument, final Side side, final int price,
        final long size, final long orders)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, instrument, 0);
        ENCODER.wrap(buffer, 0).eventType(EventType.TOP_OF_BOOK).side(side).quantity(size).matchOrNewReference(orders)
            .orderReference(0);
        ENCODER.price().mantissa(price);
        return buffer;
    }

    /** @return a tick of any event type for an instrument, its other fields those of {@link #writeAdd}. */
    public static UnsafeBuffer event(final long sequence, final int instrument, final EventType type)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, instrument, 0);
        ENCODER.wrap(buffer, 0).eventType(type);
        return buffer;
    }

    /** @return a LEVEL tick: on {@code side}, the level at {@code price} now has {@code size} in {@code orders}. */
    public static UnsafeBuffer level(final long sequence, final int instrument, final Side side, final int price,
        final long size, final long orders, final int depth)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, instrument, 0);
        ENCODER.wrap(buffer, 0).eventType(EventType.LEVEL).side(side).quantity(size).matchOrNewReference(orders)
            .orderReference(depth);
        ENCODER.price().mantissa(price);
        return buffer;
    }

    /** @return a GAP tick (instrument 0) declaring {@code count} messages from exchange sequence {@code first} lost. */
    public static UnsafeBuffer gap(final long sequence, final long first, final long count)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, 0, 0);
        ENCODER.wrap(buffer, 0).eventType(EventType.GAP).exchangeSequence(first).matchOrNewReference(count)
            .orderReference(0).quantity(0).side(Side.NONE);
        return buffer;
    }

    /** @return a SESSION tick (instrument 0) starting session {@code number}. */
    public static UnsafeBuffer session(final long sequence, final int number)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, 0, 0);
        ENCODER.wrap(buffer, 0).eventType(EventType.SESSION).sessionId(number).exchangeSequence(1)
            .orderReference(0x3130303030534553L).matchOrNewReference(0x3030).quantity(0).side(Side.NONE);
        return buffer;
    }

    /** @return a market-wide SYSTEM_EVENT tick (instrument 0). */
    public static UnsafeBuffer systemEvent(final long sequence, final char code)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        writeAdd(buffer, 0, sequence, 0, 0);
        ENCODER.wrap(buffer, 0).eventType(EventType.SYSTEM_EVENT).matchOrNewReference(code).side(Side.NONE);
        return buffer;
    }

    /** @return whether the ADD tick at {@code offset} has exactly the fields {@link #writeAdd} gives its sequence. */
    public static boolean isIntactAdd(final org.agrona.DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset, java.nio.ByteOrder.LITTLE_ENDIAN);
        final UnsafeBuffer expected = new UnsafeBuffer(new byte[64]);
        writeAdd(expected, 0, sequence, buffer.getShort(offset + 56, java.nio.ByteOrder.LITTLE_ENDIAN) & 0xFFFF,
            buffer.getLong(offset + 24, java.nio.ByteOrder.LITTLE_ENDIAN));
        final int flags = buffer.getShort(offset + 60, java.nio.ByteOrder.LITTLE_ENDIAN) & ~(1 << 7);
        expected.putShort(60, (short)flags, java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++)
        {
            if (i != 60 && i != 61 && expected.getByte(i) != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return flags == 0;
    }
}
