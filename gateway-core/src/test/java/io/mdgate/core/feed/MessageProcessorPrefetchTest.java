package io.mdgate.core.feed;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Touching a packet's order records first is only a cache hint: a simulated session processed in packets with
 * {@link MessageProcessor#prefetch} before each packet gives the same ticks, byte for byte, as one processed a
 * message at a time without it, including when the reference window is so small that most orders are displaced.
 */
@Timeout(60)
class MessageProcessorPrefetchTest
{
    private static final int MESSAGES = 200_000;
    private static final int PACKET = 12;

    @Test
    void shouldPublishTheSameTicksWithAndWithoutPrefetchingEachPacket() throws Exception
    {
        final byte[] day = session();
        for (final int window : new int[] { 1 << 10, BookContext.DEFAULT_REFERENCE_WINDOW })
        {
            final Digest plain = new Digest();
            final Digest prefetched = new Digest();
            final Digest bothSteps = new Digest();
            final OrderBooks plainBooks = run(day, window, plain, false, MessageProcessor.LEVELS_IN_CACHE);
            final OrderBooks prefetchedBooks = run(day, window, prefetched, true, MessageProcessor.LEVELS_IN_CACHE);
            final OrderBooks bothStepBooks = run(day, window, bothSteps, true, 0);

            assertTrue(plain.ticks > MESSAGES, "every message gives at least one tick");
            assertEquals(plain.ticks, prefetched.ticks, "window " + window);
            final String expected = plain.hex();
            assertEquals(expected, prefetched.hex(), "window " + window);
            assertEquals(expected, bothSteps.hex(), "window " + window + ", levels prefetched too");
            assertEquals(plainBooks.orderCount(), prefetchedBooks.orderCount());
            assertEquals(plainBooks.orderCount(), bothStepBooks.orderCount());
            assertTrue(plainBooks.orderCount() > 1000, "the session keeps orders on the book");
        }
    }

    private static OrderBooks run(
        final byte[] day, final int window, final Digest digest, final boolean prefetch, final int levelsInCache)
    {
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1 << 16).maxLevels(1 << 14)
            .maxInstruments(256).referenceWindow(window));
        final MessageProcessor processor = new MessageProcessor(
            new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), digest, 1)).levelsInCache(levelsInCache);
        final UnsafeBuffer buffer = new UnsafeBuffer(day);
        final int[] offsets = new int[PACKET];
        final int[] lengths = new int[PACKET];
        int offset = 0;
        long sequence = 1;
        while (offset < day.length)
        {
            int count = 0;
            while (count < PACKET && offset < day.length)
            {
                lengths[count] = buffer.getByte(offset) & 0xFF;
                offsets[count] = offset + 1;
                offset += 1 + lengths[count];
                count++;
            }
            if (prefetch)
            {
                for (int i = 0; i < count; i++)
                {
                    processor.prefetch(buffer, offsets[i], lengths[i]);
                }
            }
            for (int i = 0; i < count; i++)
            {
                processor.process(buffer, offsets[i], lengths[i], sequence++);
            }
        }
        return books;
    }

    /** The day as one-byte length prefixes and messages (every ITCH message is shorter than 256 bytes). */
    private static byte[] session()
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(7).instruments(200).messages(MESSAGES).conclude());
        final UnsafeBuffer out = new UnsafeBuffer(new byte[MESSAGES * (ItchSessionGenerator.MAX_MESSAGE_LENGTH + 1)]);
        int offset = 0;
        int length;
        while ((length = generator.next(out, offset + 1)) > 0)
        {
            out.putByte(offset, (byte)length);
            offset += 1 + length;
        }
        final byte[] day = new byte[offset];
        out.getBytes(0, day);
        return day;
    }

    private static final class Digest implements TickHandler
    {
        private final MessageDigest sha;
        private final byte[] tick = new byte[TickEncoder.BLOCK_LENGTH];
        long ticks;

        Digest() throws NoSuchAlgorithmException
        {
            sha = MessageDigest.getInstance("SHA-256");
        }

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            buffer.getBytes(offset, tick);
            sha.update(tick);
            ticks++;
        }

        String hex()
        {
            return HexFormat.of().formatHex(sha.digest());
        }
    }
}
