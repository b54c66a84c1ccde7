package io.mdgate.systest;

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
 * Two network namespaces made for one test and removed by {@link #close()} even when it fails: the exchange side
 * ({@code mdg-<pid>-<tag>-ex}, where the simulator runs) and the gateway side ({@code mdg-<pid>-<tag>-gw}, where
 * the ingress runs), joined by two veth pairs:
 * <ul>
 *   <li>the <b>feed</b> pair carries both multicast lines; the DPDK ingress binds to its gateway end (af_xdp takes
 *   every frame of the queue away from the kernel, so nothing else may need that end), and loss is injected on
 *   its exchange end's egress;</li>
 *   <li>the <b>recovery</b> pair carries the re-requests and their answers (unicast UDP between kernel sockets),
 *   untouched by the loss rules and by the PMD, as a separate recovery path is in production.</li>
 * </ul>
 * Names carry the PID so parallel runs never collide. Processes started through {@link #start} are killed, by
 * PID, at close. Not thread-safe.
 */
final class FeedNamespaces implements AutoCloseable
{
    static final String EXCHANGE_FEED_ADDRESS = "10.97.0.1";
    static final String GATEWAY_FEED_ADDRESS = "10.97.0.2";
    static final String EXCHANGE_RECOVERY_ADDRESS = "10.97.1.1";
    static final String GATEWAY_RECOVERY_ADDRESS = "10.97.1.2";

    final String exchange;
    final String gateway;
    final String exchangeFeed;
    final String gatewayFeed;
    final String exchangeRecovery;
    final String gatewayRecovery;
    private final List<Process> processes = new ArrayList<>();
    private final List<String> namespaces = new ArrayList<>();

    private FeedNamespaces(final String tag)
    {
        final long pid = ProcessHandle.current().pid();
        exchange = "mdg-" + pid + "-" + tag + "-ex";
        gateway = "mdg-" + pid + "-" + tag + "-gw";
        exchangeFeed = "mdg" + pid + tag + "fe";
        gatewayFeed = "mdg" + pid + tag + "fg";
        exchangeRecovery = "mdg" + pid + tag + "re";
        gatewayRecovery = "mdg" + pid + tag + "rg";
    }

    /** Skips the calling test, printing why, when namespaces cannot be made here (not root, no iproute2). */
    static void assumeNamespaces()
    {
        try
        {
            if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")))
            {
                skip("network namespaces need root");
            }
            if (run(List.of("ip", "netns", "list"), 10) != 0)
            {
                skip("'ip netns' does not work here");
            }
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            skip("iproute2 is not installed or /proc is unreadable: " + ex.getMessage());
        }
    }

    static void skip(final String reason)
    {
        System.out.println("SKIPPED: " + reason);
        Assumptions.abort(reason);
    }

    /** Creates both namespaces, both veth pairs, their addresses, and a multicast route on the exchange side. */
    static FeedNamespaces create(final String tag) throws IOException
    {
        final FeedNamespaces net = new FeedNamespaces(tag);
        try
        {
            net.addNamespace(net.exchange);
            net.addNamespace(net.gateway);
            net.veth(net.exchangeFeed, EXCHANGE_FEED_ADDRESS, net.gatewayFeed, GATEWAY_FEED_ADDRESS);
            net.veth(net.exchangeRecovery, EXCHANGE_RECOVERY_ADDRESS, net.gatewayRecovery, GATEWAY_RECOVERY_ADDRESS);
            ip("-n", net.exchange, "link", "set", "lo", "up");
            ip("-n", net.gateway, "link", "set", "lo", "up");
            ip("-n", net.exchange, "route", "add", "224.0.0.0/4", "dev", net.exchangeFeed);
            return net;
        }
        catch (final IOException | RuntimeException ex)
        {
            net.close();
            throw ex;
        }
    }

    private void addNamespace(final String name) throws IOException
    {
        ip("netns", "add", name);
        namespaces.add(name);
    }

    private void veth(final String exchangeEnd, final String exchangeAddress, final String gatewayEnd,
        final String gatewayAddress) throws IOException
    {
        ip("link", "add", exchangeEnd, "type", "veth", "peer", "name", gatewayEnd);
        ip("link", "set", exchangeEnd, "netns", exchange);
        ip("link", "set", gatewayEnd, "netns", gateway);
        ip("-n", exchange, "addr", "add", exchangeAddress + "/24", "dev", exchangeEnd);
        ip("-n", gateway, "addr", "add", gatewayAddress + "/24", "dev", gatewayEnd);
        ip("-n", exchange, "link", "set", exchangeEnd, "up");
        ip("-n", gateway, "link", "set", gatewayEnd, "up");
    }

    /**
     * Starts {@code io.mdgate.app.Main} (the {@code mdgate} CLI) in a JVM of its own inside a namespace, with this
     * JVM's module flags and class path.
     *
     * @param output where its standard output goes; standard error goes next to it, with {@code .err}.
     */
    Process startMdgate(final String namespace, final List<String> arguments, final Path output) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace,
            Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (flag.startsWith("--add-") || flag.startsWith("-Dagrona") || flag.startsWith("-Dchronicle"))
            {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.mdgate.app.Main"));
        command.addAll(arguments);
        return start(command, output);
    }

    /** Starts a command; it is killed, by PID, at close. */
    Process start(final List<String> command, final Path output) throws IOException
    {
        final Process process = new ProcessBuilder(command)
            .redirectOutput(output.toFile())
            .redirectError(errorFile(output).toFile())
            .start();
        processes.add(process);
        return process;
    }

    static Path errorFile(final Path output)
    {
        return output.resolveSibling(output.getFileName() + ".err");
    }

    /** @return a process's output and standard error, for failure messages. */
    static String outputOf(final Path output)
    {
        try
        {
            final Path err = errorFile(output);
            return "stdout:\n" + (Files.exists(output) ? Files.readString(output) : "") + "\nstderr:\n" +
                (Files.exists(err) ? Files.readString(err) : "");
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    /** Kills the processes started here (by PID, descendants first), then deletes both namespaces and so the veths. */
    @Override
    public void close()
    {
        for (final Process process : processes)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
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
        for (final String namespace : namespaces)
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
        namespaces.clear();
    }

    /** @return whether a namespace of this name exists. */
    static boolean namespaceExists(final String namespace) throws IOException
    {
        final Process process = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        final String list = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return list.lines().anyMatch(line -> line.split(" ")[0].equals(namespace));
    }

    static void ip(final String... arguments) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(arguments));
        final int exit = run(command, 30);
        if (exit != 0)
        {
            throw new IOException(String.join(" ", command) + " exited with " + exit);
        }
    }

    /** Runs a command to its end; @return its exit code (its output goes to standard error when it failed). */
    static int run(final List<String> command, final int timeoutSeconds) throws IOException
    {
        return runForOutput(command, timeoutSeconds, new StringBuilder());
    }

    static int runForOutput(final List<String> command, final int timeoutSeconds, final StringBuilder output)
        throws IOException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " took more than " + timeoutSeconds + " s");
            }
            if (process.exitValue() != 0)
            {
                System.err.println(String.join(" ", command) + ": " + output.toString().strip());
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
