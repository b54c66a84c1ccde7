package io.mdgate.core.sim;

/**
 * Simulated exchange time in nanoseconds since midnight, advanced message by message according to the rate
 * profile: gaps are exponentially distributed around the mean the profile gives at the current time (a
 * Poisson stream, so bursts and idle stretches occur naturally), capped at a few means so a run stays within
 * its day. Never goes backwards. Not thread-safe.
 */
final class SessionClock
{
    /** Latest time the clock reaches: just before midnight, so timestamps stay within their day. */
    static final long LAST_NANOS = 86_399_000_000_000L;

    private static final double MAX_GAP_IN_MEANS = 8.0;

    private final SimRandom random;
    private final RateProfile profile;
    private final double meanGapNanos;
    private final double burstExcess;
    private final double burstDecayNanos;
    private long now;
    private long held;

    SessionClock(final SimulationConfig config, final SimRandom random, final long start)
    {
        this.random = random;
        this.profile = config.rateProfile();
        this.meanGapNanos = 1e9 / config.messagesPerSecond();
        this.burstExcess = config.burstMultiplier() - 1.0;
        this.burstDecayNanos = config.burstDecayNanos();
        this.now = start;
    }

    long now()
    {
        return now;
    }

    /** Moves to a fixed point in the schedule; never backwards. */
    long moveTo(final long time)
    {
        now = Math.min(Math.max(now, time), LAST_NANOS);
        return now;
    }

    /** @return the mean gap between messages at the current time under the rate profile. */
    double meanGapNanos()
    {
        if (profile == RateProfile.OPENING_BURST && now >= SimulationConfig.MARKET_OPEN_NANOS)
        {
            final double sinceOpen = now - SimulationConfig.MARKET_OPEN_NANOS;
            return meanGapNanos / (1.0 + burstExcess * Math.exp(-sinceOpen / burstDecayNanos));
        }
        return meanGapNanos;
    }

    /**
     * Keeps the time for one more message (several messages of one event share a timestamp); the next
     * {@link #advance()} makes up the gap so the mean rate holds.
     */
    long hold()
    {
        held++;
        return now;
    }

    /** Advances by one random inter-message gap (plus those held back) and returns the new time. */
    long advance()
    {
        final double mean = meanGapNanos() * (1 + held);
        held = 0;
        final double gap = Math.min(-Math.log(1.0 - random.nextDouble()) * mean, MAX_GAP_IN_MEANS * mean);
        now = Math.min(now + Math.round(gap), LAST_NANOS);
        return now;
    }
}
