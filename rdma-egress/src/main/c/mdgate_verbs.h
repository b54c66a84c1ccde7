/*
 * Shared declarations of libmdgate-verbs, the JNI library of the verbs egress transport, over rdma-core
 * (libibverbs + librdmacm). Every native is a static function reached through a RegisterNatives table.
 *
 * Conventions: set-up calls return a positive handle (a pointer) or a -errno and leave a description of what
 * failed in a thread-local text (mdg_last_error); hot-path calls return a count or a -errno and never block,
 * allocate or print.
 */
#ifndef MDGATE_VERBS_H
#define MDGATE_VERBS_H

#include <jni.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* Must equal VerbsNative.ABI_VERSION: bump both when a native signature or a shared layout changes. */
#define MDGATE_VERBS_ABI_VERSION 2

/* Received messages and datagrams are handed to Java as frames: a 4-byte length, the bytes, padding to 8. */
#define MDG_FRAME_HEADER 4
#define MDG_FRAME_ALIGN 8

/* The UD receive buffers hold a 40-byte global routing header before the datagram. */
#define MDG_GRH_LENGTH 40

/* Sends and writes up to this length are copied into the queue's own registered ring at post time. */
#define MDG_BOUNCE_MAX 4096

struct mdg_natives
{
    const JNINativeMethod *methods;
    jint count;
};

#define MDG_NATIVES(table) { (table), (jint)(sizeof(table) / sizeof((table)[0])) }

/* An opened device: the verbs context librdmacm uses for it, one protection domain, port facts. */
struct mdg_dev
{
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_context **cm_devices; /* from rdma_get_devices, released at close */
    uint8_t port;
    uint32_t active_mtu;
};

/*
 * A send queue with its own registered byte ring: a post copies small payloads into the ring (so the caller may
 * reuse its buffer at once), signals every few work requests, and reclaims ring bytes when a signaled
 * completion arrives (completions of one send queue come in posting order).
 */
struct mdg_sq
{
    struct ibv_qp *qp;
    struct ibv_cq *cq;
    struct ibv_mr *mr;
    uint8_t *ring;
    uint64_t ring_bytes;
    uint64_t head;      /* next free byte position (unbounded, modulo ring_bytes) */
    uint64_t tail;      /* bytes before this position are free again */
    uint64_t *ends;     /* per work request (posted % depth): head after it */
    uint32_t depth;
    uint64_t posted;
    uint64_t completed;
    uint32_t unsignaled;
    uint32_t max_inline;
    int broken;
};

/* Posted receive buffers in one registered region, reposted as soon as their bytes are copied out. */
struct mdg_rq
{
    struct ibv_qp *qp;
    struct ibv_cq *cq;
    struct ibv_mr *mr;
    uint8_t *buffers;
    uint32_t count;
    uint32_t buffer_length;
    int broken;
};

/* thread-local description of the last set-up failure */
void mdg_set_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
const char *mdg_last_error(void);

/* RDMA-CM: waits up to timeout_ms for the next event of a blocking channel; -ETIMEDOUT when none came. */
int mdg_wait_event(struct rdma_event_channel *channel, int timeout_ms, struct rdma_cm_event **event);
int mdg_parse_ipv4(const char *ip, int port, struct sockaddr_in *out);
int mdg_set_nonblocking(int fd);

int mdg_sq_init(struct mdg_sq *sq, struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_cq *cq, uint32_t depth,
    uint64_t ring_bytes, uint32_t max_inline);
void mdg_sq_destroy(struct mdg_sq *sq);
/*
 * Posts wr (opcode and remote fields filled by the caller) with one sge over [src, src + length): inline when it
 * fits, else copied into the ring up to MDG_BOUNCE_MAX, else zero-copy with lkey. Returns 0, -EAGAIN (queue or
 * ring full, nothing posted), -EMSGSIZE or -ENOTCONN.
 */
int mdg_sq_post_copy(struct mdg_sq *sq, struct ibv_send_wr *wr, struct ibv_sge *sge, const void *src,
    uint32_t length, uint32_t lkey);
/* Reclaims completed work; returns -ENOTCONN once a work request failed. */
int mdg_sq_reap(struct mdg_sq *sq);

int mdg_rq_init(struct mdg_rq *rq, struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_cq *cq, uint32_t count,
    uint32_t buffer_length);
void mdg_rq_destroy(struct mdg_rq *rq);
/* Copies up to limit received messages (skipping skip bytes of each) into dst as frames; -ENOTCONN on error. */
int mdg_rq_poll(struct mdg_rq *rq, uint8_t *dst, uint32_t capacity, int limit, uint32_t skip);

extern const struct mdg_natives mdg_device_natives;
extern const struct mdg_natives mdg_rc_natives;
extern const struct mdg_natives mdg_ud_natives;

#endif
