/*
 * Receive timestamps in nanoseconds since the epoch, on the gateway's clock: CLOCK_MONOTONIC, the clock behind
 * Java's System.nanoTime, plus the offset to the wall clock that the gateway's MonotonicEpochClock measured and handed
 * to the port (epochOffset0). A burst is stamped with one CLOCK_MONOTONIC reading taken when rx_burst returned it (a
 * vDSO call of some tens of nanoseconds on a TSC clocksource), so every later stage, which reads the same clock with
 * the same offset, is later than the receive: a negative stage time means a fault, not a calibration error. (An
 * earlier version converted the TSC with a rate calibrated against CLOCK_REALTIME every 100 ms: its error of a few
 * hundred nanoseconds exceeded the whole ingress-to-session time and showed as negative samples.)
 * A NIC's own clock is calibrated against CLOCK_MONOTONIC from two readings 50 ms apart, when the PMD can read it,
 * and shifted by the same offset; net_pcap's capture times are wall-clock times already and are not shifted.
 */
#include <errno.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "mdgate_port.h"

#define NANOS_PER_SECOND 1000000000ULL
#define DEVICE_CALIBRATION_NANOS 50000000L

uint64_t mdg_monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * NANOS_PER_SECOND + (uint64_t)now.tv_nsec;
}

/* Reads the device clock and CLOCK_MONOTONIC as close together as the PMD allows. */
static int sample_device(const uint16_t port_id, uint64_t *raw, uint64_t *ns)
{
    uint64_t before;
    const int result = rte_eth_read_clock(port_id, &before);
    if (result != 0)
    {
        return result;
    }
    *ns = mdg_monotonic_ns();
    uint64_t after;
    rte_eth_read_clock(port_id, &after);
    *raw = before + (after - before) / 2;
    return 0;
}

int mdg_clock_calibrate_device(struct mdg_clock *clock, const uint16_t port_id)
{
    uint64_t raw0, ns0, raw1, ns1;
    int result = sample_device(port_id, &raw0, &ns0);
    if (result != 0)
    {
        return result;
    }
    const struct timespec pause = { 0, DEVICE_CALIBRATION_NANOS };
    nanosleep(&pause, NULL);
    result = sample_device(port_id, &raw1, &ns1);
    if (result != 0)
    {
        return result;
    }
    if (raw1 <= raw0 || ns1 <= ns0)
    {
        return -EINVAL;
    }
    clock->base_raw = raw1;
    clock->base_ns = ns1;
    clock->mult = (uint64_t)(((unsigned __int128)(ns1 - ns0) << 32) / (raw1 - raw0));
    return 0;
}
