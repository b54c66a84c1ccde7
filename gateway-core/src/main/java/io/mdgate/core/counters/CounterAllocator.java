package io.mdgate.core.counters;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * Where a component gets its counters: the gateway's counters file, which other processes read while the gateway
 * runs, or {@link PrivateCounters} for a component whose counters nobody outside reads (a tool, a test). A component
 * asks for its counters once, at construction, through its descriptor (e.g. {@link CounterDescriptor#newCounter}),
 * keeps the {@link AtomicCounter}s and updates them itself where the event happens; nobody copies them.
 * <p>
 * Threading: allocate on the start-up thread, before the components' threads start. Each counter then has one
 * writer (the thread of the component that owns it) unless its owner says otherwise.
 */
@FunctionalInterface
public interface CounterAllocator
{
    /**
     * Allocates a counter, 0 at first.
     *
     * @param label  its dotted label, unique among the allocator's counters (e.g. {@code feed.A.packets}).
     * @param typeId one of {@link CounterType}.
     * @return the counter.
     * @throws IllegalArgumentException when the label is taken.
     * @throws IllegalStateException    when the allocator has no room left.
     */
    AtomicCounter newCounter(String label, int typeId);
}
