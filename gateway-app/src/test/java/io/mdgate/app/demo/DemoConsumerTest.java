package io.mdgate.app.demo;

import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DemoConsumerTest
{
    private final DemoConsumer consumer = new DemoConsumer(
        new DemoConsumer.Spec("fast1", "t", DeliveryPath.RING, false), Path.of("/dev/shm"), "unused");
    private final UnsafeBuffer tick = new UnsafeBuffer(new byte[TickLayout.LENGTH]);

    @Test
    void shouldRecordEachTickFromItsReceiveTimestampToTheHandlersClock()
    {
        tick(1_000_000L, (short)0);
        consumer.time(1_002_500L, tick, 0);
        tick(2_000_000L, (short)0);
        consumer.time(2_000_700L, tick, 0);

        assertEquals(2, consumer.latency().getTotalCount());
        assertEquals(700, consumer.latency().getMinValue(), 1);
        assertEquals(2_500, consumer.latency().getMaxValue(), 2);
        assertEquals(0, consumer.negative());
        assertEquals(0, consumer.untimed());
    }

    @Test
    void shouldCountANegativeLatencyInsteadOfRecordingItAsZero()
    {
        tick(5_000L, (short)0);
        consumer.time(4_000L, tick, 0);

        assertEquals(0, consumer.latency().getTotalCount());
        assertEquals(1, consumer.negative());
    }

    @Test
    void shouldLeaveReplayedTicksAndTicksWithoutAReceiveTimestampUntimed()
    {
        tick(5_000L, TickLayout.REPLAYED_FLAG);
        consumer.time(9_000_000L, tick, 0);
        tick(0L, (short)0);
        consumer.time(9_000_000L, tick, 0);

        assertEquals(0, consumer.latency().getTotalCount());
        assertEquals(2, consumer.untimed());
    }

    @Test
    void shouldMakeTheIdleStrategyTheOptionNames()
    {
        assertInstanceOf(BusySpinIdleStrategy.class, DemoConsumer.Idle.parse("spin").newStrategy());
        assertInstanceOf(YieldingIdleStrategy.class, DemoConsumer.Idle.parse("yield").newStrategy());
        assertInstanceOf(BackoffIdleStrategy.class, DemoConsumer.Idle.parse("backoff").newStrategy());
        assertThrows(IllegalArgumentException.class, () -> DemoConsumer.Idle.parse("park"));
    }

    private void tick(final long receiveTimestamp, final short flags)
    {
        tick.putLong(TickLayout.RECEIVE_TIMESTAMP_OFFSET, receiveTimestamp, ByteOrder.LITTLE_ENDIAN);
        tick.putShort(TickLayout.FLAGS_OFFSET, flags, ByteOrder.LITTLE_ENDIAN);
    }
}
