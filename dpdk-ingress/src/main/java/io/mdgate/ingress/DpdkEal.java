package io.mdgate.ingress;

import java.util.Arrays;

/**
 * DPDK's Environment Abstraction Layer, started once per process by the first {@link DpdkIngress} that starts:
 * on that ingress's thread, which EAL then pins to the first CPU of the lcore list and makes its main lcore.
 * Later ingresses in the same process share it (EAL cannot start twice, nor again after a failure) and only
 * register their threads. Thread-safe.
 */
final class DpdkEal
{
    private static String[] arguments;

    private DpdkEal()
    {
    }

    /**
     * Starts EAL with the context's settings unless it runs already.
     *
     * @param context the settings of the ingress asking.
     * @throws IllegalStateException naming what is missing when the library is unavailable or EAL fails.
     */
    static synchronized void initialise(final DpdkIngress.Context context)
    {
        if (!DpdkNative.isAvailable())
        {
            final Throwable cause = DpdkNative.unavailabilityCause();
            throw new IllegalStateException("the DPDK ingress cannot start: lib" + DpdkNative.LIBRARY_NAME +
                ".so is not available (" + cause.getMessage() + "); run deploy/setup.sh as root to install DPDK " +
                "22.11 (dpdk, libdpdk-dev), then rebuild", cause);
        }
        final String[] wanted = EalArguments.of(context);
        final int state = DpdkNative.ealState0();
        if (state == 1)
        {
            if (arguments != null && !Arrays.equals(arguments, wanted))
            {
                context.log().accept("mdgate: DPDK EAL already runs in this process with '" +
                    String.join(" ", arguments) + "'; the EAL settings '" + String.join(" ", wanted) +
                    "' are not applied (EAL starts once per process)");
            }
            return;
        }
        if (state < 0)
        {
            throw new IllegalStateException(DpdkErrors.message(
                "DPDK EAL failed earlier in this process and cannot start again", state, DpdkNative.lastLog0(),
                "restart the process with working EAL settings"));
        }
        final int result = DpdkNative.ealInit0(wanted);
        if (result < 0)
        {
            throw new IllegalStateException(DpdkErrors.message(
                "DPDK EAL did not start with '" + String.join(" ", wanted) + "'", result, DpdkNative.lastLog0(),
                DpdkErrors.ealRemedy(result, context)));
        }
        arguments = wanted;
    }

    /** @return true once EAL runs in this process. */
    static boolean isInitialised()
    {
        return DpdkNative.isAvailable() && DpdkNative.ealState0() == 1;
    }

    /** @return DPDK's log of the last start-up step (EAL start, port open, start or close). */
    static String lastLog()
    {
        return DpdkNative.isAvailable() ? DpdkNative.lastLog0() : "";
    }
}
