package io.mdgate.app.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo's network: two namespaces, the exchange side and the gateway side, joined by one veth pair, named with
 * a per-run suffix so that parallel runs never meet. The exchange side routes multicast out of its veth; the
 * gateway side has an address so that re-requests reach the exchange's re-request server. {@link #close()} deletes
 * both namespaces (their veth ends go with them) and is safe to call more than once. Thread-safe.
 */
public final class DemoNetwork implements AutoCloseable
{
    /** Exchange (simulator) side address. */
    public static final String EXCHANGE_ADDRESS = "10.79.0.1";
    /** Gateway side address. */
    public static final String GATEWAY_ADDRESS = "10.79.0.2";

    private final String exchangeNamespace;
    private final String gatewayNamespace;
    private final String exchangeInterface;
    private final String gatewayInterface;
    private final List<String> created = new ArrayList<>();

    private DemoNetwork(final String suffix)
    {
        this.exchangeNamespace = "mdg-" + suffix + "-ex";
        this.gatewayNamespace = "mdg-" + suffix + "-gw";
        // interface names are at most 15 characters
        final String shortSuffix = suffix.length() > 9 ? suffix.substring(suffix.length() - 9) : suffix;
        this.exchangeInterface = "mdg" + shortSuffix + "x";
        this.gatewayInterface = "mdg" + shortSuffix + "g";
    }

    /**
     * @return null when namespaces can be made here, else why not (not root, no {@code ip} command).
     */
    public static String unavailableReason()
    {
        if (!"root".equals(System.getProperty("user.name")))
        {
            return "not root (network namespaces need root)";
        }
        try
        {
            run(List.of("ip", "netns", "list"));
            return null;
        }
        catch (final RuntimeException ex)
        {
            return "'ip netns' does not work here: " + ex.getMessage();
        }
    }

    /**
     * Creates both namespaces and the veth pair; on any failure removes what it made.
     *
     * @param suffix per-run unique suffix, letters and digits (e.g. the PID).
     * @return the network.
     * @throws IllegalStateException when a command fails, with its output.
     */
    public static DemoNetwork create(final String suffix)
    {
        if (!suffix.matches("[A-Za-z0-9]{1,12}"))
        {
            throw new IllegalArgumentException("namespace suffix must be 1 to 12 letters or digits, was '" + suffix + "'");
        }
        final DemoNetwork network = new DemoNetwork(suffix);
        try
        {
            network.build();
            return network;
        }
        catch (final RuntimeException ex)
        {
            network.close();
            throw ex;
        }
    }

    private void build()
    {
        namespace(exchangeNamespace);
        namespace(gatewayNamespace);
        run(List.of("ip", "link", "add", exchangeInterface, "type", "veth", "peer", "name", gatewayInterface));
        run(List.of("ip", "link", "set", exchangeInterface, "netns", exchangeNamespace));
        run(List.of("ip", "link", "set", gatewayInterface, "netns", gatewayNamespace));
        run(List.of("ip", "-n", exchangeNamespace, "addr", "add", EXCHANGE_ADDRESS + "/24", "dev", exchangeInterface));
        run(List.of("ip", "-n", gatewayNamespace, "addr", "add", GATEWAY_ADDRESS + "/24", "dev", gatewayInterface));
        for (final String[] end : new String[][] {
            { exchangeNamespace, exchangeInterface }, { gatewayNamespace, gatewayInterface } })
        {
            run(List.of("ip", "-n", end[0], "link", "set", "lo", "up"));
            run(List.of("ip", "-n", end[0], "link", "set", end[1], "up"));
        }
        run(List.of("ip", "-n", exchangeNamespace, "route", "add", "224.0.0.0/4", "dev", exchangeInterface));
        run(List.of("ip", "-n", gatewayNamespace, "route", "add", "224.0.0.0/4", "dev", gatewayInterface));
    }

    private synchronized void namespace(final String name)
    {
        run(List.of("ip", "netns", "add", name));
        created.add(name);
    }

    /**
     * @param namespace {@link #exchangeNamespace()} or {@link #gatewayNamespace()}.
     * @param command   program and arguments.
     * @return the command run inside the namespace ({@code ip netns exec} replaces itself with the program, so the
     *         started process's PID is the program's).
     */
    public static List<String> inside(final String namespace, final List<String> command)
    {
        final List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        wrapped.addAll(command);
        return wrapped;
    }

    /** @return the namespace of the simulated exchange. */
    public String exchangeNamespace()
    {
        return exchangeNamespace;
    }

    /** @return the namespace of the gateway. */
    public String gatewayNamespace()
    {
        return gatewayNamespace;
    }

    /** @return the exchange's veth end (inside its namespace). */
    public String exchangeInterface()
    {
        return exchangeInterface;
    }

    /** @return the gateway's veth end (inside its namespace). */
    public String gatewayInterface()
    {
        return gatewayInterface;
    }

    /**
     * Deletes the namespaces this network made (the veth pair goes with them).
     */
    @Override
    public synchronized void close()
    {
        for (int i = created.size() - 1; i >= 0; i--)
        {
            try
            {
                run(List.of("ip", "netns", "del", created.get(i)));
            }
            catch (final RuntimeException ignored)
            {
                // already gone: nothing left to clean
            }
        }
        created.clear();
    }

    /**
     * @param name a namespace name.
     * @return whether it exists now.
     */
    public static boolean exists(final String name)
    {
        return run(List.of("ip", "netns", "list")).lines().anyMatch(l -> l.split(" ")[0].equals(name));
    }

    static String run(final List<String> command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in 10 s");
            }
            if (process.exitValue() != 0)
            {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() +
                    "): " + output.trim());
            }
            return output;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + command.get(0) + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", command) + " interrupted", ex);
        }
    }
}
