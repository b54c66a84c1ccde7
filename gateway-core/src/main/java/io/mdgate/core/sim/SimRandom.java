package io.mdgate.core.sim;

/**
 * A small seeded pseudo-random source (xoshiro256**, seeded through SplitMix64), written out here rather than
 * borrowed from the JDK so that a seed gives the same session on every JVM version. Allocation-free.
 * Not thread-safe: one instance per generator.
 */
final class SimRandom
{
    private static final long GOLDEN_GAMMA = 0x9E37_79B9_7F4A_7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private long s0;
    private long s1;
    private long s2;
    private long s3;

    SimRandom(final long seed)
    {
        long x = seed;
        x += GOLDEN_GAMMA;
        s0 = mix(x);
        x += GOLDEN_GAMMA;
        s1 = mix(x);
        x += GOLDEN_GAMMA;
        s2 = mix(x);
        x += GOLDEN_GAMMA;
        s3 = mix(x);
    }

    private static long mix(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    long nextLong()
    {
        final long result = Long.rotateLeft(s1 * 5, 7) * 9;
        final long t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = Long.rotateLeft(s3, 45);
        return result;
    }

    /** @return uniformly in [0, bound) for a positive bound. */
    int nextInt(final int bound)
    {
        return (int)(((nextLong() >>> 32) * bound) >>> 32);
    }

    /** @return uniformly in [low, high] inclusive. */
    int between(final int low, final int high)
    {
        return low + nextInt(high - low + 1);
    }

    /** @return uniformly in [0, 1). */
    double nextDouble()
    {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    boolean chance(final double probability)
    {
        return nextDouble() < probability;
    }

    /** @return how many successes, each with the given probability, come before the first failure, at most max. */
    int geometric(final double probability, final int max)
    {
        int n = 0;
        while (n < max && chance(probability))
        {
            n++;
        }
        return n;
    }
}
