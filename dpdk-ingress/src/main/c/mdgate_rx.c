/*
 * The hot path: one rte_eth_rx_burst, each frame parsed and checked (Ethernet with up to two VLAN tags, IPv4
 * without fragments, UDP; lengths and both checksums), the payloads of configured (destination, port) pairs copied
 * back to back into the hand-over region Java owns, with a descriptor each (timestamp, offset, length, line).
 * Everything else is counted by reason and freed. No allocation, no locks, no system calls, no logging.
 */
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_memcpy.h>

#include "mdgate_port.h"

#define ETHER_HEADER 14
#define ETHER_TYPE_OFFSET 12
#define VLAN_TAG 4
#define MAX_VLAN_TAGS 2
#define IPV4_MIN_HEADER 20
#define UDP_HEADER 8
#define IPPROTO_IGMP_NUMBER 2
#define IPPROTO_UDP_NUMBER 17
#define IGMP_MEMBERSHIP_QUERY 0x11
#define IGMP_QUERY_GROUP_OFFSET 4

/* A negative verdict names the counter of the reason a frame is dropped. */
#define DROP(counter) (-1 - (counter))

static inline uint16_t load16(const uint8_t *at)
{
    uint16_t value;
    memcpy(&value, at, sizeof(value));
    return value;
}

static inline uint32_t load32(const uint8_t *at)
{
    uint32_t value;
    memcpy(&value, at, sizeof(value));
    return value;
}

static inline int line_of(const struct mdg_port *port, const uint32_t destination_be, const uint16_t udp_port_be)
{
    for (uint16_t i = 0; i < port->entries; i++)
    {
        if (port->group_be[i] == destination_be && port->udp_port_be[i] == udp_port_be)
        {
            return port->line[i];
        }
    }
    return DROP(MDG_OTHER_DESTINATION);
}

/* A membership query for every group, or for one of ours, is answered with a report on the next poll. */
static int on_igmp(struct mdg_port *port, const uint8_t *igmp, const uint32_t length)
{
    if (length >= 8 && igmp[0] == IGMP_MEMBERSHIP_QUERY)
    {
        port->counters[MDG_IGMP_QUERIES]++;
        const uint32_t group_be = load32(igmp + IGMP_QUERY_GROUP_OFFSET);
        for (uint16_t i = 0; i < port->groups && port->igmp; i++)
        {
            if (group_be == 0 || group_be == port->group_list_be[i])
            {
                port->query_pending = 1;
            }
        }
    }
    return DROP(MDG_IGMP);
}

/* Folds a 64-bit one's complement sum (RFC 1071) to 16 bits, in the byte order the words were loaded in. */
static inline uint16_t fold(uint64_t sum)
{
    sum = (sum & 0xFFFFFFFFULL) + (sum >> 32);
    sum = (sum & 0xFFFFFFFFULL) + (sum >> 32);
    sum = (sum & 0xFFFF) + (sum >> 16);
    sum = (sum & 0xFFFF) + (sum >> 16);
    return (uint16_t)((sum & 0xFFFF) + (sum >> 16));
}

#if RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN
#error "sum_bytes widens 16-bit words into 32-bit lanes as a little-endian machine does"
#endif

typedef uint16_t mdg_u16x8 __attribute__((vector_size(16)));
typedef uint32_t mdg_u32x4 __attribute__((vector_size(16)));

/*
 * Adds length bytes (at most 64 KiB) to a one's complement sum (RFC 1071). The 16-bit words, sixteen bytes at a
 * time, are widened (interleaved with zeros) and added as integers into eight 32-bit lanes of two 16-byte vectors
 * (SSE2 or NEON through the compiler's generic vectors), which cannot overflow at this length, so no carry is
 * tracked; folding the total mod 0xFFFF later gives the 16-bit sum. An odd last byte counts as the first byte of a
 * word whose second is 0, so the sum stays byte-order independent (RFC 1071 section 2).
 */
static inline uint64_t sum_bytes(const uint8_t *at, uint32_t length, uint64_t sum)
{
    if (length >= 16)
    {
        const mdg_u16x8 zero = { 0 };
        mdg_u32x4 low = { 0 };
        mdg_u32x4 high = { 0 };
        for (; length >= 16; at += 16, length -= 16)
        {
            mdg_u16x8 words;
            memcpy(&words, at, sizeof(words));
            low += (mdg_u32x4)__builtin_shufflevector(words, zero, 0, 8, 1, 8, 2, 8, 3, 8);
            high += (mdg_u32x4)__builtin_shufflevector(words, zero, 4, 8, 5, 8, 6, 8, 7, 8);
        }
        const mdg_u32x4 lanes = low + high;
        sum += (uint64_t)lanes[0] + lanes[1] + lanes[2] + lanes[3];
    }
    for (; length >= 4; at += 4, length -= 4)
    {
        sum += load32(at);
    }
    if (length >= 2)
    {
        sum += load16(at);
        at += 2;
        length -= 2;
    }
    if (length != 0)
    {
        uint16_t last = 0;
        memcpy(&last, at, 1);
        sum += last;
    }
    return sum;
}

/* The IPv4 header's checksum: the device's verdict when it gives one, the sum of the header otherwise. */
static inline int ip_checksum_good(const struct rte_mbuf *m, const uint8_t *ip, const uint32_t ihl)
{
    const uint64_t flags = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
    if (likely(flags != RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN))
    {
        return flags != RTE_MBUF_F_RX_IP_CKSUM_BAD;
    }
    return fold(sum_bytes(ip, ihl, 0)) == 0xFFFF;
}

/*
 * The UDP checksum over the pseudo-header and udp_length bytes from udp (at l4 in the frame): the device's verdict
 * when it gives one; otherwise 0 in the field means none was sent (allowed over IPv4) and any other value must sum
 * to all ones. A field holding only the pseudo-header's sum is what a sender on the same host leaves for checksum
 * offload (veth, seen through af_packet and af_xdp); the kernel accepts such a datagram because it never left the
 * host, and so does this, counting it. Returns 1 good, 0 bad.
 */
static inline int udp_checksum_good(struct mdg_port *port, const struct rte_mbuf *m, const uint8_t *ip,
    const uint8_t *udp, const uint32_t l4, const uint32_t udp_length)
{
    const uint64_t flags = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;
    if (likely(flags != RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN))
    {
        return flags != RTE_MBUF_F_RX_L4_CKSUM_BAD;
    }
    const uint16_t field = load16(udp + 6);
    if (field == 0)
    {
        return 1;
    }
    uint64_t pseudo = load32(ip + 12);
    pseudo += load32(ip + 16);
    pseudo += RTE_BE16(IPPROTO_UDP_NUMBER);
    pseudo += rte_cpu_to_be_16((uint16_t)udp_length);
    uint64_t sum;
    if (likely(l4 + udp_length <= m->data_len))
    {
        sum = sum_bytes(udp, udp_length, pseudo);
    }
    else
    {
        uint16_t data = 0;
        if (rte_raw_cksum_mbuf(m, l4, udp_length, &data) != 0)
        {
            return 0;
        }
        sum = pseudo + data;
    }
    if (likely(fold(sum) == 0xFFFF))
    {
        return 1;
    }
    if (field == fold(pseudo))
    {
        port->counters[MDG_UDP_CHECKSUM_PARTIAL]++;
        return 1;
    }
    return 0;
}

/*
 * Returns the line of a frame carrying a configured pair's datagram, with its payload's place in the frame, or a
 * DROP(reason). Checked as the kernel's IPv4 and UDP receive paths check them: header cut short or impossible
 * (malformed), header checksum, total length against the frame and UDP length against the datagram (length),
 * fragments, then, for the configured pairs only, the UDP checksum. Padding after the datagram is allowed, and a
 * UDP length shorter than the IPv4 payload ends the datagram there. Headers must sit in the first segment; a
 * payload may span segments.
 */
static inline int classify(struct mdg_port *port, const struct rte_mbuf *m, uint32_t *offset, uint32_t *length)
{
    const uint8_t *frame = rte_pktmbuf_mtod(m, const uint8_t *);
    const uint32_t available = m->data_len;
    if (unlikely(available < ETHER_HEADER))
    {
        return DROP(MDG_MALFORMED);
    }
    uint32_t at = ETHER_TYPE_OFFSET;
    uint16_t type = load16(frame + at);
    for (int tags = 0; tags < MAX_VLAN_TAGS &&
        (type == RTE_BE16(RTE_ETHER_TYPE_VLAN) || type == RTE_BE16(RTE_ETHER_TYPE_QINQ)); tags++)
    {
        at += VLAN_TAG;
        if (unlikely(available < at + 2))
        {
            return DROP(MDG_MALFORMED);
        }
        type = load16(frame + at);
    }
    const uint32_t l3 = at + 2;
    if (unlikely(type != RTE_BE16(RTE_ETHER_TYPE_IPV4)))
    {
        return type == RTE_BE16(RTE_ETHER_TYPE_ARP) ? DROP(MDG_ARP) : DROP(MDG_NOT_IPV4);
    }
    if (unlikely(available < l3 + IPV4_MIN_HEADER))
    {
        return DROP(MDG_MALFORMED);
    }
    const uint8_t *ip = frame + l3;
    const uint32_t ihl = (uint32_t)(ip[0] & 0x0F) * 4;
    if (unlikely((ip[0] >> 4) != 4 || ihl < IPV4_MIN_HEADER || available < l3 + ihl))
    {
        return DROP(MDG_MALFORMED);
    }
    if (unlikely(!ip_checksum_good(m, ip, ihl)))
    {
        return DROP(MDG_IP_CHECKSUM);
    }
    const uint32_t total = rte_be_to_cpu_16(load16(ip + 2));
    if (unlikely(total < ihl || l3 + total > m->pkt_len))
    {
        return DROP(MDG_LENGTH);
    }
    if (unlikely((load16(ip + 6) & RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) != 0))
    {
        return DROP(MDG_FRAGMENT);
    }
    if (unlikely(ip[9] != IPPROTO_UDP_NUMBER))
    {
        return ip[9] == IPPROTO_IGMP_NUMBER ?
            on_igmp(port, ip + ihl, RTE_MIN(total, available - l3) - ihl) : DROP(MDG_NOT_UDP);
    }
    const uint8_t *udp = ip + ihl;
    const uint32_t l4 = l3 + ihl;
    if (unlikely(available < l4 + UDP_HEADER))
    {
        return total - ihl < UDP_HEADER ? DROP(MDG_LENGTH) : DROP(MDG_MALFORMED);
    }
    const uint32_t udp_length = rte_be_to_cpu_16(load16(udp + 4));
    if (unlikely(udp_length < UDP_HEADER || udp_length > total - ihl))
    {
        return DROP(MDG_LENGTH);
    }
    const int line = line_of(port, load32(ip + 16), load16(udp + 2));
    if (unlikely(line >= 0 && !udp_checksum_good(port, m, ip, udp, l4, udp_length)))
    {
        return DROP(MDG_UDP_CHECKSUM);
    }
    *offset = l4 + UDP_HEADER;
    *length = udp_length - UDP_HEADER;
    return line;
}

static void igmp_timers(struct mdg_port *port, const uint64_t now_tsc)
{
    if (port->query_pending)
    {
        port->query_pending = 0;
        mdg_igmp_send(port, MDG_IGMP_MODE_IS_EXCLUDE);
    }
    if (port->report_due_tsc != 0 && now_tsc >= port->report_due_tsc)
    {
        port->report_due_tsc = 0;
        mdg_igmp_send(port, MDG_IGMP_CHANGE_TO_EXCLUDE);
    }
}

/*
 * Hands at most MDG_BURST payloads to Java. Frames of a burst that do not fit the region stay pending, with their
 * burst's timestamp, and go first next time; a payload larger than the whole payload area is dropped as oversized.
 * Returns the number of descriptors written.
 */
int mdg_rx(struct mdg_port *port, uint8_t *region, const uint32_t capacity)
{
    if (unlikely(port->query_pending | (port->report_due_tsc != 0)))
    {
        igmp_timers(port, rte_rdtsc());
    }
    if (port->pending_next == port->pending_count)
    {
        const uint16_t received = rte_eth_rx_burst(port->port_id, 0, port->pending, MDG_BURST);
        if (received == 0)
        {
            return 0;
        }
        port->pending_count = received;
        port->pending_next = 0;
        port->pending_ns = mdg_monotonic_ns() + (uint64_t)port->epoch_offset_ns;
        port->counters[MDG_FRAMES] += received;
    }

    struct mdg_descriptor *descriptors = (struct mdg_descriptor *)region;
    struct rte_mbuf *done[MDG_BURST];
    uint32_t done_count = 0;
    uint32_t handed = 0;
    uint32_t position = MDG_PAYLOAD_AREA_OFFSET;
    while (port->pending_next < port->pending_count)
    {
        struct rte_mbuf *m = port->pending[port->pending_next];
        uint32_t offset = 0;
        uint32_t length = 0;
        const int verdict = classify(port, m, &offset, &length);
        if (verdict >= 0 && unlikely(position + length > capacity))
        {
            if (handed != 0)
            {
                break;
            }
            port->counters[MDG_OVERSIZED]++;
        }
        else if (verdict >= 0)
        {
            uint8_t *to = region + position;
            if (likely(offset + length <= m->data_len))
            {
                rte_memcpy(to, rte_pktmbuf_mtod_offset(m, const uint8_t *, offset), length);
            }
            else
            {
                rte_pktmbuf_read(m, offset, length, to);
            }
            const uint64_t timestamp = (m->ol_flags & port->hw_timestamp_flag) != 0 ?
                mdg_clock_ns(&port->hw_clock, *RTE_MBUF_DYNFIELD(m, port->hw_timestamp_offset, uint64_t *)) :
                port->pending_ns;
            struct mdg_descriptor *descriptor = &descriptors[handed++];
            descriptor->timestamp_ns = timestamp;
            descriptor->offset = position;
            descriptor->length = (uint16_t)length;
            descriptor->line = (uint16_t)verdict;
            port->counters[MDG_LINE_PACKETS + verdict]++;
            port->counters[MDG_LINE_BYTES + verdict] += length;
            position = RTE_ALIGN_CEIL(position + length, MDG_PAYLOAD_ALIGNMENT);
        }
        else
        {
            port->counters[-1 - verdict]++;
        }
        done[done_count++] = m;
        port->pending_next++;
    }
    if (done_count != 0)
    {
        rte_pktmbuf_free_bulk(done, done_count);
    }
    return (int)handed;
}
