package io.mdgate.runtime.config;

import io.mdgate.core.book.BookContext;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BookConfigTest
{
    @Test
    void shouldDefaultToTheBooksOwnCapacitiesAndNoDepth()
    {
        final GatewayConfig.Book book = ConfigLoader.parse(ConfigLoaderTest.MINIMAL).book();

        assertEquals(new GatewayConfig.Book(BookContext.DEFAULT_MAX_ORDERS, BookContext.DEFAULT_MAX_LEVELS,
            BookContext.DEFAULT_REFERENCE_WINDOW, 0), book);
    }

    @Test
    void shouldReadEverySetting()
    {
        final String toml = ConfigLoaderTest.MINIMAL + "\n[book]\nmax_orders = 2000000\nmax_levels = 600000\n" +
            "reference_window = 16777216\ndepth_levels = 10\n";

        assertEquals(new GatewayConfig.Book(2_000_000, 600_000, 1 << 24, 10), ConfigLoader.parse(toml).book());
    }

    @Test
    void shouldRefuseAReferenceWindowThatIsNotAPowerOfTwoAndSayWhichWouldDo()
    {
        final String toml = ConfigLoaderTest.MINIMAL + "\n[book]\nreference_window = 3000000\n";

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml));
        assertTrue(ex.getMessage().contains("book.reference_window"), ex.getMessage());
        assertTrue(ex.getMessage().contains("use e.g. 2097152 or 4194304"), ex.getMessage());
    }

    @Test
    void shouldRefuseTooMuchDepthAnUnknownKeyAndAnEmptyBook()
    {
        for (final String body : new String[] { "depth_levels = 65", "max_orders = 0", "max_level = 5" })
        {
            final String toml = ConfigLoaderTest.MINIMAL + "\n[book]\n" + body + "\n";
            final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml), body);
            assertTrue(ex.getMessage().contains("book."), body + ": " + ex.getMessage());
        }
    }
}
