package io.mdgate.core.tick;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.ItchMessageWriter;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.LocalDate;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per event type, checking the fields docs/TICK.md gives it, plus the top-of-book rules and the
 * per-message context and flags.
 */
@Timeout(30)
class NormalizerTest
{
    private static final int AAPL = 13;
    private static final long STOCK = Alpha.pack8("AAPL");
    private static final long T = 34_200_000_000_123L;
    private static final int NULL_PRICE = Integer.MIN_VALUE;
    private static final long FIRST_SEQUENCE = 1000;

    private final ExchangeClock clock = new ExchangeClock(LocalDate.of(2024, 3, 11));
    private final OrderBooks books = new OrderBooks(new BookContext().maxOrders(64).maxLevels(64).maxInstruments(64));
    private final RecordingTickHandler ticks = new RecordingTickHandler();
    private final Normalizer normalizer = new Normalizer(books, clock, ticks, FIRST_SEQUENCE);
    private final ItchMessageDecoder decoder = new ItchMessageDecoder();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final ItchMessageWriter writer = new ItchMessageWriter(buffer);

    @Test
    void shouldTurnAnAddIntoAnAddTickThenATopOfBookTickForItsSide()
    {
        assertEquals(2, send(writer.addOrder(0, AAPL, T, 77, 'B', 300, STOCK, 1_500_000)));

        final TickDecoder add = ticks.tick(0);
        assertEvent(add, EventType.ADD, AAPL);
        assertEquals(77, add.orderReference());
        assertEquals(0, add.matchOrNewReference());
        assertEquals(Side.BUY, add.side());
        assertEquals(1_500_000, add.price().mantissa());
        assertEquals(300, add.quantity());
        assertFalse(add.flags().lastInMessage());

        final TickDecoder top = ticks.tick(1);
        assertTopOfBook(top, Side.BUY, 1_500_000, 300, 1);
        assertTrue(top.flags().lastInMessage());
        assertEquals(clock.toEpochNanos(T), top.exchangeTimestamp());
    }

    @Test
    void shouldCarryTheAttributionOfAnAddWithMpid()
    {
        send(writer.addOrderMpid(0, AAPL, T, 78, 'S', 100, STOCK, 1_600_000, Alpha.pack4("GSCO")));

        final TickDecoder add = ticks.tick(0);
        assertEvent(add, EventType.ADD, AAPL);
        assertEquals(Alpha.pack4("GSCO"), (int)add.matchOrNewReference());
        assertEquals(Side.SELL, add.side());
        assertTopOfBook(ticks.tick(1), Side.SELL, 1_600_000, 100, 1);
    }

    @Test
    void shouldPublishNoTopOfBookForAnOrderBehindTheBestButOneWhenTheBestSizeGrows()
    {
        send(writer.addOrder(0, AAPL, T, 1, 'B', 300, STOCK, 1_500_000));

        assertEquals(1, send(writer.addOrder(0, AAPL, T, 2, 'B', 300, STOCK, 1_490_000)));
        assertTrue(ticks.last().flags().lastInMessage());

        assertEquals(2, send(writer.addOrder(0, AAPL, T, 3, 'B', 200, STOCK, 1_500_000)));
        assertTopOfBook(ticks.last(), Side.BUY, 1_500_000, 500, 2);
    }

    @Test
    void shouldDescribeAnExecutionWithTheRestingOrdersPriceAndSide()
    {
        send(writer.addOrder(0, AAPL, T, 5, 'S', 300, STOCK, 1_500_000));

        assertEquals(2, send(writer.executed(0, AAPL, T, 5, 100, 9001)));

        final TickDecoder execute = ticks.tick(ticks.size() - 2);
        assertEvent(execute, EventType.EXECUTE, AAPL);
        assertEquals(5, execute.orderReference());
        assertEquals(9001, execute.matchOrNewReference());
        assertEquals(100, execute.quantity());
        assertEquals(1_500_000, execute.price().mantissa());
        assertEquals(Side.SELL, execute.side());
        assertFalse(execute.flags().unknownOrder());
        assertTopOfBook(ticks.last(), Side.SELL, 1_500_000, 200, 1);
    }

    @Test
    void shouldDescribeAnExecutionWithPriceAndFlagItNonPrintableOnlyWhenTheExchangeSaysSo()
    {
        send(writer.addOrder(0, AAPL, T, 5, 'B', 300, STOCK, 1_500_000));

        send(writer.executedWithPrice(0, AAPL, T, 5, 100, 9002, 'N', 1_499_900));
        final TickDecoder hidden = ticks.tick(ticks.size() - 2);
        assertEvent(hidden, EventType.EXECUTE_WITH_PRICE, AAPL);
        assertEquals(5, hidden.orderReference());
        assertEquals(9002, hidden.matchOrNewReference());
        assertEquals(1_499_900, hidden.price().mantissa());
        assertEquals(100, hidden.quantity());
        assertEquals(Side.BUY, hidden.side());
        assertTrue(hidden.flags().nonPrintable());

        send(writer.executedWithPrice(0, AAPL, T, 5, 100, 9003, 'Y', 1_499_900));
        assertFalse(ticks.tick(ticks.size() - 2).flags().nonPrintable());
    }

    @Test
    void shouldDescribeACancelWithTheSharesLeftOnTheOrder()
    {
        send(writer.addOrder(0, AAPL, T, 5, 'S', 300, STOCK, 1_500_000));

        send(writer.cancel(0, AAPL, T, 5, 120));

        final TickDecoder cancel = ticks.tick(ticks.size() - 2);
        assertEvent(cancel, EventType.CANCEL, AAPL);
        assertEquals(5, cancel.orderReference());
        assertEquals(120, cancel.quantity());
        assertEquals(180, cancel.matchOrNewReference());
        assertEquals(1_500_000, cancel.price().mantissa());
        assertEquals(Side.SELL, cancel.side());
        assertTopOfBook(ticks.last(), Side.SELL, 1_500_000, 180, 1);
    }

    @Test
    void shouldDescribeADeleteWithTheSharesItRemovedAndEmptyTheSide()
    {
        send(writer.addOrder(0, AAPL, T, 5, 'S', 300, STOCK, 1_500_000));
        send(writer.cancel(0, AAPL, T, 5, 100));

        assertEquals(2, send(writer.delete(0, AAPL, T, 5)));

        final TickDecoder delete = ticks.tick(ticks.size() - 2);
        assertEvent(delete, EventType.DELETE, AAPL);
        assertEquals(5, delete.orderReference());
        assertEquals(200, delete.quantity());
        assertEquals(1_500_000, delete.price().mantissa());
        assertEquals(Side.SELL, delete.side());
        assertTopOfBook(ticks.last(), Side.SELL, NULL_PRICE, 0, 0);
    }

    @Test
    void shouldDescribeAReplaceWithTheNewReferencePriceAndSizeAndTheOriginalSide()
    {
        send(writer.addOrder(0, AAPL, T, 5, 'S', 300, STOCK, 1_500_000));

        send(writer.replace(0, AAPL, T, 5, 6, 250, 1_490_000));

        final TickDecoder replace = ticks.tick(ticks.size() - 2);
        assertEvent(replace, EventType.REPLACE, AAPL);
        assertEquals(5, replace.orderReference());
        assertEquals(6, replace.matchOrNewReference());
        assertEquals(1_490_000, replace.price().mantissa());
        assertEquals(250, replace.quantity());
        assertEquals(Side.SELL, replace.side());
        assertTopOfBook(ticks.last(), Side.SELL, 1_490_000, 250, 1);
    }

    @Test
    void shouldFlagEveryOrderEventOnAnUnknownReferenceAndPublishNoTopOfBook()
    {
        send(writer.addOrder(0, AAPL, T, 5, 'S', 300, STOCK, 1_500_000));
        ticks.clear();

        assertEquals(1, send(writer.executed(0, AAPL, T, 404, 10, 1)));
        assertUnknown(ticks.last(), EventType.EXECUTE, NULL_PRICE);
        assertEquals(1, send(writer.executedWithPrice(0, AAPL, T, 404, 10, 2, 'Y', 1_000_000)));
        assertUnknown(ticks.last(), EventType.EXECUTE_WITH_PRICE, 1_000_000);
        assertEquals(1, send(writer.cancel(0, AAPL, T, 404, 10)));
        assertUnknown(ticks.last(), EventType.CANCEL, NULL_PRICE);
        assertEquals(1, send(writer.delete(0, AAPL, T, 404)));
        assertUnknown(ticks.last(), EventType.DELETE, NULL_PRICE);
        assertEquals(1, send(writer.replace(0, AAPL, T, 404, 405, 10, 1_000_000)));
        assertUnknown(ticks.last(), EventType.REPLACE, 1_000_000);

        assertEquals(5, books.unknownOrderCount());
        assertEquals(300, books.bestSize(AAPL, BookSide.ASK));
    }

    @Test
    void shouldPublishANonDisplayedTradeWithoutTouchingTheBook()
    {
        send(writer.addOrder(0, AAPL, T, 5, 'S', 300, STOCK, 1_500_000));

        assertEquals(1, send(writer.trade(0, AAPL, T, 0, 'B', 400, STOCK, 1_500_100, 777)));

        final TickDecoder trade = ticks.last();
        assertEvent(trade, EventType.TRADE, AAPL);
        assertEquals(0, trade.orderReference());
        assertEquals(777, trade.matchOrNewReference());
        assertEquals(Side.BUY, trade.side());
        assertEquals(1_500_100, trade.price().mantissa());
        assertEquals(400, trade.quantity());
        assertEquals(300, books.bestSize(AAPL, BookSide.ASK));
    }

    @Test
    void shouldCapACrossTradesSixtyFourBitShareCountAndFlagIt()
    {
        send(writer.crossTrade(0, AAPL, T, 5_000_000_000L, STOCK, 1_500_000, 778, 'C'));

        final TickDecoder cross = ticks.last();
        assertEvent(cross, EventType.CROSS_TRADE, AAPL);
        assertEquals('C', cross.orderReference());
        assertEquals(778, cross.matchOrNewReference());
        assertEquals(1_500_000, cross.price().mantissa());
        assertEquals(TickEncoder.quantityMaxValue(), cross.quantity());
        assertTrue(cross.flags().quantitySaturated());

        send(writer.crossTrade(0, AAPL, T, 5_000, STOCK, 1_500_000, 779, 'O'));
        assertEquals(5_000, ticks.last().quantity());
        assertFalse(ticks.last().flags().quantitySaturated());
    }

    @Test
    void shouldPublishABrokenTradesMatchNumber()
    {
        send(writer.brokenTrade(0, AAPL, T, 778));

        assertEvent(ticks.last(), EventType.BROKEN_TRADE, AAPL);
        assertEquals(778, ticks.last().matchOrNewReference());
        assertEquals(NULL_PRICE, ticks.last().price().mantissa());
    }

    @Test
    void shouldPublishASystemEventAsMarketWide()
    {
        send(writer.systemEvent(0, T, 'Q'));

        assertEvent(ticks.last(), EventType.SYSTEM_EVENT, 0);
        assertEquals('Q', ticks.last().matchOrNewReference());
    }

    @Test
    void shouldRegisterTheSymbolOfAStockDirectoryAndPublishItsAttributes()
    {
        send(writer.stockDirectory(0, AAPL, T, STOCK, 100));

        final TickDecoder instrument = ticks.last();
        assertEvent(instrument, EventType.INSTRUMENT, AAPL);
        assertEquals(STOCK, instrument.orderReference());
        assertEquals(100, instrument.quantity());
        assertEquals("QNNCPN 1", Alpha.unpack8(instrument.matchOrNewReference()));
        assertEquals("AAPL", books.instruments().symbolText(AAPL));
        assertEquals(AAPL, books.instruments().instrumentOf(STOCK));
    }

    @Test
    void shouldPublishATradingStateChangeWithItsReasonAndRememberTheState()
    {
        send(writer.tradingAction(0, AAPL, T, STOCK, 'H', Alpha.pack4("LUDP")));

        final TickDecoder status = ticks.last();
        assertEvent(status, EventType.TRADING_STATUS, AAPL);
        assertEquals('H', status.matchOrNewReference());
        assertEquals("LUDP", Alpha.unpack4((int)status.orderReference()));
        assertEquals('H', books.instruments().tradingState(AAPL));
    }

    @Test
    void shouldPublishARegShoAction()
    {
        send(writer.regSho(0, AAPL, T, STOCK, '1'));

        assertEvent(ticks.last(), EventType.REG_SHO, AAPL);
        assertEquals('1', ticks.last().matchOrNewReference());
    }

    @Test
    void shouldPublishAMarketParticipantPosition()
    {
        send(writer.participant(0, AAPL, T, Alpha.pack4("MMKR"), STOCK, 'Y', 'N', 'A'));

        final TickDecoder participant = ticks.last();
        assertEvent(participant, EventType.MARKET_PARTICIPANT, AAPL);
        assertEquals("MMKR", Alpha.unpack4((int)participant.orderReference()));
        assertEquals("YNA", Alpha.unpack(participant.matchOrNewReference(), 3));
    }

    @Test
    void shouldRescaleMwcbLevelsToFourDecimalsAndFlagOnlyInexactOnes()
    {
        send(writer.mwcbLevel(0, T, 400_012_340_000L, 370_000_000_000L, 330_000_000_000L));
        final TickDecoder exact = ticks.last();
        assertEvent(exact, EventType.MWCB_LEVEL, 0);
        assertEquals(40_001_234, exact.price().mantissa());
        assertEquals(37_000_000, exact.orderReference());
        assertEquals(33_000_000, exact.matchOrNewReference());
        assertFalse(exact.flags().priceRescaled());

        send(writer.mwcbLevel(0, T, 400_012_345_678L, 370_000_004_999L, 330_000_005_000L));
        final TickDecoder rounded = ticks.last();
        assertEquals(40_001_235, rounded.price().mantissa());
        assertEquals(37_000_000, rounded.orderReference());
        assertEquals(33_000_001, rounded.matchOrNewReference());
        assertTrue(rounded.flags().priceRescaled());
    }

    @Test
    void shouldPublishTheBreachedMwcbLevel()
    {
        send(writer.mwcbStatus(0, T, '2'));

        assertEvent(ticks.last(), EventType.MWCB_STATUS, 0);
        assertEquals('2', ticks.last().matchOrNewReference());
    }

    @Test
    void shouldPublishAnIpoReleaseTimeAsAnInstant()
    {
        send(writer.ipo(0, AAPL, T, STOCK, 36_000, 'A', 2_100_000));

        final TickDecoder ipo = ticks.last();
        assertEvent(ipo, EventType.IPO_QUOTING, AAPL);
        assertEquals(clock.toEpochNanos(36_000_000_000_000L), ipo.orderReference());
        assertEquals('A', ipo.matchOrNewReference());
        assertEquals(2_100_000, ipo.price().mantissa());
    }

    @Test
    void shouldPublishLuldCollarsAsAPriceAndAPair()
    {
        send(writer.luld(0, AAPL, T, STOCK, 1_500_000, 1_650_000, 1_350_000, 2));

        final TickDecoder luld = ticks.last();
        assertEvent(luld, EventType.LULD_COLLAR, AAPL);
        assertEquals(1_500_000, luld.price().mantissa());
        assertEquals(1_650_000L << 32 | 1_350_000L, luld.orderReference());
        assertEquals(2, luld.quantity());
    }

    @Test
    void shouldPublishAnOperationalHalt()
    {
        send(writer.operationalHalt(0, AAPL, T, STOCK, 'Q', 'H'));

        assertEvent(ticks.last(), EventType.OPERATIONAL_HALT, AAPL);
        assertEquals('Q', ticks.last().orderReference());
        assertEquals('H', ticks.last().matchOrNewReference());
    }

    @Test
    void shouldPackAnImbalanceIntoTheTick()
    {
        send(writer.noii(0, AAPL, T, STOCK, 90_000, 12_000, 'S', 1_510_000, 1_505_000, 1_500_000, 'C', 'L'));

        final TickDecoder noii = ticks.last();
        assertEvent(noii, EventType.IMBALANCE, AAPL);
        assertEquals(12_000, noii.quantity());
        assertEquals(1_500_000, noii.price().mantissa());
        assertEquals(Side.SELL, noii.side());
        assertEquals(1_510_000L << 32 | 1_505_000L, noii.orderReference());
        assertEquals(90_000, noii.matchOrNewReference() & 0xFFFF_FFFFL);
        assertEquals("CSL", Alpha.unpack(noii.matchOrNewReference() >>> 40, 3));
    }

    @Test
    void shouldPublishRetailInterestWithItsSide()
    {
        send(writer.retail(0, AAPL, T, STOCK, 'S'));
        assertEvent(ticks.last(), EventType.RETAIL_INTEREST, AAPL);
        assertEquals('S', ticks.last().matchOrNewReference());
        assertEquals(Side.SELL, ticks.last().side());

        send(writer.retail(0, AAPL, T, STOCK, 'A'));
        assertEquals(Side.NONE, ticks.last().side());
    }

    @Test
    void shouldPublishADirectListingsPrices()
    {
        send(writer.directListing(0, AAPL, T, STOCK, 'Y', 1_000_000, 2_000_000, 1_500_000, T, 900_000, 2_100_000));

        final TickDecoder listing = ticks.last();
        assertEvent(listing, EventType.DIRECT_LISTING, AAPL);
        assertEquals(1_500_000, listing.price().mantissa());
        assertEquals(1_000_000L << 32 | 2_000_000L, listing.orderReference());
        assertEquals(900_000L << 32 | 2_100_000L, listing.matchOrNewReference());
        assertEquals('Y', listing.quantity());
    }

    @Test
    void shouldMapEachOfTheTwentyThreeMessageTypesToItsEventTypeAndUseEveryEventType()
    {
        final String types = "SRHYLVWKJhAFECXDUPQBINO";
        final EventType[] expected = {
            EventType.SYSTEM_EVENT, EventType.INSTRUMENT, EventType.TRADING_STATUS, EventType.REG_SHO,
            EventType.MARKET_PARTICIPANT, EventType.MWCB_LEVEL, EventType.MWCB_STATUS, EventType.IPO_QUOTING,
            EventType.LULD_COLLAR, EventType.OPERATIONAL_HALT, EventType.ADD, EventType.ADD, EventType.EXECUTE,
            EventType.EXECUTE_WITH_PRICE, EventType.CANCEL, EventType.DELETE, EventType.REPLACE, EventType.TRADE,
            EventType.CROSS_TRADE, EventType.BROKEN_TRADE, EventType.IMBALANCE, EventType.RETAIL_INTEREST,
            EventType.DIRECT_LISTING,
        };
        assertEquals(ItchMessageType.ALL.length, types.length());
        normalizer.depthLevels(1);

        final Set<EventType> seen = EnumSet.noneOf(EventType.class);
        for (int i = 0; i < types.length(); i++)
        {
            final byte type = (byte)types.charAt(i);
            ticks.clear();
            assertTrue(send(write(type)) >= 1);
            assertEquals(expected[i], ticks.tick(0).eventType(), "'" + (char)type + "'");
            seen.add(ticks.tick(0).eventType());
            for (int t = 1; t < ticks.size(); t++)
            {
                seen.add(ticks.tick(t).eventType());
            }
        }
        final Set<EventType> all = EnumSet.allOf(EventType.class);
        all.remove(EventType.NULL_VAL);
        all.remove(EventType.GAP);
        all.remove(EventType.SESSION);
        assertEquals(all, seen,
            "every event type but GAP and SESSION, which the feed session declares, comes from a message (LEVEL from " +
            "an order event of a normalizer publishing depth)");
    }

    @Test
    void shouldCopyTheMessageContextIntoEveryTickAndMarkOnlyTheLastOneLastInPacket()
    {
        normalizer.exchangeSequence(555).receiveTimestamp(1_700_000_000_000_000_000L).sessionId(3).lineB(true)
            .recovered(true).lastInPacket(true);

        assertEquals(2, send(writer.addOrder(0, AAPL, T, 1, 'S', 10, STOCK, 100)));

        for (int i = 0; i < 2; i++)
        {
            final TickDecoder tick = ticks.tick(i);
            assertEquals(555, tick.exchangeSequence());
            assertEquals(1_700_000_000_000_000_000L, tick.receiveTimestamp());
            assertEquals(3, tick.sessionId());
            assertTrue(tick.flags().lineB());
            assertTrue(tick.flags().recovered());
            assertEquals(i == 1, tick.flags().lastInPacket());
            assertEquals(i == 1, tick.flags().lastInMessage());
            assertFalse(tick.flags().replayed());
        }

        normalizer.lineB(false).recovered(false).lastInPacket(false);
        send(writer.delete(0, AAPL, T, 1));
        assertFalse(ticks.last().flags().lineB());
        assertFalse(ticks.last().flags().recovered());
        assertFalse(ticks.last().flags().lastInPacket());
    }

    @Test
    void shouldNumberTicksContinuouslyFromTheFirstGatewaySequence()
    {
        send(writer.addOrder(0, AAPL, T, 1, 'S', 10, STOCK, 100));
        send(writer.systemEvent(0, T, 'Q'));
        send(writer.addOrder(0, AAPL, T, 2, 'B', 10, STOCK, 90));

        assertEquals(5, ticks.size());
        for (int i = 0; i < ticks.size(); i++)
        {
            assertEquals(FIRST_SEQUENCE + i, ticks.tick(i).gatewaySequence());
        }
        assertEquals(FIRST_SEQUENCE + 5, normalizer.nextGatewaySequence());
        assertEquals(5, normalizer.tickCount());
        assertEquals(3, normalizer.messageCount());
        assertEquals(2, normalizer.topOfBookCount());
    }

    @Test
    void shouldFlagEveryTickOfAMessageThatLeavesTheBookCrossed()
    {
        send(writer.addOrder(0, AAPL, T, 1, 'S', 10, STOCK, 100));
        assertFalse(ticks.last().flags().bookCrossed());

        assertEquals(2, send(writer.addOrder(0, AAPL, T, 2, 'B', 10, STOCK, 100)));
        assertTrue(ticks.tick(ticks.size() - 2).flags().bookCrossed());
        assertTrue(ticks.last().flags().bookCrossed());

        send(writer.delete(0, AAPL, T, 2));
        assertFalse(ticks.last().flags().bookCrossed());
    }

    @Test
    void shouldCapAPriceThatDoesNotFitTheTickAndFlagIt()
    {
        send(writer.trade(0, AAPL, T, 0, 'S', 1, STOCK, 0xFFFF_FFFFL, 1));

        assertEquals(Integer.MAX_VALUE, ticks.last().price().mantissa());
        assertTrue(ticks.last().flags().priceRescaled());
    }

    @Test
    void shouldPublishTheAddTickEvenWhenTheBookRefusesTheOrder()
    {
        assertEquals(1, send(writer.addOrder(0, 64, T, 1, 'S', 10, STOCK, 100)));

        assertEvent(ticks.last(), EventType.ADD, 64);
        assertEquals(1, books.instrumentOutOfRangeCount());
    }

    @Test
    void shouldPublishTheTopOfBookAfreshAfterAReset()
    {
        send(writer.addOrder(0, AAPL, T, 1, 'S', 10, STOCK, 100));

        normalizer.reset();

        assertEquals(0, books.orderCount());
        assertEquals(2, send(writer.addOrder(0, AAPL, T, 1, 'S', 10, STOCK, 100)));
        assertTopOfBook(ticks.last(), Side.SELL, 100, 10, 1);
        assertEquals(FIRST_SEQUENCE + 3, ticks.last().gatewaySequence());
    }

    @Test
    void shouldLeaveTheBookAloneForEveryMessageThatIsNotAnOrderEvent()
    {
        send(writer.addOrder(0, AAPL, T, 900, 'B', 300, STOCK, 1_500_000));
        send(writer.addOrder(0, AAPL, T, 901, 'S', 200, STOCK, 1_500_100));
        final long topOfBookTicks = normalizer.topOfBookCount();

        for (final char type : "SRHYLVWKJhPQBINO".toCharArray())
        {
            assertEquals(1, send(write((byte)type)), "'" + type + "' gives its own tick only");
            assertEquals(2, books.orderCount(), "'" + type + "'");
            assertEquals(1_500_000, books.bestPrice(AAPL, BookSide.BID), "'" + type + "'");
            assertEquals(300, books.bestSize(AAPL, BookSide.BID), "'" + type + "'");
            assertEquals(1_500_100, books.bestPrice(AAPL, BookSide.ASK), "'" + type + "'");
            assertEquals(200, books.bestSize(AAPL, BookSide.ASK), "'" + type + "'");
        }
        assertEquals(topOfBookTicks, normalizer.topOfBookCount());
        assertEquals(0, books.unknownOrderCount());
    }

    private int write(final byte type)
    {
        switch (type)
        {
            case 'S': return writer.systemEvent(0, T, 'O');
            case 'R': return writer.stockDirectory(0, AAPL, T, STOCK, 100);
            case 'H': return writer.tradingAction(0, AAPL, T, STOCK, 'T', 0);
            case 'Y': return writer.regSho(0, AAPL, T, STOCK, '0');
            case 'L': return writer.participant(0, AAPL, T, 0, STOCK, 'Y', 'N', 'A');
            case 'V': return writer.mwcbLevel(0, T, 1, 2, 3);
            case 'W': return writer.mwcbStatus(0, T, '1');
            case 'K': return writer.ipo(0, AAPL, T, STOCK, 1, 'A', 1);
            case 'J': return writer.luld(0, AAPL, T, STOCK, 1, 2, 0, 0);
            case 'h': return writer.operationalHalt(0, AAPL, T, STOCK, 'Q', 'T');
            case 'A': return writer.addOrder(0, AAPL, T, 1, 'B', 5, STOCK, 1);
            case 'F': return writer.addOrderMpid(0, AAPL, T, 2, 'B', 5, STOCK, 1, 0);
            case 'E': return writer.executed(0, AAPL, T, 1, 1, 1);
            case 'C': return writer.executedWithPrice(0, AAPL, T, 2, 1, 2, 'Y', 1);
            case 'X': return writer.cancel(0, AAPL, T, 1, 1);
            case 'D': return writer.delete(0, AAPL, T, 1);
            case 'U': return writer.replace(0, AAPL, T, 2, 3, 1, 1);
            case 'P': return writer.trade(0, AAPL, T, 0, 'B', 1, STOCK, 1, 3);
            case 'Q': return writer.crossTrade(0, AAPL, T, 1, STOCK, 1, 4, 'O');
            case 'B': return writer.brokenTrade(0, AAPL, T, 4);
            case 'I': return writer.noii(0, AAPL, T, STOCK, 1, 1, 'B', 1, 1, 1, 'O', ' ');
            case 'N': return writer.retail(0, AAPL, T, STOCK, 'N');
            case 'O': return writer.directListing(0, AAPL, T, STOCK, 'N', 1, 2, 1, T, 1, 2);
            default: throw new IllegalArgumentException("not an ITCH type: " + (char)type);
        }
    }

    /** @return ticks published for the message. */
    private int send(final int length)
    {
        final int before = ticks.size();
        assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, 0, length, normalizer));
        return ticks.size() - before;
    }

    private void assertEvent(final TickDecoder tick, final EventType type, final int instrument)
    {
        assertEquals(type, tick.eventType());
        assertEquals(instrument, tick.instrumentId());
        assertEquals(clock.toEpochNanos(T), tick.exchangeTimestamp());
    }

    private static void assertTopOfBook(
        final TickDecoder tick, final Side side, final int price, final long size, final long orders)
    {
        assertEquals(EventType.TOP_OF_BOOK, tick.eventType());
        assertEquals(side, tick.side());
        assertEquals(price, tick.price().mantissa());
        assertEquals(size, tick.quantity());
        assertEquals(orders, tick.matchOrNewReference());
        assertEquals(0, tick.orderReference());
    }

    private static void assertUnknown(final TickDecoder tick, final EventType type, final int price)
    {
        assertEquals(type, tick.eventType());
        assertTrue(tick.flags().unknownOrder());
        assertEquals(Side.NONE, tick.side());
        assertEquals(price, tick.price().mantissa());
        assertEquals(404, tick.orderReference());
        assertTrue(tick.flags().lastInMessage());
    }
}
