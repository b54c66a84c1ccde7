package io.mdgate.app.journal;

import io.mdgate.core.tick.SymbolDirectory;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.TickJson;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * Writes replayed ticks as text lines, JSON objects ({@link TickJson}) or CSV rows ({@link TickCsv}, after a header
 * line), with the symbols of the {@link SymbolDirectory} it feeds each tick first, counting them and moving a
 * progress bar. Not thread-safe.
 */
final class TickLines implements TickHandler
{
    private final Writer out;
    private final boolean json;
    private final SymbolDirectory symbols;
    private final TickJson tickJson;
    private final TickCsv tickCsv;
    private final StringBuilder line = new StringBuilder(512);
    private char[] chars = new char[512];
    private final ProgressBar progress;
    private long written;

    /**
     * @param out      where the lines go.
     * @param json     JSON lines when true, CSV when false (the header is written here).
     * @param symbols  the directory as it stands before the first tick, fed every tick; null for no symbols.
     * @param progress moved as ticks are written.
     */
    TickLines(final Writer out, final boolean json, final SymbolDirectory symbols, final ProgressBar progress)
    {
        this.out = out;
        this.json = json;
        this.symbols = symbols;
        this.tickJson = new TickJson(symbols);
        this.tickCsv = new TickCsv(symbols);
        this.progress = progress;
        if (!json)
        {
            line.append(TickCsv.HEADER).append('\n');
            writeLine();
        }
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        if (symbols != null)
        {
            symbols.onTick(buffer, offset);
        }
        line.setLength(0);
        if (json)
        {
            tickJson.appendTo(buffer, offset, line);
        }
        else
        {
            tickCsv.appendTo(buffer, offset, line);
        }
        line.append('\n');
        writeLine();
        progress.update(++written);
    }

    long written()
    {
        return written;
    }

    /** Writes the line through a reused array: a Writer's append(CharSequence) would make a String of it. */
    private void writeLine()
    {
        final int length = line.length();
        if (length > chars.length)
        {
            chars = new char[Math.max(length, chars.length * 2)];
        }
        line.getChars(0, length, chars, 0);
        try
        {
            out.write(chars, 0, length);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
