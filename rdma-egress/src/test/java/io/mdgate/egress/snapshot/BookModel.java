package io.mdgate.egress.snapshot;

import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;

import java.nio.ByteOrder;
import java.time.LocalDate;

/**
 * Test support: what a consumer builds from the ticks it is delivered, the way an application would: order books
 * through {@link BookRestore} (ORDERS, ALL), a {@link DepthBook} per instrument from the LEVEL ticks (DEPTH, ALL),
 * the last top of book per side, trading state and symbol. It records the live sequences delivered, the snapshot's
 * ticks and sequence, and at each checkpoint c (once a live tick after c arrives, so when everything up to c has
 * been applied) a description of its state as a view sees it, compared with another consumer's.
 */
final class BookModel implements TickHandler
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int INSTRUMENTS = SnapshotDay.INSTRUMENTS;

    final OrderBooks books = new OrderBooks(SnapshotDay.BOOKS);
    final BookRestore restore = new BookRestore(
        new Normalizer(books, new ExchangeClock(LocalDate.of(2026, 12, 1)), (buffer, offset) -> { }, 1));
    final DepthBook[] depth = new DepthBook[INSTRUMENTS + 1];
    final long[][] top = new long[(INSTRUMENTS + 1) * 2][];
    final long[] symbol = new long[INSTRUMENTS + 1];
    final long[] tradingState = new long[INSTRUMENTS + 1];
    final LongArrayList live = new LongArrayList();
    final SubscriptionView view;
    final SnapshotDay.Subset subset;
    final long[] checkpoints;
    /** By view ordinal and checkpoint: the state as that view sees it (null: not recorded). */
    final String[][] states;
    /** The highest part sequence of the snapshot (-1: none yet), and each instrument's part sequence S(i). */
    long snapshotSequence = -1;
    final long[] partSequence = new long[INSTRUMENTS + 1];
    int snapshotTicks;
    int snapshotTicksAfterLive;
    /** Snapshot ticks whose sequence is below an earlier one's: parts come in sequence order. */
    int snapshotSequenceMismatches;
    /** Snapshot ticks of one instrument that do not all carry the same sequence. */
    int partSequenceMismatches;
    private int nextCheckpoint;

    BookModel(final SubscriptionView view, final long[] checkpoints)
    {
        this(view, SnapshotDay.Subset.EVERY, checkpoints);
    }

    /** @param subset the instruments its descriptions cover. */
    BookModel(final SubscriptionView view, final SnapshotDay.Subset subset, final long[] checkpoints)
    {
        this.subset = subset;
        this.view = view;
        this.checkpoints = checkpoints;
        this.states = new String[SubscriptionView.values().length][checkpoints.length];
        for (int i = 1; i <= INSTRUMENTS; i++)
        {
            depth[i] = new DepthBook(SnapshotDay.DEPTH);
        }
        for (int i = 0; i < top.length; i++)
        {
            top[i] = new long[] { Integer.MIN_VALUE, 0, 0 };
        }
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
        if ((buffer.getShort(offset + TickLayout.FLAGS_OFFSET, LE) & TickLayout.SNAPSHOT_FLAG) != 0)
        {
            if (snapshotTicks > 0 && sequence < snapshotSequence)
            {
                snapshotSequenceMismatches++;
            }
            if (!live.isEmpty())
            {
                snapshotTicksAfterLive++;
            }
            final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
            if (instrument >= 1 && instrument <= INSTRUMENTS)
            {
                if (partSequence[instrument] != 0 && partSequence[instrument] != sequence)
                {
                    partSequenceMismatches++;
                }
                partSequence[instrument] = sequence;
            }
            snapshotSequence = Math.max(snapshotSequence, sequence);
            snapshotTicks++;
        }
        else
        {
            while (nextCheckpoint < checkpoints.length && sequence > checkpoints[nextCheckpoint])
            {
                if (checkpoints[nextCheckpoint] >= snapshotSequence && (snapshotTicks > 0 || snapshotSequence < 0))
                {
                    for (final SubscriptionView recorded : SubscriptionView.values())
                    {
                        if ((recorded.mask() & ~view.mask()) == 0)
                        {
                            states[recorded.ordinal()][nextCheckpoint] = describe(recorded, subset);
                        }
                    }
                }
                nextCheckpoint++;
            }
            live.addLong(sequence);
        }
        apply(buffer, offset);
    }

    private void apply(final DirectBuffer buffer, final int offset)
    {
        restore.onTick(buffer, offset);
        final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
        if (instrument < 1 || instrument > INSTRUMENTS)
        {
            return;
        }
        final byte type = buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET);
        if (type == EventType.LEVEL.value())
        {
            depth[instrument].apply(buffer, offset);
        }
        else if (type == EventType.TOP_OF_BOOK.value())
        {
            final long[] side = top[instrument * 2 + (buffer.getByte(offset + TickLayout.SIDE_OFFSET) == 'B' ? 0 : 1)];
            side[0] = buffer.getInt(offset + TickLayout.PRICE_OFFSET, LE);
            side[1] = buffer.getInt(offset + TickLayout.QUANTITY_OFFSET, LE) & 0xFFFF_FFFFL;
            side[2] = buffer.getLong(offset + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET, LE);
        }
        else if (type == EventType.INSTRUMENT.value())
        {
            symbol[instrument] = buffer.getLong(offset + TickLayout.ORDER_REFERENCE_OFFSET, LE);
        }
        else if (type == EventType.TRADING_STATUS.value())
        {
            tradingState[instrument] = buffer.getLong(offset + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET, LE);
        }
    }

    /** @return the state as {@code view} defines it: what a snapshot of that view must reproduce. */
    String describe(final SubscriptionView view)
    {
        return describe(view, SnapshotDay.Subset.EVERY);
    }

    /** @return the state of the instruments of {@code subset} as {@code view} defines it. */
    String describe(final SubscriptionView view, final SnapshotDay.Subset subset)
    {
        final StringBuilder out = new StringBuilder();
        final int[] queue = new int[8192];
        for (int i = 1; i <= INSTRUMENTS; i++)
        {
            if (!subset.has(i))
            {
                continue;
            }
            out.append("instrument ").append(i).append(" symbol ").append(symbol[i]).append(" state ")
                .append(tradingState[i]).append(" bid ").append(java.util.Arrays.toString(top[i * 2]))
                .append(" ask ").append(java.util.Arrays.toString(top[i * 2 + 1])).append('\n');
            if ((view.mask() & SubscriptionView.LEVEL) != 0)
            {
                out.append("  depth ").append(depth[i]).append('\n');
            }
            if ((view.mask() & SubscriptionView.ORDER) != 0)
            {
                for (int side = 0; side < 2; side++)
                {
                    for (int d = 0; d < books.levelCount(i, side); d++)
                    {
                        final int level = books.levelAt(i, side, d);
                        out.append("  ").append(side == 0 ? 'B' : 'S').append(' ').append(books.priceOfLevel(level))
                            .append(" x ").append(books.sizeOfLevel(level)).append(" (")
                            .append(books.orderCountOfLevel(level)).append("):");
                        final int n = books.queueOfLevel(level, queue);
                        for (int k = 0; k < n; k++)
                        {
                            out.append(' ').append(books.referenceOfOrder(queue[k])).append('/')
                                .append(books.sharesOfOrder(queue[k]));
                        }
                        out.append('\n');
                    }
                }
            }
        }
        return out.toString();
    }
}
