package io.mdgate.app.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.List;
import java.util.Locale;

/**
 * Draws the percentile distributions of a report into a PNG, the usual HdrHistogram way: the x axis is
 * {@code 1 / (1 - percentile)} on a log scale (labelled 90%, 99%, 99.9%, ...), so the tail gets as much room as the
 * median; the y axis is the latency in microseconds. Headless (no display needed). Not thread-safe.
 */
public final class PercentilePlot
{
    /** Highest percentile drawn: beyond it the x axis would run to infinity. */
    private static final double LAST_PERCENTILE = 99.9999;

    private PercentilePlot()
    {
    }

    /**
     * @param series the distributions; those without samples are left out.
     * @param png    the file to write.
     * @param title  the chart's title.
     * @param width  in pixels.
     * @param height in pixels.
     * @return how many series were drawn.
     */
    public static int write(final List<LatencySeries> series, final Path png, final String title, final int width,
        final int height)
    {
        System.setProperty("java.awt.headless", "true");
        final XYSeriesCollection dataset = new XYSeriesCollection();
        for (final LatencySeries s : series)
        {
            if (s.histogram().getTotalCount() > 0)
            {
                dataset.addSeries(points(s));
            }
        }
        final JFreeChart chart = ChartFactory.createXYLineChart(title, "percentile", "latency (us)", dataset,
            PlotOrientation.VERTICAL, true, false, false);
        final XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        final LogAxis percentileAxis = new LogAxis("percentile");
        percentileAxis.setBase(10);
        percentileAxis.setTickUnit(new NumberTickUnit(1));
        percentileAxis.setNumberFormatOverride(new PercentileFormat());
        percentileAxis.setRange(1, 1 / (1 - LAST_PERCENTILE / 100.0));
        plot.setDomainAxis(percentileAxis);
        ((NumberAxis)plot.getRangeAxis()).setAutoRangeIncludesZero(true);
        try
        {
            ChartUtils.saveChartAsPNG(png.toFile(), chart, width, height);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + png + ": " + ex.getMessage(), ex);
        }
        return dataset.getSeriesCount();
    }

    static XYSeries points(final LatencySeries s)
    {
        final XYSeries points = new XYSeries(s.name(), false, true);
        final Histogram h = s.histogram();
        for (final HistogramIterationValue v : h.percentiles(5))
        {
            final double percentile = v.getPercentileLevelIteratedTo();
            if (percentile > LAST_PERCENTILE)
            {
                break;
            }
            points.add(1 / (1 - percentile / 100.0), v.getValueIteratedTo() / 1_000.0);
        }
        points.add(1 / (1 - LAST_PERCENTILE / 100.0), h.getMaxValue() / 1_000.0);
        return points;
    }

    /** Labels the log axis's 1, 10, 100, ... as 0%, 90%, 99%, ... */
    private static final class PercentileFormat extends NumberFormat
    {
        private static final long serialVersionUID = 1L;
        private final DecimalFormat digits = new DecimalFormat("0.#####");

        @Override
        public StringBuffer format(final double number, final StringBuffer toAppendTo, final FieldPosition pos)
        {
            final double percentile = 100.0 * (1 - 1 / number);
            return toAppendTo.append(String.format(Locale.ROOT, "%s%%", digits.format(percentile)));
        }

        @Override
        public StringBuffer format(final long number, final StringBuffer toAppendTo, final FieldPosition pos)
        {
            return format((double)number, toAppendTo, pos);
        }

        @Override
        public Number parse(final String source, final ParsePosition parsePosition)
        {
            return null;
        }
    }
}
