package io.mdgate.core.tick;

import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.InstrumentDirectory;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.AddOrderMpidFlyweight;
import io.mdgate.core.itch.BrokenTradeFlyweight;
import io.mdgate.core.itch.CrossTradeFlyweight;
import io.mdgate.core.itch.DirectListingCapitalRaiseFlyweight;
import io.mdgate.core.itch.IpoQuotingPeriodUpdateFlyweight;
import io.mdgate.core.itch.ItchMessageFlyweight;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.LuldAuctionCollarFlyweight;
import io.mdgate.core.itch.MarketParticipantPositionFlyweight;
import io.mdgate.core.itch.MwcbDeclineLevelFlyweight;
import io.mdgate.core.itch.MwcbStatusFlyweight;
import io.mdgate.core.itch.NoiiFlyweight;
import io.mdgate.core.itch.OperationalHaltFlyweight;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderExecutedWithPriceFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;
import io.mdgate.core.itch.RegShoRestrictionFlyweight;
import io.mdgate.core.itch.RetailPriceImprovementFlyweight;
import io.mdgate.core.itch.StockDirectoryFlyweight;
import io.mdgate.core.itch.StockTradingActionFlyweight;
import io.mdgate.core.itch.SystemEventFlyweight;
import io.mdgate.core.itch.TradeFlyweight;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Turns decoded ITCH 5.0 messages into normalized ticks while keeping the order books: every message gives one tick
 * for its own event (each of the 23 types has an {@link EventType}), and an order event that changes a side's best
 * price or size gives a {@link EventType#TOP_OF_BOOK} tick for that side after it. The last tick of a message is
 * flagged {@code lastInMessage}. docs/TICK.md lists the fields each event type fills.
 * <p>
 * Before decoding each message the caller sets its context: {@link #exchangeSequence(long)},
 * {@link #receiveTimestamp(long)}, and when they change {@link #lineB(boolean)}, {@link #recovered(boolean)},
 * {@link #lastInPacket(boolean)}; a session starts with {@link #onSession} (or {@link #resume} after a restart),
 * which sets the session number of later ticks. Gateway sequences are continuous from the first one given; exchange
 * timestamps never go back. Book problems (unknown references, clamped executions, capacity) are counted by {@link OrderBooks}; the
 * event tick is still published, flagged {@code unknownOrder} where the order was not on the book.
 * <p>
 * Allocation-free after construction. Threading: not thread-safe; the normalizer, its books, its clock and its
 * handler run on one thread.
 */
public final class Normalizer implements ItchMessageHandler
{
    private static final long U32 = 0xFFFF_FFFFL;
    /** LEVEL ticks one order event can need: two touched prices and one level crossing the window's edge. */
    private static final int MAX_DEPTH_TICKS = OrderBooks.MAX_TOUCHED + 1;
    /** Most levels per side {@link #depthLevels(int)} publishes. */
    public static final int MAX_DEPTH_LEVELS = 64;
    /** Days the clock may be moved on at a session change to keep exchange time from going back. */
    private static final int MAX_DAYS_ROLLED = 7;

    private final OrderBooks books;
    private final InstrumentDirectory instruments;
    private final ExchangeClock clock;
    private final TickHandler handler;
    private final TickBatch batch;
    private final long[] publishedTopPrice;
    private final long[] publishedTopSize;
    /** Instruments whose published top was restored from a journal: their next order event checks both sides. */
    private final boolean[] restoredTop;
    /** Whether each instrument's book is crossed, kept at every change of a best price instead of read per tick. */
    private final boolean[] crossed;

    private long messageCount;
    private long topOfBookCount;
    private long locateMismatchCount;
    private long gapCount;
    private long gapMessageCount;
    private long sessionCount;
    private long messagesSinceReset;
    private boolean sessionChanged;
    private int depthLevels;
    private long levelCount;
    private final long[] depthPrice = new long[MAX_DEPTH_TICKS];
    private final long[] depthSize = new long[MAX_DEPTH_TICKS];
    private final int[] depthOrders = new int[MAX_DEPTH_TICKS];
    private final int[] depthAt = new int[MAX_DEPTH_TICKS];
    private final int[] depthKey = new int[MAX_DEPTH_TICKS];
    private final long[] pendingPrice = new long[MAX_DEPTH_TICKS];
    private final long[] pendingSize = new long[MAX_DEPTH_TICKS];
    private final int[] pendingOrders = new int[MAX_DEPTH_TICKS];
    private final int[] pendingAt = new int[MAX_DEPTH_TICKS];
    private int pendingDepth;
    private int pendingFirst;
    private int pendingInstrument = OrderBooks.NONE;
    private int pendingSide;

    /**
     * @param books                the books to keep; their capacities bound the instruments with top-of-book ticks.
     * @param clock                converts ITCH timestamps for the session date.
     * @param handler              receives every tick.
     * @param firstGatewaySequence gateway sequence of the first tick.
     */
    public Normalizer(
        final OrderBooks books,
        final ExchangeClock clock,
        final TickHandler handler,
        final long firstGatewaySequence)
    {
        this.books = books;
        this.instruments = books.instruments();
        this.clock = clock;
        this.handler = handler;
        this.batch = new TickBatch(firstGatewaySequence);
        this.publishedTopPrice = new long[books.maxInstruments() * 2];
        this.publishedTopSize = new long[books.maxInstruments() * 2];
        this.restoredTop = new boolean[books.maxInstruments()];
        this.crossed = new boolean[books.maxInstruments()];
        Arrays.fill(publishedTopPrice, OrderBooks.NO_PRICE);
    }

    /** @param sequence MoldUDP64 sequence of the next message. */
    public Normalizer exchangeSequence(final long sequence)
    {
        batch.exchangeSequence(sequence);
        return this;
    }

    /** @param epochNanos when the packet carrying the next message was received. */
    public Normalizer receiveTimestamp(final long epochNanos)
    {
        batch.receiveTimestamp(epochNanos);
        return this;
    }

    /**
     * Publishes depth: after each order event's own tick, {@link EventType#LEVEL} ticks keep a consumer's top
     * {@code levels} price levels per side equal to the book's (docs/TICK.md, "Depth"). 0, the default, publishes
     * none. Set before the first message.
     *
     * @param levels D, 0 to {@link #MAX_DEPTH_LEVELS}.
     * @throws IllegalArgumentException naming the range.
     */
    public Normalizer depthLevels(final int levels)
    {
        if (levels < 0 || levels > MAX_DEPTH_LEVELS)
        {
            throw new IllegalArgumentException(
                "depth levels must be between 0 and " + MAX_DEPTH_LEVELS + ", was " + levels);
        }
        depthLevels = levels;
        books.recordTouchedLevels(levels > 0);
        return this;
    }

    /** @return D, the levels per side published as LEVEL ticks (0: none). */
    public int depthLevels()
    {
        return depthLevels;
    }

    /** @return LEVEL ticks published. */
    public long levelCount()
    {
        return levelCount;
    }

    /** @param sessionId the gateway's number for the exchange session. */
    public Normalizer sessionId(final int sessionId)
    {
        batch.sessionId(sessionId);
        return this;
    }

    /** @param lineB true when the next message's packet arrived first on line B. */
    public Normalizer lineB(final boolean lineB)
    {
        batch.lineB(lineB);
        return this;
    }

    /** @param recovered true when the next message came from a retransmission. */
    public Normalizer recovered(final boolean recovered)
    {
        batch.recovered(recovered);
        return this;
    }

    /** @param lastInPacket true when the next message is the last of its packet. */
    public Normalizer lastInPacket(final boolean lastInPacket)
    {
        batch.lastInPacket(lastInPacket);
        return this;
    }

    /**
     * Empties the books and the instrument directory and forgets the top of book last published, e.g. before a new
     * session. The gateway sequence continues. Not for the hot path.
     */
    public void reset()
    {
        books.clear();
        Arrays.fill(publishedTopPrice, OrderBooks.NO_PRICE);
        Arrays.fill(publishedTopSize, 0);
        Arrays.fill(restoredTop, false);
        Arrays.fill(crossed, false);
        pendingDepth = 0;
        pendingFirst = 0;
        messagesSinceReset = 0;
    }

    /**
     * Continues a session a previous run already started (a restart from the journal): later ticks carry its number
     * and no exchange timestamp goes below the last one journaled. Publishes nothing. Start-up only.
     *
     * @param sessionId             the gateway's number of the session being resumed.
     * @param lastExchangeTimestamp the exchange timestamp of the last tick journaled, 0 when none.
     */
    public void resume(final int sessionId, final long lastExchangeTimestamp)
    {
        batch.sessionId(sessionId);
        batch.lastExchangeTimestamp(lastExchangeTimestamp);
    }

    /**
     * Resumes (as {@link #resume(int, long)}) where a crash fell between the ticks of one message: the journal holds
     * its first {@code partialTicks}, whose gateway sequences end just before {@link #nextGatewaySequence()}, and the
     * books were rebuilt without them. The message comes again (its exchange sequence is where the feed resumes):
     * its ticks take the same gateway sequences and only those after the journaled ones are published, so the
     * journal ends up holding the message whole, once. Start-up only.
     *
     * @param partialTicks      ticks of the message journaled, 1 to 5; 0 is the same as {@link #resume(int, long)}.
     * @param exchangeSequence  the exchange sequence they carry.
     */
    public void resume(final int sessionId, final long lastExchangeTimestamp, final int partialTicks,
        final long exchangeSequence)
    {
        resume(sessionId, lastExchangeTimestamp);
        if (partialTicks > 0)
        {
            batch.resumeWithin(partialTicks, exchangeSequence);
        }
    }

    /**
     * @return 1 when the message a crash left partly journaled came back as something else (a GAP tick in its place,
     * or fewer ticks than were journaled): its journaled ticks stay without their last; 0 otherwise.
     */
    public long partialMessagesNotCompleted()
    {
        return batch.journaledMismatches();
    }

    /**
     * Starts a session: the books and instrument directory are emptied (the new session reuses order references and
     * stock locates), later ticks carry {@code sessionId}, and one {@link EventType#SESSION} tick marks the start:
     * its exchange sequence is the first sequence the session expects, {@code orderReference} bytes 0..7 of the
     * 10-byte MoldUDP64 session name read as a little-endian long and {@code matchOrNewReference} bytes 8..9 the
     * same way, its exchange timestamp that of the tick before it, receive timestamp and line flag the current
     * context. The first ITCH time of a session that would fall before the last tick moves the clock on by whole
     * days (a session date that was not changed at a day boundary); exchange time never goes back. Called at
     * session changes only: it may allocate.
     *
     * @param sessionId     the gateway's number of the session, 1 for the first.
     * @param name          buffer holding the 10-byte MoldUDP64 session name at {@code nameOffset}.
     * @param nameOffset    of the name.
     * @param firstSequence the MoldUDP64 sequence the session expects first.
     */
    public void onSession(final int sessionId, final DirectBuffer name, final int nameOffset, final long firstSequence)
    {
        if (messagesSinceReset > 0)
        {
            reset();
        }
        sessionCount++;
        sessionChanged = batch.exchangeTimestamp() > 0;
        batch.sessionId(sessionId);
        batch.exchangeSequence(firstSequence);
        batch.lastInPacket(false);
        batch.begin(batch.exchangeTimestamp());
        batch.add(EventType.SESSION, 0)
            .orderReference(name.getLong(nameOffset, ByteOrder.LITTLE_ENDIAN))
            .matchOrNewReference(name.getShort(nameOffset + 8, ByteOrder.LITTLE_ENDIAN) & 0xFFFF);
        batch.publish(false, handler);
    }

    /** @return session ticks published. */
    public long sessionCount()
    {
        return sessionCount;
    }

    public OrderBooks books()
    {
        return books;
    }

    public ExchangeClock clock()
    {
        return clock;
    }

    /** @return the gateway sequence the next tick will get. */
    public long nextGatewaySequence()
    {
        return batch.nextGatewaySequence();
    }

    /**
     * Publishes a {@link EventType#GAP} tick: messages {@code first .. first + count - 1} of the session are lost
     * for good and will never be normalized, so consumers do not mistake the hole for continuity. The tick carries
     * the first lost sequence as its exchange sequence and the count in {@code matchOrNewReference}; its exchange
     * timestamp is that of the message before the gap (0 when there was none), its receive timestamp, session and
     * line flags are the current context. The books are left as they are. Clears the {@code lastInPacket} context:
     * a gap tick is never the last of a packet.
     *
     * @param first sequence of the first lost message.
     * @param count of lost messages, at least 1.
     */
    public void onGap(final long first, final long count)
    {
        gapCount++;
        gapMessageCount += count;
        batch.exchangeSequence(first);
        batch.lastInPacket(false);
        batch.begin(batch.exchangeTimestamp());
        batch.add(EventType.GAP, 0).matchOrNewReference(count);
        batch.publish(false, handler);
    }

    /** @return gap ticks published. */
    public long gapCount()
    {
        return gapCount;
    }

    /** @return messages the published gap ticks declared lost. */
    public long gapMessageCount()
    {
        return gapMessageCount;
    }

    /** @return messages normalized. */
    public long messageCount()
    {
        return messageCount;
    }

    /** @return ticks published, all event types. */
    public long tickCount()
    {
        return batch.published();
    }

    /** @return top-of-book ticks published. */
    public long topOfBookCount()
    {
        return topOfBookCount;
    }

    /** @return order events whose stock locate differs from the locate of the order they name. */
    public long locateMismatchCount()
    {
        return locateMismatchCount;
    }

    @Override
    public void onSystemEvent(final SystemEventFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.SYSTEM_EVENT, message.stockLocate());
        tick.matchOrNewReference(message.eventCode());
        publish(message.stockLocate());
    }

    @Override
    public void onStockDirectory(final StockDirectoryFlyweight message)
    {
        begin(message);
        final int instrument = message.stockLocate();
        instruments.symbol(instrument, message.stock());
        final TickEncoder tick = batch.add(EventType.INSTRUMENT, instrument);
        tick.orderReference(message.stock())
            .matchOrNewReference(chars(
                message.marketCategory(), message.financialStatusIndicator(), message.roundLotsOnly(),
                message.issueClassification(), message.authenticity(), message.shortSaleThresholdIndicator(),
                message.ipoFlag(), message.luldReferencePriceTier()));
        batch.quantity(message.roundLotSize());
        publish(instrument);
    }

    @Override
    public void onStockTradingAction(final StockTradingActionFlyweight message)
    {
        begin(message);
        final int instrument = message.stockLocate();
        instruments.tradingState(instrument, message.tradingState());
        final TickEncoder tick = batch.add(EventType.TRADING_STATUS, instrument);
        tick.orderReference(message.reason() & U32).matchOrNewReference(message.tradingState());
        publish(instrument);
    }

    @Override
    public void onRegShoRestriction(final RegShoRestrictionFlyweight message)
    {
        begin(message);
        batch.add(EventType.REG_SHO, message.stockLocate()).matchOrNewReference(message.regShoAction());
        publish(message.stockLocate());
    }

    @Override
    public void onMarketParticipantPosition(final MarketParticipantPositionFlyweight message)
    {
        begin(message);
        batch.add(EventType.MARKET_PARTICIPANT, message.stockLocate())
            .orderReference(message.mpid() & U32)
            .matchOrNewReference(chars(
                message.primaryMarketMaker(), message.marketMakerMode(), message.marketParticipantState()));
        publish(message.stockLocate());
    }

    @Override
    public void onMwcbDeclineLevel(final MwcbDeclineLevelFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.MWCB_LEVEL, message.stockLocate());
        batch.price(batch.rescale(message.level1()));
        tick.orderReference(batch.rescale(message.level2())).matchOrNewReference(batch.rescale(message.level3()));
        publish(message.stockLocate());
    }

    @Override
    public void onMwcbStatus(final MwcbStatusFlyweight message)
    {
        begin(message);
        batch.add(EventType.MWCB_STATUS, message.stockLocate()).matchOrNewReference(message.breachedLevel());
        publish(message.stockLocate());
    }

    @Override
    public void onIpoQuotingPeriodUpdate(final IpoQuotingPeriodUpdateFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.IPO_QUOTING, message.stockLocate());
        tick.orderReference(clock.toEpochNanos(message.ipoQuotationReleaseTime() * 1_000_000_000L))
            .matchOrNewReference(message.ipoQuotationReleaseQualifier());
        batch.price(message.ipoPrice());
        publish(message.stockLocate());
    }

    @Override
    public void onLuldAuctionCollar(final LuldAuctionCollarFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.LULD_COLLAR, message.stockLocate());
        tick.orderReference(pair(message.upperAuctionCollarPrice(), message.lowerAuctionCollarPrice()));
        batch.price(message.auctionCollarReferencePrice());
        batch.quantity(message.auctionCollarExtension());
        publish(message.stockLocate());
    }

    @Override
    public void onOperationalHalt(final OperationalHaltFlyweight message)
    {
        begin(message);
        batch.add(EventType.OPERATIONAL_HALT, message.stockLocate())
            .orderReference(message.marketCode())
            .matchOrNewReference(message.operationalHaltAction());
        publish(message.stockLocate());
    }

    @Override
    public void onAddOrder(final AddOrderFlyweight message)
    {
        add(message, 0);
    }

    @Override
    public void onAddOrderMpid(final AddOrderMpidFlyweight message)
    {
        add(message, message.attribution() & U32);
    }

    @Override
    public void onOrderExecuted(final OrderExecutedFlyweight message)
    {
        begin(message);
        final int result = books.execute(message.orderReference(), message.executedShares());
        final TickEncoder tick = orderTick(EventType.EXECUTE, message, result);
        tick.orderReference(message.orderReference()).matchOrNewReference(message.matchNumber());
        restingPrice();
        batch.quantity(message.executedShares());
        endOrderEvent(message);
    }

    @Override
    public void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight message)
    {
        begin(message);
        final int result = books.execute(message.orderReference(), message.executedShares());
        final TickEncoder tick = orderTick(EventType.EXECUTE_WITH_PRICE, message, result);
        tick.orderReference(message.orderReference()).matchOrNewReference(message.matchNumber());
        batch.price(message.executionPrice());
        batch.quantity(message.executedShares());
        if (message.printable() == 'N')
        {
            batch.flag(TickBatch.NON_PRINTABLE);
        }
        endOrderEvent(message);
    }

    @Override
    public void onOrderCancel(final OrderCancelFlyweight message)
    {
        begin(message);
        final int result = books.cancel(message.orderReference(), message.cancelledShares());
        final TickEncoder tick = orderTick(EventType.CANCEL, message, result);
        tick.orderReference(message.orderReference()).matchOrNewReference(books.lastRemaining());
        restingPrice();
        batch.quantity(message.cancelledShares());
        endOrderEvent(message);
    }

    @Override
    public void onOrderDelete(final OrderDeleteFlyweight message)
    {
        begin(message);
        final int result = books.delete(message.orderReference());
        final TickEncoder tick = orderTick(EventType.DELETE, message, result);
        tick.orderReference(message.orderReference());
        restingPrice();
        batch.quantity(books.lastSharesRemoved());
        endOrderEvent(message);
    }

    @Override
    public void onOrderReplace(final OrderReplaceFlyweight message)
    {
        begin(message);
        final int result = books.replace(
            message.originalOrderReference(), message.newOrderReference(), message.shares(), message.price());
        final TickEncoder tick = orderTick(EventType.REPLACE, message, result);
        tick.orderReference(message.originalOrderReference()).matchOrNewReference(message.newOrderReference());
        batch.price(message.price());
        batch.quantity(message.shares());
        endOrderEvent(message);
    }

    @Override
    public void onTrade(final TradeFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.TRADE, message.stockLocate());
        tick.orderReference(message.orderReference())
            .matchOrNewReference(message.matchNumber())
            .side(side(message.side()));
        batch.price(message.price());
        batch.quantity(message.shares());
        publish(message.stockLocate());
    }

    @Override
    public void onCrossTrade(final CrossTradeFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.CROSS_TRADE, message.stockLocate());
        tick.orderReference(message.crossType()).matchOrNewReference(message.matchNumber());
        batch.price(message.crossPrice());
        batch.quantity(message.shares());
        publish(message.stockLocate());
    }

    @Override
    public void onBrokenTrade(final BrokenTradeFlyweight message)
    {
        begin(message);
        batch.add(EventType.BROKEN_TRADE, message.stockLocate()).matchOrNewReference(message.matchNumber());
        publish(message.stockLocate());
    }

    @Override
    public void onNoii(final NoiiFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.IMBALANCE, message.stockLocate());
        tick.orderReference(pair(message.farPrice(), message.nearPrice()))
            .matchOrNewReference(
                chars(message.crossType(), message.imbalanceDirection(), message.priceVariationIndicator()) << 40 |
                batch.saturate(message.pairedShares()))
            .side(side(message.imbalanceDirection()));
        batch.price(message.currentReferencePrice());
        batch.quantity(message.imbalanceShares());
        publish(message.stockLocate());
    }

    @Override
    public void onRetailPriceImprovement(final RetailPriceImprovementFlyweight message)
    {
        begin(message);
        batch.add(EventType.RETAIL_INTEREST, message.stockLocate())
            .matchOrNewReference(message.interestFlag())
            .side(side(message.interestFlag()));
        publish(message.stockLocate());
    }

    @Override
    public void onDirectListingCapitalRaise(final DirectListingCapitalRaiseFlyweight message)
    {
        begin(message);
        final TickEncoder tick = batch.add(EventType.DIRECT_LISTING, message.stockLocate());
        tick.orderReference(pair(message.minimumAllowablePrice(), message.maximumAllowablePrice()))
            .matchOrNewReference(pair(message.lowerPriceRangeCollar(), message.upperPriceRangeCollar()));
        batch.price(message.nearExecutionPrice());
        batch.quantity(message.openEligibilityStatus());
        publish(message.stockLocate());
    }

    /**
     * Restoring after a restart ({@link BookRestore}): records one side's top of book as the one last published, as
     * a journaled {@link EventType#TOP_OF_BOOK} tick says, so the next order event publishes a top-of-book tick
     * exactly when an uninterrupted normalizer would. Not for the hot path.
     *
     * @param instrument stock locate; ignored when beyond the books' instruments.
     * @param side       {@link BookSide#BID} or {@link BookSide#ASK}; anything else is ignored.
     * @param price      the best price published, {@link OrderBooks#NO_PRICE} for an empty side.
     * @param size       the aggregate size published at that price, 0 for an empty side.
     * @return whether it was recorded.
     */
    public boolean restorePublishedTopOfBook(final int instrument, final int side, final long price, final long size)
    {
        if (instrument < 0 || instrument >= books.maxInstruments() || (side != BookSide.BID && side != BookSide.ASK))
        {
            return false;
        }
        publishedTopPrice[(instrument << 1) | side] = price;
        publishedTopSize[(instrument << 1) | side] = size;
        restoredTop[instrument] = true;
        return true;
    }

    /** Restore: the instrument's next order event compares the top of both sides with what was published. */
    void markTopRestored(final int instrument)
    {
        if (instrument >= 0 && instrument < restoredTop.length)
        {
            restoredTop[instrument] = true;
            crossed[instrument] = books.isCrossed(instrument);
        }
    }

    private void add(final AddOrderFlyweight message, final long attribution)
    {
        begin(message);
        final int instrument = message.stockLocate();
        books.add(instrument, message.orderReference(), message.side(), message.shares(), message.price());
        final TickEncoder tick = batch.add(EventType.ADD, instrument);
        tick.orderReference(message.orderReference())
            .matchOrNewReference(attribution)
            .side(side(message.side()));
        batch.price(message.price());
        batch.quantity(message.shares());
        depth(books.lastInstrument());
        topOfBook(books.lastInstrument());
        publish(instrument);
    }

    /** Stages the event tick of an order event already applied to the book, with the order's side from the book. */
    private TickEncoder orderTick(final EventType type, final ItchMessageFlyweight message, final int result)
    {
        final int instrument = message.stockLocate();
        final TickEncoder tick = batch.add(type, instrument);
        if (result == OrderBooks.UNKNOWN_ORDER)
        {
            batch.flag(TickBatch.UNKNOWN_ORDER);
        }
        else
        {
            tick.side(bookSide(books.lastSide()));
            if (books.lastInstrument() != instrument)
            {
                locateMismatchCount++;
            }
        }
        return tick;
    }

    /** Sets the staged tick's price to the price the order rested at, when it was on the book. */
    private void restingPrice()
    {
        final long price = books.lastPrice();
        if (price != OrderBooks.NO_PRICE)
        {
            batch.price(price);
        }
    }

    private void endOrderEvent(final ItchMessageFlyweight message)
    {
        final int bookInstrument = books.lastInstrument();
        depth(bookInstrument);
        topOfBook(bookInstrument);
        publish(bookInstrument == OrderBooks.NONE ? message.stockLocate() : bookInstrument);
    }

    /**
     * Stages the LEVEL ticks of the order event just applied, from the levels the book says it touched (at most
     * two prices) and the one level that may cross the edge of the top D because a level above it appeared or left;
     * nothing else in the top D can have changed. Removals first, by the depth they left, then the others best
     * first: the order docs/TICK.md gives. A level's depth before the event is its depth now corrected by the
     * touched levels above it that appeared or left, so nothing is kept per instrument.
     */
    private void depth(final int instrument)
    {
        if (pendingDepth > 0 && pendingInstrument == instrument)
        {
            publishPendingDepth();
        }
        final int upserts = stageDepth(instrument);
        final int side = books.lastSide();
        for (int i = 0; i < upserts; i++)
        {
            levelCount++;
            final TickEncoder tick = batch.add(EventType.LEVEL, instrument);
            tick.side(bookSide(side)).orderReference(depthAt[i]).matchOrNewReference(depthOrders[i]);
            batch.price(depthPrice[i]);
            batch.quantity(depthSize[i]);
        }
    }

    /** @return LEVEL ticks staged for the order event just applied (see {@link #depth}), 0 when none. */
    private int stageDepth(final int instrument)
    {
        final int levels = depthLevels;
        final int touched = books.touchedCount();
        if (levels == 0 || instrument == OrderBooks.NONE || touched == 0)
        {
            return 0;
        }
        final int side = books.lastSide();
        int removals = 0;
        for (int i = 0; i < touched; i++)
        {
            final int level = books.touchedLevel(i);
            if (books.touchedExisted(i) && before(i, level) < levels && (level == OrderBooks.NONE ||
                books.depthOfLevel(level) >= levels))
            {
                removals = stage(removals, books.touchedPrice(i), 0, 0,
                    level == OrderBooks.NONE ? books.touchedRemovalDepth(i) : books.depthOfLevel(level),
                    before(i, level));
            }
        }
        final int pushed = books.levelAt(instrument, side, levels);
        if (pushed != OrderBooks.NONE && !isTouched(pushed) && shift(side, books.priceOfLevel(pushed), -1) > 0)
        {
            removals = stage(removals, books.priceOfLevel(pushed), 0, 0, levels, levels - 1);
        }
        sortStaged(0, removals);
        int upserts = removals;
        for (int i = 0; i < touched; i++)
        {
            final int level = books.touchedLevel(i);
            if (level == OrderBooks.NONE)
            {
                continue;
            }
            final int now = books.depthOfLevel(level);
            if (now < levels && (!books.touchedExisted(i) || before(i, level) >= levels ||
                books.sizeOfLevel(level) != books.touchedSizeBefore(i) ||
                books.orderCountOfLevel(level) != books.touchedOrdersBefore(i)))
            {
                upserts = stage(upserts, books.priceOfLevel(level), books.sizeOfLevel(level),
                    books.orderCountOfLevel(level), now, now);
            }
        }
        final int entering = books.levelAt(instrument, side, levels - 1);
        if (entering != OrderBooks.NONE && !isTouched(entering) && shift(side, books.priceOfLevel(entering), -1) < 0)
        {
            upserts = stage(upserts, books.priceOfLevel(entering), books.sizeOfLevel(entering),
                books.orderCountOfLevel(entering), levels - 1, levels - 1);
        }
        sortStaged(removals, upserts);
        return upserts;
    }

    /**
     * Restore, after the journaled event tick of an order event was applied to the books: works out the LEVEL ticks
     * the message published, to be matched against the journaled ones ({@link #journaledLevel}); what a torn message
     * did not get into the journal stays pending and is published with the instrument's next order event.
     */
    void expectDepth()
    {
        final int instrument = books.lastInstrument();
        final int count = stageDepth(instrument);
        pendingDepth = count;
        pendingFirst = 0;
        pendingInstrument = instrument;
        pendingSide = books.lastSide();
        for (int i = 0; i < count; i++)
        {
            pendingPrice[i] = depthPrice[i];
            pendingSize[i] = depthSize[i];
            pendingOrders[i] = depthOrders[i];
            pendingAt[i] = depthAt[i];
        }
    }

    /**
     * Restore: a journaled LEVEL tick of the message whose depth {@link #expectDepth} worked out.
     *
     * @return false when it is not the one expected next (the rebuild differs from the run that journaled it).
     */
    boolean journaledLevel(final long price, final long size, final long orders, final long depth)
    {
        if (pendingFirst < pendingDepth && pendingPrice[pendingFirst] == price && pendingSize[pendingFirst] == size &&
            pendingOrders[pendingFirst] == orders && pendingAt[pendingFirst] == depth)
        {
            pendingFirst++;
            return true;
        }
        return false;
    }

    /** Restore: the message's last tick was journaled, so none of its LEVEL ticks was lost. */
    void messageEnded()
    {
        pendingDepth = 0;
        pendingFirst = 0;
    }

    /** @return LEVEL ticks a torn message did not journal, waiting for its instrument's next order event. */
    public int pendingDepthTicks()
    {
        return pendingDepth - pendingFirst;
    }

    private void publishPendingDepth()
    {
        for (int i = pendingFirst; i < pendingDepth; i++)
        {
            levelCount++;
            final TickEncoder tick = batch.add(EventType.LEVEL, pendingInstrument);
            tick.side(bookSide(pendingSide)).orderReference(pendingAt[i]).matchOrNewReference(pendingOrders[i]);
            batch.price(pendingPrice[i]);
            batch.quantity(pendingSize[i]);
        }
        pendingDepth = 0;
        pendingFirst = 0;
    }

    /** @return the depth touched price {@code i} had before the event (its level {@code level} now, or gone). */
    private int before(final int i, final int level)
    {
        if (level == OrderBooks.NONE)
        {
            return books.touchedRemovalDepth(i);
        }
        return books.depthOfLevel(level) - shift(books.lastSide(), books.touchedPrice(i), i);
    }

    /**
     * @return how much the event moved a level at {@code price} down: touched levels above it that appeared, less
     * those that left (the touched price {@code self} itself not counted; -1 for an untouched level).
     */
    private int shift(final int side, final long price, final int self)
    {
        int shift = 0;
        for (int j = 0, n = books.touchedCount(); j < n; j++)
        {
            final long other = books.touchedPrice(j);
            if (j == self || !(side == BookSide.BID ? other > price : other < price))
            {
                continue;
            }
            final boolean existed = books.touchedExisted(j);
            final boolean exists = books.touchedLevel(j) != OrderBooks.NONE;
            if (!existed && exists)
            {
                shift++;
            }
            else if (existed && !exists)
            {
                shift--;
            }
        }
        return shift;
    }

    private boolean isTouched(final int level)
    {
        for (int j = 0, n = books.touchedCount(); j < n; j++)
        {
            if (books.touchedLevel(j) == level)
            {
                return true;
            }
        }
        return false;
    }

    /** Stages one LEVEL tick: {@code depth} goes in the tick, {@code key} orders it among its kind. */
    private int stage(
        final int at, final long price, final long size, final int orders, final int depth, final int key)
    {
        depthPrice[at] = price;
        depthSize[at] = size;
        depthOrders[at] = orders;
        depthAt[at] = depth;
        depthKey[at] = key;
        return at + 1;
    }

    /** Insertion sort of staged entries {@code from .. to - 1} by key (removals: the depth they left). */
    private void sortStaged(final int from, final int to)
    {
        for (int i = from + 1; i < to; i++)
        {
            for (int j = i; j > from && depthKey[j - 1] > depthKey[j]; j--)
            {
                swap(j - 1, j);
            }
        }
    }

    private void swap(final int a, final int b)
    {
        final long price = depthPrice[a];
        final long size = depthSize[a];
        final int orders = depthOrders[a];
        final int at = depthAt[a];
        final int key = depthKey[a];
        depthPrice[a] = depthPrice[b];
        depthSize[a] = depthSize[b];
        depthOrders[a] = depthOrders[b];
        depthAt[a] = depthAt[b];
        depthKey[a] = depthKey[b];
        depthPrice[b] = price;
        depthSize[b] = size;
        depthOrders[b] = orders;
        depthAt[b] = at;
        depthKey[b] = key;
    }

    /**
     * Stages a top-of-book tick for the side the order event touched when its best price or size differs from the
     * one last published: an order event moves only its own side, and only when the book says it touched that side's
     * best level, so an event deeper in the book reads nothing more. After a restart the other side's last published
     * top may be one a torn message never got out (see {@link BookRestore}), so an instrument's first order event
     * after a restore compares both sides.
     */
    private void topOfBook(final int instrument)
    {
        if (instrument == OrderBooks.NONE)
        {
            return;
        }
        if (restoredTop[instrument])
        {
            restoredTop[instrument] = false;
            topOfBook(instrument, BookSide.BID);
            topOfBook(instrument, BookSide.ASK);
            return;
        }
        if (books.lastTouchedBest())
        {
            topOfBook(instrument, books.lastSide());
        }
    }

    private void topOfBook(final int instrument, final int side)
    {
        final int index = (instrument << 1) | side;
        final int best = books.bestLevel(instrument, side);
        final long price = best == OrderBooks.NONE ? OrderBooks.NO_PRICE : books.priceOfLevel(best);
        final long size = best == OrderBooks.NONE ? 0 : books.sizeOfLevel(best);
        if (price == publishedTopPrice[index] && size == publishedTopSize[index])
        {
            return;
        }
        if (price != publishedTopPrice[index])
        {
            crossed[instrument] = books.isCrossed(instrument);
        }
        publishedTopPrice[index] = price;
        publishedTopSize[index] = size;
        topOfBookCount++;
        final TickEncoder tick = batch.add(EventType.TOP_OF_BOOK, instrument);
        tick.side(bookSide(side)).matchOrNewReference(best == OrderBooks.NONE ? 0 : books.orderCountOfLevel(best));
        if (price != OrderBooks.NO_PRICE)
        {
            batch.price(price);
        }
        batch.quantity(size);
    }

    private void begin(final ItchMessageFlyweight message)
    {
        messageCount++;
        messagesSinceReset++;
        final long time = clock.toEpochNanos(message.timestamp());
        batch.begin(sessionChanged ? firstTimeOfSession(message.timestamp(), time) : time);
    }

    /**
     * The first ITCH time after a session change: when it falls before the last tick, the session date was left
     * behind at a day boundary, so the clock moves on a day at a time until it does not.
     */
    private long firstTimeOfSession(final long itchNanos, final long time)
    {
        sessionChanged = false;
        long converted = time;
        for (int day = 0; day < MAX_DAYS_ROLLED && converted < batch.exchangeTimestamp(); day++)
        {
            clock.sessionDate(clock.sessionDate().plusDays(1));
            converted = clock.toEpochNanos(itchNanos);
        }
        return converted;
    }

    private void publish(final int instrument)
    {
        batch.publish(instrument >= 0 && instrument < crossed.length && crossed[instrument], handler);
    }

    private static Side side(final char itchSide)
    {
        switch (itchSide)
        {
            case 'B':
                return Side.BUY;
            case 'S':
                return Side.SELL;
            default:
                return Side.NONE;
        }
    }

    private static Side bookSide(final int side)
    {
        return side == BookSide.BID ? Side.BUY : side == BookSide.ASK ? Side.SELL : Side.NONE;
    }

    /** @return two u32 values in one u64, the first in the high half. */
    private static long pair(final long high, final long low)
    {
        return (high & U32) << 32 | (low & U32);
    }

    private static long chars(final char c1, final char c2, final char c3)
    {
        return (c1 & 0xFFL) << 16 | (c2 & 0xFFL) << 8 | (c3 & 0xFFL);
    }

    private static long chars(
        final char c1, final char c2, final char c3, final char c4,
        final char c5, final char c6, final char c7, final char c8)
    {
        return chars(c1, c2, c3) << 40 | chars(c4, c5, c6) << 16 | (c7 & 0xFFL) << 8 | (c8 & 0xFFL);
    }
}
