package io.mdgate.journal;

import io.mdgate.core.counters.CounterAllocator;
import io.mdgate.core.counters.CounterDescriptor;
import io.mdgate.core.counters.CounterType;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The counters of a {@link TickJournal}, labelled {@code journal.<suffix>}, allocated once when the journal opens from
 * the {@link CounterAllocator} of its {@link JournalContext}. The {@link JournalAgent}'s thread writes all of them
 * except {@link #BACK_PRESSURED} and {@link #OVERSIZED_PACKETS}, which the {@link JournalPublisher}'s (the core's)
 * thread writes: each has one writer. docs/OPERATIONS.md says what each means.
 * <p>
 * Immutable; any thread.
 */
public enum JournalCounterDescriptor implements CounterDescriptor
{
    /** The gateway sequence of the last tick in the journal's files: a tick at or below it survives a crash. */
    POSITION("position", CounterType.POSITION),
    /** Ticks appended since the journal opened. */
    TICKS("ticks", CounterType.TOTAL),
    /** Packets appended since the journal opened. */
    PACKETS("packets", CounterType.TOTAL),
    /** Ticks refused because their sequence did not follow the last one journaled. */
    TICKS_OUT_OF_SEQUENCE("ticks_out_of_sequence", CounterType.TOTAL),
    /** Packet records refused as malformed. */
    MALFORMED_PACKETS("malformed_packets", CounterType.TOTAL),
    /** Times a tick or packet had to wait for space in the ring to the journal's thread. */
    BACK_PRESSURED("back_pressured", CounterType.TOTAL),
    /** Packets too long to journal. */
    OVERSIZED_PACKETS("oversized_packets", CounterType.TOTAL),
    /** Cycle files deleted by retention. */
    CYCLES_DELETED("cycles_deleted", CounterType.TOTAL),
    /** 1 once the journal stopped because its filesystem had no room for the next record. */
    NO_SPACE("no_space", CounterType.STATE);

    /** The prefix of every label. */
    public static final String PREFIX = "journal.";

    private final String labelSuffix;
    private final int typeId;

    JournalCounterDescriptor(final String labelSuffix, final int typeId)
    {
        this.labelSuffix = labelSuffix;
        this.typeId = typeId;
    }

    @Override
    public String labelSuffix()
    {
        return labelSuffix;
    }

    @Override
    public int typeId()
    {
        return typeId;
    }

    /**
     * Allocates every counter, in declaration order.
     *
     * @return the counters, indexed by {@link #ordinal()}.
     */
    static AtomicCounter[] newCounters(final CounterAllocator allocator)
    {
        final JournalCounterDescriptor[] descriptors = values();
        final AtomicCounter[] counters = new AtomicCounter[descriptors.length];
        for (final JournalCounterDescriptor descriptor : descriptors)
        {
            counters[descriptor.ordinal()] = descriptor.newCounter(allocator, PREFIX);
        }
        return counters;
    }
}
