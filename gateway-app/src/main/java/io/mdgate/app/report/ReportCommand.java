package io.mdgate.app.report;

import io.mdgate.app.FailureReasons;
import io.mdgate.app.OutputPaths;
import io.mdgate.app.Stdio;
import io.mdgate.app.StdioArguments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import io.mdgate.runtime.counters.RunFiles;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mdgate report}: reads per-stage latency logs ({@code .hlog}) and writes a percentile table (printed and
 * saved as {@code latency.txt}) and a percentile plot ({@code latency.png}) into the output directory; the table is
 * printed on stdout (as JSON lines with {@code --json}), where the files went on stderr. {@code --out -} prints only
 * the table and writes no file. Bad
 * arguments exit 2, unreadable logs 1.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Latency report from HdrHistogram logs (.hlog, one per stage): a percentile table and a PNG plot.",
        "Example: mdgate report /var/log/mdgate --out /tmp/report" })
public final class ReportCommand implements Callable<Integer>
{
    /** Name of the plot in the output directory. */
    public static final String PLOT = "latency.png";
    /** Name of the table in the output directory. */
    public static final String TABLE = "latency.txt";

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "1..*",
        description = ".hlog files, or directories whose .hlog files are all read.")
    List<Path> paths;

    @Option(names = "--run", paramLabel = "RUN", defaultValue = "current",
        description = "For a directory: which run's logs, current (default), previous, or N runs back (-N); a new " +
            "gateway run keeps the last [gateway] keep_runs runs' logs as NAME.hlog.1 (previous) ... NAME.hlog.N.")
    String run;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".",
        description = "Directory for " + PLOT + " and " + TABLE + ", created if missing (default: the current one); " +
            "- prints only the table to stdout and writes no file (a PNG cannot share stdout with it).")
    @Stdio
    Path out;

    @Option(names = "--title", paramLabel = "TEXT", defaultValue = "mdgate latency by stage",
        description = "Title of the plot (default: ${DEFAULT-VALUE}).")
    String title;

    @Option(names = "--width", paramLabel = "PX", defaultValue = "1000", description = "Plot width (default ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--height", paramLabel = "PX", defaultValue = "600", description = "Plot height (default ${DEFAULT-VALUE}).")
    int height;

    @Option(names = "--no-plot", description = "Only the table.")
    boolean noPlot;

    @Option(names = "--json", description = "Print the table as JSON lines, one object per stage (latencies in " +
        "microseconds); " + TABLE + " stays the text table.")
    boolean json;

    @Override
    public Integer call()
    {
        if (width < 200 || height < 150 || width > 10_000 || height > 10_000)
        {
            throw new ParameterException(spec.commandLine(),
                "--width must be 200..10000 and --height 150..10000 pixels, were " + width + " and " + height);
        }
        final List<Path> files;
        try
        {
            files = HlogFiles.expand(paths, RunFiles.parseRun(run));
        }
        catch (final IllegalArgumentException | UncheckedIOException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        final boolean toStdout = StdioArguments.isDash(out);
        if (!toStdout)
        {
            makeOutputDirectory();
        }
        final PrintWriter stdout = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            final List<LatencySeries> series = HlogFiles.read(files);
            final String table = PercentileTable.render(series);
            stdout.print(json ? PercentileJson.render(series) : table);
            stdout.flush();
            if (toStdout)
            {
                return 0;
            }
            Files.writeString(out.resolve(TABLE), table);
            // The table is the data on stdout; where the files went is said on stderr.
            if (!noPlot)
            {
                final int drawn = PercentilePlot.write(series, out.resolve(PLOT), title, width, height);
                err.println("plot: " + out.resolve(PLOT) + " (" + drawn + " stage" + (drawn == 1 ? "" : "s") +
                    " with samples)");
            }
            err.println("table: " + out.resolve(TABLE));
            err.flush();
            return 0;
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("mdgate report: " + ex.getMessage());
            err.flush();
            return 1;
        }
        catch (final UncheckedIOException | IOException ex)
        {
            err.println("mdgate report: " + FailureReasons.describe(ex instanceof UncheckedIOException ?
                ex.getCause() : ex));
            err.flush();
            return 1;
        }
    }

    private void makeOutputDirectory()
    {
        OutputPaths.checkDirectory(spec.commandLine(), "--out", out);
        try
        {
            // Before the logs are read, so that an output that cannot be made is refused before any work.
            Files.createDirectories(out);
        }
        catch (final IOException ex)
        {
            throw new ParameterException(spec.commandLine(), "--out " + out + " cannot be created: " +
                FailureReasons.describe(ex) + "; give a directory this user may create");
        }
    }
}
