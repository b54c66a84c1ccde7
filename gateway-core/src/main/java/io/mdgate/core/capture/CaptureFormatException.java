package io.mdgate.core.capture;

import java.io.IOException;

/**
 * The content of a file is not in a format it was expected or detected to be in. Thrown once, before any record
 * is read, never for a bad record in the middle of a file (those are counted).
 */
public final class CaptureFormatException extends IOException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message saying which file and what was expected.
     */
    public CaptureFormatException(final String message)
    {
        super(message);
    }
}
