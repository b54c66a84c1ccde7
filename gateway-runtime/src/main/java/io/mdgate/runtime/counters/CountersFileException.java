package io.mdgate.runtime.counters;

/** A counters file that cannot be read: absent, not yet initialised, of another format or version, or truncated. */
public final class CountersFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public CountersFileException(final String message)
    {
        super(message);
    }
}
