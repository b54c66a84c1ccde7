package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressStats;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.status.AtomicCounter;


/**
 * One port queue's receive duty cycle: polls a burst from the {@link Ingress} and hands each packet, with its line
 * and receive time, to its {@link SessionInput}: the session itself when they share a thread (run-to-completion), or
 * a {@link PacketRingWriter} to a session on another thread (pipeline), which drops and counts what finds the ring
 * full. Before each burst it asks the input whether it can take one; while it cannot, the agent leaves the packets
 * in the port's queue and counts the cycle in {@code ingress.<port>.<queue>.paused}: the session has no room for
 * more ticks, and whatever the port then drops the session recovers like line loss. What the ingress itself dropped,
 * per reason (bad checksums, lengths, fragments, other destinations, ...), is copied about once a second, and at
 * close, into {@code ingress.<port>.<queue>.frames_dropped.<reason>} ({@link IngressStats#REASONS}, in snake case).
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
    /**
     * The payload bytes one burst is assumed to carry at most: 32 packets of a 2 KiB receive buffer (a DPDK mbuf's
     * data room). A larger packet (a kernel socket's datagram may be) is checked on its own by the session.
     */
    static final int MAX_BURST_BYTES = 32 * 2048;
    private static final int DROP_REFRESH_CYCLES_MASK = 1023;
    private static final long DROP_REFRESH_NANOS = 1_000_000_000L;

    private final String name;
    private final Ingress ingress;
    private final ErrorHandler errorHandler;
    private final AtomicCounter packets;
    private final AtomicCounter bytes;
    private final AtomicCounter paused;
    private final AtomicCounter dropped;
    private final AtomicCounter oversized;
    private final AtomicCounter failure;
    private final AtomicCounter[] droppedByReason;
    private final long[] droppedCounts = new long[IngressStats.REASONS.size()];
    private long nextDropRefreshNanos;
    private int cycles;
    private SessionInput input;
    private volatile boolean stopRequested;
    private boolean receiving;
    private boolean started;

    /**
     * @param name     the agent's name in the core map, {@code ingress:<port>:<queue>}.
     * @param ingress  not yet started: {@link #onStart()} starts it on the agent's thread.
     * @param counters where its counters go, labelled {@code ingress.<port>.<queue>.*}.
     */
    IngressAgent(final String name, final Ingress ingress, final ErrorHandler errorHandler,
        final CountersFileWriter counters)
    {
        this.name = name;
        this.ingress = ingress;
        this.errorHandler = errorHandler;
        final String prefix = counterPrefix();
        packets = counters.newCounter(prefix + "packets", CounterType.TOTAL);
        bytes = counters.newCounter(prefix + "bytes", CounterType.TOTAL);
        paused = counters.newCounter(prefix + "paused", CounterType.TOTAL);
        dropped = counters.newCounter(prefix + "dropped", CounterType.TOTAL);
        oversized = counters.newCounter(prefix + "oversized", CounterType.TOTAL);
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

    /** @return packets the packet ring had no room for (pipeline only; on the session's thread it stays 0). */
    AtomicCounter dropped()
    {
        return dropped;
    }

    /** @return packets too long for the packet ring (pipeline only). */
    AtomicCounter oversized()
    {
        return oversized;
    }

    /** @return the prefix of this agent's counters, e.g. {@code ingress.a.0.}. */
    String counterPrefix()
    {
        return name.replace(':', '.') + ".";
    }

    /**
     * @param input where the packets go; set once, before the agent starts.
     * @return this agent.
     */
    IngressAgent input(final SessionInput input)
    {
        this.input = input;
        return this;
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
        if (!input.readyForBurst(MAX_BURST_BYTES))
        {
            paused.incrementRelease();
            return 0;
        }
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
        packets.incrementRelease();
        bytes.getAndAddRelease(length);
        input.onPacket(line, buffer, offset, length, receiveTimestampNanos);
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
