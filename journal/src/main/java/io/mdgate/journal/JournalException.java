package io.mdgate.journal;

/**
 * A journal cannot be opened or used as asked: the directory is not a journal, it was made with other settings or
 * by another format, or a file cannot be read or written. The message names the directory or file and says what
 * to do. Thrown at open and by replay and info, never on the append path.
 */
public class JournalException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public JournalException(final String message)
    {
        super(message);
    }

    public JournalException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
