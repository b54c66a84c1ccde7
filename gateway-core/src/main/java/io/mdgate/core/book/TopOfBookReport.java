package io.mdgate.core.book;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The best bid and offer of the most active instruments (most book events first), for tools such as
 * {@code mdgate decode --book}: as records, as a JSON array, or as text lines. Allocates: for the end of a run, not
 * the hot path. Read the books on their owning thread.
 */
public final class TopOfBookReport
{
    /** One side's best level; price is {@link OrderBooks#NO_PRICE} when the side is empty. */
    public record Top(long price, long size, int orders, int levels)
    {
    }

    /** One instrument's top of book. */
    public record Entry(int instrument, String symbol, long activity, char tradingState, Top bid, Top ask)
    {
    }

    private TopOfBookReport()
    {
    }

    /**
     * @param books to report on.
     * @param limit the most instruments to list.
     * @return the instruments with book events, most events first (ties by locate), at most {@code limit}.
     */
    public static List<Entry> mostActive(final OrderBooks books, final int limit)
    {
        final InstrumentDirectory instruments = books.instruments();
        final List<Entry> entries = new ArrayList<>();
        for (int instrument = 0; instrument < books.maxInstruments(); instrument++)
        {
            final long activity = instruments.activity(instrument);
            if (activity > 0)
            {
                entries.add(new Entry(instrument, instruments.symbolText(instrument), activity,
                    instruments.tradingState(instrument), top(books, instrument, BookSide.BID),
                    top(books, instrument, BookSide.ASK)));
            }
        }
        entries.sort(Comparator.comparingLong(Entry::activity).reversed().thenComparingInt(Entry::instrument));
        return entries.size() > limit ? new ArrayList<>(entries.subList(0, Math.max(0, limit))) : entries;
    }

    /**
     * @return a JSON array of {@code {"instrument", "symbol", "activity", "tradingState", "bid", "ask"}} objects,
     * each side {@code {"price", "size", "orders", "levels"}} with the price a decimal string or null.
     */
    public static String json(final List<Entry> entries)
    {
        final StringBuilder out = new StringBuilder(128 * (entries.size() + 1)).append('[');
        for (int i = 0; i < entries.size(); i++)
        {
            final Entry entry = entries.get(i);
            out.append(i == 0 ? "" : ", ")
                .append("{\"instrument\": ").append(entry.instrument())
                .append(", \"symbol\": ");
            if (entry.symbol().isEmpty())
            {
                out.append("null");
            }
            else
            {
                out.append('"').append(entry.symbol().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            }
            out.append(", \"activity\": ").append(entry.activity())
                .append(", \"tradingState\": ");
            if (entry.tradingState() == InstrumentDirectory.UNKNOWN_STATE)
            {
                out.append("null");
            }
            else
            {
                out.append('"').append(entry.tradingState()).append('"');
            }
            side(out.append(", \"bid\": "), entry.bid());
            side(out.append(", \"ask\": "), entry.ask());
            out.append('}');
        }
        return out.append(']').toString();
    }

    /** @return one line per instrument: symbol (or locate), bid size@price (orders), ask price x size (orders). */
    public static List<String> text(final List<Entry> entries)
    {
        final List<String> lines = new ArrayList<>(entries.size());
        for (final Entry entry : entries)
        {
            final String name = entry.symbol().isEmpty() ? "#" + entry.instrument() : entry.symbol();
            lines.add(String.format(Locale.ROOT, "%-8s %10d events  bid %10s @ %-12s (%d)  ask %-12s x %10s (%d)",
                name, entry.activity(), entry.bid().size(), price(entry.bid().price()), entry.bid().orders(),
                price(entry.ask().price()), entry.ask().size(), entry.ask().orders()));
        }
        return lines;
    }

    /** @return a Price(4) value as a decimal with four places, or "-" when there is none. */
    public static String price(final long price)
    {
        if (price == OrderBooks.NO_PRICE)
        {
            return "-";
        }
        return String.format(Locale.ROOT, "%d.%04d", price / 10_000, price % 10_000);
    }

    private static Top top(final OrderBooks books, final int instrument, final int side)
    {
        return new Top(books.bestPrice(instrument, side), books.bestSize(instrument, side),
            books.bestOrderCount(instrument, side), books.levelCount(instrument, side));
    }

    private static void side(final StringBuilder out, final Top top)
    {
        out.append("{\"price\": ");
        if (top.price() == OrderBooks.NO_PRICE)
        {
            out.append("null");
        }
        else
        {
            out.append('"').append(price(top.price())).append('"');
        }
        out.append(", \"size\": ").append(top.size())
            .append(", \"orders\": ").append(top.orders())
            .append(", \"levels\": ").append(top.levels()).append('}');
    }
}
