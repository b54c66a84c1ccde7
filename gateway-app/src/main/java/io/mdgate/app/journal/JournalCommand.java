package io.mdgate.app.journal;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code mdgate journal}: the group of journal tools; {@code mdgate journal info DIR} is the one so far. Without a
 * subcommand it is a usage error (exit 2). Stateless.
 */
@Command(
    name = "journal",
    description = "Inspect a journal: 'journal info DIR' lists its cycles, sequences, times, counts and size.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = { JournalInfoCommand.class })
public final class JournalCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @CommandLine.Option(names = { "-h", "--help" }, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Override
    public Integer call()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: give 'info DIR'");
    }
}
