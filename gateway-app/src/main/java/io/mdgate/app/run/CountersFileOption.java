package io.mdgate.app.run;

import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.counters.RunFiles;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How {@code stat} and {@code errors} find a gateway's counters file: given directly, through the gateway's
 * configuration file, or the default gateway's. Not thread-safe; used once per command.
 */
public final class CountersFileOption
{
    /** The counters file of a gateway named {@code mdgate} with no {@code counters_file} set. */
    public static final Path DEFAULT = Path.of("/dev/shm/mdgate-" + ConfigLoader.DEFAULT_NAME + "/counters");

    @Option(names = "--counters", paramLabel = "FILE",
        description = "The gateway's counters file ([gateway] counters_file).")
    Path countersFile;

    @Option(names = "--config", paramLabel = "FILE",
        description = "The gateway's configuration file, to find its counters file.")
    Path configFile;

    @Option(names = "--run", paramLabel = "RUN", defaultValue = "current",
        description = "Which run: current (default), previous, or N runs back (-N, e.g. -2); a new run keeps the " +
            "last [gateway] keep_runs runs' files as FILE.1 (previous) ... FILE.N.")
    String run;

    /** @return the counters file of the run asked for. */
    Path resolve(final CommandSpec spec)
    {
        final int runsBack;
        try
        {
            runsBack = RunFiles.parseRun(run);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        final Path current = currentRun(spec);
        final Path chosen = RunFiles.ofRun(current, runsBack);
        if (runsBack > 0 && !Files.exists(chosen))
        {
            final List<Integer> kept = RunFiles.kept(current);
            throw new ParameterException(spec.commandLine(), "--run " + run + ": no such run is kept (" + chosen +
                " does not exist); " + (kept.isEmpty() ? "no previous run is kept beside " + current :
                "kept runs back: " + kept.stream().map(n -> "-" + n).collect(Collectors.joining(", "))));
        }
        return chosen;
    }

    private Path currentRun(final CommandSpec spec)
    {
        if (countersFile != null && configFile != null)
        {
            throw new ParameterException(spec.commandLine(), "give --counters FILE or --config FILE, not both");
        }
        if (countersFile != null)
        {
            return countersFile;
        }
        if (configFile != null)
        {
            try
            {
                return ConfigLoader.load(configFile).gateway().countersFile();
            }
            catch (final ConfigException ex)
            {
                throw new ParameterException(spec.commandLine(), ex.getMessage());
            }
        }
        return DEFAULT;
    }
}
