package io.mdgate.core.counters;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * A {@link CounterAllocator} over a buffer of its own that no other process sees: the default of a component's
 * context when it is given no allocator (tools, tests, a library use). Its counters behave exactly as the counters
 * file's (the same Agrona {@link CountersManager} layout, aligned off-heap memory as Agrona's ordered writes need);
 * only nobody outside reads them. {@link #reader()} reads them back by label, for tests.
 * <p>
 * Threading: allocate on one thread; the counters are then written by their owners' threads and may be read from
 * any thread.
 */
public final class PrivateCounters implements CounterAllocator
{
    private final CountersManager manager;
    private final Set<String> labels = new HashSet<>();

    /** @param maxCounters the counters it holds. */
    public PrivateCounters(final int maxCounters)
    {
        if (maxCounters < 1)
        {
            throw new IllegalArgumentException("maxCounters must be 1 or more, was " + maxCounters);
        }
        manager = new CountersManager(
            buffer(maxCounters * CountersReader.METADATA_LENGTH),
            buffer(maxCounters * CountersReader.COUNTER_LENGTH),
            StandardCharsets.US_ASCII);
    }

    private static UnsafeBuffer buffer(final int length)
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, CountersReader.COUNTER_LENGTH));
    }

    @Override
    public AtomicCounter newCounter(final String label, final int typeId)
    {
        if (!labels.add(label))
        {
            throw new IllegalArgumentException("counter label already allocated: " + label);
        }
        return manager.newCounter(label, typeId);
    }

    /** @return a reader of these counters (ids, labels, values), as another process would read a counters file. */
    public CountersReader reader()
    {
        return manager;
    }

    /**
     * @return the value of the counter with this label.
     * @throws IllegalArgumentException when there is none.
     */
    public long value(final String label)
    {
        final long[] found = { 0, 0 };
        manager.forEach((id, name) ->
        {
            if (name.equals(label))
            {
                found[0] = 1;
                found[1] = manager.getCounterValue(id);
            }
        });
        if (found[0] == 0)
        {
            throw new IllegalArgumentException("no counter '" + label + "'");
        }
        return found[1];
    }
}
