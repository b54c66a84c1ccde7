package io.mdgate.app.run;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.ExitCodes;
import io.mdgate.app.JsonOutput;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileException;
import io.mdgate.runtime.counters.ErrorRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mdgate errors}: prints the distinct-error log of a gateway's counters file: each distinct error once, with
 * how many times it happened, first and last, and its stack trace. Works while the gateway runs and after it died.
 */
@Command(
    name = "errors",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Print a gateway's distinct errors (each once, with its count, first and last time and stack trace) from " +
            "its counters file; works while it runs and after it stopped or died.",
        "Example: mdgate errors --config /etc/mdgate/mdgate.toml" },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:printed (possibly no errors)",
        "2:bad arguments, or the counters file is missing or is not one" })
public final class ErrorsCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    CountersFileOption file;

    @Option(names = "--json", description = "Print one JSON object: the gateway and its errors.")
    boolean json;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try (CountersFile counters = CountersFile.open(file.resolve(spec)))
        {
            final List<ErrorRecord> errors = counters.errors();
            if (json)
            {
                out.println(json(counters.gatewayName(), errors));
            }
            else
            {
                out.println(StatCommand.header(counters.snapshot()));
                out.println(errors.size() + (errors.size() == 1 ? " distinct error" : " distinct errors"));
                for (final ErrorRecord error : errors)
                {
                    out.println();
                    out.println(error.observations() + " time(s), first " +
                        Instant.ofEpochMilli(error.firstEpochMillis()) + ", last " +
                        Instant.ofEpochMilli(error.lastEpochMillis()));
                    out.println(error.text().stripTrailing());
                }
            }
            out.flush();
            return 0;
        }
        catch (final CountersFileException ex)
        {
            err.println("mdgate errors: " + ex.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        }
    }

    private static String json(final String gateway, final List<ErrorRecord> errors)
    {
        final ObjectNode root = JsonOutput.object().put("gateway", gateway);
        final ArrayNode array = root.putArray("errors");
        for (final ErrorRecord error : errors)
        {
            array.addObject()
                .put("observations", error.observations())
                .put("firstEpochMillis", error.firstEpochMillis())
                .put("lastEpochMillis", error.lastEpochMillis())
                .put("text", error.text());
        }
        return JsonOutput.line(root);
    }
}
