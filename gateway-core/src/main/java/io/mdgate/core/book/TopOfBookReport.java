package io.mdgate.core.book;

import com.fasterxml.jackson.core.JsonGenerator;
import io.mdgate.core.json.JsonText;

import java.io.IOException;
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
     * each side {@code {"price", "size", "orders", "levels"}} with the price a decimal string or null, written
     * through Jackson ({@link JsonText}).
     */
    public static String json(final List<Entry> entries)
    {
        return JsonText.write(json ->
        {
            json.writeStartArray();
            for (final Entry entry : entries)
            {
                json.writeStartObject();
                json.writeNumberField("instrument", entry.instrument());
                JsonText.stringOrNull(json, "symbol", entry.symbol().isEmpty() ? null : entry.symbol());
                json.writeNumberField("activity", entry.activity());
                JsonText.stringOrNull(json, "tradingState", entry.tradingState() == InstrumentDirectory.UNKNOWN_STATE ?
                    null : String.valueOf(entry.tradingState()));
                side(json, "bid", entry.bid());
                side(json, "ask", entry.ask());
                json.writeEndObject();
            }
            json.writeEndArray();
        });
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

    private static void side(final JsonGenerator json, final String name, final Top top) throws IOException
    {
        json.writeObjectFieldStart(name);
        JsonText.stringOrNull(json, "price", top.price() == OrderBooks.NO_PRICE ? null : price(top.price()));
        json.writeNumberField("size", top.size());
        json.writeNumberField("orders", top.orders());
        json.writeNumberField("levels", top.levels());
        json.writeEndObject();
    }
}
