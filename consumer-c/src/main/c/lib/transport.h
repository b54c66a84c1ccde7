/*
 * The transport layer under the consumer's protocol logic: a struct of operations, as the Java side's
 * EgressTransport / ControlChannel / RemoteRegion / MulticastSubscription / SharedLog. shm.c implements it over Unix
 * sockets and files under a directory; a verbs implementation maps each operation to one verbs call (connect:
 * RDMA-CM, offer/poll: RC send/receive completions, register_region: ibv_reg_mr, write_long: an inline RDMA Write,
 * stream: a UD queue pair) and has no shared log (open_shared_log returns MDGATE_E_REGION).
 *
 * Every operation returns 0 or a count on success and a negative MDGATE_E_* code on failure; set-up operations
 * write what went wrong into the transport's error text. Internal to the library.
 */
#ifndef MDGATE_TRANSPORT_H
#define MDGATE_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

typedef struct mdg_transport mdg_transport;

/* A region this process registered for the peer to write: base is where its bytes are mapped here. */
typedef struct mdg_local_region
{
    uint8_t *base;
    size_t length;
    uint64_t address;
    int32_t key;
    void *mapping;
    size_t mapping_length;
    char path[256];
} mdg_local_region;

/* A region of the peer's, mapped for one-sided writes. */
typedef struct mdg_remote_region
{
    uint8_t *base;
    size_t length;
    void *mapping;
    size_t mapping_length;
} mdg_remote_region;

/* A file of the publisher's mapped read-only (the shared tick log). */
typedef struct mdg_mapped_file
{
    const uint8_t *base;
    size_t length;
} mdg_mapped_file;

typedef void (*mdg_message_handler)(void *context, const uint8_t *message, int32_t length);
typedef void (*mdg_datagram_handler)(void *context, const uint8_t *datagram, int32_t length);

typedef struct mdg_transport_ops
{
    const char *name;
    /* Control channel: reliable, ordered, message-oriented, never blocks once connected. */
    int (*connect_control)(mdg_transport *transport, int64_t timeout_ns);
    int (*offer)(mdg_transport *transport, const uint8_t *message, int32_t length);
    /* Delivers whole messages (at most limit); MDGATE_E_NOT_CONNECTED / _E_PROTOCOL when the channel is gone. */
    int (*poll)(mdg_transport *transport, mdg_message_handler handler, void *context, int limit);
    void (*close_control)(mdg_transport *transport);
    int32_t (*max_message_length)(const mdg_transport *transport);
    /* Regions */
    int (*register_region)(mdg_transport *transport, size_t length, mdg_local_region *region);
    void (*release_region)(mdg_transport *transport, mdg_local_region *region);
    int (*open_remote)(mdg_transport *transport, uint64_t address, int32_t key, int64_t length,
        mdg_remote_region *region);
    /* An ordered 8-byte write into the peer's region (release store over shm, inline RDMA Write over verbs). */
    int (*write_long)(mdg_transport *transport, mdg_remote_region *region, int32_t offset, int64_t value);
    void (*close_remote)(mdg_transport *transport, mdg_remote_region *region);
    /* The shared tick log of a stream, mapped read-only; MDGATE_E_REGION when the transport has none. */
    int (*open_shared_log)(mdg_transport *transport, int32_t stream_id, mdg_mapped_file *log);
    void (*close_mapped)(mdg_transport *transport, mdg_mapped_file *file);
    /* The multicast stream: datagrams whole, unreliable; loss counted by the transport where it can tell. */
    int (*open_stream)(mdg_transport *transport, int32_t stream_id);
    int (*poll_stream)(mdg_transport *transport, mdg_datagram_handler handler, void *context, int limit);
    int64_t (*stream_loss)(const mdg_transport *transport);
    void (*close_stream)(mdg_transport *transport);
    /* What the last failed set-up operation said. */
    const char *(*error)(const mdg_transport *transport);
    void (*destroy)(mdg_transport *transport);
} mdg_transport_ops;

struct mdg_transport
{
    const mdg_transport_ops *ops;
};

/*
 * The shm transport of instance `instance` under `directory`: control socket <instance>-control.sock, regions
 * <instance>-region-<hex>, the shared log <instance>-ticks-<id>, the stream <instance>-stream-<id>. Its buffers
 * (a control queue of queue_length bytes each way) are allocated here, once.
 */
int mdg_shm_transport_create(const char *directory, const char *instance, int32_t max_message_length,
    int32_t queue_length, mdg_transport **transport, char *error, size_t error_length);

#endif
