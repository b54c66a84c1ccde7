package io.mdgate.egress.snapshot;

import io.mdgate.core.itch.Alpha;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The directory (SNAPSHOT with flag DIRECTORY): spoken by hand, its answer is the INSTRUMENT tick of every instrument
 * the session named, subscribed or not, flagged {@code snapshot} and at the sequence it was taken at, and nothing
 * named before the last SESSION tick; through the SDK, a consumer joining live with every instrument knows every
 * symbol before its first live tick and gets every live sequence once, the directory itself never handed over.
 */
@Timeout(30)
class DirectoryWireTest
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int DIRECTORY_REQUEST = ControlMessageDescriptor.PER_INSTRUMENT |
        ControlMessageDescriptor.DIRECTORY;

    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[2048]);
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private PublisherHarness harness;
    private ControlMessages messages;
    private ControlChannel channel;

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    @Test
    void shouldAnswerADirectoryRequestWithTheInstrumentTickOfEveryNamedInstrumentSubscribedOrNot()
    {
        startRaw();
        subscribe(5);
        harness.publish(Ticks.instrument(1, 5, "ABCD"));
        harness.publish(Ticks.instrument(2, 6, "EFGH"));
        harness.publish(Ticks.add(3, 5, 0));
        harness.publish(Ticks.topOfBook(4, 5, Side.BUY, 1_000_000, 100, 1));
        harness.publish(Ticks.instrument(5, 7, "IJKL"));
        harness.publish(Ticks.add(6, 8, 0)); // known, never named: no entry
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == 6);

        request(DIRECTORY_REQUEST);
        final List<byte[]> ticks = snapshotTicks();
        final SequenceRangeFlyweight end = end();

        assertEquals(List.of("5 ABCD", "6 EFGH", "7 IJKL"), describe(ticks, 6),
            "only INSTRUMENT ticks, in the order the feed named them, each at the sequence it was taken at");
        assertEquals(ControlMessageDescriptor.RECOVERY_COMPLETE, end.status());
        assertEquals(DIRECTORY_REQUEST, end.flags(), "the answer says it is a directory");
        assertEquals(6, end.from(), "from: the last sequence published when the directory began");
        assertEquals(6, end.to());
        assertEquals(3, end.count());

        request(DIRECTORY_REQUEST, 7);
        assertEquals(List.of("7 IJKL"), describe(snapshotTicks(), 6), "a listed instrument alone");
        assertEquals(1, end().count());
    }

    @Test
    void shouldLeaveOutOfTheDirectoryTheNamesGivenBeforeTheLastSessionTick()
    {
        startRaw();
        harness.publish(Ticks.instrument(1, 5, "OLD"));
        harness.publish(Ticks.instrument(2, 6, "GONE"));
        harness.publish(Ticks.session(3, 2));
        harness.publish(Ticks.instrument(4, 5, "NEW"));
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == 4);

        request(DIRECTORY_REQUEST);
        final List<byte[]> ticks = snapshotTicks();

        assertEquals(List.of("5 NEW"), describe(ticks, 4), "locate 6 is not named in the new session");
        assertEquals(ControlMessageDescriptor.RECOVERY_COMPLETE, end().status());
    }

    @Test
    void shouldNameEverySymbolBeforeTheFirstLiveTickAndDeliverEveryLiveSequenceOnce()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("sdk"),
            context -> context.snapshotRecordsPerCycle(1)); // a directory of 40 over many duty cycles
        long sequence = 0;
        for (int instrument = 1; instrument <= 40; instrument++)
        {
            harness.publish(Ticks.instrument(++sequence, instrument, "S" + instrument));
            harness.publish(Ticks.add(++sequence, instrument, 0));
        }
        final long beforeJoin = sequence;
        Await.until("published", 5, () -> harness.publisher().lastPublishedSequence() == beforeJoin);
        final ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(transport);
        final EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("sdk")
            .token("sdk" + PublisherHarness.TOKEN_SUFFIX).controlPollNanos(0).directoryOnConnect(true));
        closeables.add(consumer);
        consumer.subscribeAll(SubscriptionView.ALL);

        final List<Long> delivered = new ArrayList<>();
        final List<Integer> unnamedAtFirstTick = new ArrayList<>();
        final List<Long> snapshotFlagged = new ArrayList<>();
        final long last = beforeJoin + 400;
        Await.until("every live tick", 20, () ->
        {
            if (harness.publisher().lastPublishedSequence() < last)
            {
                final long next = harness.publisher().lastPublishedSequence() + 1;
                harness.publish(next % 3 == 0 ? Ticks.event(next, (int)(next % 40) + 1, EventType.TRADE) :
                    Ticks.add(next, (int)(next % 40) + 1, 0));
                harness.awaitDrained();
            }
            consumer.poll((buffer, offset) ->
            {
                if ((buffer.getShort(offset + TickLayout.FLAGS_OFFSET, LE) & TickLayout.SNAPSHOT_FLAG) != 0)
                {
                    snapshotFlagged.add(buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE));
                }
                if (delivered.isEmpty())
                {
                    for (int instrument = 1; instrument <= 40; instrument++)
                    {
                        if (consumer.symbolOf(instrument) != Alpha.pack8("S" + instrument))
                        {
                            unnamedAtFirstTick.add(instrument);
                        }
                    }
                }
                delivered.add(buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE));
            }, 16);
            return consumer.lastDeliveredSequence() == last;
        });

        assertTrue(snapshotFlagged.isEmpty(), "the directory's ticks are not handed over: " + snapshotFlagged);
        assertTrue(unnamedAtFirstTick.isEmpty(), "named before the first live tick: all but " + unnamedAtFirstTick);
        assertTrue(delivered.get(0) > beforeJoin, "joined live, at " + delivered.get(0));
        for (int i = 0; i < delivered.size(); i++)
        {
            assertEquals(delivered.get(0) + i, delivered.get(i), "every live sequence once, in order");
        }
        assertEquals(1, consumer.counters().directories());
        assertEquals(40, consumer.counters().directoryTicks());
        assertEquals(0, consumer.counters().duplicates());
        assertEquals(0, consumer.counters().snapshotSkipped(), "the directory covers no live tick");
        assertEquals(delivered.size(), consumer.counters().delivered());
    }

    private void startRaw()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("raw"), context -> { });
        final ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(transport);
        channel = transport.connectControl(TimeUnit.SECONDS.toNanos(5));
        closeables.add(channel::close);
        messages = new ControlMessages(channel);
        final MemoryRegion region = transport.registerRegion((int)ConsumerRegionDescriptor.length(1024, 64, 0),
            RegionAccess.REMOTE_WRITE);
        closeables.add(region);
        final HelloFlyweight hello = new HelloFlyweight();
        hello.wrapForEncode(scratch, 0, ControlMessageDescriptor.HELLO);
        hello.ringSlots(1024).tableSlots(64).depthLevels(0).region(region.remoteKey()).name("raw")
            .token(("raw" + PublisherHarness.TOKEN_SUFFIX).getBytes(StandardCharsets.US_ASCII));
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, HelloFlyweight.LENGTH));
        messages.next(ControlMessageDescriptor.WELCOME);
    }

    private void subscribe(final int instrument)
    {
        final SubscriptionFlyweight subscribe = new SubscriptionFlyweight();
        subscribe.wrapForEncode(scratch, 0, ControlMessageDescriptor.SUBSCRIBE);
        subscribe.instrumentId(instrument).tableSlot(-1).view(SubscriptionView.ALL.code());
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, SubscriptionFlyweight.VIEW_LENGTH));
        messages.next(ControlMessageDescriptor.SUBSCRIPTION);
    }

    private void request(final int flags, final int... ids)
    {
        scratch.setMemory(0, 64, (byte)0);
        final SnapshotRequestFlyweight request = new SnapshotRequestFlyweight();
        request.wrapForEncode(scratch, 0, ControlMessageDescriptor.SNAPSHOT);
        request.flags(flags).instrumentCount(ids.length);
        for (int i = 0; i < ids.length; i++)
        {
            request.instrument(i, ids[i]);
        }
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, SnapshotRequestFlyweight.length(ids.length)));
    }

    /** @return the ticks of the SNAPSHOT_DATA messages before the next SNAPSHOT_END (which stays to be read). */
    private List<byte[]> snapshotTicks()
    {
        final List<byte[]> ticks = new ArrayList<>();
        while (true)
        {
            final byte[] message = messages.next(ControlMessageDescriptor.SNAPSHOT_DATA,
                ControlMessageDescriptor.SNAPSHOT_END);
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

    /** @return "instrument SYMBOL" of each tick, checking each is an INSTRUMENT tick at {@code sequence}, flagged. */
    private static List<String> describe(final List<byte[]> ticks, final long sequence)
    {
        final List<String> described = new ArrayList<>();
        for (final byte[] bytes : ticks)
        {
            final UnsafeBuffer tick = new UnsafeBuffer(bytes);
            assertEquals((byte)EventType.INSTRUMENT.value(), tick.getByte(TickLayout.EVENT_TYPE_OFFSET));
            assertEquals(sequence, tick.getLong(TickLayout.GATEWAY_SEQUENCE_OFFSET, LE));
            assertEquals(TickLayout.SNAPSHOT_FLAG, tick.getShort(TickLayout.FLAGS_OFFSET, LE));
            described.add((tick.getShort(TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF) + " " +
                Alpha.unpack8(tick.getLong(TickLayout.ORDER_REFERENCE_OFFSET, LE)).trim());
        }
        return described;
    }

    private SequenceRangeFlyweight end()
    {
        return (SequenceRangeFlyweight)new SequenceRangeFlyweight()
            .wrap(new UnsafeBuffer(messages.next(ControlMessageDescriptor.SNAPSHOT_END)), 0);
    }
}
