package io.mdgate.egress.snapshot;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.SnapshotRequestFlyweight;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.ControlMessages;
import io.mdgate.egress.support.OlderPublisher;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.TransportResult;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The SDK against a publisher of the earlier protocol, played by hand over a real shm control channel: that
 * publisher refuses a SNAPSHOT with the PER_INSTRUMENT flag as malformed, so the SDK asks again without it and takes
 * the one sequence S of the answer as every instrument's S(i).
 */
@Timeout(30)
class SnapshotOlderPublisherTest
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[1024]);
    private ShmContext shm;

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != shm)
        {
            ShmInstance.removeFiles(shm);
        }
    }

    @Test
    void shouldAskAnOlderPublisherAgainWithoutTheFlagAndTakeItsOneSequence() throws Exception
    {
        final OlderPublisher older = new OlderPublisher(closeables);
        shm = older.shm();
        final EgressConsumer consumer = older.accept(new ConsumerContext().name("sdk").token("t").controlPollNanos(0), 1,
            TimeUnit.SECONDS.toNanos(5));
        final ControlChannel channel = older.channel();
        final ControlMessages messages = older.messages();
        consumer.subscribe(5, SubscriptionView.ALL);
        consumer.requestSnapshot();

        final SnapshotRequestFlyweight request = new SnapshotRequestFlyweight();
        request.wrap(new UnsafeBuffer(messages.next(() -> consumer.poll((buffer, offset) -> { }, 16), ControlMessageDescriptor.SNAPSHOT)), 0);
        assertEquals(ControlMessageDescriptor.PER_INSTRUMENT, request.flags(), "asked the new way first");
        older.offerEnd(7, 0, ControlMessageDescriptor.RECOVERY_REFUSED); // as the older publisher refuses a flag
        request.wrap(new UnsafeBuffer(messages.next(() -> consumer.poll((buffer, offset) -> { }, 16), ControlMessageDescriptor.SNAPSHOT)), 0);
        assertEquals(0, request.flags(), "then the older way");

        final RecoveryDataFlyweight data = new RecoveryDataFlyweight();
        data.wrapForEncode(scratch, 0, ControlMessageDescriptor.SNAPSHOT_DATA);
        data.tickCount(1);
        final UnsafeBuffer tick = Ticks.instrument(7, 5, "ABCD");
        tick.putShort(TickLayout.FLAGS_OFFSET, TickLayout.SNAPSHOT_FLAG, LE);
        scratch.putBytes(RecoveryDataFlyweight.TICKS_OFFSET, tick, 0, TickLayout.LENGTH);
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, data.encodedLength()));
        older.offerEnd(7, 1, ControlMessageDescriptor.RECOVERY_COMPLETE);
        final List<Long> delivered = new ArrayList<>();
        Await.until("the snapshot", 10, () ->
        {
            consumer.poll((buffer, offset) ->
                delivered.add(buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE)), 16);
            return !consumer.isSnapshotPending();
        });
        assertEquals(List.of(7L), delivered, "the older publisher's snapshot tick");
        assertEquals(1, consumer.counters().snapshots());
        assertEquals(0, consumer.counters().snapshotsRefused(), "the first refusal only meant the older protocol");
        assertEquals(2, consumer.counters().snapshotsRequested());
        assertEquals(7, consumer.snapshotSequence());
        assertEquals(7, consumer.snapshotSequence(5));
        assertEquals(7, consumer.snapshotEndSequence());
        assertEquals(7, consumer.lastDeliveredSequence());
    }
}
