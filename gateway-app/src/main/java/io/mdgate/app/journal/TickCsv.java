package io.mdgate.app.journal;

import io.mdgate.core.book.InstrumentDirectory;
import io.mdgate.core.book.SymbolLookup;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.tick.TickJson;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.sbe.TickFlagsDecoder;
import org.agrona.DirectBuffer;

/**
 * Writes a tick as one CSV row with the columns of {@link #HEADER} (the keys of {@link TickJson}, in its order):
 * symbol as text without trailing spaces or empty when unknown (quoted as RFC 4180 says if it holds a comma, quote
 * or line break), price as a decimal with four places or empty, flags as the names of the set flags joined by
 * {@code |}. Reuses one decoder: not thread-safe.
 */
final class TickCsv
{
    static final String HEADER = "gatewaySequence,exchangeSequence,exchangeTimestamp,receiveTimestamp,instrument," +
        "symbol,sessionId,event,side,price,quantity,orderReference,matchOrNewReference,flags";

    private static final String[] EVENT_NAMES = eventNames();

    private final TickDecoder decoder = new TickDecoder();
    private final SymbolLookup instruments;

    /**
     * @param instruments to look symbols up in, or null for an empty symbol column.
     */
    TickCsv(final SymbolLookup instruments)
    {
        this.instruments = instruments;
    }

    /** Appends the tick at the offset as a CSV row, without the line break. */
    StringBuilder appendTo(final DirectBuffer buffer, final int offset, final StringBuilder out)
    {
        final TickDecoder tick = decoder.wrap(buffer, offset, TickEncoder.BLOCK_LENGTH, TickEncoder.SCHEMA_VERSION);
        TickJson.unsigned(tick.gatewaySequence(), out).append(',');
        TickJson.unsigned(tick.exchangeSequence(), out).append(',')
            .append(tick.exchangeTimestamp()).append(',')
            .append(tick.receiveTimestamp()).append(',')
            .append(tick.instrumentId()).append(',');
        symbol(tick.instrumentId(), out);
        out.append(',').append(tick.sessionId()).append(',')
            .append(eventName(tick.eventTypeRaw())).append(',')
            .append((char)tick.sideRaw()).append(',');
        final int mantissa = tick.price().mantissa();
        if (mantissa != io.mdgate.core.tick.sbe.Price4Decoder.mantissaNullValue())
        {
            final int start = out.length();
            TickJson.price(mantissa, out);
            out.deleteCharAt(start).deleteCharAt(out.length() - 1);
        }
        TickJson.unsigned(tick.orderReference(), out.append(',').append(tick.quantity()).append(','));
        TickJson.unsigned(tick.matchOrNewReference(), out.append(',')).append(',');
        flags(tick.flags(), out);
        return out;
    }

    private void symbol(final int instrument, final StringBuilder out)
    {
        final long packed = instruments == null ? InstrumentDirectory.NO_SYMBOL : instruments.symbol(instrument);
        final int length = packed == InstrumentDirectory.NO_SYMBOL ? 0 : Alpha.length8(packed);
        boolean quoted = false;
        for (int i = 0; i < length; i++)
        {
            final char c = Alpha.charAt8(packed, i);
            quoted |= c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (quoted)
        {
            out.append('"');
        }
        for (int i = 0; i < length; i++)
        {
            final char c = Alpha.charAt8(packed, i);
            if (c == '"')
            {
                out.append('"');
            }
            out.append(c);
        }
        if (quoted)
        {
            out.append('"');
        }
    }

    private static void flags(final TickFlagsDecoder flags, final StringBuilder out)
    {
        final int start = out.length();
        flag(out, start, flags.lineB(), "lineB");
        flag(out, start, flags.recovered(), "recovered");
        flag(out, start, flags.lastInMessage(), "lastInMessage");
        flag(out, start, flags.lastInPacket(), "lastInPacket");
        flag(out, start, flags.nonPrintable(), "nonPrintable");
        flag(out, start, flags.quantitySaturated(), "quantitySaturated");
        flag(out, start, flags.priceRescaled(), "priceRescaled");
        flag(out, start, flags.replayed(), "replayed");
        flag(out, start, flags.bookCrossed(), "bookCrossed");
        flag(out, start, flags.unknownOrder(), "unknownOrder");
        flag(out, start, flags.snapshot(), "snapshot");
    }

    private static void flag(final StringBuilder out, final int start, final boolean set, final String name)
    {
        if (set)
        {
            out.append(out.length() == start ? "" : "|").append(name);
        }
    }

    private static String eventName(final short raw)
    {
        return raw >= 0 && raw < EVENT_NAMES.length && EVENT_NAMES[raw] != null ? EVENT_NAMES[raw] : "UNKNOWN_" + raw;
    }

    private static String[] eventNames()
    {
        final String[] names = new String[256];
        for (final EventType type : EventType.values())
        {
            if (type != EventType.NULL_VAL)
            {
                names[type.value()] = type.name();
            }
        }
        return names;
    }
}
