package io.mdgate.app;

import java.util.concurrent.Callable;

import io.mdgate.app.clock.ClockCommand;
import io.mdgate.app.config.CoresCommand;
import io.mdgate.app.config.DoctorCommand;
import io.mdgate.app.config.MapCommand;
import io.mdgate.app.config.PortsCommand;
import io.mdgate.app.demo.DemoCommand;
import io.mdgate.app.egress.ConsumeCommand;
import io.mdgate.app.egress.PublishCommand;
import io.mdgate.app.journal.JournalCommand;
import io.mdgate.app.journal.RecordCommand;
import io.mdgate.app.journal.ReplayCommand;
import io.mdgate.app.report.ReportCommand;
import io.mdgate.app.run.ErrorsCommand;
import io.mdgate.app.run.RunCommand;
import io.mdgate.app.run.StatCommand;
import io.mdgate.app.sim.SimCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code mdgate} command line: the operator's entry point to the gateway, its tools and the simulator.
 * Subcommands are registered in the {@code subcommands} list of the annotation below, each with a one-sentence
 * description; {@link #commandLine()} gives all of them, and any added later, the same handling of wrong
 * arguments. Not thread-safe: build one {@link CommandLine} per invocation.
 */
@Command(
    name = "mdgate",
    mixinStandardHelpOptions = true,
    versionProvider = MdgateVersion.class,
    description = "Market-data gateway: ITCH 5.0 over MoldUDP64 in, normalized 64-byte ticks out.",
    synopsisSubcommandLabel = "COMMAND",
    commandListHeading = "%nCommands:%n",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:Success.",
        "1:The work failed while being done (host, network, damaged data, a failed write).",
        "2:The command line is wrong: an option, the configuration, or a file it names (missing, a directory, " +
            "not accessible, already there)." },
    footer = "%nRun 'mdgate help COMMAND' for the options of a command.",
    subcommands = {
        SimCommand.class, DecodeCommand.class, IngressCommand.class, RecordCommand.class, ReplayCommand.class,
        JournalCommand.class, PublishCommand.class, ConsumeCommand.class, RunCommand.class, StatCommand.class,
        ErrorsCommand.class, DemoCommand.class, ReportCommand.class, MapCommand.class, CoresCommand.class,
        PortsCommand.class, DoctorCommand.class, ClockCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class })
public final class Main implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    /**
     * {@code mdgate} without a command is a usage error, reported like any other.
     */
    @Override
    public Integer call()
    {
        throw new ParameterException(spec.commandLine(),
            "Missing command: give one of the commands that 'mdgate --help' lists");
    }

    /**
     * Builds the command line with every registered subcommand. Wrong arguments of any command (unknown option or
     * command, missing or invalid parameter, or a {@link ParameterException} thrown by the command itself while
     * validating its input) print what is wrong and where the command's help is on stderr and give exit code
     * {@link ExitCodes#USAGE} (2), see {@link UsageErrorHandler}; so does {@code -} for a path that cannot be stdin
     * or stdout, see {@link StdioArguments}; an exception escaping a command prints one line
     * and gives the exit code of the rule in {@link ExitCodes}, see {@link ExecutionErrorHandler}.
     *
     * @return a new command line, ready for {@link CommandLine#execute(String...)}.
     */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new Main());
        commandLine.setParameterExceptionHandler(new UsageErrorHandler());
        commandLine.setExecutionExceptionHandler(new ExecutionErrorHandler());
        commandLine.setExecutionStrategy(new StdioArguments.Strategy());
        return commandLine;
    }

    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }
}
