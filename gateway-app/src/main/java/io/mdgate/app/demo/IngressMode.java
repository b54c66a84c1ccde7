package io.mdgate.app.demo;

/**
 * How the demo's gateway receives the lines, chosen once at start and said on the dashboard.
 */
public enum IngressMode
{
    /** Root: namespaces and the DPDK af_packet poll-mode driver on the gateway's veth. */
    NETNS_DPDK("DPDK net_af_packet on a veth between two network namespaces"),
    /** Root, but the DPDK library is unavailable: namespaces and kernel sockets. */
    NETNS_SOCKET("kernel-socket ingress on a veth between two network namespaces"),
    /** Not root: kernel sockets joined on the loopback interface, no namespaces. */
    LOOPBACK_SOCKET("kernel-socket ingress on the loopback interface (no namespaces: not root)");

    private final String description;

    IngressMode(final String description)
    {
        this.description = description;
    }

    /** @return what it is, for people. */
    public String description()
    {
        return description;
    }

    /** @return whether it runs in namespaces. */
    public boolean namespaces()
    {
        return this != LOOPBACK_SOCKET;
    }
}
