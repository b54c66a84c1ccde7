package io.mdgate.bench.egress;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The ticks both transports carry: 64-byte SBE blocks whose receive timestamp is the send time (epoch ns from one
 * monotonic clock), so a consumer's one-way latency is its clock minus that field, measured the same way for both.
 */
final class BenchTicks
{
    static final int LENGTH = TickEncoder.BLOCK_LENGTH;
    private static final int SEND_TIME_OFFSET = TickEncoder.receiveTimestampEncodingOffset();
    private final TickEncoder encoder = new TickEncoder();

    void write(final MutableDirectBuffer buffer, final int offset, final long sequence, final long sendEpochNanos)
    {
        encoder.wrap(buffer, offset)
            .gatewaySequence(sequence)
            .exchangeSequence(sequence)
            .exchangeTimestamp(sendEpochNanos)
            .receiveTimestamp(sendEpochNanos)
            .orderReference(sequence)
            .matchOrNewReference(0)
            .quantity(100)
            .instrumentId((int)(sequence % 100) + 1)
            .sessionId(1)
            .eventType(EventType.ADD)
            .side(Side.BUY);
        encoder.price().mantissa(1_000_000);
        encoder.flags().clear();
    }

    static long sequence(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
    }

    static long sendTime(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SEND_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }
}
