package io.mdgate.ingress;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two network namespaces joined by a veth pair, made for one test and removed by {@link #close()} even when the
 * test fails: {@code mdg-<pid>-<tag>-rx} holds {@link #rxInterface} (where the ingress runs) and
 * {@code mdg-<pid>-<tag>-tx} holds {@link #txInterface} (where the sender runs). Names carry the PID so parallel
 * runs never collide. Processes started through {@link #start} are killed, by PID, at close. Not thread-safe.
 */
final class NetnsVethPair implements AutoCloseable
{
    static final String TX_ADDRESS = "10.99.0.1";
    static final String RX_ADDRESS = "10.99.0.2";

    final String rxNamespace;
    final String txNamespace;
    final String rxInterface;
    final String txInterface;
    private final List<Process> processes = new ArrayList<>();
    private boolean rxCreated;
    private boolean txCreated;

    private NetnsVethPair(final String tag)
    {
        final long pid = ProcessHandle.current().pid();
        rxNamespace = "mdg-" + pid + "-" + tag + "-rx";
        txNamespace = "mdg-" + pid + "-" + tag + "-tx";
        rxInterface = "mdg" + pid + tag.charAt(0) + "r";
        txInterface = "mdg" + pid + tag.charAt(0) + "t";
    }

    /** Skips the calling test, saying why, when namespaces cannot be made here. */
    static void assumeNetns()
    {
        DpdkTests.assumeDpdk();
        try
        {
            if (run(List.of("ip", "netns", "list"), 10) != 0)
            {
                skip("'ip netns' does not work here");
            }
        }
        catch (final IOException ex)
        {
            skip("iproute2 is not installed: " + ex.getMessage());
        }
    }

    private static void skip(final String reason)
    {
        System.out.println("SKIPPED: " + reason);
        Assumptions.abort(reason);
    }

    /** Creates both namespaces, the veth pair, addresses and a multicast route on the sending side. */
    static NetnsVethPair create(final String tag) throws IOException
    {
        final NetnsVethPair pair = new NetnsVethPair(tag);
        try
        {
            pair.ip("netns", "add", pair.rxNamespace);
            pair.rxCreated = true;
            pair.ip("netns", "add", pair.txNamespace);
            pair.txCreated = true;
            pair.ip("link", "add", pair.rxInterface, "type", "veth", "peer", "name", pair.txInterface);
            pair.ip("link", "set", pair.rxInterface, "netns", pair.rxNamespace);
            pair.ip("link", "set", pair.txInterface, "netns", pair.txNamespace);
            pair.ip("-n", pair.rxNamespace, "addr", "add", RX_ADDRESS + "/24", "dev", pair.rxInterface);
            pair.ip("-n", pair.txNamespace, "addr", "add", TX_ADDRESS + "/24", "dev", pair.txInterface);
            pair.ip("-n", pair.rxNamespace, "link", "set", "lo", "up");
            pair.ip("-n", pair.txNamespace, "link", "set", "lo", "up");
            pair.ip("-n", pair.rxNamespace, "link", "set", pair.rxInterface, "up");
            pair.ip("-n", pair.txNamespace, "link", "set", pair.txInterface, "up");
            pair.ip("-n", pair.txNamespace, "route", "add", "224.0.0.0/4", "dev", pair.txInterface);
            return pair;
        }
        catch (final IOException | RuntimeException ex)
        {
            pair.close();
            throw ex;
        }
    }

    /**
     * Starts a Java main class of the test class path inside a namespace, with this JVM's module flags.
     *
     * @param output where its standard output goes (standard error goes next to it, with {@code .err}).
     */
    Process start(final String namespace, final Class<?> main, final List<String> arguments, final Path output)
        throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace,
            Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (flag.startsWith("--add-") || flag.startsWith("-Dagrona"))
            {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(arguments);
        final Process process = new ProcessBuilder(command)
            .redirectOutput(output.toFile())
            .redirectError(output.resolveSibling(output.getFileName() + ".err").toFile())
            .start();
        processes.add(process);
        return process;
    }

    /** @return the output a process wrote, and its standard error, for failure messages. */
    static String outputOf(final Path output)
    {
        try
        {
            final Path err = output.resolveSibling(output.getFileName() + ".err");
            return "stdout:\n" + (Files.exists(output) ? Files.readString(output) : "") + "\nstderr:\n" +
                (Files.exists(err) ? Files.readString(err) : "");
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    /** Kills the processes started here, then deletes both namespaces (which removes the veth pair). */
    @Override
    public void close()
    {
        for (final Process process : processes)
        {
            process.destroyForcibly();
        }
        for (final Process process : processes)
        {
            try
            {
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        deleteNamespace(rxCreated, rxNamespace);
        deleteNamespace(txCreated, txNamespace);
    }

    private static void deleteNamespace(final boolean created, final String namespace)
    {
        if (created)
        {
            try
            {
                run(List.of("ip", "netns", "del", namespace), 30);
            }
            catch (final IOException ex)
            {
                System.err.println("could not delete network namespace " + namespace + ": " + ex.getMessage());
            }
        }
    }

    /** @return whether a namespace of this name exists. */
    static boolean namespaceExists(final String namespace) throws IOException
    {
        final Process process = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        final String list = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return list.lines().anyMatch(line -> line.split(" ")[0].equals(namespace));
    }

    private void ip(final String... arguments) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(arguments));
        final int exit = run(command, 30);
        if (exit != 0)
        {
            throw new IOException(String.join(" ", command) + " exited with " + exit);
        }
    }

    private static int run(final List<String> command, final int timeoutSeconds) throws IOException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " took more than " + timeoutSeconds + " s");
            }
            if (process.exitValue() != 0)
            {
                System.err.println(String.join(" ", command) + ": " + output.strip());
            }
            return process.exitValue();
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), ex);
        }
    }
}
