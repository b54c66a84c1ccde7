package io.mdgate.core.feed;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookInvariants;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Replays the real-data-derived RITCH sample ({@code ../shared/samples/RITCH_ex20101224.TEST_ITCH_50.gz},
 * relative to the project root; optional) through decode, books and normalizer. Its orders are sampled, so many
 * executions and deletes name orders it never added: those must be counted, and the books must stay consistent.
 */
@Timeout(60)
class SampleReplayTest
{
    private static final String SAMPLE = "RITCH_ex20101224.TEST_ITCH_50.gz";

    @Test
    void shouldReplayTheRitchSampleKeepingTheBooksConsistent() throws IOException
    {
        final Path samples = samplesDirectory();
        final Path sample = samples == null ? null : samples.resolve(SAMPLE);
        final boolean present = sample != null && Files.isRegularFile(sample);
        if (!present)
        {
            System.out.println("SKIPPED SampleReplayTest: ../shared/samples/" + SAMPLE +
                " is not beside the project root (samples are optional and never copied into the repository)");
        }
        assumeTrue(present, "../shared/samples/" + SAMPLE + " is absent");

        final byte[] bytes;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(sample)))
        {
            bytes = in.readAllBytes();
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1 << 14).maxLevels(1 << 14));
        final long[] ticks = new long[1];
        final Normalizer normalizer =
            new Normalizer(books, new ExchangeClock(LocalDate.of(2010, 12, 24)), (b, o) -> ticks[0]++, 1);
        final MessageProcessor processor = new MessageProcessor(normalizer);

        int position = 0;
        long sequence = 1;
        while (position + 2 < bytes.length)
        {
            final int length = ItchMessageType.lengthOf(buffer.getByte(position + 2));
            assertTrue(length > 0, "unknown type at byte " + (position + 2));
            processor.process(buffer, position + 2, length, sequence++);
            position += 2 + length;
        }

        assertEquals(12_012, processor.messageCount());
        assertEquals(0, processor.malformedCount());
        assertEquals(12_012 + normalizer.topOfBookCount(), ticks[0]);
        assertEquals(3, books.instruments().registered());
        assertTrue(books.unknownOrderCount() > 0, "sampled orders leave executions and deletes unmatched");
        assertTrue(books.orderCount() > 0);
        BookInvariants.check(books);
        System.out.println("SampleReplayTest: " + books.orderCount() + " orders left on " + books.levelCount() +
            " levels, " + books.unknownOrderCount() + " unknown references, " + normalizer.topOfBookCount() +
            " top-of-book ticks");
    }

    private static Path samplesDirectory()
    {
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.isDirectory(dir.resolve("gateway-core")) && Files.isRegularFile(dir.resolve("pom.xml")))
            {
                return dir.resolve("../shared/samples").normalize();
            }
        }
        return null;
    }
}
