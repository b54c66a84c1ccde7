/*
 * One receive port of the ingress: the DPDK port and its mbuf pool, the (group, port) -> line table, the clocks
 * that timestamp packets, the IGMP state and the counters. Owned by the receive thread; the counters may be read
 * from any thread (aligned 64-bit loads, so a reader sees each value whole, perhaps a burst late).
 */
#ifndef MDGATE_PORT_H
#define MDGATE_PORT_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

/* Packets taken off the port per rte_eth_rx_burst, and the most handed to Java per JNI crossing. */
#define MDG_BURST 32
/* Lines a packet can be attributed to: A, B and RECOVERY (io.mdgate.core.feed.FeedLines). */
#define MDG_LINES 3
/* (destination, port) pairs in the line table (io.mdgate.ingress.IngressLines.MAX_ENTRIES). */
#define MDG_MAX_ENTRIES 16

/*
 * The hand-over region Java owns (io.mdgate.ingress.RxBurstDescriptor): MDG_BURST descriptors of 16 bytes, then
 * the payloads, each starting on an 8-byte boundary.
 */
#define MDG_DESCRIPTOR_LENGTH 16
#define MDG_PAYLOAD_AREA_OFFSET (MDG_BURST * MDG_DESCRIPTOR_LENGTH)
#define MDG_PAYLOAD_ALIGNMENT 8

struct mdg_descriptor
{
    uint64_t timestamp_ns;
    uint32_t offset;
    uint16_t length;
    uint16_t line;
};

/* Counter indexes: the first entries of the stats array (io.mdgate.ingress.DpdkStatsDescriptor). */
enum mdg_counter
{
    MDG_FRAMES,
    MDG_LINE_PACKETS,                     /* MDG_LINES entries */
    MDG_LINE_BYTES = MDG_LINE_PACKETS + MDG_LINES,
    MDG_NOT_IPV4 = MDG_LINE_BYTES + MDG_LINES,
    MDG_ARP,
    MDG_FRAGMENT,
    MDG_NOT_UDP,
    MDG_IGMP,
    MDG_IGMP_QUERIES,
    MDG_OTHER_DESTINATION,
    MDG_MALFORMED,
    MDG_OVERSIZED,
    MDG_IGMP_REPORTS_SENT,
    MDG_TX_FAILED,
    MDG_IP_CHECKSUM,                      /* IPv4 header checksum wrong (device flag or software) */
    MDG_UDP_CHECKSUM,                     /* UDP checksum wrong (device flag or software) */
    MDG_LENGTH,                           /* IPv4 total length or UDP length disagrees with the frame */
    MDG_UDP_CHECKSUM_PARTIAL,             /* accepted: only the pseudo-header sum, as a same-host sender leaves it */
    MDG_COUNTERS
};

/* How multicast frames reach the port: io.mdgate.ingress.DpdkStatsDescriptor.MULTICAST_*. */
enum mdg_multicast_mode
{
    MDG_MULTICAST_NONE = 0,
    MDG_MULTICAST_ALL = 1,
    MDG_MULTICAST_LIST = 2,
};

/*
 * Converts a device's raw clock to ns since the epoch: base_ns + (raw - base_raw) * mult / 2^32 + to_epoch_ns, where
 * base_ns is a CLOCK_MONOTONIC reading and to_epoch_ns the gateway clock's offset (0 for net_pcap's capture times).
 */
struct mdg_clock
{
    uint64_t base_raw;
    uint64_t base_ns;
    uint64_t mult;
    int64_t to_epoch_ns;
};

struct mdg_port
{
    /* Hot: read by every burst. */
    uint16_t port_id;
    uint16_t entries;
    uint32_t group_be[MDG_MAX_ENTRIES];    /* destination, network byte order */
    uint16_t udp_port_be[MDG_MAX_ENTRIES]; /* destination port, network byte order */
    uint16_t line[MDG_MAX_ENTRIES];
    uint64_t hw_timestamp_flag;            /* 0 when hardware timestamps are not used */
    int hw_timestamp_offset;
    struct mdg_clock hw_clock;
    int64_t epoch_offset_ns;               /* CLOCK_MONOTONIC to the gateway's epoch clock (epochOffset0) */
    uint16_t pending_count;
    uint16_t pending_next;
    uint64_t pending_ns;
    struct rte_mbuf *pending[MDG_BURST];
    int query_pending;
    uint64_t report_due_tsc;               /* 0: no unsolicited report scheduled */

    uint64_t counters[MDG_COUNTERS] __rte_cache_aligned;

    /* Cold: set-up, IGMP and statistics. */
    struct rte_mempool *pool __rte_cache_aligned;
    struct rte_device *device;
    int socket;
    int started;
    int multicast_mode;
    int igmp;
    uint32_t igmp_source_be;
    uint16_t groups;
    uint32_t group_list_be[MDG_MAX_ENTRIES]; /* the distinct multicast groups to join */
    struct rte_ether_addr mac;
    char driver[64];
};

/* Handles a burst (mdgate_rx.c): see rx_burst0 in mdgate_port.c. */
int mdg_rx(struct mdg_port *port, uint8_t *region, uint32_t capacity);

/* Clocks (mdgate_clock.c). */
uint64_t mdg_monotonic_ns(void);
int mdg_clock_calibrate_device(struct mdg_clock *clock, uint16_t port_id);

static inline uint64_t mdg_clock_ns(const struct mdg_clock *clock, const uint64_t raw)
{
    const __int128 delta = (__int128)(int64_t)(raw - clock->base_raw) * (__int128)clock->mult;
    return clock->base_ns + (uint64_t)(int64_t)(delta >> 32) + (uint64_t)clock->to_epoch_ns;
}

/* IGMPv3 (mdgate_igmp.c). Record types of RFC 3376 section 4.2.12. */
#define MDG_IGMP_MODE_IS_EXCLUDE 2
#define MDG_IGMP_CHANGE_TO_INCLUDE 3
#define MDG_IGMP_CHANGE_TO_EXCLUDE 4
/* The unsolicited report is sent twice (the robustness variable), one second (the report interval) apart. */
#define MDG_IGMP_REPEAT_SECONDS 1

int mdg_igmp_build(const struct mdg_port *port, int record_type, uint8_t *frame, uint32_t capacity);
int mdg_igmp_send(struct mdg_port *port, int record_type);
uint16_t mdg_checksum(const void *data, uint32_t length);

#endif
