package io.mdgate.app;

import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Refuses {@code -} for every path option or parameter not marked {@link Stdio}: a journal, a configuration, a
 * counters file or a directory cannot be stdin or stdout, and a file named "-" made by mistake is worse than a
 * usage error. Runs once, after parsing and before the command; stateless.
 */
public final class StdioArguments
{
    /** The path argument that means stdin (an input) or stdout (an output). */
    public static final String DASH = "-";

    private StdioArguments()
    {
    }

    /** @return whether a path argument is {@code -}. */
    public static boolean isDash(final Path path)
    {
        return null != path && DASH.equals(path.toString());
    }

    /**
     * @param parsed the parse result of the whole command line, subcommands included.
     * @throws ParameterException naming the first path given as {@code -} that cannot take it.
     */
    static void check(final ParseResult parsed)
    {
        for (ParseResult command = parsed; null != command; command = command.subcommand())
        {
            for (final ArgSpec arg : command.matchedArgs())
            {
                if (isPath(arg) && arg.originalStringValues().contains(DASH) && !takesStdio(arg))
                {
                    throw new ParameterException(command.commandSpec().commandLine(), refusal(arg));
                }
            }
        }
    }

    /** @return the one-line reason, e.g. {@code --journal -: ...}. */
    static String refusal(final ArgSpec arg)
    {
        final String name = arg.isOption() ? ((OptionSpec)arg).longestName() + " -" : arg.paramLabel() + " -";
        final String what = "DIR".equals(arg.paramLabel()) ? "a directory" :
            "this " + arg.paramLabel().toLowerCase(java.util.Locale.ROOT);
        return name + ": " + what + " cannot be stdin or stdout; give its path (./- for one named -)";
    }

    private static boolean isPath(final ArgSpec arg)
    {
        return Path.class.equals(arg.type()) || (Collection.class.isAssignableFrom(arg.type()) &&
            Arrays.asList(arg.auxiliaryTypes()).contains(Path.class));
    }

    private static boolean takesStdio(final ArgSpec arg)
    {
        return arg.userObject() instanceof AnnotatedElement element && element.isAnnotationPresent(Stdio.class);
    }

    /** Runs {@link #check(ParseResult)}, then the command as picocli's default strategy does. */
    static final class Strategy implements CommandLine.IExecutionStrategy
    {
        private final CommandLine.IExecutionStrategy next = new CommandLine.RunLast();

        @Override
        public int execute(final ParseResult parsed)
        {
            check(parsed);
            return next.execute(parsed);
        }
    }
}
