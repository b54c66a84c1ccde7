package io.mdgate.journal;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes ticks whose fields are all derived from their gateway sequence, so a test can tell any tick read back from
 * the one written.
 */
final class TestTicks
{
    /** 2025-01-02 14:30:00 UTC, 09:30 New York. */
    static final long OPEN_NANOS = 1_735_828_200_000_000_000L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    private final TickEncoder encoder = new TickEncoder();

    /** @return the tick for a sequence, exchange time {@link #OPEN_NANOS} + sequence microseconds. */
    DirectBuffer tick(final long sequence)
    {
        return tick(sequence, OPEN_NANOS + sequence * 1_000);
    }

    DirectBuffer tick(final long sequence, final long exchangeTime)
    {
        encoder.wrap(buffer, 0)
            .gatewaySequence(sequence)
            .exchangeSequence(sequence * 3)
            .exchangeTimestamp(exchangeTime)
            .receiveTimestamp(exchangeTime + 500)
            .orderReference(sequence * 7)
            .matchOrNewReference(sequence * 11)
            .quantity(sequence % 1000)
            .instrumentId((int)(sequence % 100))
            .sessionId(1)
            .eventType(EventType.ADD)
            .side(sequence % 2 == 0 ? Side.BUY : Side.SELL)
            .price().mantissa((int)(sequence % 100_000));
        return buffer;
    }

    /** Asserts the tick is exactly what {@link #tick(long)} gives for its sequence. */
    static void assertDerived(final DirectBuffer buffer, final int offset)
    {
        final TickDecoder decoder = new TickDecoder().wrap(buffer, offset, 64, TickEncoder.SCHEMA_VERSION);
        final long sequence = decoder.gatewaySequence();
        if (decoder.exchangeSequence() != sequence * 3 || decoder.orderReference() != sequence * 7 ||
            decoder.matchOrNewReference() != sequence * 11 || decoder.price().mantissa() != sequence % 100_000)
        {
            throw new AssertionError("tick " + sequence + " does not hold what was written: " + decoder);
        }
    }

    /** @return a handler collecting the gateway sequences of the ticks it gets. */
    static Collector collector()
    {
        return new Collector();
    }

    static final class Collector implements io.mdgate.core.tick.TickHandler
    {
        final List<Long> sequences = new ArrayList<>();
        final List<Long> times = new ArrayList<>();

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            assertDerived(buffer, offset);
            final TickDecoder decoder = new TickDecoder().wrap(buffer, offset, 64, TickEncoder.SCHEMA_VERSION);
            sequences.add(decoder.gatewaySequence());
            times.add(decoder.exchangeTimestamp());
        }
    }
}
