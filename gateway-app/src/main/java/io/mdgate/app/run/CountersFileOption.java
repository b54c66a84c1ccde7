package io.mdgate.app.run;

import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;

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

    /** @return the counters file to read. */
    Path resolve(final CommandSpec spec)
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
