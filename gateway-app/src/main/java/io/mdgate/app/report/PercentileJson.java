package io.mdgate.app.report;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

/**
 * The report as JSON lines for {@code --json}: one object per stage with the table's columns, latencies in
 * microseconds ({@code null} for a stage without samples). Stateless and thread-safe.
 */
public final class PercentileJson
{
    /** The keys of {@link PercentileTable#PERCENTILES}, in their order. */
    private static final String[] KEYS = { "p50Us", "p90Us", "p99Us", "p999Us", "p9999Us" };
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private PercentileJson()
    {
    }

    /**
     * @param series the distributions, one line each.
     * @return one JSON object a line, each line ending with a line separator.
     */
    public static String render(final List<LatencySeries> series)
    {
        final StringBuilder out = new StringBuilder();
        for (final LatencySeries s : series)
        {
            out.append(line(s)).append(System.lineSeparator());
        }
        return out.toString();
    }

    private static String line(final LatencySeries series)
    {
        final Histogram h = series.histogram();
        final boolean any = h.getTotalCount() > 0;
        final ObjectNode line = MAPPER.createObjectNode()
            .put("stage", series.name())
            .put("samples", h.getTotalCount())
            .put("intervals", series.intervals());
        micros(line, "minUs", any ? h.getMinValue() : -1);
        for (int i = 0; i < KEYS.length; i++)
        {
            micros(line, KEYS[i], any ? h.getValueAtPercentile(PercentileTable.PERCENTILES[i]) : -1);
        }
        micros(line, "maxUs", any ? h.getMaxValue() : -1);
        return line.toString();
    }

    private static void micros(final ObjectNode line, final String key, final long nanos)
    {
        if (nanos < 0)
        {
            line.putNull(key);
        }
        else
        {
            line.put(key, nanos / 1_000.0);
        }
    }
}
