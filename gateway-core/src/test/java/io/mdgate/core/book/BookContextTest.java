package io.mdgate.core.book;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BookContextTest
{
    @Test
    void shouldAcceptTheDefaults()
    {
        final BookContext context = new BookContext().conclude();
        assertEquals(BookContext.DEFAULT_MAX_ORDERS, context.maxOrders());
        assertEquals(65_536, context.maxInstruments());
    }

    @Test
    void shouldRefuseAnOutOfRangeCapacitySayingWhichAndWhatRangeIsAllowed()
    {
        final IllegalArgumentException orders =
            assertThrows(IllegalArgumentException.class, () -> new BookContext().maxOrders(0).conclude());
        assertTrue(orders.getMessage().contains("maxOrders must be between 1 and"), orders.getMessage());
        assertTrue(orders.getMessage().contains("was 0"), orders.getMessage());

        final IllegalArgumentException instruments =
            assertThrows(IllegalArgumentException.class, () -> new BookContext().maxInstruments(70_000).conclude());
        assertTrue(instruments.getMessage().contains("maxInstruments must be between 1 and 65536"));

        assertThrows(IllegalArgumentException.class, () -> new OrderBooks(new BookContext().maxLevels(-5)));
    }
}
