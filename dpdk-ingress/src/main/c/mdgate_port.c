/*
 * Port set-up in DPDK's order (examples/l2fwd): the device is probed if it is not a port yet, an mbuf pool is
 * made on the port's NUMA socket, the port configured with one RX queue (and one TX queue, for IGMP), the queues
 * set up, the port started, its link awaited, multicast let in; then a clean stop and close that also detaches
 * the device, so that a later ingress in the same process can probe it again.
 *
 * Every native returns a count or a -errno and never crashes on a bad argument it can check. A port handle is
 * the address of its struct mdg_port (positive on x86-64 and aarch64 user space); a negative jlong is a -errno.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "mdgate_dpdk.h"
#include "mdgate_port.h"

/* settings[] of portOpen0, in io.mdgate.ingress.DpdkPortSettings order. */
enum
{
    SETTING_MBUFS,
    SETTING_MBUF_CACHE,
    SETTING_RX_DESCRIPTORS,
    SETTING_TX_DESCRIPTORS,
    SETTING_HW_TIMESTAMPS,
    SETTING_IGMP,
    SETTING_IGMP_SOURCE,
    SETTINGS
};

/* The state after the counters in stats0's array (io.mdgate.ingress.DpdkStatsDescriptor). */
enum
{
    STAT_IPACKETS = MDG_COUNTERS,
    STAT_IBYTES,
    STAT_IMISSED,
    STAT_IERRORS,
    STAT_RX_NOMBUF,
    STAT_OPACKETS,
    STAT_OERRORS,
    STAT_HW_TIMESTAMPS,
    STAT_MULTICAST_MODE,
    STAT_LINK_UP,
    STAT_LINK_SPEED,
    STAT_SOCKET,
    STAT_MAC,
    STAT_PORT_ID,
    STATS
};

#define LINK_POLL_NANOS 10000000L
#define LEAVE_DRAIN_NANOS 10000000L

static pthread_mutex_t ports_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t port_in_use[RTE_MAX_ETHPORTS];
static unsigned pool_sequence;

static inline struct mdg_port *port_of(const jlong handle)
{
    return (struct mdg_port *)(uintptr_t)handle;
}

/* 0 stays 0; a DPDK call's negative result is already a -errno. */
static int negative_errno(const int result)
{
    return result < 0 ? result : 0;
}

static void sleep_nanos(const long nanos)
{
    const struct timespec pause = { 0, nanos };
    nanosleep(&pause, NULL);
}

/* Finds the port named name, probing devargs first when there is none; returns the port id or a -errno. */
static int find_or_probe(const char *devargs, const char *name, struct rte_device **device)
{
    uint16_t port_id;
    if (rte_eth_dev_get_port_by_name(name, &port_id) != 0)
    {
        const int probed = rte_dev_probe(devargs);
        if (probed < 0)
        {
            /* Drivers fail their probe with a bare -1, which is no errno (it would read as EPERM). */
            return probed == -1 ? -ENODEV : probed;
        }
        if (rte_eth_dev_get_port_by_name(name, &port_id) != 0)
        {
            return -ENODEV;
        }
    }
    struct rte_eth_dev_info info;
    const int result = rte_eth_dev_info_get(port_id, &info);
    if (result != 0)
    {
        return result;
    }
    *device = info.device;
    return port_id;
}

static void add_line_table(struct mdg_port *port, JNIEnv *env, jintArray table)
{
    const jsize length = (*env)->GetArrayLength(env, table);
    jint entries[MDG_MAX_ENTRIES * 3];
    (*env)->GetIntArrayRegion(env, table, 0, length, entries);
    port->entries = (uint16_t)(length / 3);
    for (uint16_t i = 0; i < port->entries; i++)
    {
        const uint32_t group = (uint32_t)entries[3 * i];
        port->group_be[i] = rte_cpu_to_be_32(group);
        port->udp_port_be[i] = rte_cpu_to_be_16((uint16_t)entries[3 * i + 1]);
        port->line[i] = (uint16_t)entries[3 * i + 2];
        int known = (group >> 28) != 0xE;
        for (uint16_t g = 0; g < port->groups && !known; g++)
        {
            known = port->group_list_be[g] == port->group_be[i];
        }
        if (!known)
        {
            port->group_list_be[port->groups++] = port->group_be[i];
        }
    }
}

/*
 * Decides where timestamps come from: net_pcap stamps each mbuf with its capture time in microseconds since the
 * epoch; a PMD with RX timestamp offload stamps its device clock, calibrated at start; everything else (and
 * hw_timestamps off) gets the TSC read once per burst. Returns the RX offloads to request.
 */
static uint64_t choose_timestamps(struct mdg_port *port, const struct rte_eth_dev_info *info, const int wanted)
{
    int offset;
    uint64_t flag;
    if (!wanted || rte_mbuf_dyn_rx_timestamp_register(&offset, &flag) != 0)
    {
        return 0;
    }
    port->hw_timestamp_offset = offset;
    if (strcmp(info->driver_name, "net_pcap") == 0)
    {
        port->hw_timestamp_flag = flag;
        port->hw_clock.base_raw = 0;
        port->hw_clock.base_ns = 0;
        port->hw_clock.mult = 1000ULL << 32;
        return 0;
    }
    if ((info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP) != 0)
    {
        port->hw_timestamp_flag = flag; /* confirmed or cleared by the calibration at start */
        return RTE_ETH_RX_OFFLOAD_TIMESTAMP;
    }
    return 0;
}

/*
 * The checksum offloads the device has: with them it flags each mbuf's IPv4 and UDP checksums good or bad;
 * without, the receive path sums them itself (mdgate_rx.c).
 */
static uint64_t choose_checksums(const struct rte_eth_dev_info *info)
{
    return info->rx_offload_capa & (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM);
}

static int setup_queues(struct mdg_port *port, const jint *settings, const struct rte_eth_dev_info *info)
{
    struct rte_eth_conf conf;
    memset(&conf, 0, sizeof(conf));
    conf.rxmode.offloads = choose_timestamps(port, info, settings[SETTING_HW_TIMESTAMPS]) | choose_checksums(info);
    const uint16_t tx_queues = info->max_tx_queues > 0 ? 1 : 0;
    int result = rte_eth_dev_configure(port->port_id, 1, tx_queues, &conf);
    if (result != 0)
    {
        return result;
    }
    uint16_t rx_descriptors = (uint16_t)settings[SETTING_RX_DESCRIPTORS];
    uint16_t tx_descriptors = (uint16_t)settings[SETTING_TX_DESCRIPTORS];
    result = rte_eth_dev_adjust_nb_rx_tx_desc(port->port_id, &rx_descriptors, &tx_descriptors);
    if (result != 0)
    {
        return result;
    }
    struct rte_eth_rxconf rxconf = info->default_rxconf;
    rxconf.offloads = conf.rxmode.offloads;
    result = rte_eth_rx_queue_setup(port->port_id, 0, rx_descriptors, (unsigned)port->socket, &rxconf, port->pool);
    if (result != 0 || tx_queues == 0)
    {
        return result;
    }
    return rte_eth_tx_queue_setup(port->port_id, 0, tx_descriptors, (unsigned)port->socket, NULL);
}

static void release(struct mdg_port *port, const int configured)
{
    if (configured)
    {
        rte_eth_dev_close(port->port_id);
    }
    if (port->device != NULL)
    {
        rte_dev_remove(port->device);
    }
    rte_mempool_free(port->pool);
    pthread_mutex_lock(&ports_lock);
    port_in_use[port->port_id] = 0;
    pthread_mutex_unlock(&ports_lock);
    rte_free(port);
}

static jlong open_port(JNIEnv *env, const char *devargs, const char *name, const jint *settings, jintArray table)
{
    struct rte_device *device = NULL;
    const int port_id = find_or_probe(devargs, name, &device);
    if (port_id < 0)
    {
        return port_id;
    }
    pthread_mutex_lock(&ports_lock);
    const int busy = port_in_use[port_id];
    port_in_use[port_id] = 1;
    pthread_mutex_unlock(&ports_lock);
    if (busy)
    {
        return -EBUSY;
    }
    int socket = rte_eth_dev_socket_id((uint16_t)port_id);
    socket = socket >= 0 ? socket : (int)rte_socket_id() >= 0 ? (int)rte_socket_id() : 0;
    struct mdg_port *port = rte_zmalloc_socket("mdgate_port", sizeof(*port), RTE_CACHE_LINE_SIZE, socket);
    if (port == NULL)
    {
        pthread_mutex_lock(&ports_lock);
        port_in_use[port_id] = 0;
        pthread_mutex_unlock(&ports_lock);
        return -ENOMEM;
    }
    port->port_id = (uint16_t)port_id;
    port->device = device;
    port->socket = socket;
    port->igmp = settings[SETTING_IGMP] != 0;
    port->igmp_source_be = rte_cpu_to_be_32((uint32_t)settings[SETTING_IGMP_SOURCE]);
    add_line_table(port, env, table);

    struct rte_eth_dev_info info;
    int result = rte_eth_dev_info_get(port->port_id, &info);
    if (result == 0)
    {
        snprintf(port->driver, sizeof(port->driver), "%s", info.driver_name);
        result = rte_eth_macaddr_get(port->port_id, &port->mac);
    }
    if (result == 0)
    {
        char pool_name[RTE_MEMPOOL_NAMESIZE];
        snprintf(pool_name, sizeof(pool_name), "mdgate_rx_%d_%u", port_id, __atomic_fetch_add(&pool_sequence, 1,
            __ATOMIC_RELAXED));
        port->pool = rte_pktmbuf_pool_create(pool_name, (unsigned)settings[SETTING_MBUFS],
            (unsigned)settings[SETTING_MBUF_CACHE], 0, RTE_MBUF_DEFAULT_BUF_SIZE, socket);
        result = port->pool == NULL ? -(rte_errno == 0 ? ENOMEM : rte_errno) : 0;
    }
    if (result == 0)
    {
        result = setup_queues(port, settings, &info);
        if (result != 0)
        {
            release(port, 1);
            return negative_errno(result);
        }
        return (jlong)(uintptr_t)port;
    }
    release(port, 0);
    return negative_errno(result);
}

/*
 * Opens and configures a port (not started): devargs is what to probe when no port is called name yet (a vdev
 * such as "net_pcap0,rx_pcap=f.pcap", or a PCI address), settings the DpdkPortSettings values, table the line
 * table as (IPv4 destination, UDP port, line) triples. Returns a handle or a -errno; DPDK's log is in lastLog0.
 */
static jlong port_open0(JNIEnv *env, jclass clazz, jstring devargs, jstring name, jintArray settings,
    jintArray table)
{
    (void)clazz;
    if (devargs == NULL || name == NULL || settings == NULL || table == NULL ||
        (*env)->GetArrayLength(env, settings) != SETTINGS || (*env)->GetArrayLength(env, table) % 3 != 0 ||
        (*env)->GetArrayLength(env, table) > 3 * MDG_MAX_ENTRIES)
    {
        return -EINVAL;
    }
    jint values[SETTINGS];
    (*env)->GetIntArrayRegion(env, settings, 0, SETTINGS, values);
    const char *devargs_chars = (*env)->GetStringUTFChars(env, devargs, NULL);
    const char *name_chars = (*env)->GetStringUTFChars(env, name, NULL);
    jlong result = -ENOMEM;
    if (devargs_chars != NULL && name_chars != NULL)
    {
        mdg_log_capture_begin();
        result = open_port(env, devargs_chars, name_chars, values, table);
        mdg_log_capture_end();
    }
    if (devargs_chars != NULL)
    {
        (*env)->ReleaseStringUTFChars(env, devargs, devargs_chars);
    }
    if (name_chars != NULL)
    {
        (*env)->ReleaseStringUTFChars(env, name, name_chars);
    }
    return result;
}

static int wait_for_link(const uint16_t port_id, const jint timeout_millis)
{
    const uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * (uint64_t)timeout_millis / 1000;
    struct rte_eth_link link;
    for (;;)
    {
        memset(&link, 0, sizeof(link));
        const int result = rte_eth_link_get_nowait(port_id, &link);
        if (result != 0 && result != -ENOTSUP)
        {
            return result;
        }
        if (result == -ENOTSUP || link.link_status == RTE_ETH_LINK_UP)
        {
            return 0;
        }
        if (rte_get_timer_cycles() >= deadline)
        {
            return -ENETDOWN;
        }
        sleep_nanos(LINK_POLL_NANOS);
    }
}

/* Lets the groups' frames in: all multicast where the PMD can, else the groups' MAC addresses. */
static void enable_multicast(struct mdg_port *port)
{
    if (rte_eth_allmulticast_enable(port->port_id) == 0 && rte_eth_allmulticast_get(port->port_id) == 1)
    {
        port->multicast_mode = MDG_MULTICAST_ALL;
        return;
    }
    struct rte_ether_addr macs[MDG_MAX_ENTRIES];
    for (uint16_t i = 0; i < port->groups; i++)
    {
        const uint32_t group = rte_be_to_cpu_32(port->group_list_be[i]);
        const struct rte_ether_addr mac = { { 0x01, 0x00, 0x5e, (uint8_t)((group >> 16) & 0x7F),
            (uint8_t)(group >> 8), (uint8_t)group } };
        macs[i] = mac;
    }
    if (port->groups > 0 && rte_eth_dev_set_mc_addr_list(port->port_id, macs, port->groups) == 0)
    {
        port->multicast_mode = MDG_MULTICAST_LIST;
    }
}

static int start_port(struct mdg_port *port, const jint link_timeout_millis)
{
    int result = rte_eth_dev_start(port->port_id);
    if (result != 0)
    {
        return result;
    }
    port->started = 1;
    result = wait_for_link(port->port_id, link_timeout_millis);
    if (result != 0)
    {
        return result;
    }
    enable_multicast(port);
    if (port->hw_timestamp_flag != 0 && port->hw_clock.mult == 0)
    {
        if (mdg_clock_calibrate_device(&port->hw_clock, port->port_id) != 0)
        {
            port->hw_timestamp_flag = 0;
        }
        port->hw_clock.to_epoch_ns = port->epoch_offset_ns;
    }
    if (mdg_igmp_send(port, MDG_IGMP_CHANGE_TO_EXCLUDE) > 0)
    {
        port->report_due_tsc = rte_rdtsc() + rte_get_tsc_hz() * MDG_IGMP_REPEAT_SECONDS;
    }
    return 0;
}

/*
 * Starts the port, waits up to link_timeout_millis for its link, lets multicast in and joins the groups. Receive
 * timestamps are CLOCK_MONOTONIC plus epoch_offset_ns: the offset of the caller's epoch clock (mdgate_clock.c).
 */
static jint port_start0(JNIEnv *env, jclass clazz, jlong handle, jint link_timeout_millis, jlong epoch_offset_ns)
{
    (void)env;
    (void)clazz;
    if (handle <= 0 || link_timeout_millis < 0)
    {
        return -EINVAL;
    }
    port_of(handle)->epoch_offset_ns = epoch_offset_ns;
    mdg_log_capture_begin();
    const int result = start_port(port_of(handle), link_timeout_millis);
    mdg_log_capture_end();
    return negative_errno(result);
}

/* Leaves the groups, stops and closes the port, detaches its device and frees everything. */
static jint port_close0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    if (handle <= 0)
    {
        return -EINVAL;
    }
    struct mdg_port *port = port_of(handle);
    mdg_log_capture_begin();
    int result = 0;
    if (port->started)
    {
        if (mdg_igmp_send(port, MDG_IGMP_CHANGE_TO_INCLUDE) > 0)
        {
            sleep_nanos(LEAVE_DRAIN_NANOS);
        }
        result = rte_eth_dev_stop(port->port_id);
    }
    if (port->pending_next < port->pending_count)
    {
        rte_pktmbuf_free_bulk(&port->pending[port->pending_next], port->pending_count - port->pending_next);
        port->pending_next = port->pending_count;
    }
    release(port, 1);
    mdg_log_capture_end();
    return negative_errno(result);
}

/* One burst into the region at address (capacity bytes, laid out as RxBurstDescriptor says). */
static jint rx_burst0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jint capacity)
{
    (void)env;
    (void)clazz;
    return mdg_rx(port_of(handle), (uint8_t *)(uintptr_t)address, (uint32_t)capacity);
}

/* Copies the counters, the port's statistics and its state into out (DpdkStatsDescriptor); returns the count. */
static jint stats0(JNIEnv *env, jclass clazz, jlong handle, jlongArray out)
{
    (void)clazz;
    if (handle <= 0 || out == NULL || (*env)->GetArrayLength(env, out) < STATS)
    {
        return -EINVAL;
    }
    const struct mdg_port *port = port_of(handle);
    jlong values[STATS];
    for (int i = 0; i < MDG_COUNTERS; i++)
    {
        values[i] = (jlong)__atomic_load_n(&port->counters[i], __ATOMIC_RELAXED);
    }
    struct rte_eth_stats stats;
    memset(&stats, 0, sizeof(stats));
    rte_eth_stats_get(port->port_id, &stats);
    values[STAT_IPACKETS] = (jlong)stats.ipackets;
    values[STAT_IBYTES] = (jlong)stats.ibytes;
    values[STAT_IMISSED] = (jlong)stats.imissed;
    values[STAT_IERRORS] = (jlong)stats.ierrors;
    values[STAT_RX_NOMBUF] = (jlong)stats.rx_nombuf;
    values[STAT_OPACKETS] = (jlong)stats.opackets;
    values[STAT_OERRORS] = (jlong)stats.oerrors;
    values[STAT_HW_TIMESTAMPS] = port->hw_timestamp_flag != 0;
    values[STAT_MULTICAST_MODE] = port->multicast_mode;
    struct rte_eth_link link;
    memset(&link, 0, sizeof(link));
    rte_eth_link_get_nowait(port->port_id, &link);
    values[STAT_LINK_UP] = link.link_status == RTE_ETH_LINK_UP;
    values[STAT_LINK_SPEED] = link.link_speed;
    values[STAT_SOCKET] = port->socket;
    jlong mac = 0;
    for (int i = 0; i < RTE_ETHER_ADDR_LEN; i++)
    {
        mac = (mac << 8) | port->mac.addr_bytes[i];
    }
    values[STAT_MAC] = mac;
    values[STAT_PORT_ID] = port->port_id;
    (*env)->SetLongArrayRegion(env, out, 0, STATS, values);
    return STATS;
}

/* Sends one frame (length bytes at address) through TX queue 0: 1 sent, 0 the queue was full, or a -errno. */
static jint send_frame0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jint length)
{
    (void)env;
    (void)clazz;
    if (handle <= 0 || length <= 0 || length > UINT16_MAX)
    {
        return -EINVAL;
    }
    struct mdg_port *port = port_of(handle);
    struct rte_mbuf *m = rte_pktmbuf_alloc(port->pool);
    if (m == NULL)
    {
        return -ENOBUFS;
    }
    uint8_t *to = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)length);
    if (to == NULL)
    {
        rte_pktmbuf_free(m);
        return -EMSGSIZE;
    }
    memcpy(to, (const void *)(uintptr_t)address, (size_t)length);
    if (rte_eth_tx_burst(port->port_id, 0, &m, 1) != 1)
    {
        rte_pktmbuf_free(m);
        return 0;
    }
    return 1;
}

/* The names of every port, comma-separated, for error messages. */
static jstring port_names0(JNIEnv *env, jclass clazz)
{
    (void)clazz;
    char names[1024] = "";
    size_t used = 0;
    uint16_t port_id;
    RTE_ETH_FOREACH_DEV(port_id)
    {
        char name[RTE_ETH_NAME_MAX_LEN];
        if (rte_eth_dev_get_name_by_port(port_id, name) == 0 && used < sizeof(names))
        {
            used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", used == 0 ? "" : ",", name);
        }
    }
    return (*env)->NewStringUTF(env, names);
}

static jstring port_driver0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)clazz;
    return (*env)->NewStringUTF(env, handle <= 0 ? "" : port_of(handle)->driver);
}

/* Builds the IGMPv3 report start would send into the region at address, for tests; returns its length. */
static jint igmp_report0(JNIEnv *env, jclass clazz, jlong handle, jint record_type, jlong address, jint capacity)
{
    (void)env;
    (void)clazz;
    if (handle <= 0 || capacity < 0)
    {
        return -EINVAL;
    }
    return mdg_igmp_build(port_of(handle), record_type, (uint8_t *)(uintptr_t)address, (uint32_t)capacity);
}

/*
 * Describes, for `mdgate ports`, the first valid port whose id is at least from_id: fills info[0..5] with its id,
 * NUMA socket (-1 unknown), MAC address (48 bits, first byte highest), link status (1 up), link speed in Mb/s
 * (0 none, -1 unknown) and maximum receive queues, and returns "name<TAB>driver"; NULL when there is none.
 */
static jstring port_info0(JNIEnv *env, jclass clazz, jint from_id, jlongArray info)
{
    (void)clazz;
    if (from_id < 0 || from_id >= RTE_MAX_ETHPORTS || info == NULL || (*env)->GetArrayLength(env, info) < 6)
    {
        return NULL;
    }
    const uint64_t port_id = rte_eth_find_next((uint64_t)from_id);
    if (port_id >= RTE_MAX_ETHPORTS)
    {
        return NULL;
    }
    char name[RTE_ETH_NAME_MAX_LEN] = "";
    rte_eth_dev_get_name_by_port((uint16_t)port_id, name);
    struct rte_eth_dev_info dev_info;
    memset(&dev_info, 0, sizeof(dev_info));
    const int info_result = rte_eth_dev_info_get((uint16_t)port_id, &dev_info);
    struct rte_ether_addr mac;
    memset(&mac, 0, sizeof(mac));
    rte_eth_macaddr_get((uint16_t)port_id, &mac);
    struct rte_eth_link link;
    memset(&link, 0, sizeof(link));
    const int link_result = rte_eth_link_get_nowait((uint16_t)port_id, &link);
    jlong mac_value = 0;
    for (int i = 0; i < RTE_ETHER_ADDR_LEN; i++)
    {
        mac_value = (mac_value << 8) | mac.addr_bytes[i];
    }
    const jlong values[6] = {
        (jlong)port_id,
        (jlong)rte_eth_dev_socket_id((uint16_t)port_id),
        mac_value,
        link_result == 0 ? (jlong)link.link_status : 0,
        link_result != 0 || link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? -1 : (jlong)link.link_speed,
        info_result == 0 ? (jlong)dev_info.max_rx_queues : 0,
    };
    (*env)->SetLongArrayRegion(env, info, 0, 6, values);
    char text[RTE_ETH_NAME_MAX_LEN + 64];
    snprintf(text, sizeof(text), "%s\t%s", name,
        info_result == 0 && dev_info.driver_name != NULL ? dev_info.driver_name : "");
    return (*env)->NewStringUTF(env, text);
}

static const JNINativeMethod port_methods[] = {
    { "portOpen0", "(Ljava/lang/String;Ljava/lang/String;[I[I)J", (void *)port_open0 },
    { "portStart0", "(JIJ)I", (void *)port_start0 },
    { "portClose0", "(J)I", (void *)port_close0 },
    { "rxBurst0", "(JJI)I", (void *)rx_burst0 },
    { "stats0", "(J[J)I", (void *)stats0 },
    { "sendFrame0", "(JJI)I", (void *)send_frame0 },
    { "portNames0", "()Ljava/lang/String;", (void *)port_names0 },
    { "portDriver0", "(J)Ljava/lang/String;", (void *)port_driver0 },
    { "igmpReport0", "(JIJI)I", (void *)igmp_report0 },
    { "portInfo0", "(I[J)Ljava/lang/String;", (void *)port_info0 },
};

const struct mdg_natives mdg_port_natives = MDG_NATIVES(port_methods);
