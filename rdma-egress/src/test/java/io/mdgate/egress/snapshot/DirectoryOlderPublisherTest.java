package io.mdgate.egress.snapshot;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.ControlFlyweight;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.HeartbeatFlyweight;
import io.mdgate.egress.protocol.SnapshotRequestFlyweight;
import io.mdgate.egress.protocol.StreamDatagramDescriptor;
import io.mdgate.egress.protocol.SubscriptionFlyweight;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.ControlMessages;
import io.mdgate.egress.support.OlderPublisher;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.TransportResult;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A consumer that asks for the directory, against a publisher of the earlier protocol played by hand over a real
 * shm control channel and stream: that publisher refuses the DIRECTORY flag as malformed (SNAPSHOT_END REFUSED,
 * flags 0, no ticks), and one that predates snapshots altogether never answers. Either way the consumer does not
 * ask again in another form, delivers the live stream, and leaves the symbols unknown.
 */
@Timeout(30)
class DirectoryOlderPublisherTest
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int STREAM = 3;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[1024]);
    private final List<String> events = new ArrayList<>();
    private ShmContext shm;
    private ShmTransport publisherSide;
    private MulticastPublication stream;
    private ControlChannel channel;
    private ControlMessages messages;
    private EgressConsumer consumer;
    private Runnable poll;
    private OlderPublisher older;

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
    void shouldDeliverTheLiveStreamWithoutSymbolsWhenAnOlderPublisherRefusesTheDirectory() throws Exception
    {
        join(TimeUnit.SECONDS.toNanos(5));
        final SnapshotRequestFlyweight request = new SnapshotRequestFlyweight();
        request.wrap(new UnsafeBuffer(messages.next(poll, ControlMessageDescriptor.SNAPSHOT)), 0);
        assertEquals(ControlMessageDescriptor.PER_INSTRUMENT | ControlMessageDescriptor.DIRECTORY, request.flags());
        assertEquals(0, request.instrumentCount(), "every instrument");
        offerEnd(ControlMessageDescriptor.RECOVERY_REFUSED); // as that publisher refuses a flag it does not know
        Await.until("the refusal read", 10, () ->
        {
            poll.run();
            return !consumer.isDirectoryPending();
        });

        assertEquals(List.of(8L, 9L, 10L), liveTicks(), "the live stream, from WELCOME's next sequence");
        assertEquals(0, consumer.symbolOf(5), "the symbol stays unknown");
        assertEquals(1, consumer.counters().directoriesRefused());
        assertEquals(0, consumer.counters().directories());
        assertEquals(0, consumer.counters().snapshotsRequested(), "no snapshot asked for instead");
        assertEquals(0, consumer.counters().snapshotsRefused());
        assertTrue(events.stream().anyMatch(line -> line.contains("no instrument directory")), events.toString());
        final long quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        while (System.nanoTime() < quietUntil)
        {
            poll.run();
            channel.poll((buffer, offset, length) -> assertFalse(
                ControlFlyweight.typeOf(buffer, offset) == ControlMessageDescriptor.SNAPSHOT, "asked again"), 16);
        }
    }

    @Test
    void shouldGiveUpADirectoryAPublisherThatPredatesSnapshotsLeavesUnansweredAfterTheHeartbeatTimeout()
        throws Exception
    {
        final long timeout = TimeUnit.MILLISECONDS.toNanos(600);
        join(timeout);
        // before the poll that sends the request: the consumer's clock starts when it sends, which may be before
        // this test reads the request, so only a time taken earlier bounds its wait from below
        final long asked = System.nanoTime();
        messages.next(poll, ControlMessageDescriptor.SNAPSHOT); // passed over as an unknown message type
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        Await.until("the directory given up", 10, () ->
        {
            heartbeat.wrapForEncode(scratch, 0, ControlMessageDescriptor.HEARTBEAT);
            heartbeat.timestamp(System.currentTimeMillis() * 1_000_000L).sequence(7);
            channel.offer(scratch, 0, HeartbeatFlyweight.LENGTH); // the publisher is alive, it just does not answer
            poll.run();
            return !consumer.isDirectoryPending();
        });
        assertTrue(System.nanoTime() - asked >= timeout, "waited the heartbeat timeout");

        assertEquals(List.of(8L, 9L, 10L), liveTicks());
        assertEquals(1, consumer.counters().directoriesRefused());
        assertTrue(events.stream().anyMatch(line -> line.contains("did not answer the directory")), events.toString());
        final long malformed = consumer.counters().malformed();
        offerEnd(ControlMessageDescriptor.RECOVERY_REFUSED); // a late answer after all
        final long heartbeats = consumer.counters().heartbeatsReceived();
        heartbeat.wrapForEncode(scratch, 0, ControlMessageDescriptor.HEARTBEAT);
        heartbeat.timestamp(System.currentTimeMillis() * 1_000_000L).sequence(10);
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, HeartbeatFlyweight.LENGTH));
        Await.until("the late answer and the heartbeat after it read", 10, () ->
        {
            poll.run();
            return consumer.counters().heartbeatsReceived() > heartbeats;
        });
        assertEquals(malformed, consumer.counters().malformed(), "the late answer is passed over");
        assertEquals(1, consumer.counters().directoriesRefused());
    }

    /** Plays the older publisher up to its answer to SUBSCRIBE (every instrument), with a stream to send on. */
    private void join(final long heartbeatTimeoutNanos) throws Exception
    {
        final OlderPublisher older = new OlderPublisher(closeables);
        shm = older.shm();
        publisherSide = older.transport();
        stream = publisherSide.addPublication(STREAM);
        consumer = older.accept(new ConsumerContext().name("sdk").token("t").controlPollNanos(0)
            .path(DeliveryPath.STREAM).ringSlots(0).directoryOnConnect(true).eventLog(events::add), STREAM,
            heartbeatTimeoutNanos);
        channel = older.channel();
        messages = older.messages();
        this.older = older;
        consumer.subscribeAll(SubscriptionView.ALL);
        poll = () -> consumer.poll((buffer, offset) -> { }, 16);
        messages.next(poll, ControlMessageDescriptor.SUBSCRIBE);
        final SubscriptionFlyweight answer = new SubscriptionFlyweight();
        answer.wrapForEncode(scratch, 0, ControlMessageDescriptor.SUBSCRIPTION);
        answer.instrumentId(-2).tableSlot(-1).status(0).view(SubscriptionView.ALL.code());
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, SubscriptionFlyweight.VIEW_LENGTH));
    }

    private void offerEnd(final int status)
    {
        older.offerEnd(7, 0, status);
    }

    /** Sends ticks 8, 9 and 10 of instrument 5 on the stream: @return the sequences the consumer delivers. */
    private List<Long> liveTicks()
    {
        sendDatagram(publisherSide, stream, 8, 3, 5);
        final List<Long> delivered = new ArrayList<>();
        Await.until("the live ticks", 10, () ->
        {
            consumer.poll((buffer, offset) ->
                delivered.add(buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE)), 16);
            return delivered.size() >= 3;
        });
        return delivered;
    }

    /** Sends one data datagram of {@code count} ADD ticks of {@code instrument} from sequence {@code first}. */
    private static void sendDatagram(final ShmTransport transport, final MulticastPublication stream, final long first,
        final int count, final int instrument)
    {
        final int length = StreamDatagramDescriptor.HEADER_LENGTH + count * TickLayout.LENGTH;
        final MemoryRegion source = transport.registerRegion(length, RegionAccess.LOCAL);
        final UnsafeBuffer buffer = new UnsafeBuffer(source.buffer());
        buffer.setMemory(0, length, (byte)0);
        buffer.putByte(StreamDatagramDescriptor.VERSION_OFFSET, StreamDatagramDescriptor.VERSION);
        buffer.putByte(StreamDatagramDescriptor.TYPE_OFFSET, StreamDatagramDescriptor.TYPE_DATA);
        buffer.putShort(StreamDatagramDescriptor.TICK_LENGTH_OFFSET, (short)TickLayout.LENGTH, LE);
        buffer.putInt(StreamDatagramDescriptor.STREAM_ID_OFFSET, STREAM, LE);
        buffer.putLong(StreamDatagramDescriptor.FIRST_TICK_SEQUENCE_OFFSET, first, LE);
        buffer.putLong(StreamDatagramDescriptor.PUBLISHER_EPOCH_OFFSET, 1, LE);
        buffer.putShort(StreamDatagramDescriptor.TICK_COUNT_OFFSET, (short)count, LE);
        for (int i = 0; i < count; i++)
        {
            buffer.putBytes(StreamDatagramDescriptor.HEADER_LENGTH + i * TickLayout.LENGTH,
                Ticks.add(first + i, instrument, 0), 0, TickLayout.LENGTH);
        }
        assertEquals(TransportResult.OK, stream.offer(source, 0, length));
    }
}
