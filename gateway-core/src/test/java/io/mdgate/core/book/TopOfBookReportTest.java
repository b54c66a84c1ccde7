package io.mdgate.core.book;

import io.mdgate.core.itch.Alpha;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopOfBookReportTest
{
    @Test
    void shouldListTheMostActiveInstrumentsFirstWithTheirBestBidAndOffer()
    {
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(16).maxLevels(16).maxInstruments(8).referenceWindow(1024));
        books.instruments().symbol(2, Alpha.pack8("AAPL"));
        books.instruments().tradingState(2, 'T');
        books.add(2, 1, 'B', 100, 1_500_000);
        books.add(2, 2, 'B', 50, 1_499_900);
        books.add(2, 3, 'S', 70, 1_500_100);
        books.add(5, 4, 'S', 10, 20_000);
        books.add(6, 5, 'S', 10, 20_000);
        books.delete(5);

        final List<TopOfBookReport.Entry> entries = TopOfBookReport.mostActive(books, 2);

        assertEquals(2, entries.size());
        assertEquals(2, entries.get(0).instrument());
        assertEquals(6, entries.get(1).instrument());
        assertEquals(new TopOfBookReport.Top(1_500_000, 100, 1, 2), entries.get(0).bid());
        assertEquals(new TopOfBookReport.Top(OrderBooks.NO_PRICE, 0, 0, 0), entries.get(1).ask());
        assertEquals("[{\"instrument\":2,\"symbol\":\"AAPL\",\"activity\":3,\"tradingState\":\"T\"," +
            "\"bid\":{\"price\":\"150.0000\",\"size\":100,\"orders\":1,\"levels\":2}," +
            "\"ask\":{\"price\":\"150.0100\",\"size\":70,\"orders\":1,\"levels\":1}}," +
            "{\"instrument\":6,\"symbol\":null,\"activity\":2,\"tradingState\":null," +
            "\"bid\":{\"price\":null,\"size\":0,\"orders\":0,\"levels\":0}," +
            "\"ask\":{\"price\":null,\"size\":0,\"orders\":0,\"levels\":0}}]",
            TopOfBookReport.json(entries));
        final List<String> text = TopOfBookReport.text(entries);
        assertTrue(text.get(0).startsWith("AAPL"), text.get(0));
        assertTrue(text.get(0).contains("150.0000") && text.get(0).contains("150.0100"), text.get(0));
        assertTrue(text.get(1).startsWith("#6"), text.get(1));
    }
}
