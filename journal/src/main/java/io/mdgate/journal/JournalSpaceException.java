package io.mdgate.journal;

import org.agrona.concurrent.AgentTerminationException;

import java.nio.file.Path;

/**
 * The journal's filesystem has no room for the next record: the journal agent appended nothing of it and stops
 * (an {@link AgentTerminationException} ends the agent's runner). Every tick up to {@link #lastSequence()} is whole
 * in the journal's files; none after it was appended, so a reader that follows the journal (the egress) never saw
 * one. The message says where, how much was free, and where a restart resumes.
 */
public final class JournalSpaceException extends AgentTerminationException
{
    private static final long serialVersionUID = 1L;

    private final transient Path directory;
    private final long freeBytes;
    private final long lastSequence;

    /**
     * @param directory    the journal directory.
     * @param freeBytes    free bytes on its filesystem when the append was refused, -1 when unknown.
     * @param lastSequence the last tick journaled, {@link TickReplay#NO_SEQUENCE} for none.
     */
    public JournalSpaceException(final Path directory, final long freeBytes, final long lastSequence)
    {
        super(message(directory, freeBytes, lastSequence));
        this.directory = directory;
        this.freeBytes = freeBytes;
        this.lastSequence = lastSequence;
    }

    /** @return the journal directory. */
    public Path directory()
    {
        return directory;
    }

    /** @return the free bytes on its filesystem when the append was refused, -1 when unknown. */
    public long freeBytes()
    {
        return freeBytes;
    }

    /** @return the last tick in the journal, {@link TickReplay#NO_SEQUENCE} when it has none. */
    public long lastSequence()
    {
        return lastSequence;
    }

    private static String message(final Path directory, final long freeBytes, final long lastSequence)
    {
        final String free = freeBytes < 0 ? "free space unknown" : freeBytes + " bytes free";
        return "no space left on " + directory + " (" + free + ") " + (lastSequence == TickReplay.NO_SEQUENCE ?
            "before the first tick; free space and start again: the run starts at sequence 1" :
            "at sequence " + lastSequence + "; free space and start again: the run resumes at " + (lastSequence + 1));
    }
}
