package io.mdgate.journal;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalContextTest
{
    private static void assertRefused(final UnaryOperator<JournalContext> settings, final String expected)
    {
        final JournalContext context = settings.apply(new JournalContext().directory(Path.of("journal")));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, context::conclude);
        assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    }

    @Test
    void shouldAcceptTheDefaultsAndProvideAJournaledPosition()
    {
        final JournalContext context = new JournalContext().directory(Path.of("journal")).conclude();
        assertEquals(JournalRollCycle.HOURLY, context.rollCycle());
        assertEquals(JournalContext.RETAIN_ALL, context.retainCycles());
        assertNotNull(context.journaledPosition());
    }

    @Test
    void shouldRefuseSettingsOutOfRangeNamingWhatIsWrong()
    {
        assertRefused(c -> c.directory(null), "directory is not set");
        assertRefused(c -> c.retainCycles(-1), "retainCycles must be 0 (keep all) or more");
        assertRefused(c -> c.ringCapacity(3 << 20), "ringCapacity must be a power of two");
        assertRefused(c -> c.ringCapacity(1 << 16), "ringCapacity must be a power of two");
        assertRefused(c -> c.drainLimit(0), "drainLimit must be between 1");
        assertRefused(c -> c.rollCycle(null), "rollCycle");
    }

    @Test
    void shouldParseRollCyclesInAnyCaseAndListTheAcceptedOnes()
    {
        assertEquals(JournalRollCycle.HALF_HOURLY, JournalRollCycle.parse("half-hourly"));
        assertEquals(JournalRollCycle.DAILY, JournalRollCycle.parse("DAILY"));
        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> JournalRollCycle.parse("fortnightly"));
        assertTrue(refused.getMessage().contains("five-minutely"), refused.getMessage());
    }
}
