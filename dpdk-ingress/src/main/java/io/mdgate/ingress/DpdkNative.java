package io.mdgate.ingress;

import io.mdgate.core.nativelib.NativeLibraryLoader;

/**
 * The project's DPDK JNI library ({@code libmdgate-dpdk}, built from {@code src/main/c}), loaded once when this
 * class initialises. Loading never throws: when the library or the DPDK runtime is missing, {@link #isAvailable()}
 * is false and {@link #unavailabilityCause()} says why, so callers can refuse to start with a clear message.
 * A library whose native ABI version differs from {@link #ABI_VERSION} (a stale copy from another build) is
 * refused. Thread-safe: the state is fixed by class initialisation.
 */
public final class DpdkNative
{
    /** The native ABI this class expects; must equal {@code MDGATE_DPDK_ABI_VERSION} in {@code mdgate_dpdk.h}. */
    public static final int ABI_VERSION = 5;

    /** The library name for {@link System#loadLibrary(String)}: {@code libmdgate-dpdk.so} on Linux. */
    public static final String LIBRARY_NAME = "mdgate-dpdk";

    private static final String SOURCE;
    private static final Throwable UNAVAILABILITY_CAUSE;

    static
    {
        String source = null;
        Throwable cause = null;
        try
        {
            source = NativeLibraryLoader.load(LIBRARY_NAME, DpdkNative.class);
            checkAbiVersion(abiVersion0(), source);
        }
        catch (final LinkageError | RuntimeException ex)
        {
            cause = ex;
        }
        SOURCE = null == cause ? source : null;
        UNAVAILABILITY_CAUSE = cause;
    }

    private DpdkNative()
    {
    }

    /**
     * @return true when the library is loaded, its ABI matches and its natives can be called.
     */
    public static boolean isAvailable()
    {
        return null == UNAVAILABILITY_CAUSE;
    }

    /**
     * @return why the library cannot be used, or null when it can.
     */
    public static Throwable unavailabilityCause()
    {
        return UNAVAILABILITY_CAUSE;
    }

    /**
     * Throws when the library cannot be used, with a message that names the cause and the remedy.
     *
     * @throws UnsatisfiedLinkError when {@link #isAvailable()} is false.
     */
    public static void ensureAvailability()
    {
        if (null != UNAVAILABILITY_CAUSE)
        {
            final UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                "the DPDK ingress library lib" + LIBRARY_NAME + ".so is not available (" +
                UNAVAILABILITY_CAUSE.getMessage() + "); run deploy/setup.sh to install DPDK 22.11, then rebuild");
            error.initCause(UNAVAILABILITY_CAUSE);
            throw error;
        }
    }

    /**
     * @return where the library was loaded from (a file, a jar URL or {@code java.library.path}), or null.
     */
    public static String librarySource()
    {
        return SOURCE;
    }

    /**
     * @return the native ABI version the loaded library implements.
     */
    public static int abiVersion()
    {
        ensureAvailability();
        return abiVersion0();
    }

    /**
     * @return the version of the DPDK runtime in use, as DPDK reports it, e.g. {@code "DPDK 22.11.11"}.
     */
    public static String rteVersion()
    {
        ensureAvailability();
        return rteVersion0();
    }

    static void checkAbiVersion(final int libraryAbiVersion, final String source)
    {
        if (ABI_VERSION != libraryAbiVersion)
        {
            throw new UnsatisfiedLinkError(
                "lib" + LIBRARY_NAME + ".so from " + source + " implements native ABI version " + libraryAbiVersion +
                " but this dpdk-ingress needs version " + ABI_VERSION +
                ": it is a stale copy from another build; remove it from java.library.path or rebuild it");
        }
    }

    /**
     * @param errnum an errno value, or one of DPDK's own ({@code E_RTE_SECONDARY}, ...), positive.
     * @return DPDK's text for it.
     */
    public static String errorText(final int errnum)
    {
        ensureAvailability();
        return errorText0(errnum);
    }

    private static native int abiVersion0();

    private static native String rteVersion0();

    private static native String errorText0(int errnum);

    // EAL and threads (mdgate_eal.c). Start-up only; every int result is a count, an id or a -errno.

    static native int ealInit0(String[] arguments);

    static native int ealState0();

    static native String lastLog0();

    static native int threadRegister0(int cpu);

    static native void threadUnregister0();

    static native int currentCpu0();

    // Ports (mdgate_port.c). A handle is positive; a negative long is a -errno.

    static native long portOpen0(String devargs, String name, int[] settings, int[] lineTable);

    /** Receive timestamps are CLOCK_MONOTONIC plus epochOffsetNanos (MonotonicEpochClock#offsetNanos). */
    static native int portStart0(long handle, int linkTimeoutMillis, long epochOffsetNanos);

    static native int portClose0(long handle);

    static native int rxBurst0(long handle, long address, int capacity);

    static native int stats0(long handle, long[] stats);

    static native int sendFrame0(long handle, long address, int length);

    static native String portNames0();

    static native String portDriver0(long handle);

    static native String portInfo0(int fromId, long[] info);

    static native int igmpReport0(long handle, int recordType, long address, int capacity);
}
