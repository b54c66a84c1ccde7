package io.mdgate.core.book;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.mdgate.core.book.BookSide.ASK;
import static io.mdgate.core.book.BookSide.BID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class OrderBooksTest
{
    private static final int AAPL = 7;
    private static final int MSFT = 8;

    private final OrderBooks books = new OrderBooks(new BookContext().maxOrders(64).maxLevels(32).maxInstruments(16).referenceWindow(1024));

    @Test
    void shouldShowAnAddedBuyOrderAsTheBestBidWithItsSizeAndCount()
    {
        assertEquals(OrderBooks.OK, books.add(AAPL, 1, 'B', 300, 1_500_000));

        assertEquals(1_500_000, books.bestPrice(AAPL, BID));
        assertEquals(300, books.bestSize(AAPL, BID));
        assertEquals(1, books.bestOrderCount(AAPL, BID));
        assertEquals(OrderBooks.NO_PRICE, books.bestPrice(AAPL, ASK));
        assertEquals(0, books.bestSize(AAPL, ASK));
        assertEquals(1, books.orderCount());
        assertEquals(1, books.orderCount(AAPL));
    }

    @Test
    void shouldSayWhetherAnOperationTouchedTheBestLevelOfItsSide()
    {
        assertEquals(OrderBooks.OK, books.add(AAPL, 1, 'S', 100, 2_000));
        assertTrue(books.lastTouchedBest(), "the first order is the best");
        books.add(AAPL, 2, 'S', 100, 2_100);
        assertFalse(books.lastTouchedBest(), "behind the best offer");
        books.add(AAPL, 3, 'S', 50, 2_000);
        assertTrue(books.lastTouchedBest(), "joined the best offer");
        books.execute(2, 10);
        assertFalse(books.lastTouchedBest(), "reduced behind the best");
        books.cancel(3, 10);
        assertTrue(books.lastTouchedBest(), "reduced at the best");
        books.delete(1);
        assertTrue(books.lastTouchedBest(), "left the best, which still has an order");
        books.replace(2, 4, 100, 2_200);
        assertFalse(books.lastTouchedBest(), "moved from one deeper level to another");
        books.replace(4, 5, 100, 1_900);
        assertTrue(books.lastTouchedBest(), "moved to a new best");
        books.delete(5);
        assertTrue(books.lastTouchedBest(), "emptied the best level");
        books.delete(99);
        assertFalse(books.lastTouchedBest(), "an unknown order touches nothing");
        books.add(AAPL, 3, 'S', 1, 1_000);
        assertFalse(books.lastTouchedBest(), "a refused duplicate changes nothing");
        assertEquals(2_000, books.bestPrice(AAPL, ASK));
    }

    @Test
    void shouldKeepBidsHighestFirstAndAsksLowestFirstWhateverTheArrivalOrder()
    {
        final long[] prices = { 100, 105, 95, 103, 97, 101, 99 };
        long reference = 1;
        for (final long price : prices)
        {
            books.add(AAPL, reference++, 'B', 10, price);
            books.add(AAPL, reference++, 'S', 10, price + 1000);
        }

        assertEquals(List.of(105L, 103L, 101L, 100L, 99L, 97L, 95L), depthPrices(AAPL, BID));
        assertEquals(List.of(1095L, 1097L, 1099L, 1100L, 1101L, 1103L, 1105L), depthPrices(AAPL, ASK));
        assertEquals(7, books.levelCount(AAPL, BID));
        assertEquals(103, books.depthPrice(AAPL, BID, 1));
        assertEquals(OrderBooks.NO_PRICE, books.depthPrice(AAPL, BID, 7));
    }

    @Test
    void shouldAggregateSizeAndOrderCountPerLevel()
    {
        books.add(AAPL, 1, 'S', 100, 2000);
        books.add(AAPL, 2, 'S', 250, 2000);
        books.add(AAPL, 3, 'S', 50, 2100);

        assertEquals(350, books.depthSize(AAPL, ASK, 0));
        assertEquals(2, books.depthOrderCount(AAPL, ASK, 0));
        assertEquals(50, books.depthSize(AAPL, ASK, 1));
        assertEquals(1, books.depthOrderCount(AAPL, ASK, 1));
    }

    @Test
    void shouldQueueTheOrdersOfALevelInArrivalOrder()
    {
        books.add(AAPL, 30, 'B', 1, 500);
        books.add(AAPL, 10, 'B', 2, 500);
        books.add(AAPL, 20, 'B', 3, 500);
        books.delete(10);
        books.add(AAPL, 5, 'B', 4, 500);

        assertEquals(List.of(30L, 20L, 5L), bestQueue(AAPL, BID));
    }

    @Test
    void shouldTakeExecutedSharesOffAndRemoveAFullyExecutedOrder()
    {
        books.add(AAPL, 1, 'S', 300, 2000);
        books.add(AAPL, 2, 'S', 100, 2000);

        assertEquals(OrderBooks.OK, books.execute(1, 100));
        assertEquals(300, books.bestSize(AAPL, ASK));
        assertEquals(200, books.lastRemaining());
        assertEquals(100, books.lastSharesRemoved());
        assertEquals(2000, books.lastPrice());
        assertEquals(ASK, books.lastSide());
        assertEquals(AAPL, books.lastInstrument());

        assertEquals(OrderBooks.OK, books.execute(1, 200));
        assertEquals(100, books.bestSize(AAPL, ASK));
        assertEquals(1, books.bestOrderCount(AAPL, ASK));
        assertEquals(OrderBooks.NONE, books.order(1));
        assertEquals(0, books.clampedCount());
    }

    @Test
    void shouldClampAnExecutionLargerThanTheOrderRemoveTheOrderAndCountIt()
    {
        books.add(AAPL, 1, 'B', 100, 2000);
        books.add(AAPL, 2, 'B', 40, 1900);

        assertEquals(OrderBooks.CLAMPED, books.execute(1, 150));
        assertEquals(100, books.lastSharesRemoved());
        assertEquals(0, books.lastRemaining());
        assertEquals(1, books.clampedCount());
        assertEquals(1900, books.bestPrice(AAPL, BID));
        assertEquals(40, books.bestSize(AAPL, BID));
    }

    @Test
    void shouldCancelPartOfAnOrderAndClampAnOversizedCancel()
    {
        books.add(AAPL, 1, 'S', 500, 2000);

        assertEquals(OrderBooks.OK, books.cancel(1, 200));
        assertEquals(300, books.bestSize(AAPL, ASK));
        assertEquals(300, books.sharesOfOrder(books.order(1)));

        assertEquals(OrderBooks.CLAMPED, books.cancel(1, 301));
        assertEquals(0, books.orderCount());
        assertEquals(0, books.levelCount(AAPL, ASK));
        assertEquals(1, books.clampedCount());
    }

    @Test
    void shouldRemoveADeletedOrderAndTheLevelItLeavesEmpty()
    {
        books.add(AAPL, 1, 'B', 100, 2000);
        books.add(AAPL, 2, 'B', 100, 1990);

        assertEquals(OrderBooks.OK, books.delete(1));
        assertEquals(100, books.lastSharesRemoved());
        assertEquals(1990, books.bestPrice(AAPL, BID));
        assertEquals(1, books.levelCount(AAPL, BID));
        assertEquals(1, books.levelCount());
    }

    @Test
    void shouldKeepSideAndInstrumentOnReplaceAndQueueTheNewOrderLastEvenAtTheSamePrice()
    {
        books.add(AAPL, 1, 'S', 100, 2000);
        books.add(AAPL, 2, 'S', 100, 2000);

        assertEquals(OrderBooks.OK, books.replace(1, 3, 150, 2000));

        assertEquals(List.of(2L, 3L), bestQueue(AAPL, ASK));
        assertEquals(250, books.bestSize(AAPL, ASK));
        final int replaced = books.order(3);
        assertEquals(ASK, books.sideOfOrder(replaced));
        assertEquals(AAPL, books.instrumentOfOrder(replaced));
        assertEquals(OrderBooks.NONE, books.order(1));
        assertEquals(100, books.lastSharesRemoved());
        assertEquals(150, books.lastRemaining());
        assertEquals(2000, books.lastPrice());
    }

    @Test
    void shouldMoveAReplacedOrderToItsNewPriceLevel()
    {
        books.add(MSFT, 1, 'B', 100, 2000);
        books.add(MSFT, 2, 'B', 100, 1990);

        assertEquals(OrderBooks.OK, books.replace(2, 9, 70, 2010));

        assertEquals(List.of(2010L, 2000L), depthPrices(MSFT, BID));
        assertEquals(70, books.bestSize(MSFT, BID));
        assertEquals(1990, books.lastPrice());
        assertEquals(0, books.levelCount(AAPL, BID));
    }

    @Test
    void shouldCountUnknownReferencesForEveryOrderEventAndLeaveTheBookAlone()
    {
        books.add(AAPL, 1, 'B', 100, 2000);

        assertEquals(OrderBooks.UNKNOWN_ORDER, books.execute(99, 10));
        assertEquals(OrderBooks.NONE, books.lastInstrument());
        assertEquals(OrderBooks.UNKNOWN_ORDER, books.cancel(99, 10));
        assertEquals(OrderBooks.UNKNOWN_ORDER, books.delete(99));
        assertEquals(OrderBooks.UNKNOWN_ORDER, books.replace(99, 100, 10, 2000));

        assertEquals(4, books.unknownOrderCount());
        assertEquals(1, books.orderCount());
        assertEquals(OrderBooks.NONE, books.order(100));
        assertEquals(100, books.bestSize(AAPL, BID));
    }

    @Test
    void shouldRefuseAnAddOrReplaceToAReferenceThatIsAlreadyLive()
    {
        books.add(AAPL, 1, 'B', 100, 2000);
        books.add(AAPL, 2, 'B', 100, 2000);

        assertEquals(OrderBooks.DUPLICATE_ORDER, books.add(MSFT, 1, 'S', 5, 10));
        assertEquals(OrderBooks.DUPLICATE_ORDER, books.replace(1, 2, 5, 10));

        assertEquals(2, books.duplicateOrderCount());
        assertEquals(200, books.bestSize(AAPL, BID));
        assertEquals(0, books.orderCount(MSFT));
    }

    @Test
    void shouldAcceptAReplaceThatReusesItsOwnReference()
    {
        books.add(AAPL, 1, 'B', 100, 2000);

        assertEquals(OrderBooks.OK, books.replace(1, 1, 60, 2005));

        assertEquals(2005, books.bestPrice(AAPL, BID));
        assertEquals(60, books.bestSize(AAPL, BID));
        assertEquals(1, books.orderCount());
    }

    @Test
    void shouldReturnCapacityErrorsInsteadOfThrowingAndRecoverWhenSpaceIsFreed()
    {
        final OrderBooks small = new OrderBooks(new BookContext().maxOrders(3).maxLevels(2).maxInstruments(2).referenceWindow(1024));

        assertEquals(OrderBooks.OK, small.add(1, 1, 'B', 10, 100));
        assertEquals(OrderBooks.OK, small.add(1, 2, 'S', 10, 200));
        assertEquals(OrderBooks.LEVEL_CAPACITY_EXCEEDED, small.add(1, 3, 'B', 10, 150));
        assertEquals(OrderBooks.OK, small.add(1, 3, 'B', 10, 100));
        assertEquals(OrderBooks.ORDER_CAPACITY_EXCEEDED, small.add(1, 4, 'B', 10, 100));

        assertEquals(OrderBooks.OK, small.delete(2));
        assertEquals(OrderBooks.OK, small.add(1, 4, 'B', 10, 99));

        assertEquals(1, small.orderCapacityExceededCount());
        assertEquals(1, small.levelCapacityExceededCount());
        assertEquals(3, small.orderCount());
        assertEquals(List.of(100L, 99L), depthPricesOf(small, 1, BID));
        assertEquals(20, small.bestSize(1, BID));
    }

    @Test
    void shouldReuseRecordsForeverWhenOrdersComeAndGo()
    {
        final OrderBooks small = new OrderBooks(new BookContext().maxOrders(3).maxLevels(3).maxInstruments(1).referenceWindow(1024));
        for (long reference = 1; reference <= 100_000; reference++)
        {
            assertEquals(OrderBooks.OK, small.add(0, reference, (reference & 1) == 0 ? 'B' : 'S', 10, reference % 3));
            if (reference > 2)
            {
                assertEquals(OrderBooks.OK, small.delete(reference - 2));
            }
        }
        assertEquals(2, small.orderCount());
    }

    @Test
    void shouldRefuseAnInstrumentBeyondTheConfiguredRangeAndAnInvalidSideOrPrice()
    {
        assertEquals(OrderBooks.INSTRUMENT_OUT_OF_RANGE, books.add(16, 1, 'B', 10, 100));
        assertEquals(OrderBooks.INSTRUMENT_OUT_OF_RANGE, books.add(-1, 1, 'B', 10, 100));
        assertEquals(OrderBooks.INVALID_SIDE, books.add(1, 1, 'X', 10, 100));
        assertEquals(OrderBooks.INVALID_VALUE, books.add(1, 1, 'B', 10, 1L << 32));
        assertEquals(OrderBooks.INVALID_VALUE, books.add(1, 1, 'B', -1, 100));

        assertEquals(2, books.instrumentOutOfRangeCount());
        assertEquals(3, books.invalidInputCount());
        assertEquals(0, books.orderCount());
        assertEquals(OrderBooks.NO_PRICE, books.bestPrice(16, BID));
    }

    @Test
    void shouldReportACrossedBookOnlyWhenTheBidReachesTheOffer()
    {
        books.add(AAPL, 1, 'B', 10, 2000);
        books.add(AAPL, 2, 'S', 10, 2001);
        assertFalse(books.isCrossed(AAPL));

        books.add(AAPL, 3, 'B', 10, 2001);
        assertTrue(books.isCrossed(AAPL));
        assertFalse(books.isCrossed(MSFT));
    }

    @Test
    void shouldKeepTheBooksOfDifferentInstrumentsApart()
    {
        books.add(AAPL, 1, 'B', 10, 2000);
        books.add(MSFT, 2, 'B', 20, 2000);
        books.execute(2, 5);

        assertEquals(10, books.bestSize(AAPL, BID));
        assertEquals(15, books.bestSize(MSFT, BID));
        assertEquals(1, books.orderCount(AAPL));
        assertEquals(2, books.instruments().activity(MSFT));
    }

    @Test
    void shouldStartEmptyAgainAfterClear()
    {
        books.add(AAPL, 1, 'B', 10, 2000);
        books.instruments().symbol(AAPL, 42);

        books.clear();

        assertEquals(0, books.orderCount());
        assertEquals(0, books.levelCount());
        assertEquals(OrderBooks.NO_PRICE, books.bestPrice(AAPL, BID));
        assertEquals(InstrumentDirectory.NO_SYMBOL, books.instruments().symbol(AAPL));
        assertEquals(OrderBooks.OK, books.add(AAPL, 1, 'B', 10, 2000));
    }

    private List<Long> depthPrices(final int instrument, final int side)
    {
        return depthPricesOf(books, instrument, side);
    }

    private static List<Long> depthPricesOf(final OrderBooks books, final int instrument, final int side)
    {
        final List<Long> prices = new ArrayList<>();
        for (int depth = 0, level; (level = books.levelAt(instrument, side, depth)) != OrderBooks.NONE; depth++)
        {
            prices.add(books.priceOfLevel(level));
        }
        return prices;
    }

    private List<Long> bestQueue(final int instrument, final int side)
    {
        final List<Long> references = new ArrayList<>();
        final int level = books.bestLevel(instrument, side);
        final int[] queue = new int[books.orderCountOfLevel(level)];
        books.queueOfLevel(level, queue);
        for (final int order : queue)
        {
            references.add(books.referenceOfOrder(order));
        }
        return references;
    }

    @Test
    void shouldFindOrdersWhoseReferencesShareAWindowRecordAndForgetEachOnItsOwn()
    {
        final int window = 1024;
        final long first = 5;
        final long second = first + window;
        final long third = first + 3L * window;
        assertEquals(OrderBooks.OK, books.add(AAPL, first, 'B', 100, 1000));
        assertEquals(OrderBooks.OK, books.add(AAPL, second, 'B', 200, 1001));
        assertEquals(OrderBooks.OK, books.add(MSFT, third, 'S', 300, 2000));

        assertEquals(first, books.referenceOfOrder(books.order(first)));
        assertEquals(second, books.referenceOfOrder(books.order(second)));
        assertEquals(third, books.referenceOfOrder(books.order(third)));
        assertEquals(OrderBooks.NONE, books.order(first + 2L * window), "same record, never added");
        assertEquals(OrderBooks.DUPLICATE_ORDER, books.add(AAPL, third, 'B', 1, 999), "a displaced order is live");

        assertEquals(OrderBooks.OK, books.delete(first));
        assertEquals(OrderBooks.NONE, books.order(first));
        assertEquals(second, books.referenceOfOrder(books.order(second)), "found though its record is free now");
        assertEquals(OrderBooks.OK, books.execute(third, 100));
        assertEquals(200, books.sharesOfOrder(books.order(third)));

        assertEquals(OrderBooks.OK, books.add(AAPL, first + 4L * window, 'B', 50, 1002), "takes the free record");
        assertEquals(OrderBooks.OK, books.replace(second, second + 8L * window, 70, 1003));
        assertEquals(OrderBooks.NONE, books.order(second));
        assertEquals(OrderBooks.UNKNOWN_ORDER, books.cancel(second, 1));
        assertEquals(1003, books.priceOfOrder(books.order(second + 8L * window)));
        assertEquals(OrderBooks.OK, books.delete(third));
        assertEquals(OrderBooks.OK, books.delete(first + 4L * window));
        assertEquals(OrderBooks.OK, books.delete(second + 8L * window));
        assertEquals(0, books.orderCount());
        assertEquals(0, books.levelCount());
        assertEquals(OrderBooks.UNKNOWN_ORDER, books.delete(third));
        BookInvariants.check(books);
    }

    @Test
    void shouldRepackTheLevelArraysWhenNoFreeChunkFitsAndKeepEverySide()
    {
        final OrderBooks tight = new OrderBooks(
            new BookContext().maxOrders(64).maxLevels(8).maxInstruments(16).referenceWindow(1024));
        long reference = 1;
        for (int price = 1; price <= 5; price++)
        {
            assertEquals(OrderBooks.OK, tight.add(0, reference++, 'B', 10, price));
        }
        for (long order = 1; order <= 5; order++)
        {
            assertEquals(OrderBooks.OK, tight.delete(order));
        }
        for (int instrument = 1; instrument <= 7; instrument++)
        {
            assertEquals(OrderBooks.OK, tight.add(instrument, reference++, 'S', instrument, 100 + instrument),
                "instrument " + instrument);
        }
        assertEquals(OrderBooks.OK, tight.add(7, reference++, 'S', 7, 99));

        for (int instrument = 1; instrument <= 6; instrument++)
        {
            assertEquals(100 + instrument, tight.bestPrice(instrument, ASK));
            assertEquals(instrument, tight.bestSize(instrument, ASK));
            assertEquals(1, tight.levelCount(instrument, ASK));
        }
        assertEquals(List.of(99L, 107L), depthPricesOf(tight, 7, ASK));
        assertEquals(OrderBooks.LEVEL_CAPACITY_EXCEEDED, tight.add(8, reference, 'S', 1, 1));
        assertEquals(8, tight.levelCount());
        BookInvariants.check(tight);
    }

    @Test
    void shouldFindLevelsDeepInTheBookAsWellAsNearTheTouch()
    {
        final OrderBooks deep = new OrderBooks(
            new BookContext().maxOrders(4096).maxLevels(4096).maxInstruments(2).referenceWindow(4096));
        long reference = 1;
        for (int price = 1000; price < 1400; price += 2)
        {
            deep.add(1, reference++, 'B', 1, price);
        }
        for (int price = 1001; price < 1400; price += 2)
        {
            deep.add(1, reference++, 'B', 1, price);
        }
        deep.add(1, reference++, 'B', 5, 1100);

        assertEquals(400, deep.levelCount(1, BID));
        assertEquals(1399, deep.bestPrice(1, BID));
        assertEquals(1100, deep.depthPrice(1, BID, 299));
        assertEquals(6, deep.depthSize(1, BID, 299));
        assertEquals(2, deep.depthOrderCount(1, BID, 299));
        assertEquals(299, deep.depthOfLevel(deep.levelAt(1, BID, 299)));
        BookInvariants.check(deep);
    }
}
