package io.mdgate.core.sim;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

/**
 * Settings of a simulated ITCH 5.0 session, with defaults, validated once by {@link #conclude()} (which the
 * generator calls). Set up on one thread before the session starts; not to be changed afterwards.
 * <p>
 * The simulated day is compressed: the start-of-day messages begin {@link #preOpenNanos()} before the 09:30
 * open, the order flow starts at the open and runs at the configured rate, and the close (closing cross, then
 * end of market hours, end of system hours, end of messages) follows the last order message rather than
 * waiting for 16:00.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>what it is</th></tr>
 *   <tr><td>seed</td><td>1</td><td>the same seed and settings give the same bytes</td></tr>
 *   <tr><td>instruments</td><td>100</td><td>1 to {@value #MAX_INSTRUMENTS}; stock locates 1..N</td></tr>
 *   <tr><td>messages</td><td>1,000,000</td><td>total messages of the session, start and end of day included;
 *       at least {@link #fixedMessages(int)}</td></tr>
 *   <tr><td>rateProfile</td><td>STEADY</td><td>{@link RateProfile}</td></tr>
 *   <tr><td>messagesPerSecond</td><td>1,000,000</td><td>mean rate in simulated time (gaps are exponential)</td></tr>
 *   <tr><td>burstMultiplier</td><td>10</td><td>rate multiplier at the open with OPENING_BURST</td></tr>
 *   <tr><td>burstDecayNanos</td><td>2 s</td><td>time constant of the burst's decay</td></tr>
 *   <tr><td>preOpenNanos</td><td>5 s</td><td>how long before 09:30 the session starts</td></tr>
 *   <tr><td>ordersPerInstrument</td><td>100</td><td>live orders per instrument the flow keeps around</td></tr>
 *   <tr><td>priceLevels</td><td>256</td><td>{@value #MIN_PRICE_LEVELS} to {@value #MAX_PRICE_LEVELS}: price levels,
 *       one cent apart, in each instrument's window (its fair mid walks inside it, {@value #WINDOW_MARGIN} levels
 *       from either edge); the generator keeps a queue head per level, instrument and side</td></tr>
 *   <tr><td>farOrderShare</td><td>0</td><td>0 to 1: share of new and replaced orders placed far from the touch;
 *       the others rest at most {@value #NEAR_DEPTH} levels behind the quote (geometrically, most at it)</td></tr>
 *   <tr><td>farOrderLevels</td><td>64</td><td>far orders rest uniformly {@value #NEAR_DEPTH} + 1 to this many
 *       levels behind the quote; at most priceLevels / 2 - {@value #WINDOW_MARGIN}, checked when
 *       farOrderShare is above 0</td></tr>
 *   <tr><td>eventIntervalMessages</td><td>20,000</td><td>order messages between rare market events (halts,
 *       collars, ...); shortened automatically in short sessions so every kind still occurs</td></tr>
 *   <tr><td>sessionDate</td><td>2025-01-02</td><td>the trading day (ITCH timestamps are ns since midnight)</td></tr>
 *   <tr><td>timeZone</td><td>America/New_York</td><td>the exchange's time zone</td></tr>
 * </table>
 */
public final class SimulationConfig
{
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_INSTRUMENTS = 100;
    public static final int MAX_INSTRUMENTS = 8192;
    public static final long DEFAULT_MESSAGES = 1_000_000;
    public static final long DEFAULT_MESSAGES_PER_SECOND = 1_000_000;
    public static final long MAX_MESSAGES_PER_SECOND = 1_000_000_000;
    public static final double DEFAULT_BURST_MULTIPLIER = 10;
    public static final double MAX_BURST_MULTIPLIER = 1000;
    public static final long DEFAULT_BURST_DECAY_NANOS = TimeUnit.SECONDS.toNanos(2);
    public static final long DEFAULT_PRE_OPEN_NANOS = TimeUnit.SECONDS.toNanos(5);
    public static final long MAX_PRE_OPEN_NANOS = TimeUnit.HOURS.toNanos(6);
    public static final int DEFAULT_ORDERS_PER_INSTRUMENT = 100;
    public static final int MAX_ORDERS_PER_INSTRUMENT = 10_000;
    /** Bound on instruments x ordersPerInstrument: the generator preallocates twice that many order slots. */
    public static final long MAX_LIVE_ORDERS = 2_000_000;
    public static final int DEFAULT_PRICE_LEVELS = 256;
    public static final int MIN_PRICE_LEVELS = 128;
    public static final int MAX_PRICE_LEVELS = 2048;
    /** Levels the fair mid keeps from either edge of an instrument's price window. */
    public static final int WINDOW_MARGIN = 32;
    /** Deepest level, behind the quote, of an order placed near the touch. */
    public static final int NEAR_DEPTH = 24;
    public static final double DEFAULT_FAR_ORDER_SHARE = 0;
    public static final int DEFAULT_FAR_ORDER_LEVELS = 64;
    public static final long DEFAULT_EVENT_INTERVAL_MESSAGES = 20_000;
    public static final LocalDate DEFAULT_SESSION_DATE = LocalDate.of(2025, 1, 2);
    public static final ZoneId DEFAULT_TIME_ZONE = ZoneId.of("America/New_York");

    /** 09:30:00, the open, in ns since midnight: the 'Q' system event's timestamp. */
    public static final long MARKET_OPEN_NANOS = TimeUnit.MINUTES.toNanos(9 * 60 + 30);
    /** The order flow must fit, at its mean rate, between the open and 17:30. */
    public static final long MAX_FLOW_NANOS = TimeUnit.HOURS.toNanos(8);

    private long seed = DEFAULT_SEED;
    private int instruments = DEFAULT_INSTRUMENTS;
    private long messages = DEFAULT_MESSAGES;
    private RateProfile rateProfile = RateProfile.STEADY;
    private long messagesPerSecond = DEFAULT_MESSAGES_PER_SECOND;
    private double burstMultiplier = DEFAULT_BURST_MULTIPLIER;
    private long burstDecayNanos = DEFAULT_BURST_DECAY_NANOS;
    private long preOpenNanos = DEFAULT_PRE_OPEN_NANOS;
    private int ordersPerInstrument = DEFAULT_ORDERS_PER_INSTRUMENT;
    private long eventIntervalMessages = DEFAULT_EVENT_INTERVAL_MESSAGES;
    private int priceLevels = DEFAULT_PRICE_LEVELS;
    private double farOrderShare = DEFAULT_FAR_ORDER_SHARE;
    private int farOrderLevels = DEFAULT_FAR_ORDER_LEVELS;
    private LocalDate sessionDate = DEFAULT_SESSION_DATE;
    private ZoneId timeZone = DEFAULT_TIME_ZONE;

    /**
     * @param instruments of the session.
     * @return messages the session has besides its order flow: system events, directory, opening and closing
     *         crosses with their imbalance messages. A session needs at least this many.
     */
    public static long fixedMessages(final int instruments)
    {
        return 7L + 9L * instruments;
    }

    /**
     * Checks every setting and their combination.
     *
     * @return this, for a fluent API.
     * @throws IllegalArgumentException saying what is wrong and what would be right.
     */
    public SimulationConfig conclude()
    {
        if (instruments < 1 || instruments > MAX_INSTRUMENTS)
        {
            throw new IllegalArgumentException(
                "instruments must be between 1 and " + MAX_INSTRUMENTS + ", was " + instruments);
        }
        final long fixed = fixedMessages(instruments);
        if (messages < fixed)
        {
            throw new IllegalArgumentException("messages " + messages + " is too few for " + instruments +
                " instruments: the start and end of day alone take " + fixed + "; ask for at least " + fixed +
                " messages or fewer instruments");
        }
        if (messagesPerSecond < 1 || messagesPerSecond > MAX_MESSAGES_PER_SECOND)
        {
            throw new IllegalArgumentException(
                "messagesPerSecond must be between 1 and " + MAX_MESSAGES_PER_SECOND + ", was " + messagesPerSecond);
        }
        if (!(burstMultiplier >= 1 && burstMultiplier <= MAX_BURST_MULTIPLIER))
        {
            throw new IllegalArgumentException(
                "burstMultiplier must be between 1 and " + MAX_BURST_MULTIPLIER + ", was " + burstMultiplier);
        }
        if (burstDecayNanos < 1)
        {
            throw new IllegalArgumentException("burstDecayNanos must be positive, was " + burstDecayNanos);
        }
        if (preOpenNanos < TimeUnit.MILLISECONDS.toNanos(1) || preOpenNanos > MAX_PRE_OPEN_NANOS)
        {
            throw new IllegalArgumentException(
                "preOpenNanos must be between 1 ms and 6 h, was " + preOpenNanos);
        }
        if (ordersPerInstrument < 1 || ordersPerInstrument > MAX_ORDERS_PER_INSTRUMENT)
        {
            throw new IllegalArgumentException("ordersPerInstrument must be between 1 and " +
                MAX_ORDERS_PER_INSTRUMENT + ", was " + ordersPerInstrument);
        }
        if ((long)instruments * ordersPerInstrument > MAX_LIVE_ORDERS)
        {
            throw new IllegalArgumentException("instruments x ordersPerInstrument must be at most " +
                MAX_LIVE_ORDERS + ", was " + (long)instruments * ordersPerInstrument);
        }
        if (eventIntervalMessages < 1)
        {
            throw new IllegalArgumentException("eventIntervalMessages must be positive, was " + eventIntervalMessages);
        }
        concludeDepth();
        if (null == rateProfile || null == sessionDate || null == timeZone)
        {
            throw new IllegalArgumentException("rateProfile, sessionDate and timeZone must be set");
        }
        final double flowNanos = (messages - fixed) * 1e9 / messagesPerSecond;
        if (flowNanos > MAX_FLOW_NANOS)
        {
            throw new IllegalArgumentException(messages + " messages at " + messagesPerSecond +
                " msg/s would take " + Math.round(flowNanos / 3.6e12) + " h, past the end of the trading day; " +
                "raise the rate to at least " + ((messages - fixed) * 1_000_000_000L / MAX_FLOW_NANOS + 1) +
                " msg/s or ask for fewer messages");
        }
        return this;
    }

    private void concludeDepth()
    {
        if (priceLevels < MIN_PRICE_LEVELS || priceLevels > MAX_PRICE_LEVELS)
        {
            throw new IllegalArgumentException("priceLevels must be between " + MIN_PRICE_LEVELS + " and " +
                MAX_PRICE_LEVELS + ", was " + priceLevels);
        }
        if (!(farOrderShare >= 0 && farOrderShare <= 1))
        {
            throw new IllegalArgumentException("farOrderShare must be between 0 and 1, was " + farOrderShare);
        }
        final int maxFarLevels = maxFarOrderLevels(priceLevels);
        if (farOrderShare > 0 && (farOrderLevels <= NEAR_DEPTH || farOrderLevels > maxFarLevels))
        {
            throw new IllegalArgumentException("farOrderLevels must be between " + (NEAR_DEPTH + 1) + " and " +
                maxFarLevels + " (priceLevels / 2 - " + WINDOW_MARGIN + ") with priceLevels " + priceLevels +
                ", was " + farOrderLevels + "; raise priceLevels for orders further from the touch");
        }
    }

    /**
     * @param priceLevels of each instrument's window.
     * @return the most levels behind the quote a far order may rest: half the window less its margin.
     */
    public static int maxFarOrderLevels(final int priceLevels)
    {
        return priceLevels / 2 - WINDOW_MARGIN;
    }

    public long seed()
    {
        return seed;
    }

    public SimulationConfig seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    public int instruments()
    {
        return instruments;
    }

    public SimulationConfig instruments(final int instruments)
    {
        this.instruments = instruments;
        return this;
    }

    public long messages()
    {
        return messages;
    }

    public SimulationConfig messages(final long messages)
    {
        this.messages = messages;
        return this;
    }

    public RateProfile rateProfile()
    {
        return rateProfile;
    }

    public SimulationConfig rateProfile(final RateProfile rateProfile)
    {
        this.rateProfile = rateProfile;
        return this;
    }

    public long messagesPerSecond()
    {
        return messagesPerSecond;
    }

    public SimulationConfig messagesPerSecond(final long messagesPerSecond)
    {
        this.messagesPerSecond = messagesPerSecond;
        return this;
    }

    public double burstMultiplier()
    {
        return burstMultiplier;
    }

    public SimulationConfig burstMultiplier(final double burstMultiplier)
    {
        this.burstMultiplier = burstMultiplier;
        return this;
    }

    public long burstDecayNanos()
    {
        return burstDecayNanos;
    }

    public SimulationConfig burstDecayNanos(final long burstDecayNanos)
    {
        this.burstDecayNanos = burstDecayNanos;
        return this;
    }

    public long preOpenNanos()
    {
        return preOpenNanos;
    }

    public SimulationConfig preOpenNanos(final long preOpenNanos)
    {
        this.preOpenNanos = preOpenNanos;
        return this;
    }

    public int ordersPerInstrument()
    {
        return ordersPerInstrument;
    }

    public SimulationConfig ordersPerInstrument(final int ordersPerInstrument)
    {
        this.ordersPerInstrument = ordersPerInstrument;
        return this;
    }

    public long eventIntervalMessages()
    {
        return eventIntervalMessages;
    }

    public SimulationConfig eventIntervalMessages(final long eventIntervalMessages)
    {
        this.eventIntervalMessages = eventIntervalMessages;
        return this;
    }

    public int priceLevels()
    {
        return priceLevels;
    }

    public SimulationConfig priceLevels(final int priceLevels)
    {
        this.priceLevels = priceLevels;
        return this;
    }

    public double farOrderShare()
    {
        return farOrderShare;
    }

    public SimulationConfig farOrderShare(final double farOrderShare)
    {
        this.farOrderShare = farOrderShare;
        return this;
    }

    public int farOrderLevels()
    {
        return farOrderLevels;
    }

    public SimulationConfig farOrderLevels(final int farOrderLevels)
    {
        this.farOrderLevels = farOrderLevels;
        return this;
    }

    public LocalDate sessionDate()
    {
        return sessionDate;
    }

    public SimulationConfig sessionDate(final LocalDate sessionDate)
    {
        this.sessionDate = sessionDate;
        return this;
    }

    public ZoneId timeZone()
    {
        return timeZone;
    }

    public SimulationConfig timeZone(final ZoneId timeZone)
    {
        this.timeZone = timeZone;
        return this;
    }

    /** @return nanoseconds since the epoch of the session date's midnight in the exchange's time zone. */
    public long midnightEpochNanos()
    {
        return TimeUnit.SECONDS.toNanos(sessionDate.atStartOfDay(timeZone).toEpochSecond());
    }

    @Override
    public String toString()
    {
        return "SimulationConfig{seed=" + seed + ", instruments=" + instruments + ", messages=" + messages +
            ", rateProfile=" + rateProfile + ", messagesPerSecond=" + messagesPerSecond +
            ", burstMultiplier=" + burstMultiplier + ", burstDecayNanos=" + burstDecayNanos +
            ", preOpenNanos=" + preOpenNanos + ", ordersPerInstrument=" + ordersPerInstrument +
            ", eventIntervalMessages=" + eventIntervalMessages + ", priceLevels=" + priceLevels +
            ", farOrderShare=" + farOrderShare + ", farOrderLevels=" + farOrderLevels +
            ", sessionDate=" + sessionDate + ", timeZone=" + timeZone + '}';
    }
}
