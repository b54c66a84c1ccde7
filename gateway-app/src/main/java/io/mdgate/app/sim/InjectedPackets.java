package io.mdgate.app.sim;

/**
 * Extra packets to inject besides the lines' faults, each a copy of a real data packet sent right after it on one
 * line (lines alternate, A first): <b>stray</b> copies carry the session name with one bit flipped (one of the low
 * five bits of one of its ten bytes, so letters and digits stay printable), as a packet from another session would;
 * <b>far-ahead</b> copies carry a sequence shifted up by {@code farAheadSequence - 1} (the first message of the
 * packet gets {@code farAheadSequence} plus its own sequence less one), as a packet with a damaged or bogus sequence
 * would. Each kind is asked for by count (spread evenly over the run's messages) and by probability per data packet;
 * both may be combined. Immutable; validated on construction.
 *
 * @param strays           stray packets spread evenly over the run.
 * @param strayRate        probability a data packet is followed by a stray copy.
 * @param farAhead         far-ahead packets spread evenly over the run.
 * @param farAheadRate     probability a data packet is followed by a far-ahead copy.
 * @param farAheadSequence sequence a far-ahead copy of the packet starting at sequence 1 would carry, at least 2.
 */
public record InjectedPackets(long strays, double strayRate, long farAhead, double farAheadRate, long farAheadSequence)
{
    /** 2^40: about a trillion messages ahead, far beyond any session. */
    public static final long DEFAULT_FAR_AHEAD_SEQUENCE = 1L << 40;
    public static final InjectedPackets NONE = new InjectedPackets(0, 0, 0, 0, DEFAULT_FAR_AHEAD_SEQUENCE);

    public InjectedPackets
    {
        if (strays < 0 || farAhead < 0)
        {
            throw new IllegalArgumentException("stray and far-ahead packet counts must be 0 or more, were " + strays +
                " and " + farAhead);
        }
        probability("stray", strayRate);
        probability("far-ahead", farAheadRate);
        if (farAheadSequence < 2)
        {
            throw new IllegalArgumentException("the far-ahead sequence must be at least 2, was " + farAheadSequence);
        }
    }

    private static void probability(final String name, final double value)
    {
        if (!(value >= 0 && value <= 1))
        {
            throw new IllegalArgumentException(name + " rate is a probability per data packet from 0 to 1, was " +
                value);
        }
    }

    public boolean isNone()
    {
        return strays == 0 && strayRate == 0 && farAhead == 0 && farAheadRate == 0;
    }
}
