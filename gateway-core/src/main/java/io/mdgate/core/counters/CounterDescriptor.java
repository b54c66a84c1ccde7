package io.mdgate.core.counters;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * One counter of a module, as the module's descriptor enum declares it (e.g. {@code FeedCounterDescriptor}): the
 * stable end of its label and its {@link CounterType}. The module puts its prefix in front ({@code feed.},
 * {@code feed.A.}, {@code journal.}) and allocates it with {@link #newCounter(CounterAllocator, String)}. The labels
 * are an interface: operators' dashboards and {@code mdgate stat} filters name them, so a suffix never changes.
 * <p>
 * Implementations are enum constants: immutable, any thread.
 */
public interface CounterDescriptor
{
    /** @return the end of the label, after the module's prefix, e.g. {@code gaps.opened}. */
    String labelSuffix();

    /** @return one of {@link CounterType}. */
    int typeId();

    /**
     * @param prefix what goes in front of {@link #labelSuffix()}, dot included, e.g. {@code feed.A.}.
     * @return the full label.
     */
    default String label(final String prefix)
    {
        return prefix + labelSuffix();
    }

    /**
     * Allocates this counter under {@code prefix + labelSuffix()}.
     *
     * @param allocator where the counter lives.
     * @param prefix    the module's prefix, dot included.
     * @return the counter, 0 at first.
     */
    default AtomicCounter newCounter(final CounterAllocator allocator, final String prefix)
    {
        return allocator.newCounter(label(prefix), typeId());
    }
}
