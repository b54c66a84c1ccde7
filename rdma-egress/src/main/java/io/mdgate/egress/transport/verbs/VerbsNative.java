package io.mdgate.egress.transport.verbs;

import io.mdgate.core.nativelib.NativeLibraryLoader;

import java.util.Arrays;

/**
 * The verbs transport's JNI library ({@code libmdgate-verbs}, built from {@code src/main/c} against rdma-core),
 * loaded once when this class initialises. Loading never throws: when the library or rdma-core is missing, or the
 * library was built for another ABI or with other struct sizes than this class expects, {@link #isAvailable()} is
 * false and {@link #unavailabilityCause()} says why. Thread-safe: the state is fixed by class initialisation.
 * <p>
 * Natives follow one convention: set-up calls return a positive handle or a negative errno and leave a description
 * in {@link #lastError()}; hot-path calls return a count or a negative errno and never block.
 */
public final class VerbsNative
{
    /** The native ABI this class expects; must equal {@code MDGATE_VERBS_ABI_VERSION} in {@code mdgate_verbs.h}. */
    public static final int ABI_VERSION = 2;

    /** The library name for {@link System#loadLibrary(String)}: {@code libmdgate-verbs.so} on Linux. */
    public static final String LIBRARY_NAME = "mdgate-verbs";

    /**
     * Sizes the library reports, in this order: {@code struct ibv_send_wr}, {@code ibv_recv_wr}, {@code ibv_sge},
     * {@code ibv_wc}, {@code sockaddr_in} (rdma-core 44 on x86-64), then the library's own layouts: frame header,
     * frame alignment, GRH length, largest copied payload.
     */
    static final int[] STRUCT_SIZES = {128, 32, 16, 48, 16, FrameReader.HEADER_LENGTH, FrameReader.ALIGNMENT, 40,
        4096};
    static final String[] STRUCT_NAMES = {"ibv_send_wr", "ibv_recv_wr", "ibv_sge", "ibv_wc", "sockaddr_in",
        "frame header", "frame alignment", "GRH", "copied payload limit"};

    static final int EAGAIN = 11;
    static final int ENODEV = 19;
    static final int EACCES = 13;
    static final int EPERM = 1;
    static final int ENOMEM = 12;
    static final int EMSGSIZE = 90;
    static final int ENOTCONN = 107;
    static final int ETIMEDOUT = 110;

    private static final String SOURCE;
    private static final Throwable UNAVAILABILITY_CAUSE;

    static
    {
        String source = null;
        Throwable cause = null;
        try
        {
            source = NativeLibraryLoader.load(LIBRARY_NAME, VerbsNative.class);
            check(abiVersion0(), sizes(), source);
        }
        catch (final LinkageError | RuntimeException ex)
        {
            cause = ex;
        }
        SOURCE = null == cause ? source : null;
        UNAVAILABILITY_CAUSE = cause;
    }

    private VerbsNative()
    {
    }

    private static int[] sizes()
    {
        final int[] sizes = new int[STRUCT_SIZES.length];
        structSizes0(sizes);
        return sizes;
    }

    static void check(final int abiVersion, final int[] sizes, final String source)
    {
        if (ABI_VERSION != abiVersion)
        {
            throw new UnsatisfiedLinkError("lib" + LIBRARY_NAME + ".so from " + source + " implements native ABI " +
                "version " + abiVersion + " but this rdma-egress needs version " + ABI_VERSION + ": it is a stale " +
                "copy from another build; remove it from java.library.path or rebuild it");
        }
        if (!Arrays.equals(STRUCT_SIZES, sizes))
        {
            final StringBuilder differences = new StringBuilder();
            for (int i = 0; i < STRUCT_SIZES.length; i++)
            {
                if (STRUCT_SIZES[i] != sizes[i])
                {
                    differences.append(differences.length() == 0 ? "" : ", ").append(STRUCT_NAMES[i])
                        .append(" is ").append(sizes[i]).append(" bytes, expected ").append(STRUCT_SIZES[i]);
                }
            }
            throw new UnsatisfiedLinkError("lib" + LIBRARY_NAME + ".so from " + source + " was built with other " +
                "struct sizes than this rdma-egress expects (" + differences + "): build both against rdma-core 44 " +
                "on x86-64");
        }
    }

    /** @return true when the library is loaded, its ABI and struct sizes match and its natives can be called. */
    public static boolean isAvailable()
    {
        return null == UNAVAILABILITY_CAUSE;
    }

    /** @return why the library cannot be used, or null when it can. */
    public static Throwable unavailabilityCause()
    {
        return UNAVAILABILITY_CAUSE;
    }

    /** @return where the library was loaded from, or null. */
    public static String librarySource()
    {
        return SOURCE;
    }

    /** @return the native ABI version of the loaded library. */
    public static int abiVersion()
    {
        ensureAvailability();
        return abiVersion0();
    }

    /**
     * @throws UnsatisfiedLinkError naming the cause and the remedy when the library cannot be used.
     */
    public static void ensureAvailability()
    {
        if (null != UNAVAILABILITY_CAUSE)
        {
            final UnsatisfiedLinkError error = new UnsatisfiedLinkError("the verbs library lib" + LIBRARY_NAME +
                ".so is not available (" + UNAVAILABILITY_CAUSE.getMessage() + "); install rdma-core " +
                "(libibverbs1, librdmacm1; deploy/setup.sh) and rebuild");
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /** @return the description of the last failed set-up call on this thread. */
    static String lastError()
    {
        return lastError0();
    }

    /** @return the C library's text for a positive errno. */
    static String errorText(final int errnum)
    {
        return errorText0(errnum);
    }

    // Base (mdgate_verbs.c).

    private static native int abiVersion0();

    private static native void structSizes0(int[] sizes);

    private static native String errorText0(int errnum);

    private static native String lastError0();

    /** @return device names, comma separated ("" for none), or null when listing failed (see lastError). */
    static native String devices0();

    /** @return the soft RLIMIT_MEMLOCK in bytes, -1 when unlimited. */
    static native long memlockLimit0();

    /** info: active MTU bytes, port state, max_qp_wr, max_sge. */
    static native long deviceOpen0(String name, int port, int[] info);

    static native int deviceClose0(long device);

    /** keys: lkey, rkey. */
    static native long regMr0(long device, long address, long length, boolean remoteWrite, int[] keys);

    static native int deregMr0(long memoryRegion);

    /** @return the device's {@code struct ibv_context *}, the one librdmacm's ids on the device share. */
    static native long deviceContext0(long device);

    /** @return the address of {@code length} bytes of pre-faulted anonymous memory on 2 MiB pages, or -errno. */
    static native long mapHuge0(long length);

    /** Unmaps what {@link #mapHuge0(long)} mapped: 0 or -errno. */
    static native int unmap0(long address, long length);

    // Control connections (mdgate_rc.c). params: send depth, receive buffers, largest message, send ring bytes.

    static native long listen0(long device, String ip, int port, int backlog);

    static native String listenerEndpoint0(long listener);

    static native int listenerClose0(long listener);

    /** @return connection requests accept0 dropped because their requester had given up (stale). */
    static native long listenerStale0(long listener);

    static native long accept0(long listener, int[] params);

    static native long connect0(long device, String ip, int port, int timeoutMillis, int[] params);

    static native int rcPoll0(long connection, long address, int capacity, int limit);

    static native int rcSend0(long connection, long address, int length);

    static native int rcWrite0(long connection, long address, int lkey, int length, long remoteAddress, int rkey);

    static native int rcWriteLong0(long connection, long value, long remoteAddress, int rkey);

    static native String rcAddress0(long connection, boolean local);

    static native int rcClose0(long connection);

    // Multicast (mdgate_ud.c). params: send depth, receive buffers, largest datagram, join timeout ms.

    static native long udOpen0(long device, String localIp, String groupIp, int[] params);

    static native int udSend0(long multicast, long address, int length);

    static native int udPoll0(long multicast, long address, int capacity, int limit);

    static native int udClose0(long multicast);
}
