package io.mdgate.runtime.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.Optional;

/**
 * Whether the answers of a MoldUDP64 re-request server can reach the kernel socket that asks for them, when a DPDK
 * port is an {@code net_af_xdp} device. They cannot when they come in on the interface af_xdp takes: its XDP
 * program sends every frame of the queue to the ingress, the server's answers and the ARP replies that resolve
 * the server's address included, and the ingress drops them (other destination, ARP); the kernel socket never
 * sees one, so every gap both lines lost stays open until it is declared lost. {@code net_af_packet} leaves the
 * kernel its copy and works.
 * <p>
 * The interface the answers come in on is taken to be the one the kernel sends the requests through: the one that
 * holds the source address the kernel picks for the server (a UDP {@code connect}, which sends nothing). So this
 * depends on the host, and on the network namespace, it runs in. Stateless; thread-safe.
 */
public final class RetransmitPath
{
    private static final String[] AF_XDP_DRIVERS = { "net_af_xdp", "eth_af_xdp" };

    private RetransmitPath()
    {
    }

    /**
     * @param devargs a DPDK device as {@code --vdev} takes it, e.g. {@code net_af_xdp0,iface=eth1,busy_budget=0}.
     * @return the interface an {@code net_af_xdp} device takes ({@code iface=}), empty for any other device.
     */
    public static Optional<String> afXdpInterface(final String devargs)
    {
        final String[] parts = devargs.split(",");
        final String name = parts[0].trim();
        boolean afXdp = false;
        for (final String driver : AF_XDP_DRIVERS)
        {
            afXdp |= name.startsWith(driver);
        }
        if (!afXdp)
        {
            return Optional.empty();
        }
        for (int i = 1; i < parts.length; i++)
        {
            final String part = parts[i].trim();
            if (part.startsWith("iface="))
            {
                return Optional.of(part.substring("iface=".length()));
            }
        }
        return Optional.empty();
    }

    /**
     * @param server the re-request server.
     * @return the interface the kernel sends to it through, empty when it has no route there (nothing to compare).
     */
    public static Optional<String> interfaceTowards(final InetSocketAddress server)
    {
        try (DatagramSocket socket = new DatagramSocket())
        {
            if (NetworkInterface.getByInetAddress(server.getAddress()) != null)
            {
                return loopback();
            }
            socket.connect(server);
            final InetAddress local = socket.getLocalAddress();
            if (local == null || local.isAnyLocalAddress())
            {
                return Optional.empty();
            }
            final NetworkInterface nic = NetworkInterface.getByInetAddress(local);
            return nic == null ? Optional.empty() : Optional.of(nic.getName());
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return Optional.empty();
        }
    }

    /** A server at one of this host's own addresses is reached through the loopback interface. */
    private static Optional<String> loopback() throws IOException
    {
        return NetworkInterface.networkInterfaces().filter(RetransmitPath::isLoopback).map(NetworkInterface::getName)
            .findFirst();
    }

    private static boolean isLoopback(final NetworkInterface nic)
    {
        try
        {
            return nic.isLoopback();
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /**
     * @param devargs the DPDK device of a port that receives a line.
     * @param server  the re-request server.
     * @return why the pair cannot work and what would, or empty when it can (not af_xdp, or the server is reached
     * through another interface, or not reached at all).
     */
    public static Optional<String> refusal(final String devargs, final InetSocketAddress server)
    {
        final Optional<String> taken = afXdpInterface(devargs);
        if (taken.isEmpty())
        {
            return Optional.empty();
        }
        final Optional<String> towards = interfaceTowards(server);
        if (towards.isEmpty() || !towards.get().equals(taken.get()))
        {
            return Optional.empty();
        }
        final String name = devargs.split(",")[0].trim();
        final String index = name.replaceAll("^[a-z_]*", "");
        return Optional.of("re-requests to " + server.getAddress().getHostAddress() + ":" + server.getPort() +
            " go out on " + taken.get() + ", the interface " + name + " takes with af_xdp, so the answers (and ARP " +
            "replies) would reach the ingress instead of the re-request socket and no gap would be filled; receive " +
            "that port with af_packet (net_af_packet" + index + ",iface=" + taken.get() + ") or reach the " +
            "re-request server through another interface");
    }
}
