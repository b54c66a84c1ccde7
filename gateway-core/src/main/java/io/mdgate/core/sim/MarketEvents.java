package io.mdgate.core.sim;

import io.mdgate.core.itch.Alpha;
import org.agrona.MutableDirectBuffer;

/**
 * The rare market events woven into the order flow, and the auctions (imbalance then cross) used at the open,
 * the close and the reopening after a halt. Every {@code interval} order messages one step of a scenario is
 * due; scenarios run in a fixed rotation, ordered so that the message types seen nowhere else come first:
 * <pre>
 *   MWCB status (once a session)   W
 *   operational halt               h H ... h T
 *   retail interest                N
 *   IPO quoting period update      K
 *   direct listing price discovery O
 *   broken trade                   B (the last match number)
 *   LULD pause                     H P ... J ... I ... Q (halt cross) ... H T
 *   Reg SHO restriction            Y
 *   market participant position   L
 *   news halt                      H H ... H Q ... I ... Q (halt cross) ... H T
 * </pre>
 * A scenario starts only when the flow left can hold all its steps, so every halt is resumed. While an
 * instrument is halted, {@link #halted()} names it and the flow executes nothing in it. Allocation-free.
 * Not thread-safe.
 */
final class MarketEvents
{
    static final int NONE = -1;

    private static final int MWCB = 0;
    private static final int OPERATIONAL_HALT = 1;
    private static final int RETAIL = 2;
    private static final int IPO = 3;
    private static final int DIRECT_LISTING = 4;
    private static final int BROKEN_TRADE = 5;
    private static final int LULD_PAUSE = 6;
    private static final int REG_SHO = 7;
    private static final int PARTICIPANT = 8;
    private static final int NEWS_HALT = 9;
    private static final int[] STEPS = { 1, 2, 1, 1, 1, 1, 5, 1, 1, 5 };

    /** Scenarios a rotation needs slots for, with some to spare; short sessions shorten the interval to fit. */
    static final int SLOTS_PER_ROTATION = 24;

    static final int[] MPIDS = {
        Alpha.pack4("NITE"), Alpha.pack4("GSCO"), Alpha.pack4("MSCO"), Alpha.pack4("JPMS"),
        Alpha.pack4("UBSS"), Alpha.pack4("CDEL"), Alpha.pack4("VIRT"), Alpha.pack4("SUSQ") };

    private static final int NO_REASON = Alpha.pack4("");
    private static final int REASON_LULD_PAUSE = Alpha.pack4("LUDP");
    private static final int REASON_NEWS = Alpha.pack4("T1");
    private static final char[] MARKET_CODES = { 'Q', 'B', 'X' };
    private static final char[] RETAIL_FLAGS = { 'B', 'S', 'A', 'N' };
    private static final char[] PARTICIPANT_STATES = { 'A', 'E', 'W', 'S' };
    private static final char[] VARIATIONS = { 'L', 'L', 'L', '1', '2', '3', '4', 'A' };

    private final MessageComposer composer;
    private final Instruments instruments;
    private final SimRandom random;
    private final MatchNumbers matches;
    private final long interval;
    private long nextAt;
    private int kind;
    private int step;
    private int instrument;
    private int halted = NONE;
    private char marketCode;
    private boolean mwcbDone;

    MarketEvents(
        final MessageComposer composer,
        final Instruments instruments,
        final SimRandom random,
        final MatchNumbers matches,
        final long configuredInterval,
        final long flowMessages)
    {
        this.composer = composer;
        this.instruments = instruments;
        this.random = random;
        this.matches = matches;
        this.interval = Math.max(1, Math.min(configuredInterval, flowMessages / SLOTS_PER_ROTATION));
        this.nextAt = interval / 2;
    }

    /** @return the halted instrument, or {@link #NONE}. */
    int halted()
    {
        return halted;
    }

    /** @return true when a scenario step may be due at this flow message. */
    boolean isDue(final long flowIndex)
    {
        return flowIndex >= nextAt;
    }

    /**
     * Writes the next scenario step, if one is due and fits in the flow left.
     *
     * @return the message length, or 0 when nothing was written.
     */
    int tryEmit(
        final MutableDirectBuffer buffer, final int offset, final long flowIndex, final long flowLeft,
        final SessionClock clock)
    {
        if (flowIndex < nextAt)
        {
            return 0;
        }
        nextAt += interval;
        if (step == 0)
        {
            if (kind == MWCB && mwcbDone)
            {
                kind++;
            }
            if (flowLeft <= (long)STEPS[kind] * interval)
            {
                return 0;
            }
            instrument = instruments.pickActive(random);
        }
        final int length = emit(buffer, offset, clock.advance());
        if (++step == STEPS[kind])
        {
            step = 0;
            kind = (kind + 1) % STEPS.length;
        }
        return length;
    }

    private int emit(final MutableDirectBuffer buffer, final int offset, final long ts)
    {
        final int i = instrument;
        final int locate = Instruments.locate(i);
        final long stock = instruments.symbol(i);
        switch (kind)
        {
            case MWCB:
                mwcbDone = true;
                return composer.mwcbStatus(buffer, offset, ts, '1');
            case OPERATIONAL_HALT:
                return operationalHalt(buffer, offset, ts, locate, stock);
            case RETAIL:
                return composer.retailInterest(buffer, offset, ts, locate, stock, pick(RETAIL_FLAGS));
            case IPO:
                return composer.ipoQuotingPeriodUpdate(buffer, offset, ts, locate, stock,
                    ts / 1_000_000_000L + 600, random.chance(0.8) ? 'A' : 'C', instruments.priceAround(i, 0.05, random));
            case DIRECT_LISTING:
                return directListing(buffer, offset, ts, locate, stock);
            case BROKEN_TRADE:
                return composer.brokenTrade(buffer, offset, ts, matches.lastLocate(), matches.last());
            case LULD_PAUSE:
                return haltScenario(buffer, offset, ts, 'P', REASON_LULD_PAUSE);
            case REG_SHO:
                return composer.regSho(buffer, offset, ts, locate, stock, random.chance(0.7) ? '1' : '2');
            case PARTICIPANT:
                return composer.participantPosition(buffer, offset, ts, locate, stock, MPIDS[random.nextInt(MPIDS.length)],
                    'N', 'N', pick(PARTICIPANT_STATES));
            default:
                return haltScenario(buffer, offset, ts, 'H', REASON_NEWS);
        }
    }

    private int operationalHalt(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock)
    {
        if (step == 0)
        {
            marketCode = pick(MARKET_CODES);
            halted = instrument;
            return composer.operationalHalt(buffer, offset, ts, locate, stock, marketCode, 'H');
        }
        halted = NONE;
        return composer.operationalHalt(buffer, offset, ts, locate, stock, marketCode, 'T');
    }

    private int directListing(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock)
    {
        final long reference = instruments.priceAround(instrument, 0.0, random);
        return composer.directListing(buffer, offset, ts, locate, stock, random.chance(0.5) ? 'Y' : 'N',
            tick(reference * 0.8), tick(reference * 1.2), reference, ts, tick(reference * 0.9), tick(reference * 1.1));
    }

    /** Halt, then (LULD) collar or (news) quotation only, imbalance, halt cross, resume. */
    private int haltScenario(
        final MutableDirectBuffer buffer, final int offset, final long ts, final char haltState, final int reason)
    {
        final int i = instrument;
        final int locate = Instruments.locate(i);
        final long stock = instruments.symbol(i);
        switch (step)
        {
            case 0:
                halted = i;
                return composer.tradingAction(buffer, offset, ts, locate, stock, haltState, reason);
            case 1:
                if (haltState == 'P')
                {
                    final long reference = instruments.priceAround(i, 0.0, random);
                    return composer.luldAuctionCollar(buffer, offset, ts, locate, stock, reference,
                        tick(reference * 1.05), tick(reference * 0.95), random.nextInt(2));
                }
                return composer.tradingAction(buffer, offset, ts, locate, stock, 'Q', reason);
            case 2:
                return imbalance(buffer, offset, ts, i, 'H');
            case 3:
                return cross(buffer, offset, ts, i, 'H');
            default:
                halted = NONE;
                return composer.tradingAction(buffer, offset, ts, locate, stock, 'T', NO_REASON);
        }
    }

    /** An imbalance indicator (NOII) for an auction of the given cross type. */
    int imbalance(final MutableDirectBuffer buffer, final int offset, final long ts, final int i, final char crossType)
    {
        final long paired = 100L * random.between(10, 20_000);
        final long imbalance = random.chance(0.15) ? 0 : 100L * random.between(1, 5_000);
        final char direction = imbalance == 0 ? 'N' : random.chance(0.5) ? 'B' : 'S';
        final long reference = instruments.priceAround(i, 0.001, random);
        return composer.noii(buffer, offset, ts, Instruments.locate(i), instruments.symbol(i), paired, imbalance,
            direction, instruments.priceAround(i, 0.01, random), instruments.priceAround(i, 0.005, random), reference,
            crossType, pick(VARIATIONS));
    }

    /** A cross trade: the auction's single print at its price, with a new match number. */
    int cross(final MutableDirectBuffer buffer, final int offset, final long ts, final int i, final char crossType)
    {
        final int locate = Instruments.locate(i);
        return composer.crossTrade(buffer, offset, ts, locate, 100L * random.between(50, 20_000), instruments.symbol(i),
            instruments.priceAround(i, 0.002, random), matches.next(locate), crossType);
    }

    private char pick(final char[] choices)
    {
        return choices[random.nextInt(choices.length)];
    }

    private static long tick(final double price)
    {
        return Math.max(Instruments.TICK, Math.round(price / Instruments.TICK) * Instruments.TICK);
    }
}
