package io.mdgate.core.sim;

/**
 * The shape of a simulated session's message rate over simulated time.
 */
public enum RateProfile
{
    /** The configured rate for the whole session. */
    STEADY,

    /**
     * The configured rate multiplied at the 09:30 open by the burst multiplier, decaying exponentially back to
     * the configured rate with the burst decay time: the rush of the opening minutes, compressed.
     */
    OPENING_BURST
}
