package io.mdgate.core.sim;

import io.mdgate.core.itch.Alpha;

import java.util.Arrays;

/**
 * The simulated instruments: symbols (sorted, so stock locates follow the alphabet as Nasdaq's do), a price
 * window per instrument and a fair mid that random-walks inside it, a quoted spread, and how active each one
 * is. Instrument {@code i} (0-based) has stock locate {@code i + 1}. Prices are kept in ticks of one cent as
 * levels 0..{@link #levels()}-1 of the instrument's window, which starts at one cent or above. Built at start-up;
 * allocation-free afterwards. Not thread-safe.
 */
final class Instruments
{
    /** One cent in ITCH Price(4) units. */
    static final long TICK = 100;

    private static final int SYMBOL_SPACE = 26 * 26 * 26 * 26;
    private static final int SYMBOL_STRIDE = 150_001;
    private static final double MIN_PRICE = 5.0;
    private static final double MAX_PRICE = 300.0;

    private final int count;
    private final int levels;
    private final int fair2Min;
    private final int fair2Max;
    private final long[] symbol;
    private final long[] windowLowTicks;
    private final int[] fair2;
    private final int[] spread;
    private final int[] byActivity;
    private final char[] tier;

    /**
     * @param count  instruments.
     * @param levels price levels, one cent apart, of each instrument's window.
     * @param random the session's source; the draws do not depend on {@code levels}.
     */
    Instruments(final int count, final int levels, final SimRandom random)
    {
        this.count = count;
        this.levels = levels;
        fair2Min = 2 * SimulationConfig.WINDOW_MARGIN;
        fair2Max = 2 * (levels - SimulationConfig.WINDOW_MARGIN);
        symbol = new long[count];
        windowLowTicks = new long[count];
        fair2 = new int[count];
        spread = new int[count];
        byActivity = new int[count];
        tier = new char[count];

        final String[] names = new String[count];
        final int start = random.nextInt(SYMBOL_SPACE);
        for (int i = 0; i < count; i++)
        {
            names[i] = name((int)((start + (long)i * SYMBOL_STRIDE) % SYMBOL_SPACE));
        }
        Arrays.sort(names);
        for (int i = 0; i < count; i++)
        {
            symbol[i] = Alpha.pack8(names[i]);
            final double price = MIN_PRICE * Math.exp(random.nextDouble() * Math.log(MAX_PRICE / MIN_PRICE));
            final long priceTicks = Math.round(price * 100);
            windowLowTicks[i] = Math.max(1, priceTicks - levels / 2);
            fair2[i] = (int)Math.max(fair2Min, Math.min(fair2Max, 2 * (priceTicks - windowLowTicks[i])));
            spread[i] = random.chance(0.7) ? 1 : random.between(2, 3);
            tier[i] = price >= 50 ? '1' : '2';
            byActivity[i] = i;
        }
        for (int i = count - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int swap = byActivity[i];
            byActivity[i] = byActivity[j];
            byActivity[j] = swap;
        }
    }

    /** Four letters from a number below 26^4; the stride is coprime to 26^4, so names are unique. */
    private static String name(final int number)
    {
        final char[] letters = new char[4];
        int n = number;
        for (int i = 3; i >= 0; i--)
        {
            letters[i] = (char)('A' + n % 26);
            n /= 26;
        }
        return new String(letters);
    }

    int count()
    {
        return count;
    }

    int levels()
    {
        return levels;
    }

    static int locate(final int instrument)
    {
        return instrument + 1;
    }

    long symbol(final int instrument)
    {
        return symbol[instrument];
    }

    char luldTier(final int instrument)
    {
        return tier[instrument];
    }

    /** @return an instrument drawn with a skew towards the most active ones, as real order flow is. */
    int pickActive(final SimRandom random)
    {
        final double u = random.nextDouble();
        return byActivity[(int)(u * u * count)];
    }

    /** @return the ITCH Price(4) of a level of the instrument's window. */
    long price(final int instrument, final int level)
    {
        return (windowLowTicks[instrument] + level) * TICK;
    }

    /** @return the fair mid as a Price(4), to the half cent. */
    long fairPrice(final int instrument)
    {
        return windowLowTicks[instrument] * TICK + fair2[instrument] * (TICK / 2);
    }

    /** @return a price near the fair mid, moved by up to the given fraction either way, rounded to the cent. */
    long priceAround(final int instrument, final double fraction, final SimRandom random)
    {
        final double factor = 1.0 + fraction * (2.0 * random.nextDouble() - 1.0);
        return Math.max(TICK, Math.round(fairPrice(instrument) * factor / TICK) * TICK);
    }

    /** Moves the fair mid by half a cent now and then, reflecting at the window's edges. */
    void walk(final int instrument, final SimRandom random)
    {
        if (random.chance(1.0 / 12))
        {
            final int step = random.chance(0.5) ? 1 : -1;
            final int next = fair2[instrument] + step;
            fair2[instrument] = next < fair2Min || next > fair2Max ? fair2[instrument] - step : next;
        }
    }

    /** @return a level for a new passive order, {@code depth} levels behind the quote the fair mid suggests. */
    int passiveLevel(final int instrument, final boolean buy, final int depth)
    {
        if (buy)
        {
            return Math.max(0, Math.floorDiv(fair2[instrument] - spread[instrument], 2) - depth);
        }
        return Math.min(levels - 1, -Math.floorDiv(-(fair2[instrument] + spread[instrument]), 2) + depth);
    }

    /** @return twice the fair mid level: compare with the sum of best bid and best offer levels. */
    int fair2(final int instrument)
    {
        return fair2[instrument];
    }
}
