/*
 * IGMPv3 membership reports (RFC 3376): a DPDK port is not the kernel's, so nobody joins the feed's groups for
 * us. A report lists every distinct group of the line table in one frame:
 *
 *   Ethernet  dst 01:00:5e:00:00:16 | src port MAC | type 0800
 *   IPv4      ver 4, IHL 6 | TOS c0 | total length | id 0 | DF | TTL 1 | proto 2 | checksum | src | 224.0.0.22
 *             | Router Alert option 94 04 00 00
 *   IGMP      type 22 | 0 | checksum | 0000 | group records N | N x (record type | 0 | 0 sources | group)
 *
 * Joining sends CHANGE_TO_EXCLUDE records (exclude nothing: all sources), an answer to a query MODE_IS_EXCLUDE,
 * and leaving CHANGE_TO_INCLUDE with no source.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "mdgate_port.h"

#define ETHER_HEADER 14
#define IP_HEADER 24
#define IGMP_HEADER 8
#define GROUP_RECORD 8
#define ALL_IGMPV3_ROUTERS 0xE0000016u
#define IGMP_V3_MEMBERSHIP_REPORT 0x22
#define TOS_INTERNETWORK_CONTROL 0xC0
#define IP_FLAG_DONT_FRAGMENT 0x4000
#define IPPROTO_IGMP_NUMBER 2

static void store16(uint8_t *at, const uint16_t host_value)
{
    at[0] = (uint8_t)(host_value >> 8);
    at[1] = (uint8_t)host_value;
}

/* The Internet checksum (RFC 1071) of a byte string, as a host-order value to store big-endian. */
uint16_t mdg_checksum(const void *data, const uint32_t length)
{
    const uint8_t *bytes = data;
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < length; i += 2)
    {
        sum += (uint32_t)(bytes[i] << 8 | bytes[i + 1]);
    }
    if (length & 1)
    {
        sum += (uint32_t)bytes[length - 1] << 8;
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return (uint16_t)~sum;
}

/* Writes a report with one record of record_type per group; returns its length, or -ENOSPC. */
int mdg_igmp_build(const struct mdg_port *port, const int record_type, uint8_t *frame, const uint32_t capacity)
{
    const uint32_t igmp_length = IGMP_HEADER + GROUP_RECORD * port->groups;
    const uint32_t length = ETHER_HEADER + IP_HEADER + igmp_length;
    if (length > capacity)
    {
        return -ENOSPC;
    }
    memset(frame, 0, length);

    const uint8_t all_routers_mac[RTE_ETHER_ADDR_LEN] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x16 };
    memcpy(frame, all_routers_mac, RTE_ETHER_ADDR_LEN);
    memcpy(frame + RTE_ETHER_ADDR_LEN, port->mac.addr_bytes, RTE_ETHER_ADDR_LEN);
    store16(frame + 12, RTE_ETHER_TYPE_IPV4);

    uint8_t *ip = frame + ETHER_HEADER;
    ip[0] = 0x40 | (IP_HEADER / 4);
    ip[1] = TOS_INTERNETWORK_CONTROL;
    store16(ip + 2, (uint16_t)(IP_HEADER + igmp_length));
    store16(ip + 6, IP_FLAG_DONT_FRAGMENT);
    ip[8] = 1;
    ip[9] = IPPROTO_IGMP_NUMBER;
    memcpy(ip + 12, &port->igmp_source_be, 4);
    const uint32_t destination_be = rte_cpu_to_be_32(ALL_IGMPV3_ROUTERS);
    memcpy(ip + 16, &destination_be, 4);
    ip[20] = 0x94;
    ip[21] = 0x04;
    store16(ip + 10, mdg_checksum(ip, IP_HEADER));

    uint8_t *igmp = ip + IP_HEADER;
    igmp[0] = IGMP_V3_MEMBERSHIP_REPORT;
    store16(igmp + 6, port->groups);
    for (uint16_t i = 0; i < port->groups; i++)
    {
        uint8_t *record = igmp + IGMP_HEADER + GROUP_RECORD * i;
        record[0] = (uint8_t)record_type;
        memcpy(record + 4, &port->group_list_be[i], 4);
    }
    store16(igmp + 2, mdg_checksum(igmp, igmp_length));
    return (int)length;
}

/* Sends one report through TX queue 0. Returns 1 when sent, 0 when there is no group, or a -errno. */
int mdg_igmp_send(struct mdg_port *port, const int record_type)
{
    if (!port->igmp || port->groups == 0)
    {
        return 0;
    }
    struct rte_mbuf *m = rte_pktmbuf_alloc(port->pool);
    if (m == NULL)
    {
        port->counters[MDG_TX_FAILED]++;
        return -ENOBUFS;
    }
    const int length = mdg_igmp_build(port, record_type, rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_tailroom(m));
    if (length < 0 || rte_pktmbuf_append(m, (uint16_t)length) == NULL)
    {
        rte_pktmbuf_free(m);
        port->counters[MDG_TX_FAILED]++;
        return length < 0 ? length : -ENOSPC;
    }
    if (rte_eth_tx_burst(port->port_id, 0, &m, 1) != 1)
    {
        rte_pktmbuf_free(m);
        port->counters[MDG_TX_FAILED]++;
        return -EAGAIN;
    }
    port->counters[MDG_IGMP_REPORTS_SENT]++;
    return 1;
}
