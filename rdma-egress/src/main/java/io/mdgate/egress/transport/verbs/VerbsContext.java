package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.shm.HugepageMode;
import org.agrona.concurrent.status.AtomicCounter;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

/**
 * Settings of the {@code verbs} transport, with defaults, checked once by {@link #conclude()}. Publisher and
 * consumers must agree on the control address and the multicast group.
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>what it is</th></tr>
 *   <tr><td>device</td><td>the first RDMA device</td><td>RDMA device name, e.g. {@code rxe0} or {@code mlx5_0}</td></tr>
 *   <tr><td>port</td><td>1</td><td>the device's port</td></tr>
 *   <tr><td>controlAddress</td><td>none (required)</td><td>{@code IPV4:PORT} of the publisher's RDMA-CM listener
 *       on the device's interface: the publisher listens there, consumers connect there</td></tr>
 *   <tr><td>multicastGroup</td><td>239.77.0.0</td><td>base IPv4 group; stream {@code s} uses base + s</td></tr>
 *   <tr><td>localAddress</td><td>none</td><td>IPv4 address joining the group; default: the control address (the
 *       publisher) or the local end of the control connection (a consumer)</td></tr>
 *   <tr><td>mtu</td><td>4096</td><td>largest multicast datagram asked for; the port's active MTU caps it</td></tr>
 *   <tr><td>controlMessageLength</td><td>4096</td><td>largest control message, 256..4096</td></tr>
 *   <tr><td>sendQueueDepth</td><td>512</td><td>work requests per send queue</td></tr>
 *   <tr><td>controlReceiveBuffers</td><td>256</td><td>receives posted per control connection</td></tr>
 *   <tr><td>streamReceiveBuffers</td><td>2048</td><td>receives posted per multicast subscription</td></tr>
 *   <tr><td>sendRingBytes</td><td>1 MiB</td><td>registered bytes per send queue for copied payloads</td></tr>
 *   <tr><td>setupTimeoutMillis</td><td>5000</td><td>bound of every RDMA-CM step (resolve, route, join)</td></tr>
 *   <tr><td>rc</td><td>{@link Rc#DISNI}</td><td>which library drives the RC control connections and RDMA Writes:
 *       DiSNI's Java verbs API, or the project's own {@code libmdgate-verbs}; UD multicast is always the latter's
 *       (DiSNI cannot express address handles or group joins)</td></tr>
 *   <tr><td>hugepages</td><td>OFF</td><td>registered regions of 1 MiB and more on 2 MiB pages: AUTO when the host
 *       has them free (else regular pages, counted and warned once), REQUIRED or refuse, OFF</td></tr>
 *   <tr><td>hugepageFallbackCounter</td><td>none</td><td>counts regions put on regular pages despite AUTO</td></tr>
 *   <tr><td>minimumMemlockBytes</td><td>64 MiB</td><td>refuse to start below this locked-memory limit (unless
 *       the process may lock memory anyway: CAP_IPC_LOCK)</td></tr>
 * </table>
 * Not thread-safe: set up on one thread before use.
 */
public final class VerbsContext
{
    public static final int DEFAULT_MTU = 4096;

    /** The library of the RC path (control connections and RDMA Writes). */
    public enum Rc
    {
        /** DiSNI's verbs API ({@code RdmaCmId}, {@code IbvPd}, {@code IbvMr}, {@code IbvQP}, stateful calls). */
        DISNI,
        /** The project's own JNI library, {@code libmdgate-verbs}: one native call per post or poll. */
        NATIVE;

        /**
         * @return the library named {@code disni} or {@code native}.
         * @throws IllegalArgumentException for anything else, saying what would be right.
         */
        public static Rc of(final String text)
        {
            for (final Rc rc : values())
            {
                if (rc.name().equalsIgnoreCase(text))
                {
                    return rc;
                }
            }
            throw new IllegalArgumentException("the RC library must be \"disni\" (the default) or \"native\", was '" +
                text + "'");
        }

        @Override
        public String toString()
        {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
    public static final String DEFAULT_MULTICAST_GROUP = "239.77.0.0";

    private String device;
    private int port = 1;
    private String controlAddress;
    private String multicastGroup = DEFAULT_MULTICAST_GROUP;
    private String localAddress;
    private int mtu = DEFAULT_MTU;
    private int controlMessageLength = 4096;
    private int sendQueueDepth = 512;
    private int controlReceiveBuffers = 256;
    private int streamReceiveBuffers = 2048;
    private int sendRingBytes = 1 << 20;
    private long setupTimeoutMillis = 5000;
    private long minimumMemlockBytes = 64L << 20;
    private Rc rc = Rc.DISNI;
    private HugepageMode hugepages = HugepageMode.OFF;
    private AtomicCounter hugepageFallbackCounter;

    private String controlHost;
    private int controlPort;

    /**
     * @return this, checked.
     * @throws IllegalArgumentException saying what is wrong and what would be right.
     */
    public VerbsContext conclude()
    {
        if (null == controlAddress || controlAddress.isBlank())
        {
            throw new IllegalArgumentException("the verbs transport needs the control address IPV4:PORT of the " +
                "publisher on the RDMA interface (--rdma-address), e.g. 10.77.0.1:7471");
        }
        final int colon = controlAddress.lastIndexOf(':');
        if (colon <= 0)
        {
            throw new IllegalArgumentException("control address '" + controlAddress + "' must be IPV4:PORT, " +
                "e.g. 10.77.0.1:7471");
        }
        controlHost = requireIpv4(controlAddress.substring(0, colon), "control address");
        try
        {
            controlPort = Integer.parseInt(controlAddress.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            controlPort = -1;
        }
        if (controlPort < 1 || controlPort > 65535)
        {
            throw new IllegalArgumentException("control address '" + controlAddress + "' needs a port 1..65535");
        }
        final String group = requireIpv4(multicastGroup, "multicast group");
        if (!ipv4(group).isMulticastAddress())
        {
            throw new IllegalArgumentException("multicast group " + group + " is not an IPv4 multicast address " +
                "(224.0.0.0/4); use for example " + DEFAULT_MULTICAST_GROUP);
        }
        if (null != localAddress)
        {
            requireIpv4(localAddress, "local address");
        }
        if (port < 1 || port > 255)
        {
            throw new IllegalArgumentException("device port must be 1..255, was " + port);
        }
        if (mtu < 256 || mtu > 4096)
        {
            throw new IllegalArgumentException("mtu must be 256..4096 for UD multicast, was " + mtu);
        }
        if (controlMessageLength < 256 || controlMessageLength > 4096)
        {
            throw new IllegalArgumentException("controlMessageLength must be 256..4096, was " + controlMessageLength);
        }
        if (sendQueueDepth < 64 || sendQueueDepth > 16384)
        {
            throw new IllegalArgumentException("sendQueueDepth must be 64..16384, was " + sendQueueDepth);
        }
        if (controlReceiveBuffers < 16 || streamReceiveBuffers < 16)
        {
            throw new IllegalArgumentException("receive buffers must be at least 16");
        }
        if (sendRingBytes < (64 << 10) || Integer.bitCount(sendRingBytes) != 1)
        {
            throw new IllegalArgumentException("sendRingBytes must be a power of two of at least 65536, was " +
                sendRingBytes);
        }
        if (null == rc || null == hugepages)
        {
            throw new IllegalArgumentException("rc (disni or native) and hugepages (auto, off or required) must be set");
        }
        if (setupTimeoutMillis < 1 || setupTimeoutMillis > TimeUnit.MINUTES.toMillis(10))
        {
            throw new IllegalArgumentException("setupTimeoutMillis must be 1..600000, was " + setupTimeoutMillis);
        }
        return this;
    }

    private static String requireIpv4(final String text, final String what)
    {
        if (null == text || !text.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}"))
        {
            throw new IllegalArgumentException(what + " '" + text + "' must be a dotted IPv4 address");
        }
        ipv4(text);
        return text;
    }

    private static InetAddress ipv4(final String text)
    {
        try
        {
            final InetAddress address = InetAddress.getByName(text);
            if (!(address instanceof Inet4Address))
            {
                throw new IllegalArgumentException("'" + text + "' is not an IPv4 address");
            }
            return address;
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 address", ex);
        }
    }

    /**
     * @return the group of stream {@code streamId}: the base group plus the id.
     */
    String groupOf(final int streamId)
    {
        final byte[] base = ipv4(multicastGroup).getAddress();
        final int value = ((base[0] & 0xFF) << 24 | (base[1] & 0xFF) << 16 | (base[2] & 0xFF) << 8 | base[3] & 0xFF) +
            streamId;
        return (value >>> 24) + "." + (value >>> 16 & 0xFF) + "." + (value >>> 8 & 0xFF) + "." + (value & 0xFF);
    }

    String controlHost()
    {
        return controlHost;
    }

    int controlPort()
    {
        return controlPort;
    }

    public String device()
    {
        return device;
    }

    public VerbsContext device(final String device)
    {
        this.device = device;
        return this;
    }

    public int port()
    {
        return port;
    }

    public VerbsContext port(final int port)
    {
        this.port = port;
        return this;
    }

    public String controlAddress()
    {
        return controlAddress;
    }

    public VerbsContext controlAddress(final String controlAddress)
    {
        this.controlAddress = controlAddress;
        return this;
    }

    public String multicastGroup()
    {
        return multicastGroup;
    }

    public VerbsContext multicastGroup(final String multicastGroup)
    {
        this.multicastGroup = multicastGroup;
        return this;
    }

    public String localAddress()
    {
        return localAddress;
    }

    public VerbsContext localAddress(final String localAddress)
    {
        this.localAddress = localAddress;
        return this;
    }

    public int mtu()
    {
        return mtu;
    }

    public VerbsContext mtu(final int mtu)
    {
        this.mtu = mtu;
        return this;
    }

    public int controlMessageLength()
    {
        return controlMessageLength;
    }

    public VerbsContext controlMessageLength(final int controlMessageLength)
    {
        this.controlMessageLength = controlMessageLength;
        return this;
    }

    public int sendQueueDepth()
    {
        return sendQueueDepth;
    }

    public VerbsContext sendQueueDepth(final int sendQueueDepth)
    {
        this.sendQueueDepth = sendQueueDepth;
        return this;
    }

    public int controlReceiveBuffers()
    {
        return controlReceiveBuffers;
    }

    public VerbsContext controlReceiveBuffers(final int controlReceiveBuffers)
    {
        this.controlReceiveBuffers = controlReceiveBuffers;
        return this;
    }

    public int streamReceiveBuffers()
    {
        return streamReceiveBuffers;
    }

    public VerbsContext streamReceiveBuffers(final int streamReceiveBuffers)
    {
        this.streamReceiveBuffers = streamReceiveBuffers;
        return this;
    }

    public int sendRingBytes()
    {
        return sendRingBytes;
    }

    public VerbsContext sendRingBytes(final int sendRingBytes)
    {
        this.sendRingBytes = sendRingBytes;
        return this;
    }

    public long setupTimeoutMillis()
    {
        return setupTimeoutMillis;
    }

    public VerbsContext setupTimeoutMillis(final long setupTimeoutMillis)
    {
        this.setupTimeoutMillis = setupTimeoutMillis;
        return this;
    }

    public long minimumMemlockBytes()
    {
        return minimumMemlockBytes;
    }

    public VerbsContext minimumMemlockBytes(final long minimumMemlockBytes)
    {
        this.minimumMemlockBytes = minimumMemlockBytes;
        return this;
    }

    public Rc rc()
    {
        return rc;
    }

    public VerbsContext rc(final Rc rc)
    {
        this.rc = rc;
        return this;
    }

    public HugepageMode hugepages()
    {
        return hugepages;
    }

    public VerbsContext hugepages(final HugepageMode hugepages)
    {
        this.hugepages = hugepages;
        return this;
    }

    public AtomicCounter hugepageFallbackCounter()
    {
        return hugepageFallbackCounter;
    }

    public VerbsContext hugepageFallbackCounter(final AtomicCounter hugepageFallbackCounter)
    {
        this.hugepageFallbackCounter = hugepageFallbackCounter;
        return this;
    }
}
