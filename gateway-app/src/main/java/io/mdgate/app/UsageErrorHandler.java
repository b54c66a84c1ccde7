package io.mdgate.app;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports wrong arguments of any mdgate command the same way: the command and what is wrong, a suggestion when
 * the input looks like a typo, then the usage of that command, all on the root command's stderr; the exit code
 * is always {@link CommandLine.ExitCode#USAGE} (2), whatever a subcommand declares. Stateless.
 */
final class UsageErrorHandler implements IParameterExceptionHandler
{
    @Override
    public int handleParseException(final ParameterException ex, final String[] args)
    {
        final CommandLine command = ex.getCommandLine();
        final PrintWriter err = root(command).getErr();
        final CommandLine.Help.ColorScheme colors = command.getColorScheme();

        err.println(colors.errorText(command.getCommandSpec().qualifiedName() + ": " + ex.getMessage()));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println();
        command.usage(err, colors);
        err.flush();

        return CommandLine.ExitCode.USAGE;
    }

    private static CommandLine root(final CommandLine command)
    {
        CommandLine root = command;
        while (null != root.getParent())
        {
            root = root.getParent();
        }
        return root;
    }
}
