/*
 * Receive timestamps in nanoseconds since the epoch. The TSC is read once per burst and converted with a
 * calibration taken at port start (CLOCK_REALTIME read between two TSC reads). A NIC's own clock is calibrated the
 * same way against CLOCK_REALTIME, from two readings 50 ms apart, when the PMD can read it.
 */
#include <errno.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "mdgate_port.h"

#define NANOS_PER_SECOND 1000000000ULL
#define DEVICE_CALIBRATION_NANOS 50000000L

static uint64_t realtime_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (uint64_t)now.tv_sec * NANOS_PER_SECOND + (uint64_t)now.tv_nsec;
}

void mdg_clock_calibrate_tsc(struct mdg_clock *clock)
{
    const uint64_t before = rte_rdtsc_precise();
    const uint64_t ns = realtime_ns();
    const uint64_t after = rte_rdtsc_precise();
    clock->base_raw = before + (after - before) / 2;
    clock->base_ns = ns;
    clock->mult = (uint64_t)(((unsigned __int128)NANOS_PER_SECOND << 32) / rte_get_tsc_hz());
}

/* Reads the device clock and CLOCK_REALTIME as close together as the PMD allows. */
static int sample_device(const uint16_t port_id, uint64_t *raw, uint64_t *ns)
{
    uint64_t before;
    const int result = rte_eth_read_clock(port_id, &before);
    if (result != 0)
    {
        return result;
    }
    *ns = realtime_ns();
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
