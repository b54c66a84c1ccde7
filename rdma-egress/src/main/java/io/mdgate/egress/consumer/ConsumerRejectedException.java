package io.mdgate.egress.consumer;

/**
 * The publisher refused this consumer (wrong token, unknown name, bad region, no capacity). Retrying with the same
 * settings would be refused again.
 */
public final class ConsumerRejectedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;
    private final int reason;

    public ConsumerRejectedException(final int reason, final String message)
    {
        super(message);
        this.reason = reason;
    }

    /** @return the REJECT reason code ({@link io.mdgate.egress.protocol.ControlMessageDescriptor}). */
    public int reason()
    {
        return reason;
    }
}
