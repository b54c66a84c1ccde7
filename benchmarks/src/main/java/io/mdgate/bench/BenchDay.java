package io.mdgate.bench;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.sim.SimulationConfig;

import java.util.Locale;

/**
 * The simulated days the ITCH benchmarks run over, each with the book capacities it needs. Both hold exactly
 * {@link #MESSAGES} messages, so a benchmark's operations per invocation do not depend on the day.
 * <ul>
 *   <li>{@code standard}: 500 instruments, 100 live orders each, every order within 24 levels of the quote;</li>
 *   <li>{@code deep}: 8,000 instruments, 150 live orders each (1.27 million live at the peak), 30% of new and
 *       replaced orders 25 to 400 levels behind the quote in a 1,024-level window, so the busiest books are
 *       hundreds of levels deep (the deepest side reaches 413).</li>
 * </ul>
 * Immutable; each call returns new, unshared settings.
 */
enum BenchDay
{
    STANDARD
    {
        @Override
        SimulationConfig simulation()
        {
            return base().instruments(500);
        }

        @Override
        BookContext books()
        {
            return new BookContext();
        }
    },
    DEEP
    {
        @Override
        SimulationConfig simulation()
        {
            return base().instruments(8_000).ordersPerInstrument(150).priceLevels(1024).farOrderShare(0.3)
                .farOrderLevels(400);
        }

        /**
         * The day peaks at 1,267,025 live orders and 504,106 levels (DayShape): room for 1.6 and 2 times that; its
         * live references spread over 14.2M, so a 16M-record window finds every order directly.
         */
        @Override
        BookContext books()
        {
            return new BookContext().maxOrders(1 << 21).maxLevels(1 << 20).referenceWindow(1 << 24);
        }
    };

    static final int MESSAGES = 10_000_000;
    static final long SEED = 1;

    /** @return the day's simulator settings (not yet concluded). */
    abstract SimulationConfig simulation();

    /** @return book capacities that hold the day's peak (not yet concluded). */
    abstract BookContext books();

    private static SimulationConfig base()
    {
        return new SimulationConfig().seed(SEED).messages(MESSAGES);
    }

    /** @return the day's name as a benchmark parameter: {@code standard} or {@code deep}. */
    String parameter()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param name {@code standard} or {@code deep}, as in {@code -p day=deep}.
     * @throws IllegalArgumentException naming the days there are.
     */
    static BenchDay named(final String name)
    {
        for (final BenchDay day : values())
        {
            if (day.parameter().equals(name))
            {
                return day;
            }
        }
        throw new IllegalArgumentException("day must be standard or deep, was '" + name + "'");
    }
}
