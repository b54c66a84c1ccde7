package io.mdgate.core.tick;

import io.mdgate.core.book.InstrumentDirectory;
import io.mdgate.core.book.SymbolLookup;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * The instrument directory a stream of ticks carries, for tools that write ticks with their symbols (replay,
 * consume): fed every tick in order, it takes each {@code INSTRUMENT} tick's symbol (its {@code orderReference}) for
 * the tick's instrument, and empties itself at a {@code SESSION} tick, since a new session reuses stock locates
 * (docs/TICK.md); no other tick changes it. One array for every possible locate, allocated once; a tick costs a
 * byte compare. Not thread-safe: belongs to the thread that feeds it.
 */
public final class SymbolDirectory implements TickHandler, SymbolLookup
{
    private static final int INSTRUMENTS = 1 << 16;
    private static final int EVENT_TYPE_OFFSET = TickEncoder.eventTypeEncodingOffset();
    private static final int INSTRUMENT_OFFSET = TickEncoder.instrumentIdEncodingOffset();
    private static final int SYMBOL_OFFSET = TickEncoder.orderReferenceEncodingOffset();
    private static final byte INSTRUMENT = (byte)EventType.INSTRUMENT.value();
    private static final byte SESSION = (byte)EventType.SESSION.value();

    private final long[] symbols = new long[INSTRUMENTS];
    private int named;
    private long sessionChanges;

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final byte type = buffer.getByte(offset + EVENT_TYPE_OFFSET);
        if (type == SESSION)
        {
            startSession();
        }
        else if (type == INSTRUMENT)
        {
            name(buffer.getShort(offset + INSTRUMENT_OFFSET, TickEncoder.BYTE_ORDER) & 0xFFFF,
                buffer.getLong(offset + SYMBOL_OFFSET, TickEncoder.BYTE_ORDER));
        }
    }

    @Override
    public long symbol(final int instrument)
    {
        return instrument >= 0 && instrument < INSTRUMENTS ? symbols[instrument] : InstrumentDirectory.NO_SYMBOL;
    }

    /** @return instruments named since the directory was last emptied. */
    public int named()
    {
        return named;
    }

    /** @return SESSION ticks seen, each of which emptied the directory. */
    public long sessionChanges()
    {
        return sessionChanges;
    }

    private void name(final int instrument, final long symbol)
    {
        if (symbol != InstrumentDirectory.NO_SYMBOL)
        {
            named += symbols[instrument] == InstrumentDirectory.NO_SYMBOL ? 1 : 0;
            symbols[instrument] = symbol;
        }
    }

    private void startSession()
    {
        if (named > 0)
        {
            Arrays.fill(symbols, InstrumentDirectory.NO_SYMBOL);
            named = 0;
        }
        sessionChanges++;
    }
}
