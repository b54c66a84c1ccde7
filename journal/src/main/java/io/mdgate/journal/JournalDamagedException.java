package io.mdgate.journal;

import java.nio.file.Path;

/**
 * A journal file does not hold what the journal says it holds: it is shorter than its own header says (truncated),
 * a record has the wrong length, sequences jump or go back, or records the index promises cannot be read. Nothing
 * is skipped silently: reading stops here. The message names the file, where the damage is, and what to do.
 */
public final class JournalDamagedException extends JournalException
{
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * @param file    the damaged file, or the queue directory when no one file can be named.
     * @param problem what is wrong, without the advice.
     */
    public JournalDamagedException(final Path file, final String problem)
    {
        super(message(file, problem));
        this.file = file;
    }

    /**
     * @param file    the damaged file, or the queue directory when no one file can be named.
     * @param problem what is wrong, without the advice.
     * @param cause   what the queue library reported.
     */
    public JournalDamagedException(final Path file, final String problem, final Throwable cause)
    {
        super(message(file, problem), cause);
        this.file = file;
    }

    /** @return the damaged file (or queue directory). */
    public Path file()
    {
        return file;
    }

    private static String message(final Path file, final String problem)
    {
        return "journal file " + file + " is damaged: " + problem + ". Restore the file from a copy; or, to read " +
            "the rest of the journal, move this file and every later one out of the directory (ticks after the " +
            "last good record are then lost from the journal)";
    }
}
