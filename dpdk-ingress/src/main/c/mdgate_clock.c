/*
 * Receive timestamps in nanoseconds since the epoch. The TSC is read once per burst and converted with a
 * calibration taken at port start (the tightest of several CLOCK_REALTIME readings between two TSC reads) and
 * renewed every 100 ms from the
 * receive path: the nominal TSC rate DPDK reports can be off by a tenth of a percent (in a virtual machine above
 * all), which a one-time calibration turns into tens of milliseconds of skew within a minute. Each renewal moves the
 * base and takes the rate measured over the last interval, when it is within 1% of the nominal one (a step of the
 * wall clock is not a rate). A NIC's own clock is calibrated the
 * same way against CLOCK_REALTIME, from two readings 50 ms apart, when the PMD can read it.
 */
#include <errno.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "mdgate_port.h"

#define NANOS_PER_SECOND 1000000000ULL
#define DEVICE_CALIBRATION_NANOS 50000000L
#define TSC_CALIBRATIONS_PER_SECOND 10
#define TSC_SAMPLES 8
/* A calibration reading spanning more than 1/50000 s (20 us) is not trusted. */
#define TSC_SPAN_LIMIT_DIVISOR 50000

static uint64_t realtime_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (uint64_t)now.tv_sec * NANOS_PER_SECOND + (uint64_t)now.tv_nsec;
}

/*
 * One (TSC, CLOCK_REALTIME) pair: the tightest of TSC_SAMPLES readings of the wall clock between two TSC reads. A
 * single reading that the scheduler interrupts can span milliseconds and would move every timestamp of the next
 * 100 ms by up to half of that; the tightest of several is within tens of nanoseconds. Returns the span in TSC
 * ticks.
 */
static uint64_t sample_tsc(uint64_t *raw, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < TSC_SAMPLES; i++)
    {
        const uint64_t before = rte_rdtsc_precise();
        const uint64_t now = realtime_ns();
        const uint64_t after = rte_rdtsc_precise();
        if (after - before < best)
        {
            best = after - before;
            *raw = before + (after - before) / 2;
            *ns = now;
        }
    }
    return best;
}

void mdg_clock_calibrate_tsc(struct mdg_clock *clock)
{
    uint64_t raw;
    uint64_t ns;
    sample_tsc(&raw, &ns);
    clock->base_raw = raw;
    clock->base_ns = ns;
    clock->mult = (uint64_t)(((unsigned __int128)NANOS_PER_SECOND << 32) / rte_get_tsc_hz());
    clock->due_raw = clock->base_raw + rte_get_tsc_hz() / TSC_CALIBRATIONS_PER_SECOND;
}

void mdg_clock_recalibrate_tsc(struct mdg_clock *clock)
{
    uint64_t raw;
    uint64_t ns;
    const uint64_t span = sample_tsc(&raw, &ns);
    const uint64_t hz = rte_get_tsc_hz();
    if (span > hz / TSC_SPAN_LIMIT_DIVISOR)
    {
        /* Every reading was interrupted: keep the calibration we have and try again soon. */
        clock->due_raw = raw + hz / (TSC_CALIBRATIONS_PER_SECOND * 10);
        return;
    }
    if (raw > clock->base_raw && ns > clock->base_ns)
    {
        const uint64_t nominal = (uint64_t)(((unsigned __int128)NANOS_PER_SECOND << 32) / hz);
        const uint64_t measured =
            (uint64_t)(((unsigned __int128)(ns - clock->base_ns) << 32) / (raw - clock->base_raw));
        if (measured > nominal - nominal / 100 && measured < nominal + nominal / 100)
        {
            clock->mult = measured;
        }
    }
    clock->base_raw = raw;
    clock->base_ns = ns;
    clock->due_raw = raw + hz / TSC_CALIBRATIONS_PER_SECOND;
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
