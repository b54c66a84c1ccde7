package io.mdgate.app.journal;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A one-line progress bar for a terminal (stderr, never stdout): done and total, percentage, rate and time left,
 * redrawn in place with a carriage return at most every {@link #REDRAW_NANOS} (or the interval given).
 * {@link #finish()} clears the line. When the total is not known (0) the line shows what is done and the rate, or
 * the percentage of some other measure of the work ({@link #update(long, long, long)}, e.g. bytes of a file). A
 * bar created with {@link #disabled()} draws nothing, so callers need not test whether they run on a terminal.
 * Not thread-safe.
 */
public final class ProgressBar
{
    static final long REDRAW_NANOS = 200_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final String unit;
    private final long total;
    private final long redrawNanos;
    private final long startNanos;
    private long nextDrawNanos;
    private int drawnLength;

    private ProgressBar(final PrintWriter out, final String unit, final long total, final long redrawNanos)
    {
        this.out = out;
        this.unit = unit;
        this.total = total;
        this.redrawNanos = redrawNanos;
        this.startNanos = System.nanoTime();
        this.nextDrawNanos = startNanos + redrawNanos;
    }

    /**
     * @param out   the terminal (stderr).
     * @param unit  what is counted, plural ("ticks").
     * @param total how many there will be.
     */
    static ProgressBar on(final PrintWriter out, final String unit, final long total)
    {
        return new ProgressBar(out, unit, total, REDRAW_NANOS);
    }

    /**
     * @param out         the terminal (stderr).
     * @param unit        what is counted, plural ("messages").
     * @param total       how many there will be, or 0 when not known.
     * @param redrawNanos least time between two draws.
     * @return a bar that draws on {@code out}.
     */
    public static ProgressBar on(final PrintWriter out, final String unit, final long total, final long redrawNanos)
    {
        return new ProgressBar(out, unit, total, redrawNanos);
    }

    /** @return a bar that draws nothing. */
    public static ProgressBar disabled()
    {
        return new ProgressBar(null, "", 0, REDRAW_NANOS);
    }

    /** @param done how many so far; cheap to call often. */
    public void update(final long done)
    {
        update(done, done, total);
    }

    /**
     * @param done  how many so far (shown, and the rate).
     * @param part  how much of the work is done in another measure, e.g. bytes read.
     * @param whole the whole work in that measure, or 0 when not known (no percentage then).
     */
    public void update(final long done, final long part, final long whole)
    {
        if (out == null)
        {
            return;
        }
        final long now = System.nanoTime();
        if (now >= nextDrawNanos)
        {
            nextDrawNanos = now + redrawNanos;
            draw(line(done, part, whole, now - startNanos));
        }
    }

    /** Clears the bar. */
    public void finish()
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
        return line(done, done, total, elapsedNanos);
    }

    /**
     * @return the line for {@code done} after {@code elapsedNanos}, the bar from {@code part} of {@code whole};
     * without a whole, e.g. {@code 450,000 messages  1.20M messages/s  0:03}.
     */
    String line(final long done, final long part, final long whole, final long elapsedNanos)
    {
        final double rate = elapsedNanos <= 0 ? 0 : done * 1e9 / elapsedNanos;
        if (whole <= 0)
        {
            return String.format(Locale.ROOT, "%,d %s  %s %s/s  %s", done, unit, rate(rate), unit,
                duration(elapsedNanos / 1_000_000_000L));
        }
        final double fraction = Math.min(1.0, (double)part / whole);
        final int filled = (int)Math.round(fraction * WIDTH);
        final double partRate = elapsedNanos <= 0 ? 0 : part * 1e9 / elapsedNanos;
        final String eta = partRate <= 0 ? "--:--" : duration((long)((whole - part) / partRate));
        final String count = part == done && whole == total ? String.format(Locale.ROOT, "%,d/%,d", done, total) :
            String.format(Locale.ROOT, "%,d", done);
        return String.format(Locale.ROOT, "[%s%s] %3d%%  %s %s  %s %s/s  ETA %s",
            "#".repeat(filled), ".".repeat(WIDTH - filled), Math.round(fraction * 100), count, unit,
            rate(rate), unit, eta);
    }

    /** @return a rate with a k or M suffix, e.g. {@code 1.20M}. */
    public static String rate(final double perSecond)
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
