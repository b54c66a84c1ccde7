package io.mdgate.egress.protocol;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.egress.transport.MemoryRegion;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A writer rewrites one depth table slot as fast as it can (a gateway book of depth 6 into a consumer slot of depth
 * 4, every level derived from one counter); a reader copies it with the seqlock millions of times, and every copy it
 * accepts must be one consistent version of the book's top 4 levels.
 */
@Timeout(120)
class DepthTableSeqlockStressTest
{
    private static final long READ_ATTEMPTS = 3_000_000;
    private static final int MIN_VERSIONS = 100;
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final int RING_SLOTS = 16;
    private static final int TABLE_SLOTS = 4;
    private static final int GATEWAY_DEPTH = 6;
    private static final int CONSUMER_DEPTH = 4;
    private static final int SLOT = 2;

    @ParameterizedTest
    @EnumSource(value = LocalRemoteRegion.Placement.class, names = {"IN_ORDER", "WORDS_BACKWARDS"})
    void shouldNeverAcceptAHalfWrittenBook(final LocalRemoteRegion.Placement placement) throws InterruptedException
    {
        final MemoryRegion consumer = TestRegions.local(
            (int)ConsumerRegionDescriptor.length(RING_SLOTS, TABLE_SLOTS, CONSUMER_DEPTH));
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread writerThread = new Thread(() -> writeUntilStopped(consumer, placement, running));
        writerThread.setDaemon(true);
        writerThread.start();

        final TopOfBookReader reader = new TopOfBookReader(1);
        final int length = DepthTableDescriptor.slotLength(CONSUMER_DEPTH);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
        final DepthBook book = new DepthBook();
        final int slot = ConsumerRegionDescriptor.depthSlotOffset(RING_SLOTS, TABLE_SLOTS, CONSUMER_DEPTH, SLOT);
        long attempts = 0;
        long consistent = 0;
        long busy = 0;
        long inconsistent = 0;
        long versions = 0;
        long lastSequence = 0;
        final long deadline = System.nanoTime() + MAX_NANOS;
        try
        {
            while ((attempts < READ_ATTEMPTS || versions <= MIN_VERSIONS) && System.nanoTime() < deadline)
            {
                attempts++;
                final int result = reader.read(consumer.buffer(), slot, length, copy, 0);
                if (result == TopOfBookReader.READ)
                {
                    book.wrap(copy, DepthTableDescriptor.BOOK_OFFSET, CONSUMER_DEPTH);
                    final long sequence = copy.getLong(DepthTableDescriptor.GATEWAY_SEQUENCE_OFFSET);
                    if (isConsistent(copy, book, sequence))
                    {
                        consistent++;
                    }
                    else
                    {
                        inconsistent++;
                    }
                    if (sequence != lastSequence)
                    {
                        versions++;
                        lastSequence = sequence;
                    }
                }
                else if (result == TopOfBookReader.BUSY)
                {
                    busy++;
                }
            }
        }
        finally
        {
            running.set(false);
            writerThread.join(10_000);
        }

        System.out.printf("DepthTableSeqlockStressTest %s: %d attempts, %d consistent, %d busy, %d versions%n",
            placement, attempts, consistent, busy, versions);
        assertEquals(0, inconsistent, "half-written books accepted");
        assertTrue(versions > MIN_VERSIONS, "the reader saw the book change: " + versions);
    }

    private static void writeUntilStopped(final MemoryRegion consumer, final LocalRemoteRegion.Placement placement,
        final AtomicBoolean running)
    {
        final DepthTableWriter writer = new DepthTableWriter(TABLE_SLOTS);
        writer.attach(new LocalRemoteRegion(consumer.buffer(), placement), RING_SLOTS, TABLE_SLOTS, CONSUMER_DEPTH,
            CONSUMER_DEPTH);
        final MemoryRegion records = TestRegions.local(DepthTableDescriptor.slotLength(GATEWAY_DEPTH));
        final AtomicBuffer record = records.buffer();
        long counter = 1;
        while (running.get())
        {
            fill(record, counter);
            writer.write(SLOT, records, 0);
            counter++;
        }
    }

    /** The gateway's record for a counter: two level counts and every level of both sides derived from it. */
    private static void fill(final AtomicBuffer record, final long c)
    {
        record.putLong(DepthTableDescriptor.GATEWAY_SEQUENCE_OFFSET, c);
        record.putLong(DepthTableDescriptor.EXCHANGE_TIMESTAMP_OFFSET, c * 3);
        record.putInt(DepthTableDescriptor.INSTRUMENT_ID_OFFSET, 9);
        final DepthBook book = new DepthBook().wrap(record, DepthTableDescriptor.BOOK_OFFSET, GATEWAY_DEPTH);
        book.clear();
        for (int i = 0, bids = bids(c); i < bids; i++)
        {
            book.apply(DepthBook.BID, price(c, i, -1), c + i, (c + i) & 0xFF);
        }
        for (int i = 0, asks = asks(c); i < asks; i++)
        {
            book.apply(DepthBook.ASK, price(c, i, 1), c * 2 + i, (c * 2 + i) & 0xFF);
        }
    }

    private static int bids(final long c)
    {
        return (int)(c % (GATEWAY_DEPTH + 1));
    }

    private static int asks(final long c)
    {
        return (int)((c / 7) % (GATEWAY_DEPTH + 1));
    }

    private static int price(final long c, final int index, final int direction)
    {
        return (int)(1_000_000 + (c % 1000) * 100 + direction * (index + 1));
    }

    private static boolean isConsistent(final UnsafeBuffer copy, final DepthBook book, final long c)
    {
        if ((copy.getLong(DepthTableDescriptor.VERSION_OFFSET) & 1) != 0 ||
            copy.getLong(DepthTableDescriptor.EXCHANGE_TIMESTAMP_OFFSET) != c * 3 ||
            copy.getInt(DepthTableDescriptor.INSTRUMENT_ID_OFFSET) != 9 ||
            book.levels(DepthBook.BID) != Math.min(CONSUMER_DEPTH, bids(c)) ||
            book.levels(DepthBook.ASK) != Math.min(CONSUMER_DEPTH, asks(c)))
        {
            return false;
        }
        for (int i = 0; i < book.levels(DepthBook.BID); i++)
        {
            if (book.price(DepthBook.BID, i) != price(c, i, -1) || book.quantity(DepthBook.BID, i) != c + i ||
                book.orders(DepthBook.BID, i) != ((c + i) & 0xFF))
            {
                return false;
            }
        }
        for (int i = 0; i < book.levels(DepthBook.ASK); i++)
        {
            if (book.price(DepthBook.ASK, i) != price(c, i, 1) || book.quantity(DepthBook.ASK, i) != c * 2 + i ||
                book.orders(DepthBook.ASK, i) != ((c * 2 + i) & 0xFF))
            {
                return false;
            }
        }
        return true;
    }
}
