package io.mdgate.journal;

import java.nio.file.Path;

/**
 * Writes ticks into a journal on the calling thread: publisher and agent driven in turn, as a test needs them.
 */
final class JournalFixture
{
    private JournalFixture()
    {
    }

    /**
     * Appends ticks {@code from..to} (derived by {@link TestTicks}) and closes the journal.
     *
     * @return the journaled sequence after the last append.
     */
    static long write(final JournalContext context, final long from, final long to)
    {
        final TestTicks ticks = new TestTicks();
        try (TickJournal journal = TickJournal.open(context))
        {
            return write(journal, ticks, from, to);
        }
    }

    static long write(final TickJournal journal, final TestTicks ticks, final long from, final long to)
    {
        final JournalAgent agent = journal.agent();
        agent.onStart();
        for (long sequence = from; sequence <= to; sequence++)
        {
            journal.publisher().onTick(ticks.tick(sequence), 0);
            if ((sequence & 255) == 0)
            {
                agent.doWork();
            }
        }
        agent.onClose();
        return journal.journaledSequence();
    }

    static JournalContext context(final Path directory)
    {
        return new JournalContext().directory(directory);
    }
}
