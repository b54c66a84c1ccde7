package io.mdgate.app.demo;

import io.mdgate.app.run.RunCommand;
import io.mdgate.app.sim.SimCommand;
import picocli.CommandLine;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The entry point of the demo's child processes ({@code java ... DemoLauncher sim|run ARGS}): runs one command by
 * name in a fresh JVM, whatever the commands of the main command line are, and exits with its code. Also builds
 * that Java command line from the running JVM (same java, class path and JVM flags). Used once per process.
 */
public final class DemoLauncher
{
    private static final Map<String, Supplier<Callable<Integer>>> COMMANDS = Map.of(
        "sim", SimCommand::new,
        "run", RunCommand::new);

    private DemoLauncher()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length == 0 || !COMMANDS.containsKey(args[0]))
        {
            System.err.println("DemoLauncher: first argument must be one of " + COMMANDS.keySet());
            System.exit(2);
        }
        final String[] rest = new String[args.length - 1];
        System.arraycopy(args, 1, rest, 0, rest.length);
        System.exit(new CommandLine(COMMANDS.get(args[0]).get()).execute(rest));
    }

    /**
     * @param command   {@code sim} or {@code run}.
     * @param arguments its arguments.
     * @return the command line of a JVM like this one running that command.
     */
    public static List<String> javaCommand(final String command, final List<String> arguments)
    {
        final List<String> line = new ArrayList<>();
        line.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin",
            "java").toString()));
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (!flag.startsWith("-agentlib:jdwp") && !flag.startsWith("-javaagent"))
            {
                line.add(flag);
            }
        }
        line.add("-cp");
        line.add(absoluteClassPath());
        line.add(DemoLauncher.class.getName());
        line.add(command);
        line.addAll(arguments);
        return line;
    }

    private static String absoluteClassPath()
    {
        final List<String> entries = new ArrayList<>();
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator))
        {
            if (!entry.isEmpty())
            {
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
