package io.mdgate.runtime.counters;

import io.mdgate.core.counters.CounterType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every counter of a gateway at one moment, read from its counters file by {@link CountersFile#snapshot()}: label
 * to value, each counter's {@link CounterType}, and whether the gateway is running, stopped or dead.
 * Immutable; any thread.
 */
public final class CountersSnapshot
{
    /** Heartbeats older than this mean the gateway is no longer running. */
    public static final long HEARTBEAT_TIMEOUT_MILLIS = 5_000;

    private final String gatewayName;
    private final long pid;
    private final long startEpochMillis;
    private final long heartbeatEpochMillis;
    private final long stopEpochMillis;
    private final long takenEpochMillis;
    private final List<Counter> counters;
    private final Map<String, Counter> byLabel = new LinkedHashMap<>();

    /**
     * One counter.
     *
     * @param id     its id in the file.
     * @param typeId one of {@link CounterType}.
     * @param label  its dotted label.
     * @param value  its value when read.
     */
    public record Counter(int id, int typeId, String label, long value)
    {
    }

    /** The gateway's state as the file shows it. */
    public enum State
    {
        /** Heartbeat fresh and no stop time. */
        RUNNING,
        /** Stopped cleanly (stop time written). */
        STOPPED,
        /** No stop time, heartbeat stale: the process died or hangs. */
        DEAD
    }

    CountersSnapshot(final String gatewayName, final long pid, final long startEpochMillis,
        final long heartbeatEpochMillis, final long stopEpochMillis, final long takenEpochMillis,
        final List<Counter> counters)
    {
        this.gatewayName = gatewayName;
        this.pid = pid;
        this.startEpochMillis = startEpochMillis;
        this.heartbeatEpochMillis = heartbeatEpochMillis;
        this.stopEpochMillis = stopEpochMillis;
        this.takenEpochMillis = takenEpochMillis;
        this.counters = List.copyOf(counters);
        for (final Counter counter : this.counters)
        {
            byLabel.put(counter.label(), counter);
        }
    }

    /** @return every counter in allocation order. */
    public List<Counter> counters()
    {
        return counters;
    }

    /** @return label to value, in allocation order (unmodifiable). */
    public Map<String, Long> values()
    {
        final Map<String, Long> values = new LinkedHashMap<>();
        counters.forEach(counter -> values.put(counter.label(), counter.value()));
        return Collections.unmodifiableMap(values);
    }

    /** @return whether the file has a counter with this label. */
    public boolean has(final String label)
    {
        return byLabel.containsKey(label);
    }

    /**
     * @return the counter's value.
     * @throws IllegalArgumentException when there is no such counter.
     */
    public long value(final String label)
    {
        return counter(label).value();
    }

    /** @return the counter's value, or {@code missing} when there is no such counter. */
    public long value(final String label, final long missing)
    {
        final Counter counter = byLabel.get(label);
        return counter == null ? missing : counter.value();
    }

    /**
     * @return the counter's {@link CounterType}.
     * @throws IllegalArgumentException when there is no such counter.
     */
    public int typeId(final String label)
    {
        return counter(label).typeId();
    }

    /**
     * @return the counter.
     * @throws IllegalArgumentException when there is no such counter.
     */
    public Counter counter(final String label)
    {
        final Counter counter = byLabel.get(label);
        if (counter == null)
        {
            throw new IllegalArgumentException("no counter '" + label + "' in the counters file");
        }
        return counter;
    }

    public String gatewayName()
    {
        return gatewayName;
    }

    public long pid()
    {
        return pid;
    }

    public long startEpochMillis()
    {
        return startEpochMillis;
    }

    public long heartbeatEpochMillis()
    {
        return heartbeatEpochMillis;
    }

    /** @return when the gateway stopped cleanly, 0 when it did not. */
    public long stopEpochMillis()
    {
        return stopEpochMillis;
    }

    /** @return when this snapshot was read, ms since the epoch. */
    public long takenEpochMillis()
    {
        return takenEpochMillis;
    }

    /** @return running, stopped or dead, from the stop time and the heartbeat's age when read. */
    public State state()
    {
        if (stopEpochMillis != 0)
        {
            return State.STOPPED;
        }
        return takenEpochMillis - heartbeatEpochMillis <= HEARTBEAT_TIMEOUT_MILLIS ? State.RUNNING : State.DEAD;
    }
}
