package io.mdgate.egress.snapshot;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlFlyweight;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.HelloFlyweight;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.SnapshotRequestFlyweight;
import io.mdgate.egress.protocol.SubscriptionFlyweight;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.ControlMessages;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.TransportResult;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SNAPSHOT spoken by hand over a real shm control channel: malformed requests (too short, a count beyond 256, a
 * count the message does not hold, an instrument id 0, unknown flags) are each answered SNAPSHOT_END REFUSED and
 * counted, and so is an older consumer's request without PER_INSTRUMENT; the session carries on to a valid one,
 * whose ticks are exactly the instrument's state, flagged {@code snapshot} and at S(i); a snapshot larger than the
 * part buffer is served in parts, one instrument's part larger than it is refused and counted; a SESSION tick ends a
 * snapshot being built; without the order mirror a view of orders says ORDERS_OMITTED and carries no ADD.
 */
@Timeout(30)
class SnapshotWireTest
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[2048]);
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private PublisherHarness harness;
    private ShmTransport transport;
    private ControlChannel channel;
    private ControlMessages messages;
    private MemoryRegion region;

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != channel)
        {
            channel.close();
        }
        if (null != region)
        {
            region.close();
        }
        if (null != transport)
        {
            transport.close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    @Test
    void shouldRefuseEveryMalformedSnapshotRequestWithACountAndAnswerTheNextValidOne()
    {
        start(context -> { });
        subscribe(5, SubscriptionView.ALL);
        harness.publish(Ticks.instrument(1, 5, "ABCD"));
        harness.publish(Ticks.add(2, 5, 0));
        harness.publish(Ticks.topOfBook(3, 5, Side.BUY, 1_000_000, 100, 0));
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == 3);

        request(SnapshotRequestFlyweight.LENGTH - 4, 0, 0);
        request(SnapshotRequestFlyweight.length(1), 0, 257, 5);
        request(SnapshotRequestFlyweight.length(1), 0, 3, 5);
        request(SnapshotRequestFlyweight.length(1), 0, 1, 0);
        request(SnapshotRequestFlyweight.length(1), 7, 1, 5);
        for (int i = 0; i < 5; i++)
        {
            final SequenceRangeFlyweight end = end();
            assertEquals(ControlMessageDescriptor.RECOVERY_REFUSED, end.status(), "malformed request " + i);
        }
        Await.until("refusals counted", 5, () -> harness.publisher().counters().snapshotsRefused() == 5);
        assertEquals(5, harness.publisher().counters().malformedControlMessages());

        request(SnapshotRequestFlyweight.length(1), 0, 1, 5);
        assertEquals(ControlMessageDescriptor.RECOVERY_REFUSED, end().status(), "a request without PER_INSTRUMENT");
        Await.until("refusal counted", 5, () -> harness.publisher().counters().snapshotsRefused() == 6);
        assertEquals(5, harness.publisher().counters().malformedControlMessages(), "well formed, but the older kind");
        assertTrue(harness.events().stream().anyMatch(line -> line.contains("PER_INSTRUMENT")), harness.events().toString());

        request(SnapshotRequestFlyweight.length(1), ControlMessageDescriptor.PER_INSTRUMENT, 1, 5);
        final List<byte[]> ticks = snapshotTicks();
        final SequenceRangeFlyweight end = end();
        assertEquals(ControlMessageDescriptor.RECOVERY_COMPLETE, end.status());
        assertEquals(3, end.from(), "from is the last sequence published when the snapshot began");
        assertEquals(3, end.to(), "the part's S: nothing was published meanwhile");
        assertEquals(ControlMessageDescriptor.PER_INSTRUMENT, end.flags());
        assertEquals(ticks.size(), end.count());
        final List<String> described = new ArrayList<>();
        for (final byte[] tick : ticks)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(tick);
            assertEquals(3, buffer.getLong(TickLayout.GATEWAY_SEQUENCE_OFFSET, LE));
            assertEquals(TickLayout.SNAPSHOT_FLAG, buffer.getShort(TickLayout.FLAGS_OFFSET, LE));
            described.add(EventType.get(buffer.getByte(TickLayout.EVENT_TYPE_OFFSET)) + " " +
                (char)buffer.getByte(TickLayout.SIDE_OFFSET));
        }
        assertEquals(List.of("INSTRUMENT N", "ADD B", "TOP_OF_BOOK B", "TOP_OF_BOOK S"), described,
            "the instrument, its live order and its top of book, both sides");
        assertEquals(1, harness.publisher().counters().snapshotsSent());
        assertEquals(4, harness.publisher().counters().snapshotTicks());
        assertEquals(6, harness.publisher().counters().snapshotsRefused());
    }

    @Test
    void shouldServeASnapshotLargerThanThePartBufferInPartsAndSayWhenNoOrdersAreKept()
    {
        start(context -> context.snapshotTicks(64).orderSnapshots(false).snapshotRecordsPerCycle(4));
        subscribe(5, SubscriptionView.ALL);
        harness.publish(Ticks.instrument(1, 5, "ABCD"));
        harness.publish(Ticks.add(2, 5, 0));
        request(SnapshotRequestFlyweight.LENGTH, ControlMessageDescriptor.PER_INSTRUMENT, 0);
        snapshotTicks();
        SequenceRangeFlyweight end = end();
        assertEquals(ControlMessageDescriptor.RECOVERY_COMPLETE, end.status());
        assertEquals(1, end.count(), "the INSTRUMENT tick; no ADD without the order mirror");
        assertEquals(ControlMessageDescriptor.PER_INSTRUMENT | ControlMessageDescriptor.ORDERS_OMITTED, end.flags());

        for (int i = 1; i <= 40; i++)
        {
            subscribe(100 + i, SubscriptionView.TOP);
            harness.publish(Ticks.topOfBook(2 + i, 100 + i, Side.SELL, 1_000_000 + i, 100, 0));
        }
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == 42);
        request(SnapshotRequestFlyweight.LENGTH, ControlMessageDescriptor.PER_INSTRUMENT, 0);
        final List<byte[]> ticks = snapshotTicks();
        end = end();
        assertEquals(ControlMessageDescriptor.RECOVERY_COMPLETE, end.status(), "81 ticks, a few parts a cycle");
        assertEquals(81, end.count());
        assertEquals(81, ticks.size());
        assertEquals(0, harness.publisher().counters().snapshotsRefused());
    }

    @Test
    void shouldRefuseASnapshotWhoseInstrumentDoesNotFitThePartBuffer()
    {
        start(context -> context.snapshotTicks(64));
        subscribe(6, SubscriptionView.ALL);
        subscribe(5, SubscriptionView.ALL);
        harness.publish(Ticks.instrument(1, 6, "SMAL"));
        for (int i = 0; i < 70; i++)
        {
            harness.publish(Ticks.add(2 + i, 5, 0));
        }
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == 71);
        request(SnapshotRequestFlyweight.LENGTH, ControlMessageDescriptor.PER_INSTRUMENT, 0);
        final List<byte[]> ticks = snapshotTicks();
        final SequenceRangeFlyweight end = end();
        assertEquals(ControlMessageDescriptor.RECOVERY_REFUSED, end.status(), "70 orders do not fit 64 ticks");
        assertEquals(ticks.size(), end.count(), "what went out before the refusal is counted");
        assertEquals(1, ticks.size(), "instrument 6's part went out first");
        Await.until("refusal counted", 5, () -> harness.publisher().counters().snapshotsRefused() == 1);
        assertTrue(harness.events().stream().anyMatch(line -> line.contains("snapshotTicks")), harness.events().toString());
    }

    @Test
    void shouldEndASnapshotBeingBuiltWhenASessionTickComes()
    {
        start(context -> context.snapshotRecordsPerCycle(1));
        for (int i = 1; i <= 40; i++)
        {
            subscribe(100 + i, SubscriptionView.TOP);
            harness.publish(Ticks.topOfBook(i, 100 + i, Side.SELL, 1_000_000 + i, 100, 0));
        }
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == 40);
        request(SnapshotRequestFlyweight.LENGTH, ControlMessageDescriptor.PER_INSTRUMENT, 0);
        // The last tick published leaves instrument 140's message open, so its part waits up to 50 ms: time enough.
        Await.until("the snapshot under way", 5, () -> harness.publisher().snapshotsUnderWay() == 1);
        harness.publish(Ticks.session(41, 2));
        final List<byte[]> ticks = snapshotTicks();
        final SequenceRangeFlyweight end = end();
        assertEquals(ControlMessageDescriptor.RECOVERY_COMPLETE, end.status());
        assertEquals(ControlMessageDescriptor.PER_INSTRUMENT | ControlMessageDescriptor.SESSION_CUT, end.flags());
        assertTrue(end.to() <= 40 && ticks.size() < 80, "no part after the SESSION tick: to " + end.to() + ", " +
            ticks.size() + " ticks");
        for (final byte[] tick : ticks)
        {
            assertTrue(new UnsafeBuffer(tick).getLong(TickLayout.GATEWAY_SEQUENCE_OFFSET, LE) <= 40);
        }
    }

    @Test
    void shouldCountASnapshotTheSdkWasRefusedAndKeepDeliveringLiveTicks()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("sdk"),
            context -> context.snapshotTicks(64));
        final ShmTransport sdkTransport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(sdkTransport);
        final EgressConsumer consumer = EgressConsumer.connect(sdkTransport,
            new ConsumerContext().name("sdk").token("sdk" + PublisherHarness.TOKEN_SUFFIX).controlPollNanos(0));
        closeables.add(consumer);
        consumer.subscribe(1, SubscriptionView.ALL);
        consumer.subscribe(2, SubscriptionView.ALL);
        Await.until("subscribed", 5, () ->
        {
            consumer.poll((buffer, offset) -> { }, 16);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
        for (int i = 1; i <= 3; i++)
        {
            harness.publish(Ticks.add(i, 2, 0)); // instrument 2 is named first, so its part goes out first
        }
        for (int i = 4; i <= 103; i++)
        {
            harness.publish(i % 4 == 0 ? Ticks.event(i, 1, EventType.TRADE) : Ticks.add(i, 1, 0));
        }
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == 103);
        consumer.requestSnapshot();
        Await.until("the refusal", 5, () ->
        {
            consumer.poll((buffer, offset) -> { }, 16);
            return !consumer.isSnapshotPending();
        });
        assertEquals(1, consumer.counters().snapshotsRefused());
        assertEquals(0, consumer.counters().snapshots());
        assertEquals(3, consumer.counters().snapshotTicks(), "instrument 2's part came before the refusal");
        assertEquals(103, consumer.snapshotSequence(2));
        harness.publish(Ticks.topOfBook(104, 1, Side.BUY, 999_000, 100, 0));
        Await.until("the live ticks, all of them", 5, () ->
        {
            consumer.poll((buffer, offset) -> { }, 64);
            return consumer.lastDeliveredSequence() == 104;
        });
        assertEquals(101, consumer.counters().delivered(), "live delivery went on from where it was (75 orders do " +
            "not fit a part of 64), instrument 1's ticks all delivered");
        assertEquals(3, consumer.counters().snapshotSkipped(), "instrument 2's ticks are in its part, not twice");
    }

    private void start(final Consumer<io.mdgate.egress.publisher.PublisherContext> customizer)
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("raw"), customizer);
        transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        channel = transport.connectControl(TimeUnit.SECONDS.toNanos(5));
        messages = new ControlMessages(channel);
        region = transport.registerRegion((int)ConsumerRegionDescriptor.length(1024, 64, 0), RegionAccess.REMOTE_WRITE);
        final HelloFlyweight hello = new HelloFlyweight();
        hello.wrapForEncode(scratch, 0, ControlMessageDescriptor.HELLO);
        hello.ringSlots(1024).tableSlots(64).depthLevels(0).region(region.remoteKey()).name("raw")
            .token(("raw" + PublisherHarness.TOKEN_SUFFIX).getBytes(StandardCharsets.US_ASCII));
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, HelloFlyweight.LENGTH));
        next(ControlMessageDescriptor.WELCOME);
    }

    private void subscribe(final int instrument, final SubscriptionView view)
    {
        final SubscriptionFlyweight subscribe = new SubscriptionFlyweight();
        subscribe.wrapForEncode(scratch, 0, ControlMessageDescriptor.SUBSCRIBE);
        subscribe.instrumentId(instrument).tableSlot(-1).view(view.code());
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, SubscriptionFlyweight.VIEW_LENGTH));
        next(ControlMessageDescriptor.SUBSCRIPTION);
    }

    private void request(final int length, final int flags, final int count, final int... ids)
    {
        scratch.setMemory(0, 64, (byte)0);
        final SnapshotRequestFlyweight request = new SnapshotRequestFlyweight();
        request.wrapForEncode(scratch, 0, ControlMessageDescriptor.SNAPSHOT);
        request.flags(flags).instrumentCount(count);
        for (int i = 0; i < ids.length; i++)
        {
            request.instrument(i, ids[i]);
        }
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, length));
    }

    /** @return the ticks of the SNAPSHOT_DATA messages before the next SNAPSHOT_END (which stays to be read). */
    private List<byte[]> snapshotTicks()
    {
        final List<byte[]> ticks = new ArrayList<>();
        while (true)
        {
            final byte[] message = next(ControlMessageDescriptor.SNAPSHOT_DATA, ControlMessageDescriptor.SNAPSHOT_END);
            final UnsafeBuffer buffer = new UnsafeBuffer(message);
            if (ControlFlyweight.typeOf(buffer, 0) == ControlMessageDescriptor.SNAPSHOT_END)
            {
                messages.pushBack(message);
                return ticks;
            }
            final RecoveryDataFlyweight data = (RecoveryDataFlyweight)new RecoveryDataFlyweight().wrap(buffer, 0);
            for (int i = 0; i < data.tickCount(); i++)
            {
                final byte[] tick = new byte[TickLayout.LENGTH];
                buffer.getBytes(data.tickOffset(i), tick);
                ticks.add(tick);
            }
        }
    }

    private SequenceRangeFlyweight end()
    {
        return (SequenceRangeFlyweight)new SequenceRangeFlyweight()
            .wrap(new UnsafeBuffer(next(ControlMessageDescriptor.SNAPSHOT_END)), 0);
    }

    private byte[] next(final short... types)
    {
        return messages.next(types);
    }
}
