package io.mdgate.app.sim;

/**
 * Faults to inject on one line, each a probability per packet: loss (a loss event drops 1 to
 * {@code lossBurst} consecutive packets), reordering (the packet is held back and sent after 1 to
 * {@code reorderDepth} later ones), duplication (sent twice), corruption (truncated, a block length or a message
 * type byte garbled). The end-of-session packet is never faulted, so receivers can always tell the session is
 * over. Immutable; validated on construction.
 */
public record FaultConfig(
    double lossRate, int lossBurst, double reorderRate, int reorderDepth, double duplicateRate, double corruptRate)
{
    public static final FaultConfig NONE = new FaultConfig(0, 1, 0, 1, 0, 0);
    public static final int MAX_BURST = 1_000;
    public static final int MAX_REORDER_DEPTH = 16;

    public FaultConfig
    {
        probability("loss", lossRate);
        probability("reorder", reorderRate);
        probability("duplicate", duplicateRate);
        probability("corrupt", corruptRate);
        if (lossBurst < 1 || lossBurst > MAX_BURST)
        {
            throw new IllegalArgumentException("loss burst must be 1 to " + MAX_BURST + " packets, was " + lossBurst);
        }
        if (reorderDepth < 1 || reorderDepth > MAX_REORDER_DEPTH)
        {
            throw new IllegalArgumentException(
                "reorder depth must be 1 to " + MAX_REORDER_DEPTH + " packets, was " + reorderDepth);
        }
    }

    private static void probability(final String name, final double value)
    {
        if (!(value >= 0 && value <= 1))
        {
            throw new IllegalArgumentException(name + " rate is a probability per packet from 0 to 1 (0.01 = 1%), was " +
                value);
        }
    }

    public boolean isNone()
    {
        return lossRate == 0 && reorderRate == 0 && duplicateRate == 0 && corruptRate == 0;
    }
}
