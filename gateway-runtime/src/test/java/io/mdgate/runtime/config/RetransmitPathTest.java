package io.mdgate.runtime.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * af_xdp on the interface the re-requests go out on is refused by the configuration check, before anything starts
 * (gateway-app's {@code RunRetransmitPathTest}: {@code mdgate run} exits with a usage error); af_packet there, or
 * af_xdp elsewhere, is not. The loopback interface stands for the shared interface: 127.0.0.1 is always reached
 * through it.
 */
public class RetransmitPathTest
{
    private static final InetSocketAddress LOCAL_SERVER = new InetSocketAddress("127.0.0.1", 26478);
    /** The interface 127.0.0.1 is reached through. */
    public static final String LOOPBACK = loopbackName();

    private static final String CONFIG = """
        [gateway]
        name = "xdp-test"
        counters_file = "COUNTERS"

        [feed]
        retransmit = "127.0.0.1:26478"

        [[feed.lines]]
        name = "A"
        group = "233.54.12.111"
        port = 26477

        [[ports]]
        name = "p0"
        driver = "dpdk"
        vdev = "VDEV"

        [[cores]]
        cpu = 0
        agents = ["ingress:p0:0", "session", "journal", "egress", "housekeeping"]
        idle = "sleep:1ms"
        """;

    @TempDir
    Path dir;

    @Test
    void shouldNameTheInterfaceOfAnAfXdpDeviceOnly()
    {
        assertEquals(Optional.of("eth1"), RetransmitPath.afXdpInterface("net_af_xdp0,iface=eth1,busy_budget=0"));
        assertEquals(Optional.of("eth1"), RetransmitPath.afXdpInterface("net_af_xdp3,start_queue=0,iface=eth1"));
        assertEquals(Optional.empty(), RetransmitPath.afXdpInterface("net_af_packet0,iface=eth1"));
        assertEquals(Optional.empty(), RetransmitPath.afXdpInterface("net_pcap0,rx_pcap=/tmp/x.pcap"));
    }

    @Test
    void shouldRefuseAfXdpOnTheInterfaceTheServerIsReachedThroughAndSayWhatWouldWork()
    {
        final Optional<String> why = RetransmitPath.refusal("net_af_xdp0,iface=" + LOOPBACK, LOCAL_SERVER);
        assertTrue(why.isPresent());
        assertTrue(why.get().startsWith("re-requests to 127.0.0.1:26478 go out on " + LOOPBACK +
            ", the interface net_af_xdp0 takes with af_xdp"), why.get());
        assertTrue(why.get().contains("af_packet (net_af_packet0,iface=" + LOOPBACK + ")"), why.get());
        assertTrue(why.get().contains("through another interface"), why.get());
    }

    @Test
    void shouldAcceptAfPacketThereAndAfXdpOnAnotherInterface()
    {
        assertEquals(Optional.empty(), RetransmitPath.refusal("net_af_packet0,iface=" + LOOPBACK, LOCAL_SERVER));
        assertEquals(Optional.empty(), RetransmitPath.refusal("net_af_xdp0,iface=mdg-feed9", LOCAL_SERVER));
        assertEquals(Optional.empty(), RetransmitPath.refusal("net_pcap0,rx_pcap=/tmp/x.pcap", LOCAL_SERVER));
    }

    @Test
    void shouldListTheRefusalAsAProblemOfTheConfiguration()
    {
        final ConfigException ex = ConfigLoaderTest.problems(config("net_af_xdp0,iface=" + LOOPBACK));
        assertEquals(1, ex.problems().size(), ex.getMessage());
        assertTrue(ex.problems().get(0).startsWith("feed.retransmit: port 'p0': re-requests to 127.0.0.1:26478 " +
            "go out on " + LOOPBACK), ex.getMessage());

        assertEquals("net_af_packet0,iface=" + LOOPBACK,
            ConfigLoader.parse(config("net_af_packet0,iface=" + LOOPBACK)).ports().get(0).vdev());
        assertTrue(ConfigLoader.parse(config("net_af_xdp0,iface=" + LOOPBACK).replace(
            "retransmit = \"127.0.0.1:26478\"\n", "")).feed().retransmit().isEmpty(), "no re-requests, no refusal");
    }

    private String config(final String vdev)
    {
        return config(dir, vdev);
    }

    /**
     * @return a gateway whose port p0 is the DPDK device {@code vdev} and whose re-requests go to 127.0.0.1:26478,
     *         its counters file {@code dir/counters}.
     */
    public static String config(final Path dir, final String vdev)
    {
        return CONFIG.replace("VDEV", vdev).replace("COUNTERS", dir.resolve("counters").toString());
    }

    private static String loopbackName()
    {
        try
        {
            return java.net.NetworkInterface.getByInetAddress(java.net.InetAddress.getByName("127.0.0.1")).getName();
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
