package io.mdgate.egress.transport;

/**
 * Return codes of the transport's hot-path operations. Failures on the hot path are codes and counters, never
 * exceptions; {@link #OK} and the negative codes below are the only values the operations return.
 */
public final class TransportResult
{
    /** The operation was posted (a write or send) or done. */
    public static final int OK = 0;
    /** The send or work queue is full; nothing was posted, try again later. */
    public static final int BACK_PRESSURED = -1;
    /** The peer is gone or the connection was closed; nothing was posted. */
    public static final int NOT_CONNECTED = -2;
    /** The offset and length do not fit the region; nothing was written. */
    public static final int OUT_OF_BOUNDS = -3;
    /** The message or datagram is longer than the channel's maximum; nothing was sent. */
    public static final int TOO_LONG = -4;

    private TransportResult()
    {
    }

    /**
     * @param result a code returned by a transport operation.
     * @return its name, for logs and messages.
     */
    public static String describe(final int result)
    {
        switch (result)
        {
            case OK:
                return "OK";
            case BACK_PRESSURED:
                return "BACK_PRESSURED";
            case NOT_CONNECTED:
                return "NOT_CONNECTED";
            case OUT_OF_BOUNDS:
                return "OUT_OF_BOUNDS";
            case TOO_LONG:
                return "TOO_LONG";
            default:
                return "UNKNOWN(" + result + ")";
        }
    }
}
