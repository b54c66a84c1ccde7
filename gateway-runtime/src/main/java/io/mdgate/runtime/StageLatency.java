package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.SingleWriterRecorder;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The latency of one pipeline stage in an HdrHistogram: the stage's agent records each sample (allocation-free,
 * {@link SingleWriterRecorder}); every second the housekeeping agent takes the interval's histogram, publishes its
 * p50, p99, p99.9 and max as counters ({@code latency.<stage>.p50_ns}, {@code .p99_ns}, {@code .p999_ns},
 * {@code .max_ns}, {@code .samples}) and appends it to the stage's {@code .hlog} file when one is configured.
 * A negative sample (the stage saw a receive time later than its own clock: clocks that disagree) is not recorded
 * but counted in {@code latency.<stage>.negative}, so a figure is never made to look better than it is; samples above
 * {@link #HIGHEST_NANOS} are recorded as that.
 * <p>
 * Threading: {@link #record(long)} on the one thread of the stage; {@link #publish(long)} and {@link #close()} on
 * the housekeeping thread.
 */
final class StageLatency implements AutoCloseable
{
    /** Largest latency tracked: one minute. */
    static final long HIGHEST_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final String stage;
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_NANOS, 3);
    private final AtomicCounter p50;
    private final AtomicCounter p99;
    private final AtomicCounter p999;
    private final AtomicCounter max;
    private final AtomicCounter samples;
    private final AtomicCounter negative;
    private final PrintStream logStream;
    private final HistogramLogWriter log;
    private Histogram interval;

    /**
     * @param stage       the stage's name in labels and file names, e.g. {@code ingress_to_session}.
     * @param counters    where the percentiles go.
     * @param hlogFile    the {@code .hlog} file to write, null for none.
     * @param startMillis the log's base time, ms since the epoch.
     */
    StageLatency(final String stage, final CountersFileWriter counters, final Path hlogFile, final long startMillis)
    {
        this.stage = stage;
        final String prefix = "latency." + stage + ".";
        p50 = counters.newCounter(prefix + "p50_ns", CounterType.LATENCY_NS);
        p99 = counters.newCounter(prefix + "p99_ns", CounterType.LATENCY_NS);
        p999 = counters.newCounter(prefix + "p999_ns", CounterType.LATENCY_NS);
        max = counters.newCounter(prefix + "max_ns", CounterType.LATENCY_NS);
        samples = counters.newCounter(prefix + "samples", CounterType.TOTAL);
        negative = counters.newCounter(prefix + "negative", CounterType.TOTAL);
        if (hlogFile == null)
        {
            logStream = null;
            log = null;
        }
        else
        {
            try
            {
                logStream = new PrintStream(hlogFile.toFile(), "US-ASCII");
            }
            catch (final FileNotFoundException | java.io.UnsupportedEncodingException ex)
            {
                throw new IllegalStateException("cannot write latency log " + hlogFile + ": " + ex.getMessage(), ex);
            }
            log = new HistogramLogWriter(logStream);
            log.setBaseTime(startMillis);
            log.outputStartTime(startMillis);
            log.outputComment("mdgate stage " + stage + ", values in ns");
            log.outputLegend();
        }
    }

    /** @param nanos one sample; stage thread only. */
    void record(final long nanos)
    {
        if (nanos < 0)
        {
            negative.incrementRelease();
            return;
        }
        recorder.recordValue(Math.min(HIGHEST_NANOS, nanos));
    }

    /** Takes the interval since the last call, publishes its percentiles and logs it. Housekeeping thread. */
    void publish(final long nowMillis)
    {
        interval = recorder.getIntervalHistogram(interval);
        samples.getAndAddRelease(interval.getTotalCount());
        if (interval.getTotalCount() > 0)
        {
            p50.setRelease(interval.getValueAtPercentile(50));
            p99.setRelease(interval.getValueAtPercentile(99));
            p999.setRelease(interval.getValueAtPercentile(99.9));
            max.setRelease(interval.getMaxValue());
        }
        if (log != null)
        {
            interval.setTag(stage);
            log.outputIntervalHistogram(interval);
            logStream.flush();
        }
    }

    String stage()
    {
        return stage;
    }

    @Override
    public void close()
    {
        if (logStream != null)
        {
            logStream.close();
        }
    }
}
