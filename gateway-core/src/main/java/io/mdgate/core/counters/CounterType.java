package io.mdgate.core.counters;

/**
 * The type id every counter carries (the Agrona counter's type id, kept in the counters file), which tells a reader
 * how to show it: a total only grows (a reader may show its rate), a level goes up and down, a position is a sequence
 * number, a latency is in nanoseconds, a state is a flag or a small enumeration. The numbers are part of the counters
 * file's format: never renumber them. Constants only; any thread.
 */
public final class CounterType
{
    /** An event count that only grows while the gateway runs (packets, gaps, drops): rates make sense. */
    public static final int TOTAL = 1;
    /** A level that goes up and down (consumer lag, ring fill, consumers connected). */
    public static final int LEVEL = 2;
    /** A sequence number (journal position, last published sequence). */
    public static final int POSITION = 3;
    /** A latency percentile over the last second, in nanoseconds. */
    public static final int LATENCY_NS = 4;
    /** A state: 0 or 1 (market open, line stale), or a small enumeration documented with the counter. */
    public static final int STATE = 5;

    private CounterType()
    {
    }

    /** @return a short name of the type for display: total, level, position, latency_ns, state, or the number. */
    public static String name(final int typeId)
    {
        return switch (typeId)
        {
            case TOTAL -> "total";
            case LEVEL -> "level";
            case POSITION -> "position";
            case LATENCY_NS -> "latency_ns";
            case STATE -> "state";
            default -> Integer.toString(typeId);
        };
    }
}
