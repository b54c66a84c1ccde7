package io.mdgate.core.counters;

import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class PrivateCountersTest
{
    private enum Sample implements CounterDescriptor
    {
        EVENTS("events", CounterType.TOTAL),
        DEPTH("depth", CounterType.LEVEL);

        private final String suffix;
        private final int typeId;

        Sample(final String suffix, final int typeId)
        {
            this.suffix = suffix;
            this.typeId = typeId;
        }

        @Override
        public String labelSuffix()
        {
            return suffix;
        }

        @Override
        public int typeId()
        {
            return typeId;
        }
    }

    @Test
    void shouldAllocateADescribedCounterUnderItsPrefixAndTypeAndReadItBack()
    {
        final PrivateCounters counters = new PrivateCounters(2);
        final AtomicCounter events = Sample.EVENTS.newCounter(counters, "module.");
        final AtomicCounter depth = Sample.DEPTH.newCounter(counters, "module.");
        events.incrementRelease();
        events.incrementRelease();
        depth.setRelease(7);

        assertEquals(2, counters.value("module.events"));
        assertEquals(7, counters.value("module.depth"));
        assertEquals(CounterType.LEVEL, counters.reader().getCounterTypeId(depth.id()));
        assertEquals("module.events", counters.reader().getCounterLabel(events.id()));
    }

    @Test
    void shouldRefuseALabelTwiceAndACounterPastItsCapacity()
    {
        final PrivateCounters counters = new PrivateCounters(1);
        Sample.EVENTS.newCounter(counters, "a.");
        assertThrows(IllegalArgumentException.class, () -> Sample.EVENTS.newCounter(counters, "a."));
        assertThrows(IllegalStateException.class, () -> Sample.EVENTS.newCounter(counters, "b."));
        assertThrows(IllegalArgumentException.class, () -> counters.value("b.events"));
    }
}
