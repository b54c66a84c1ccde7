package io.mdgate.core.sim;

import io.mdgate.core.itch.Alpha;
import io.mdgate.core.itch.ItchMessageType;
import org.agrona.MutableDirectBuffer;

/**
 * A deterministic, seeded Nasdaq TotalView-ITCH 5.0 session of exactly {@link SimulationConfig#messages()}
 * messages, written one message at a time by {@link #next(MutableDirectBuffer, int)}:
 * <pre>
 *   start of day   S O, V (MWCB decline levels), per instrument R H Y L L, S S,
 *                  I (opening imbalance) per instrument, S Q at 09:30:00, Q (opening cross) per instrument
 *   order flow     A F D U E C X P, with rare market events woven in (W h N K O B J H Y L I Q)
 *   end of day     I (closing imbalance) per instrument, Q (closing cross) per instrument, S M, S E, S C
 * </pre>
 * Every one of the 23 types occurs in any session whose flow holds one rotation of the market events (a few
 * thousand messages suffice). Timestamps (ns since midnight) never decrease and follow the rate profile from
 * the open. Order references increase; every order an execution, cancel, delete or replace names is live.
 * The same configuration always gives the same bytes. Allocation-free after construction.
 * Not thread-safe: one generator per thread.
 */
public final class ItchSessionGenerator
{
    /** Longest message the generator writes (the NOII): the room {@link #next} needs at its offset. */
    public static final int MAX_MESSAGE_LENGTH = 50;

    private static final long FIRST_REFERENCE = 4_096;
    private static final long FIRST_MATCH = 1;
    private static final int L_PER_INSTRUMENT = 2;
    private static final int DIRECTORY_BLOCK = 3 + L_PER_INSTRUMENT;
    private static final int NO_REASON = Alpha.pack4("");
    private static final long SECOND = 1_000_000_000L;

    private final SimulationConfig config;
    private final SimRandom random;
    private final SessionClock clock;
    private final Instruments instruments;
    private final MessageComposer composer = new MessageComposer();
    private final MatchNumbers matches = new MatchNumbers(FIRST_MATCH);
    private final MarketEvents events;
    private final OrderFlow flow;
    private final long[] counts = new long[256];
    private final int instrumentCount;
    private final long totalMessages;
    private final long flowStart;
    private final long flowEnd;
    private final long preOpenSpacing;
    private final long mwcbReference;
    private long generated;

    /**
     * @param config validated here through {@link SimulationConfig#conclude()}.
     * @throws IllegalArgumentException when the configuration is not valid.
     */
    public ItchSessionGenerator(final SimulationConfig config)
    {
        this.config = config.conclude();
        random = new SimRandom(config.seed());
        instrumentCount = config.instruments();
        totalMessages = config.messages();
        instruments = new Instruments(instrumentCount, config.priceLevels(), random);
        flowStart = 4L + 7L * instrumentCount;
        flowEnd = totalMessages - (2L * instrumentCount + 3);
        clock = new SessionClock(config, random, SimulationConfig.MARKET_OPEN_NANOS - config.preOpenNanos());
        final long directoryMessages = flowStart - 2 - 2L * instrumentCount;
        preOpenSpacing = Math.min(
            Math.round(1e9 / config.messagesPerSecond()), config.preOpenNanos() / 2 / (directoryMessages + 2));
        mwcbReference = 100_000_000L * random.between(420_000, 480_000) / 100;
        final long targetOrders = (long)instrumentCount * config.ordersPerInstrument();
        final LiveOrders orders = new LiveOrders(
            instrumentCount, config.priceLevels(), (int)(2 * targetOrders + 1024));
        events = new MarketEvents(
            composer, instruments, random, matches, config.eventIntervalMessages(), flowEnd - flowStart);
        flow = new OrderFlow(
            composer, instruments, orders, events, matches, random, clock, targetOrders, config.farOrderShare(),
            config.farOrderLevels(), FIRST_REFERENCE);
    }

    public SimulationConfig config()
    {
        return config;
    }

    /**
     * Writes the next message of the session.
     *
     * @param buffer to write into, with at least {@link #MAX_MESSAGE_LENGTH} bytes from offset.
     * @param offset of the message's type byte.
     * @return the message length, or 0 when the session is over (its end-of-day events already written).
     */
    public int next(final MutableDirectBuffer buffer, final int offset)
    {
        if (generated >= totalMessages)
        {
            return 0;
        }
        final int length;
        if (generated >= flowStart && generated < flowEnd)
        {
            length = flow.next(buffer, offset, generated - flowStart, flowEnd - generated);
        }
        else if (generated < flowStart)
        {
            length = startOfDay(buffer, offset, generated);
        }
        else
        {
            length = endOfDay(buffer, offset, generated - flowEnd);
        }
        counts[buffer.getByte(offset) & 0xFF]++;
        generated++;
        return length;
    }

    /** @return messages written so far. */
    public long messagesGenerated()
    {
        return generated;
    }

    /** @return messages of one type written so far, e.g. {@code count((byte)'A')}. */
    public long count(final byte type)
    {
        return counts[type & 0xFF];
    }

    /** @return true once the last message (end of messages) has been written. */
    public boolean isDone()
    {
        return generated >= totalMessages;
    }

    /** @return the timestamp (ns since midnight) of the last message written. */
    public long timestamp()
    {
        return clock.now();
    }

    /** @return the symbol of a stock locate (1..instruments), as text. Allocates: for tools and tests. */
    public String symbol(final int locate)
    {
        return Alpha.unpack8(instruments.symbol(locate - 1));
    }

    private int startOfDay(final MutableDirectBuffer buffer, final int offset, final long index)
    {
        final long open = SimulationConfig.MARKET_OPEN_NANOS;
        final long directoryEnd = 2L + (long)DIRECTORY_BLOCK * instrumentCount;
        if (index == 0)
        {
            return composer.systemEvent(buffer, offset, clock.now(), 'O');
        }
        if (index == 1)
        {
            final long ts = clock.moveTo(clock.now() + preOpenSpacing);
            return composer.mwcbDeclineLevel(
                buffer, offset, ts, mwcbReference * 93 / 100, mwcbReference * 87 / 100, mwcbReference * 80 / 100);
        }
        if (index < directoryEnd)
        {
            final long ts = clock.moveTo(clock.now() + preOpenSpacing);
            final long block = index - 2;
            return directory(buffer, offset, ts, (int)(block / DIRECTORY_BLOCK), (int)(block % DIRECTORY_BLOCK));
        }
        if (index == directoryEnd)
        {
            return composer.systemEvent(buffer, offset, clock.moveTo(clock.now() + preOpenSpacing), 'S');
        }
        final long imbalanceWindow = config.preOpenNanos() / 4;
        final long opening = directoryEnd + 1 + instrumentCount;
        if (index < opening)
        {
            final int i = (int)(index - directoryEnd - 1);
            final long ts = clock.moveTo(open - imbalanceWindow + imbalanceWindow * i / instrumentCount);
            return events.imbalance(buffer, offset, ts, i, 'O');
        }
        if (index == opening)
        {
            return composer.systemEvent(buffer, offset, clock.moveTo(open), 'Q');
        }
        return events.cross(buffer, offset, clock.advance(), (int)(index - opening - 1), 'O');
    }

    private int directory(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int i, final int part)
    {
        final int locate = Instruments.locate(i);
        final long stock = instruments.symbol(i);
        switch (part)
        {
            case 0:
                final char category = i % 3 == 0 ? 'Q' : i % 3 == 1 ? 'G' : 'S';
                return composer.stockDirectory(
                    buffer, offset, ts, locate, stock, category, instruments.luldTier(i), i % 10 == 9);
            case 1:
                return composer.tradingAction(buffer, offset, ts, locate, stock, 'T', NO_REASON);
            case 2:
                return composer.regSho(buffer, offset, ts, locate, stock, '0');
            default:
                final int mpids = MarketEvents.MPIDS.length;
                final int mpid = MarketEvents.MPIDS[(i + (part - 3) * (mpids / 2)) % mpids];
                return composer.participantPosition(buffer, offset, ts, locate, stock, mpid, part == 3 ? 'Y' : 'N',
                    'N', 'A');
        }
    }

    private int endOfDay(final MutableDirectBuffer buffer, final int offset, final long index)
    {
        if (index < instrumentCount)
        {
            return events.imbalance(buffer, offset, clock.advance(), (int)index, 'C');
        }
        if (index < 2L * instrumentCount)
        {
            return events.cross(buffer, offset, clock.advance(), (int)(index - instrumentCount), 'C');
        }
        final long step = index - 2L * instrumentCount;
        if (step == 0)
        {
            return composer.systemEvent(buffer, offset, clock.advance(), 'M');
        }
        return composer.systemEvent(buffer, offset, clock.moveTo(clock.now() + SECOND), step == 1 ? 'E' : 'C');
    }

    /** @return the number of message types the session has produced so far (23 when all have occurred). */
    public int typesSeen()
    {
        int seen = 0;
        for (final byte type : ItchMessageType.ALL)
        {
            if (counts[type & 0xFF] > 0)
            {
                seen++;
            }
        }
        return seen;
    }
}
