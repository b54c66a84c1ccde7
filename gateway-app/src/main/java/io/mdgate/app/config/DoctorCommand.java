package io.mdgate.app.config;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.JsonOutput;
import io.mdgate.app.config.DoctorCheck.Status;
import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.HostTopology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code mdgate doctor}: checks a host before anyone starts the gateway on it (see {@link HostDoctor}) and, with
 * {@code --config}, the configuration and its core map. One line per check, ok/warn/fail, with what to do; or
 * {@code --json}. Exit code 1 when any check fails. Not thread-safe; one per invocation.
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Check this host for the gateway: DPDK, hugepages, RDMA, isolated CPUs, IRQs, NUMA, memlock, " +
        "clock source, CPU governor; each line ok/warn/fail with what to do.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:No check failed (warnings allowed).",
        "1:At least one check failed.",
        "2:Invalid options, or a --config file that is missing or not readable." })
public final class DoctorCommand implements Callable<Integer>
{

    @Spec
    CommandSpec spec;

    @Option(names = { "-c", "--config" }, paramLabel = "FILE",
        description = "Also check this configuration file and its core map on this host.")
    Path configFile;

    @Option(names = "--json", description = "Print the checks as JSON.")
    boolean json;

    @Option(names = "--sysfs-root", paramLabel = "DIR", hidden = true, defaultValue = "/",
        description = "Read the host's /sys, /proc and /usr/lib under this directory (tests).")
    Path sysfsRoot;

    @Override
    public Integer call() throws Exception
    {
        final List<DoctorCheck> checks = new ArrayList<>();
        Optional<GatewayConfig> config = Optional.empty();
        if (null != configFile)
        {
            try
            {
                config = Optional.of(ConfigLoader.load(configFile));
                checks.add(DoctorCheck.ok("config", configFile + " is valid"));
            }
            catch (final ConfigException ex)
            {
                if (!Files.isRegularFile(configFile) || !Files.isReadable(configFile))
                {
                    // Not a file to check: the command line is wrong (exit 2), not the host.
                    throw new ParameterException(spec.commandLine(), ex.getMessage());
                }
                checks.add(DoctorCheck.fail("config", String.join("; ", ex.problems()), "fix " + configFile +
                    " (docs/CONFIGURATION.md describes every key)"));
            }
        }
        checks.addAll(0, new HostDoctor(HostTopology.read(sysfsRoot), config).run());
        final PrintWriter out = spec.commandLine().getOut();
        if (json)
        {
            out.println(JsonOutput.line(toJson(checks)));
        }
        else
        {
            print(out, checks);
        }
        out.flush();
        return checks.stream().anyMatch((c) -> Status.FAIL == c.status()) ? 1 : 0;
    }

    private static void print(final PrintWriter out, final List<DoctorCheck> checks)
    {
        final String format = "%-5s %-14s  %s%n";
        for (final DoctorCheck check : checks)
        {
            out.printf(format, check.status().name().toLowerCase(Locale.ROOT), check.name(), check.detail());
            if (!check.action().isEmpty())
            {
                out.printf(format, "", "", "do: " + check.action());
            }
        }
        final long failed = checks.stream().filter((c) -> Status.FAIL == c.status()).count();
        final long warned = checks.stream().filter((c) -> Status.WARN == c.status()).count();
        out.println((checks.size() - failed - warned) + " ok, " + warned + (1 == warned ? " warning, " :
            " warnings, ") + failed + (1 == failed ? " failure" : " failures"));
    }

    private static ObjectNode toJson(final List<DoctorCheck> checks)
    {
        final ObjectNode root = JsonOutput.object();
        root.put("ok", checks.stream().noneMatch((c) -> Status.FAIL == c.status()));
        final ArrayNode array = root.putArray("checks");
        for (final DoctorCheck check : checks)
        {
            final ObjectNode entry = array.addObject();
            entry.put("check", check.name());
            entry.put("status", check.status().name().toLowerCase(Locale.ROOT));
            entry.put("detail", check.detail());
            entry.put("action", check.action());
        }
        return root;
    }
}
