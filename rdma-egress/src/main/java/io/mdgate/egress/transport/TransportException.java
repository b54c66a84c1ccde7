package io.mdgate.egress.transport;

/**
 * A transport could not be set up or a peer's resource could not be opened: start-up and session set-up failures
 * (missing directory, wrong key, permission, no device), never a hot-path condition. The message says what went
 * wrong and what would fix it.
 */
public final class TransportException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public TransportException(final String message)
    {
        super(message);
    }

    public TransportException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
