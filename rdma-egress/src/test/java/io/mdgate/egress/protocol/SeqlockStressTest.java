package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A writer rewrites one top-of-book slot as fast as it can, every field derived from one counter; a reader copies
 * it with the seqlock millions of times, and every copy it accepts must be one consistent version.
 */
class SeqlockStressTest
{
    private static final long READ_ATTEMPTS = 5_000_000;
    /** Changes of the quote the reader must see for the run to have raced the writer at all. */
    private static final int MIN_VERSIONS = 100;
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final int RING_SLOTS = 16;

    @ParameterizedTest
    @EnumSource(value = LocalRemoteRegion.Placement.class, names = {"IN_ORDER", "WORDS_BACKWARDS"})
    void shouldNeverAcceptAHalfWrittenQuote(final LocalRemoteRegion.Placement placement) throws InterruptedException
    {
        final MemoryRegion consumer = TestRegions.local(ConsumerRegionDescriptor.length(RING_SLOTS, 4));
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread writerThread = new Thread(() -> writeUntilStopped(consumer, placement, running));
        writerThread.setDaemon(true);
        writerThread.start();

        final TopOfBookReader reader = new TopOfBookReader(1);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[64]);
        final TopOfBookFlyweight quote = new TopOfBookFlyweight();
        final int slot = ConsumerRegionDescriptor.tableSlotOffset(RING_SLOTS, 2);
        long attempts = 0;
        long consistent = 0;
        long busy = 0;
        long inconsistent = 0;
        long versions = 0;
        long lastVersion = 0;
        final long deadline = System.nanoTime() + MAX_NANOS;
        try
        {
            // Read until enough attempts were made and the writer was seen to run (on a loaded two-CPU host it may get
            // little time at first); the deadline still bounds a writer that never runs.
            while ((attempts < READ_ATTEMPTS || versions <= MIN_VERSIONS) && System.nanoTime() < deadline)
            {
                attempts++;
                final int result = reader.read(consumer.buffer(), slot, copy, 0);
                if (result == TopOfBookReader.READ)
                {
                    quote.wrap(copy, 0);
                    if (isConsistent(quote))
                    {
                        consistent++;
                    }
                    else
                    {
                        inconsistent++;
                    }
                    if (quote.version() != lastVersion)
                    {
                        versions++;
                        lastVersion = quote.version();
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

        System.out.printf("SeqlockStressTest %s: %d attempts, %d consistent, %d busy, %d distinct versions%n",
            placement, attempts, consistent, busy, versions);
        assertEquals(0, inconsistent, "half-written quotes accepted");
        assertTrue(versions > MIN_VERSIONS, "the reader saw the quote change: " + versions);
    }

    private static void writeUntilStopped(final MemoryRegion consumer, final LocalRemoteRegion.Placement placement,
        final AtomicBoolean running)
    {
        final TableWriter writer = new TableWriter(4);
        writer.attach(new LocalRemoteRegion(consumer.buffer(), placement), RING_SLOTS, 4);
        final MemoryRegion records = TestRegions.local(64);
        final TopOfBookFlyweight record = new TopOfBookFlyweight().wrap(records.buffer(), 0);
        long counter = 1;
        while (running.get())
        {
            record.gatewaySequence(counter).exchangeTimestamp(counter * 3).symbol(counter * 5)
                .bidPrice((int)counter).bidSize(counter * 7 & 0xFFFF_FFFFL)
                .askPrice((int)(counter + 1)).askSize(counter * 11 & 0xFFFF_FFFFL)
                .bidOrders(counter * 13 & 0xFFFF_FFFFL).askOrders(counter * 17 & 0xFFFF_FFFFL)
                .instrumentId((int)(counter & 0xFFFF)).tradingState((char)('A' + counter % 26));
            writer.write(2, records, 0);
            counter++;
        }
    }

    private static boolean isConsistent(final TopOfBookFlyweight quote)
    {
        final long c = quote.gatewaySequence();
        return quote.exchangeTimestamp() == c * 3 && quote.symbol() == c * 5 && quote.bidPrice() == (int)c &&
            quote.bidSize() == (c * 7 & 0xFFFF_FFFFL) && quote.askPrice() == (int)(c + 1) &&
            quote.askSize() == (c * 11 & 0xFFFF_FFFFL) && quote.bidOrders() == (c * 13 & 0xFFFF_FFFFL) &&
            quote.askOrders() == (c * 17 & 0xFFFF_FFFFL) && quote.instrumentId() == (int)(c & 0xFFFF) &&
            quote.tradingState() == (char)('A' + c % 26) && quote.version() % 2 == 0;
    }
}
