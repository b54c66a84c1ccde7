package io.mdgate.app.report;

import org.HdrHistogram.DoubleHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads HdrHistogram interval logs into one {@link LatencySeries} per file, named by the file or, when all its
 * intervals carry one tag, by that tag; a file that mixes tags gives one series per tag ({@code file/tag}).
 * Not thread-safe; a start-up tool, it allocates freely.
 */
public final class HlogFiles
{
    /** File name suffix of a histogram log. */
    public static final String SUFFIX = ".hlog";

    private HlogFiles()
    {
    }

    /**
     * Expands the given paths: a file is taken as it is, a directory gives its {@code *.hlog} files in name order.
     *
     * @param paths files and directories.
     * @return the log files.
     * @throws IllegalArgumentException when a path does not exist or a directory holds no {@code .hlog} file.
     */
    public static List<Path> expand(final List<Path> paths)
    {
        return expand(paths, 0);
    }

    /**
     * As {@link #expand(List)}, a directory giving the logs of the run {@code runsBack} runs before the current one
     * ({@code NAME.hlog.N}, see {@link io.mdgate.runtime.counters.RunFiles}); files given are taken as they are.
     */
    public static List<Path> expand(final List<Path> paths, final int runsBack)
    {
        final List<Path> files = new ArrayList<>();
        for (final Path path : paths)
        {
            if (Files.isDirectory(path))
            {
                final List<Path> logs = logsIn(path, runsBack == 0 ? SUFFIX : SUFFIX + "." + runsBack);
                if (logs.isEmpty())
                {
                    throw new IllegalArgumentException(path + " holds no " + SUFFIX + " file" +
                        (runsBack == 0 ? "" : " of the run " + runsBack + " back (*" + SUFFIX + "." + runsBack + ")"));
                }
                files.addAll(logs);
            }
            else if (Files.isRegularFile(path))
            {
                files.add(path);
            }
            else
            {
                throw new IllegalArgumentException(path + " does not exist (give .hlog files or a directory of them)");
            }
        }
        return files;
    }

    /**
     * Reads every interval of every file.
     *
     * @param files histogram logs.
     * @return one series per file and tag, in file order, series without any recorded value included.
     * @throws IllegalArgumentException when a file is not a histogram log.
     */
    public static List<LatencySeries> read(final List<Path> files)
    {
        final List<LatencySeries> series = new ArrayList<>();
        for (final Path file : files)
        {
            series.addAll(readOne(file));
        }
        return series;
    }

    private static List<LatencySeries> readOne(final Path file)
    {
        final String base = baseName(file);
        final Map<String, Histogram> byTag = new LinkedHashMap<>();
        final Map<String, Integer> counts = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(file))
        {
            final HistogramLogReader reader = new HistogramLogReader(in);
            EncodableHistogram interval;
            while (null != (interval = next(reader, file)))
            {
                final String tag = null == interval.getTag() ? "" : interval.getTag();
                final Histogram total = byTag.computeIfAbsent(tag, t -> new Histogram(3));
                total.add(toIntegral(interval));
                counts.merge(tag, 1, Integer::sum);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
        final List<LatencySeries> series = new ArrayList<>();
        if (byTag.isEmpty())
        {
            series.add(new LatencySeries(base, new Histogram(3), 0));
        }
        // a log of one tagged stage is named by its tag; a log mixing tags gets one series per tag
        final boolean single = byTag.size() == 1;
        byTag.forEach((tag, total) -> series.add(new LatencySeries(
            tag.isEmpty() ? base : single ? tag : base + "/" + tag, total, counts.get(tag))));
        return series;
    }

    private static EncodableHistogram next(final HistogramLogReader reader, final Path file)
    {
        try
        {
            return reader.nextIntervalHistogram();
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException(file + " is not an HdrHistogram interval log (" + ex + ")", ex);
        }
    }

    private static Histogram toIntegral(final EncodableHistogram interval)
    {
        if (interval instanceof Histogram)
        {
            return (Histogram)interval;
        }
        final DoubleHistogram doubles = (DoubleHistogram)interval;
        final Histogram integral = new Histogram(3);
        doubles.recordedValues().forEach(v ->
            integral.recordValueWithCount(Math.round(v.getValueIteratedTo()), v.getCountAtValueIteratedTo()));
        return integral;
    }

    private static List<Path> logsIn(final Path directory, final String suffix)
    {
        try (Stream<Path> entries = Files.list(directory))
        {
            return entries.filter(p -> p.getFileName().toString().endsWith(suffix) && Files.isRegularFile(p))
                .sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + directory + ": " + ex.getMessage(), ex);
        }
    }

    private static String baseName(final Path file)
    {
        final String name = file.getFileName().toString();
        return name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : name;
    }
}
