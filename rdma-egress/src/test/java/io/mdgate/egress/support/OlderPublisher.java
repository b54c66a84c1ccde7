package io.mdgate.egress.support;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.WelcomeFlyweight;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.TransportResult;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Test support: a publisher of an earlier protocol, played by hand over a real shm control channel: it takes one
 * SDK consumer's connection, reads its HELLO and answers with a WELCOME of that protocol (no snapshot or directory
 * fields), after which the test speaks for it. What it opens goes on the test's close list, in order; the test
 * removes the instance's files ({@link #shm()}) after closing them.
 */
public final class OlderPublisher
{
    /** The WELCOME's next sequence: the consumer's live stream starts there. */
    public static final long NEXT_SEQUENCE = 8;

    private final List<AutoCloseable> closeables;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[1024]);
    private final ShmContext shm = ShmInstance.context(ShmInstance.unique());
    private final ShmTransport transport;
    private final ControlServer server;
    private final MemoryRegion positions;
    private ControlChannel channel;
    private ControlMessages messages;

    public OlderPublisher(final List<AutoCloseable> closeables)
    {
        this.closeables = closeables;
        transport = new ShmTransport(shm);
        closeables.add(transport);
        server = transport.bindControl();
        closeables.add(server::close);
        server.reserve(1);
        positions = transport.registerRegion(PositionRegionDescriptor.LENGTH, RegionAccess.REMOTE_WRITE);
        closeables.add(positions);
    }

    public ShmContext shm()
    {
        return shm;
    }

    /** @return the publisher's end of the transport (for its stream). */
    public ShmTransport transport()
    {
        return transport;
    }

    public ControlChannel channel()
    {
        return channel;
    }

    public ControlMessages messages()
    {
        return messages;
    }

    /**
     * Connects an SDK consumer of {@code context} (on its own transport) and welcomes it the older way.
     *
     * @return the connected consumer.
     */
    public EgressConsumer accept(final ConsumerContext context, final int streamId, final long heartbeatTimeoutNanos)
        throws Exception
    {
        final ShmTransport consumerSide = new ShmTransport(ShmInstance.context(shm.instance()));
        closeables.add(consumerSide);
        final CompletableFuture<EgressConsumer> connecting =
            CompletableFuture.supplyAsync(() -> EgressConsumer.connect(consumerSide, context));
        final ControlChannel[] accepted = new ControlChannel[1];
        Await.until("the consumer's connection", 10, () -> null != (accepted[0] = server.accept()));
        channel = accepted[0];
        closeables.add(channel::close);
        channel.establish();
        messages = new ControlMessages(channel);
        messages.next(ControlMessageDescriptor.HELLO);
        final WelcomeFlyweight welcome = new WelcomeFlyweight();
        welcome.wrapForEncode(scratch, 0, ControlMessageDescriptor.WELCOME);
        welcome.publisherEpoch(1).positionRegion(positions.remoteKey()).streamId(streamId).nextSequence(NEXT_SEQUENCE)
            .heartbeatIntervalNanos(TimeUnit.MILLISECONDS.toNanos(100)).heartbeatTimeoutNanos(heartbeatTimeoutNanos)
            .mtu(4096).sharedLogSlots(0);
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, WelcomeFlyweight.LENGTH), "an older WELCOME");
        final EgressConsumer consumer = connecting.get(10, TimeUnit.SECONDS);
        closeables.add(consumer);
        return consumer;
    }

    /** Sends SNAPSHOT_END for {@code sequence} with {@code count} ticks and {@code status}, flags 0. */
    public void offerEnd(final long sequence, final int count, final int status)
    {
        final SequenceRangeFlyweight end = new SequenceRangeFlyweight();
        end.wrapForEncode(scratch, 0, ControlMessageDescriptor.SNAPSHOT_END);
        end.from(sequence).to(sequence).count(count).status(status).flags(0);
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, SequenceRangeFlyweight.LENGTH));
    }
}
