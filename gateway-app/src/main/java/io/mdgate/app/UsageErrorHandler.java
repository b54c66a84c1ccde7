package io.mdgate.app;

import java.io.PrintWriter;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports wrong arguments of any mdgate command the same way, on the root command's stderr: the command and what
 * is wrong on the first line, a suggestion when the input looks like a typo, then one line naming the command's
 * {@code --help} rather than the whole usage, which would bury the error. The exit code is always
 * {@link ExitCodes#USAGE} (2), whatever a subcommand declares. Stateless.
 */
final class UsageErrorHandler implements IParameterExceptionHandler
{
    @Override
    public int handleParseException(final ParameterException thrown, final String[] args)
    {
        final ParameterException ex = unknownFirst(thrown);
        final CommandLine command = ex.getCommandLine();
        final PrintWriter err = root(command).getErr();
        final CommandLine.Help.ColorScheme colors = command.getColorScheme();
        final String name = command.getCommandSpec().qualifiedName();

        err.println(colors.errorText(name + ": " + ex.getMessage()));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Run '" + name + " --help' for its options and arguments.");
        err.flush();

        return ExitCodes.USAGE;
    }

    /**
     * picocli reports a missing parameter before an unknown option given with it ({@code decode --bogus}); the
     * unknown option is the real mistake (perhaps a misspelt option that took the parameter's place), so it comes
     * first.
     */
    private static ParameterException unknownFirst(final ParameterException ex)
    {
        if (ex instanceof UnmatchedArgumentException || null == ex.getCommandLine())
        {
            return ex;
        }
        final List<String> unmatched = ex.getCommandLine().getUnmatchedArguments();
        return unmatched.isEmpty() ? ex : new UnmatchedArgumentException(ex.getCommandLine(), unmatched);
    }

    static CommandLine root(final CommandLine command)
    {
        CommandLine root = command;
        while (null != root.getParent())
        {
            root = root.getParent();
        }
        return root;
    }
}
