package io.mdgate.app.run;

import io.mdgate.app.run.counters.CounterType;
import io.mdgate.app.run.counters.CountersFileWriter;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressStats;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

/**
 * One port queue's receive duty cycle: polls a burst from the {@link Ingress} and copies each packet, with its
 * line and receive time, into the packet ring to the session agent ({@link PacketRingDescriptor}). It never
 * blocks: a packet that finds the ring full is dropped and counted ({@code ingress.<port>.<queue>.dropped}); the
 * session then sees a gap that the other line or a re-request fills. A packet longer than an eighth of the ring
 * (Agrona's limit for one record) is dropped and counted as {@code oversized}. What the ingress itself dropped, per
 * reason (bad checksums, lengths, fragments, other destinations, ...), is copied about once a second, and at close,
 * into {@code ingress.<port>.<queue>.frames_dropped.<reason>} ({@link IngressStats#REASONS}, in snake case).
 * <p>
 * A fatal error of the port (a negative poll) is recorded once in the error log and the agent stops polling.
 * {@link #stopReceiving()} (any thread) makes the agent close its port on its own thread, so the groups are left
 * before the rest of the pipeline stops.
 * <p>
 * Threading: {@link #onStart()}, {@link #doWork()}, {@link #onClose()} on the agent's (pinned) thread, which becomes
 * the ingress's receive thread.
 */
final class IngressAgent implements Agent, PacketHandler
{
    private static final int DROP_REFRESH_CYCLES_MASK = 1023;
    private static final long DROP_REFRESH_NANOS = 1_000_000_000L;

    private final String name;
    private final Ingress ingress;
    private final RingBuffer ring;
    private final ErrorHandler errorHandler;
    private final AtomicCounter packets;
    private final AtomicCounter bytes;
    private final AtomicCounter dropped;
    private final AtomicCounter oversized;
    private final int maxPayload;
    private final AtomicCounter failure;
    private final AtomicBuffer ringBuffer;
    private final AtomicCounter[] droppedByReason;
    private final long[] droppedCounts = new long[IngressStats.REASONS.size()];
    private long nextDropRefreshNanos;
    private int cycles;
    private volatile boolean stopRequested;
    private boolean receiving;
    private boolean started;

    /**
     * @param name     the agent's name in the core map, {@code ingress:<port>:<queue>}.
     * @param ingress  not yet started: {@link #onStart()} starts it on the agent's thread.
     * @param ring     to the session agent.
     * @param counters where its counters go, labelled {@code ingress.<port>.<queue>.*}.
     */
    IngressAgent(final String name, final Ingress ingress, final RingBuffer ring, final ErrorHandler errorHandler,
        final CountersFileWriter counters)
    {
        this.name = name;
        this.ingress = ingress;
        this.ring = ring;
        this.errorHandler = errorHandler;
        this.ringBuffer = ring.buffer();
        final String prefix = name.replace(':', '.') + ".";
        packets = counters.newCounter(prefix + "packets", CounterType.TOTAL);
        bytes = counters.newCounter(prefix + "bytes", CounterType.TOTAL);
        dropped = counters.newCounter(prefix + "dropped", CounterType.TOTAL);
        oversized = counters.newCounter(prefix + "oversized", CounterType.TOTAL);
        maxPayload = ring.maxMsgLength() - PacketRingDescriptor.PAYLOAD_OFFSET;
        failure = counters.newCounter(prefix + "failure", CounterType.STATE);
        droppedByReason = new AtomicCounter[IngressStats.REASONS.size()];
        for (int i = 0; i < droppedByReason.length; i++)
        {
            droppedByReason[i] = counters.newCounter(prefix + "frames_dropped." +
                snakeCase(IngressStats.REASONS.get(i)), CounterType.TOTAL);
        }
    }

    private static String snakeCase(final String camelCase)
    {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** Copies the ingress's drop counters, about once a second (the clock is read every 1024 duty cycles). */
    private void refreshDroppedEverySecond()
    {
        if ((++cycles & DROP_REFRESH_CYCLES_MASK) == 0)
        {
            final long now = System.nanoTime();
            if (now - nextDropRefreshNanos >= 0)
            {
                nextDropRefreshNanos = now + DROP_REFRESH_NANOS;
                refreshDropped();
            }
        }
    }

    private void refreshDropped()
    {
        ingress.readDropped(droppedCounts);
        for (int i = 0; i < droppedByReason.length; i++)
        {
            droppedByReason[i].setRelease(droppedCounts[i]);
        }
    }

    @Override
    public void onStart()
    {
        ingress.start();
        started = true;
        receiving = true;
    }

    @Override
    public int doWork()
    {
        if (!receiving)
        {
            return 0;
        }
        if (stopRequested)
        {
            receiving = false;
            ingress.close();
            refreshDropped();
            return 1;
        }
        refreshDroppedEverySecond();
        final int received = ingress.poll(this);
        if (received < 0)
        {
            receiving = false;
            failure.setRelease(received);
            errorHandler.onError(new IllegalStateException("ingress " + name + " failed with " + received +
                " (-errno); it receives nothing more"));
            return 0;
        }
        return received;
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        if (length > maxPayload)
        {
            oversized.incrementRelease();
            return;
        }
        final int index = ring.tryClaim(PacketRingDescriptor.typeId(line), PacketRingDescriptor.PAYLOAD_OFFSET + length);
        if (index < 0)
        {
            dropped.incrementRelease();
            return;
        }
        ringBuffer.putLong(index + PacketRingDescriptor.RECEIVE_TIMESTAMP_OFFSET, receiveTimestampNanos,
            ByteOrder.LITTLE_ENDIAN);
        ringBuffer.putBytes(index + PacketRingDescriptor.PAYLOAD_OFFSET, buffer, offset, length);
        ring.commit(index);
        packets.incrementRelease();
        bytes.getAndAddRelease(length);
    }

    /** Asks the agent to close its port at its next duty cycle. Any thread. */
    void stopReceiving()
    {
        stopRequested = true;
    }

    /** @return true once the port is closed (or never opened). */
    boolean isStopped()
    {
        return !receiving;
    }

    @Override
    public void onClose()
    {
        if (started)
        {
            ingress.close();
            refreshDropped();
        }
    }

    @Override
    public String roleName()
    {
        return name;
    }
}
