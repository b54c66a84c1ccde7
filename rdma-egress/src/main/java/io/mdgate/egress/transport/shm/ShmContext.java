package io.mdgate.egress.transport.shm;

import io.mdgate.egress.EventLog;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Settings of the {@code shm} transport, with defaults, checked once by {@link #conclude()}. Publisher and consumers
 * must agree on directory and instance; the stream's MTU and slots are the publisher's and consumers read them from
 * the log.
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>what it is</th></tr>
 *   <tr><td>directory</td><td>/dev/shm</td><td>where the files and the control socket live (a tmpfs)</td></tr>
 *   <tr><td>hugepages</td><td>OFF</td><td>whether files go on a hugetlbfs mount of 2 MiB pages: AUTO when there is
 *       one with free pages (else regular pages, counted and warned), REQUIRED or refuse to start, OFF</td></tr>
 *   <tr><td>hugepageDirectory</td><td>the first 2 MiB hugetlbfs mount</td><td>where hugepage files go</td></tr>
 *   <tr><td>hugepageFallbackCounter</td><td>none</td><td>counts files put on regular pages despite AUTO</td></tr>
 *   <tr><td>eventLog</td><td>standard error</td><td>where the fallback's warning goes</td></tr>
 *   <tr><td>instance</td><td>mdgate</td><td>prefix of every file; one per publisher on a host</td></tr>
 *   <tr><td>group</td><td>none</td><td>group given read-write access to the files (others never have any)</td></tr>
 *   <tr><td>mtu</td><td>4096</td><td>largest multicast datagram, 128..65536 bytes</td></tr>
 *   <tr><td>streamSlots</td><td>4096</td><td>datagrams the broadcast log holds (power of two)</td></tr>
 *   <tr><td>controlMessageLength</td><td>4096</td><td>largest control message</td></tr>
 *   <tr><td>controlQueueLength</td><td>1 MiB</td><td>bytes queued per established control connection and
 *       direction (the publisher reserves them per session at start)</td></tr>
 *   <tr><td>maxPendingConnections</td><td>64</td><td>connections that may wait for their first message at the
 *       publisher; one more closes the oldest waiting</td></tr>
 *   <tr><td>helloTimeoutNanos</td><td>1 s</td><td>a connection whose first message (HELLO) has not arrived in this
 *       time is closed</td></tr>
 * </table>
 * Not thread-safe: set up on one thread before use.
 */
public final class ShmContext
{
    public static final Path DEFAULT_DIRECTORY = Path.of("/dev/shm");
    public static final String DEFAULT_INSTANCE = "mdgate";
    public static final int DEFAULT_MTU = 4096;
    public static final int MIN_MTU = 128;
    public static final int MAX_MTU = 65536;
    public static final int DEFAULT_STREAM_SLOTS = 4096;
    public static final int DEFAULT_CONTROL_MESSAGE_LENGTH = 4096;
    public static final int DEFAULT_CONTROL_QUEUE_LENGTH = 1 << 20;
    public static final int DEFAULT_MAX_PENDING_CONNECTIONS = 64;
    public static final long DEFAULT_HELLO_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private Path directory = DEFAULT_DIRECTORY;
    private HugepageMode hugepages = HugepageMode.OFF;
    private Path hugepageDirectory;
    private AtomicCounter hugepageFallbackCounter;
    private EventLog eventLog = EventLog.STDERR;
    private Path mountsFile = HugetlbfsMounts.PROC_MOUNTS;
    private Path freePagesFile = HugetlbfsMounts.FREE_PAGES;
    private String instance = DEFAULT_INSTANCE;
    private String group;
    private int mtu = DEFAULT_MTU;
    private int streamSlots = DEFAULT_STREAM_SLOTS;
    private int controlMessageLength = DEFAULT_CONTROL_MESSAGE_LENGTH;
    private int controlQueueLength = DEFAULT_CONTROL_QUEUE_LENGTH;
    private int maxPendingConnections = DEFAULT_MAX_PENDING_CONNECTIONS;
    private long helloTimeoutNanos = DEFAULT_HELLO_TIMEOUT_NANOS;

    /**
     * @return this, checked.
     * @throws IllegalArgumentException saying what is wrong and what would be right.
     */
    public ShmContext conclude()
    {
        if (null == directory || !Files.isDirectory(directory))
        {
            throw new IllegalArgumentException("shm directory " + directory + " is not a directory; give an " +
                "existing tmpfs directory such as /dev/shm");
        }
        if (null == hugepages || null == eventLog)
        {
            throw new IllegalArgumentException("hugepages and eventLog must be set (AUTO, OFF or REQUIRED; a log)");
        }
        if (null == instance || !instance.matches("[A-Za-z0-9._-]{1,40}"))
        {
            throw new IllegalArgumentException("shm instance '" + instance + "' must be 1 to 40 letters, digits, " +
                "'.', '_' or '-'");
        }
        if (directory.resolve(instance + "-control.sock").toString().length() > 100)
        {
            throw new IllegalArgumentException("the control socket path under " + directory + " would be longer " +
                "than a Unix socket allows (about 100 bytes); use a shorter directory or instance");
        }
        if (mtu < MIN_MTU || mtu > MAX_MTU)
        {
            throw new IllegalArgumentException("mtu must be between " + MIN_MTU + " and " + MAX_MTU + ", was " + mtu);
        }
        if (streamSlots < 16 || Integer.bitCount(streamSlots) != 1 || streamSlots > (1 << 20))
        {
            throw new IllegalArgumentException(
                "streamSlots must be a power of two between 16 and 1048576, was " + streamSlots);
        }
        if (controlMessageLength < 256 || controlMessageLength > MAX_MTU)
        {
            throw new IllegalArgumentException(
                "controlMessageLength must be between 256 and " + MAX_MTU + ", was " + controlMessageLength);
        }
        if (controlQueueLength < 4 * (controlMessageLength + UnixControlChannel.FRAME_HEADER_LENGTH))
        {
            throw new IllegalArgumentException("controlQueueLength must hold at least four control messages (" +
                4 * (controlMessageLength + UnixControlChannel.FRAME_HEADER_LENGTH) + " bytes), was " +
                controlQueueLength);
        }
        if (maxPendingConnections < 1 || maxPendingConnections > 4096)
        {
            throw new IllegalArgumentException(
                "maxPendingConnections must be between 1 and 4096, was " + maxPendingConnections);
        }
        if (helloTimeoutNanos < TimeUnit.MILLISECONDS.toNanos(10) || helloTimeoutNanos > TimeUnit.MINUTES.toNanos(1))
        {
            throw new IllegalArgumentException(
                "helloTimeoutNanos must be between 10 ms and 1 min, was " + helloTimeoutNanos + " ns");
        }
        return this;
    }

    public Path directory()
    {
        return directory;
    }

    public ShmContext directory(final Path directory)
    {
        this.directory = directory;
        return this;
    }

    public HugepageMode hugepages()
    {
        return hugepages;
    }

    public ShmContext hugepages(final HugepageMode hugepages)
    {
        this.hugepages = hugepages;
        return this;
    }

    /** @return the hugetlbfs directory configured, or null for the first 2 MiB hugetlbfs mount. */
    public Path hugepageDirectory()
    {
        return hugepageDirectory;
    }

    public ShmContext hugepageDirectory(final Path hugepageDirectory)
    {
        this.hugepageDirectory = hugepageDirectory;
        return this;
    }

    /** @return the counter of files put on regular pages although hugepages were asked for, or null. */
    public AtomicCounter hugepageFallbackCounter()
    {
        return hugepageFallbackCounter;
    }

    public ShmContext hugepageFallbackCounter(final AtomicCounter hugepageFallbackCounter)
    {
        this.hugepageFallbackCounter = hugepageFallbackCounter;
        return this;
    }

    public EventLog eventLog()
    {
        return eventLog;
    }

    public ShmContext eventLog(final EventLog eventLog)
    {
        this.eventLog = eventLog;
        return this;
    }

    Path mountsFile()
    {
        return mountsFile;
    }

    /** For tests: the mount table read instead of {@code /proc/mounts}. */
    ShmContext mountsFile(final Path mountsFile)
    {
        this.mountsFile = mountsFile;
        return this;
    }

    Path freePagesFile()
    {
        return freePagesFile;
    }

    public String instance()
    {
        return instance;
    }

    public ShmContext instance(final String instance)
    {
        this.instance = instance;
        return this;
    }

    /** @return the group given access, or null for the process's own group. */
    public String group()
    {
        return group;
    }

    public ShmContext group(final String group)
    {
        this.group = group;
        return this;
    }

    public int mtu()
    {
        return mtu;
    }

    public ShmContext mtu(final int mtu)
    {
        this.mtu = mtu;
        return this;
    }

    public int streamSlots()
    {
        return streamSlots;
    }

    public ShmContext streamSlots(final int streamSlots)
    {
        this.streamSlots = streamSlots;
        return this;
    }

    public int controlMessageLength()
    {
        return controlMessageLength;
    }

    public ShmContext controlMessageLength(final int controlMessageLength)
    {
        this.controlMessageLength = controlMessageLength;
        return this;
    }

    public int controlQueueLength()
    {
        return controlQueueLength;
    }

    public ShmContext controlQueueLength(final int controlQueueLength)
    {
        this.controlQueueLength = controlQueueLength;
        return this;
    }

    public int maxPendingConnections()
    {
        return maxPendingConnections;
    }

    public ShmContext maxPendingConnections(final int maxPendingConnections)
    {
        this.maxPendingConnections = maxPendingConnections;
        return this;
    }

    public long helloTimeoutNanos()
    {
        return helloTimeoutNanos;
    }

    public ShmContext helloTimeoutNanos(final long helloTimeoutNanos)
    {
        this.helloTimeoutNanos = helloTimeoutNanos;
        return this;
    }

    /**
     * @return the file-name prefix of this instance's files, for clean-up tools and tests.
     */
    public String filePrefix()
    {
        return instance + "-";
    }
}
