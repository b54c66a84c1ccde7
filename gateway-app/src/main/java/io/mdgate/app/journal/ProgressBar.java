package io.mdgate.app.journal;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A one-line progress bar for a terminal: done and total, percentage, rate and time left, redrawn in place with a
 * carriage return at most every {@link #REDRAW_NANOS}. {@link #finish()} clears the line. A bar created with
 * {@link #disabled()} draws nothing, so callers need not test whether they run on a terminal. Not thread-safe.
 */
final class ProgressBar
{
    static final long REDRAW_NANOS = 200_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final String unit;
    private final long total;
    private final long startNanos;
    private long nextDrawNanos;
    private int drawnLength;

    private ProgressBar(final PrintWriter out, final String unit, final long total)
    {
        this.out = out;
        this.unit = unit;
        this.total = total;
        this.startNanos = System.nanoTime();
        this.nextDrawNanos = startNanos + REDRAW_NANOS;
    }

    /**
     * @param out   the terminal (stderr).
     * @param unit  what is counted, plural ("ticks").
     * @param total how many there will be.
     */
    static ProgressBar on(final PrintWriter out, final String unit, final long total)
    {
        return new ProgressBar(out, unit, total);
    }

    static ProgressBar disabled()
    {
        return new ProgressBar(null, "", 0);
    }

    /** @param done how many so far; cheap to call often. */
    void update(final long done)
    {
        if (out == null)
        {
            return;
        }
        final long now = System.nanoTime();
        if (now >= nextDrawNanos)
        {
            nextDrawNanos = now + REDRAW_NANOS;
            draw(line(done, now - startNanos));
        }
    }

    /** Clears the bar. */
    void finish()
    {
        if (out != null && drawnLength > 0)
        {
            out.print('\r' + " ".repeat(drawnLength) + '\r');
            out.flush();
        }
    }

    /**
     * @return the bar for {@code done} of the total after {@code elapsedNanos}, e.g.
     * {@code [#######.......]  45%  450,000/1,000,000 ticks  1.20M ticks/s  ETA 0:01}.
     */
    String line(final long done, final long elapsedNanos)
    {
        final double fraction = total <= 0 ? 1 : Math.min(1.0, (double)done / total);
        final int filled = (int)Math.round(fraction * WIDTH);
        final double rate = elapsedNanos <= 0 ? 0 : done * 1e9 / elapsedNanos;
        final String eta = rate <= 0 ? "--:--" : duration((long)((total - done) / rate));
        return String.format(Locale.ROOT, "[%s%s] %3d%%  %,d/%,d %s  %s %s/s  ETA %s",
            "#".repeat(filled), ".".repeat(WIDTH - filled), Math.round(fraction * 100), done, total, unit,
            rate(rate), unit, eta);
    }

    static String rate(final double perSecond)
    {
        if (perSecond >= 1e6)
        {
            return String.format(Locale.ROOT, "%.2fM", perSecond / 1e6);
        }
        if (perSecond >= 1e3)
        {
            return String.format(Locale.ROOT, "%.1fk", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", perSecond);
    }

    static String duration(final long seconds)
    {
        return seconds >= 3600 ?
            String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60) :
            String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }

    private void draw(final String line)
    {
        final int pad = Math.max(0, drawnLength - line.length());
        out.print('\r' + line + " ".repeat(pad));
        out.flush();
        drawnLength = line.length();
    }
}
