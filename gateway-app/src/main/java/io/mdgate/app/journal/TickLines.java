package io.mdgate.app.journal;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.TickJson;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * Writes replayed ticks as text lines, JSON objects ({@link TickJson}) or CSV rows ({@link TickCsv}, after a header
 * line), counting them and moving a progress bar. Not thread-safe.
 */
final class TickLines implements TickHandler
{
    private final Writer out;
    private final boolean json;
    private final TickJson tickJson = new TickJson(null);
    private final TickCsv tickCsv = new TickCsv();
    private final StringBuilder line = new StringBuilder(512);
    private final ProgressBar progress;
    private long written;

    /**
     * @param out      where the lines go.
     * @param json     JSON lines when true, CSV when false (the header is written here).
     * @param progress moved as ticks are written.
     */
    TickLines(final Writer out, final boolean json, final ProgressBar progress)
    {
        this.out = out;
        this.json = json;
        this.progress = progress;
        if (!json)
        {
            write(TickCsv.HEADER + '\n');
        }
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
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
        write(line);
        progress.update(++written);
    }

    long written()
    {
        return written;
    }

    private void write(final CharSequence text)
    {
        try
        {
            out.append(text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
