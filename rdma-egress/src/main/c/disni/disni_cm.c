/*
 * The RDMA-CM half of DiSNI's NativeDispatcher (what RdmaCmNat calls), plus the version and layout queries its
 * constructor makes: event channels, ids, the id's queue pair, address and route resolution, connection set-up
 * and teardown, and CM events with a timeout.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "disni.h"

#define PTR(type, id) ((type *)(uintptr_t)(id))
#define ID(ptr) ((jlong)(uintptr_t)(ptr))

/* Upper bounds on what connect/accept ask for; the device's own limits lower them. */
#define MAX_RD_ATOMIC 16
#define MAX_SGE 4

static jlong create_event_channel0(JNIEnv *env, jobject self)
{
    (void)self;
    struct rdma_event_channel *channel = rdma_create_event_channel();
    if (channel == NULL)
    {
        disni_throw(env, "rdma_create_event_channel", errno != 0 ? errno : ENODEV);
        return -1;
    }
    return ID(channel);
}

static jlong create_id0(JNIEnv *env, jobject self, jlong channel, jshort ps)
{
    (void)self;
    struct rdma_cm_id *id = NULL;
    if (rdma_create_id(PTR(struct rdma_event_channel, channel), &id, NULL, (enum rdma_port_space)(uint16_t)ps) != 0)
    {
        char what[64];
        snprintf(what, sizeof(what), "rdma_create_id(port space 0x%x)", (unsigned)(uint16_t)ps);
        disni_throw(env, what, errno);
        return -1;
    }
    return ID(id);
}

/* The send/receive scatter-gather limit: MAX_SGE, or less when the device offers fewer. */
static uint32_t sge_limit(struct ibv_context *ctx)
{
    struct ibv_device_attr attr;
    if (ctx == NULL || ibv_query_device(ctx, &attr) != 0 || attr.max_sge <= 0)
    {
        return 1;
    }
    return attr.max_sge < MAX_SGE ? (uint32_t)attr.max_sge : MAX_SGE;
}

static jlong create_qp0(JNIEnv *env, jobject self, jlong cm_id, jlong pd, jlong send_cq, jlong recv_cq,
    jint qp_type, jint max_send_wr, jint max_recv_wr, jint max_inline)
{
    (void)self;
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cm_id);
    const uint32_t sge = sge_limit(id->verbs);
    struct ibv_qp_init_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.send_cq = PTR(struct ibv_cq, send_cq);
    attr.recv_cq = PTR(struct ibv_cq, recv_cq);
    attr.qp_type = (enum ibv_qp_type)qp_type;
    attr.cap.max_send_wr = (uint32_t)max_send_wr;
    attr.cap.max_recv_wr = (uint32_t)max_recv_wr;
    attr.cap.max_send_sge = sge;
    attr.cap.max_recv_sge = sge;
    attr.cap.max_inline_data = (uint32_t)max_inline;
    attr.sq_sig_all = 0;
    if (rdma_create_qp(id, PTR(struct ibv_pd, pd), &attr) != 0)
    {
        char what[128];
        snprintf(what, sizeof(what), "rdma_create_qp(type %d, send_wr %d, recv_wr %d, inline %d)",
            (int)qp_type, (int)max_send_wr, (int)max_recv_wr, (int)max_inline);
        disni_throw(env, what, errno);
        return -1;
    }
    return ID(id->qp);
}

/* DiSNI hands IPv4 addresses over as a struct sockaddr_in in a buffer of DISNI_SOCKADDR_SIZE bytes. */
static void describe(char *out, size_t size, const char *call, jlong addr)
{
    const struct sockaddr_in *in = PTR(const struct sockaddr_in, addr);
    char ip[INET_ADDRSTRLEN] = "?";
    if (in != NULL)
    {
        inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
    }
    snprintf(out, size, "%s(%s:%u)", call, ip, in != NULL ? (unsigned)ntohs(in->sin_port) : 0U);
}

static void bind_addr0(JNIEnv *env, jobject self, jlong cm_id, jlong addr)
{
    (void)self;
    if (rdma_bind_addr(PTR(struct rdma_cm_id, cm_id), PTR(struct sockaddr, addr)) != 0)
    {
        const int err = errno;
        char what[96];
        describe(what, sizeof(what), "rdma_bind_addr", addr);
        disni_throw(env, what, err);
    }
}

static void listen0(JNIEnv *env, jobject self, jlong cm_id, jint backlog)
{
    (void)self;
    if (rdma_listen(PTR(struct rdma_cm_id, cm_id), backlog) != 0)
    {
        disni_throw(env, "rdma_listen", errno);
    }
}

static void resolve_addr0(JNIEnv *env, jobject self, jlong cm_id, jlong src, jlong dst, jint timeout_ms)
{
    (void)self;
    if (rdma_resolve_addr(PTR(struct rdma_cm_id, cm_id), PTR(struct sockaddr, src), PTR(struct sockaddr, dst),
            timeout_ms) != 0)
    {
        const int err = errno;
        char what[96];
        describe(what, sizeof(what), "rdma_resolve_addr", dst);
        disni_throw(env, what, err);
    }
}

static void resolve_route0(JNIEnv *env, jobject self, jlong cm_id, jint timeout_ms)
{
    (void)self;
    if (rdma_resolve_route(PTR(struct rdma_cm_id, cm_id), timeout_ms) != 0)
    {
        disni_throw(env, "rdma_resolve_route", errno);
    }
}

/*
 * Waits up to timeout_ms (negative: for ever) for the channel's next event, stores the listening id (0 unless a
 * connection request) and the event's id at the two addresses, acknowledges the event (Java keeps nothing that
 * points into it) and returns its type; -1 when nothing came in time or the wait failed.
 */
static jint get_cm_event0(JNIEnv *env, jobject self, jlong channel, jlong listen_out, jlong client_out,
    jint timeout_ms)
{
    (void)env;
    (void)self;
    struct rdma_event_channel *ch = PTR(struct rdma_event_channel, channel);
    struct pollfd pfd = { .fd = ch->fd, .events = POLLIN, .revents = 0 };
    int ready;
    do
    {
        ready = poll(&pfd, 1, timeout_ms < 0 ? -1 : timeout_ms);
    }
    while (ready < 0 && errno == EINTR);
    if (ready <= 0)
    {
        return -1;
    }
    struct rdma_cm_event *event = NULL;
    if (rdma_get_cm_event(ch, &event) != 0)
    {
        return -1;
    }
    const jint type = (jint)event->event;
    *PTR(uint64_t, listen_out) = (uint64_t)(uintptr_t)event->listen_id;
    *PTR(uint64_t, client_out) = (uint64_t)(uintptr_t)event->id;
    rdma_ack_cm_event(event);
    return type;
}

static void conn_param(struct rdma_cm_id *id, struct rdma_conn_param *param, jint retry, jint rnr_retry)
{
    memset(param, 0, sizeof(*param));
    param->responder_resources = 1;
    param->initiator_depth = 1;
    struct ibv_device_attr attr;
    if (id->verbs != NULL && ibv_query_device(id->verbs, &attr) == 0)
    {
        param->responder_resources = (uint8_t)(attr.max_qp_rd_atom < MAX_RD_ATOMIC ? attr.max_qp_rd_atom
                                                                                  : MAX_RD_ATOMIC);
        param->initiator_depth = (uint8_t)(attr.max_qp_init_rd_atom < MAX_RD_ATOMIC ? attr.max_qp_init_rd_atom
                                                                                   : MAX_RD_ATOMIC);
    }
    param->retry_count = (uint8_t)retry;
    param->rnr_retry_count = (uint8_t)rnr_retry;
}

static void connect0(JNIEnv *env, jobject self, jlong cm_id, jint retry, jint rnr_retry, jlong private_data,
    jbyte private_data_len)
{
    (void)self;
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cm_id);
    struct rdma_conn_param param;
    conn_param(id, &param, retry, rnr_retry);
    param.private_data = PTR(const void, private_data);
    param.private_data_len = private_data != 0 ? (uint8_t)private_data_len : 0;
    if (rdma_connect(id, &param) != 0)
    {
        disni_throw(env, "rdma_connect", errno);
    }
}

static void accept0(JNIEnv *env, jobject self, jlong cm_id, jint retry, jint rnr_retry)
{
    (void)self;
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cm_id);
    struct rdma_conn_param param;
    conn_param(id, &param, retry, rnr_retry);
    if (rdma_accept(id, &param) != 0)
    {
        disni_throw(env, "rdma_accept", errno);
    }
}

/* Events are acknowledged as they are taken (get_cm_event0): nothing is left to acknowledge here. */
static jint ack_cm_event0(JNIEnv *env, jobject self, jint event)
{
    (void)env;
    (void)self;
    (void)event;
    return 0;
}

static jint disconnect0(JNIEnv *env, jobject self, jlong cm_id)
{
    (void)env;
    (void)self;
    return rdma_disconnect(PTR(struct rdma_cm_id, cm_id)) == 0 ? 0 : -errno;
}

static jint destroy_event_channel0(JNIEnv *env, jobject self, jlong channel)
{
    (void)env;
    (void)self;
    rdma_destroy_event_channel(PTR(struct rdma_event_channel, channel));
    return 0;
}

static jint destroy_cm_id0(JNIEnv *env, jobject self, jlong cm_id)
{
    (void)env;
    (void)self;
    return rdma_destroy_id(PTR(struct rdma_cm_id, cm_id)) == 0 ? 0 : -errno;
}

static jint destroy_qp0(JNIEnv *env, jobject self, jlong cm_id)
{
    (void)env;
    (void)self;
    rdma_destroy_qp(PTR(struct rdma_cm_id, cm_id));
    return 0;
}

static jint copy_ipv4(const struct sockaddr *from, jlong out)
{
    if (from == NULL || from->sa_family != AF_INET)
    {
        return -EAFNOSUPPORT;
    }
    memcpy(PTR(void, out), from, sizeof(struct sockaddr_in));
    return 0;
}

static jint get_src_addr0(JNIEnv *env, jobject self, jlong cm_id, jlong out)
{
    (void)env;
    (void)self;
    return copy_ipv4(rdma_get_local_addr(PTR(struct rdma_cm_id, cm_id)), out);
}

static jint get_dst_addr0(JNIEnv *env, jobject self, jlong cm_id, jlong out)
{
    (void)env;
    (void)self;
    return copy_ipv4(rdma_get_peer_addr(PTR(struct rdma_cm_id, cm_id)), out);
}

/* Destroys the id's queue pair (if any) and the id. */
static jint destroy_ep0(JNIEnv *env, jobject self, jlong cm_id)
{
    (void)env;
    (void)self;
    rdma_destroy_ep(PTR(struct rdma_cm_id, cm_id));
    return 0;
}

/* The device context an id is bound to (after bind, resolve or a connection request); -1 while it has none. */
static jlong get_context0(JNIEnv *env, jobject self, jlong cm_id)
{
    (void)env;
    (void)self;
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cm_id);
    return id->verbs != NULL ? ID(id->verbs) : -1;
}

static jint get_version0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return DISNI_JVERBS_VERSION;
}

static jint get_sockaddr_in_size0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return DISNI_SOCKADDR_SIZE;
}

static jint get_recv_wr_size0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return (jint)sizeof(struct ibv_recv_wr);
}

static jint get_send_wr_size0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return DISNI_SEND_WR_SIZE;
}

static jint get_sge_size0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return (jint)sizeof(struct ibv_sge);
}

static jint get_wc_size0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return (jint)sizeof(struct ibv_wc);
}

static jint get_remote_address_offset0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return DISNI_REMOTE_ADDR_OFFSET;
}

static jint get_rkey_offset0(JNIEnv *env, jobject self)
{
    (void)env;
    (void)self;
    return DISNI_RKEY_OFFSET;
}

_Static_assert(sizeof(struct sockaddr_in) <= DISNI_SOCKADDR_SIZE, "an IPv4 address fits DiSNI's buffer");

static const JNINativeMethod cm_methods[] = {
    { "_createEventChannel", "()J", (void *)create_event_channel0 },
    { "_createId", "(JS)J", (void *)create_id0 },
    { "_createQP", "(JJJJIIII)J", (void *)create_qp0 },
    { "_bindAddr", "(JJ)V", (void *)bind_addr0 },
    { "_listen", "(JI)V", (void *)listen0 },
    { "_resolveAddr", "(JJJI)V", (void *)resolve_addr0 },
    { "_resolveRoute", "(JI)V", (void *)resolve_route0 },
    { "_getCmEvent", "(JJJI)I", (void *)get_cm_event0 },
    { "_connect", "(JIIJB)V", (void *)connect0 },
    { "_accept", "(JII)V", (void *)accept0 },
    { "_ackCmEvent", "(I)I", (void *)ack_cm_event0 },
    { "_disconnect", "(J)I", (void *)disconnect0 },
    { "_destroyEventChannel", "(J)I", (void *)destroy_event_channel0 },
    { "_destroyCmId", "(J)I", (void *)destroy_cm_id0 },
    { "_destroyQP", "(J)I", (void *)destroy_qp0 },
    { "_getSrcAddr", "(JJ)I", (void *)get_src_addr0 },
    { "_getDstAddr", "(JJ)I", (void *)get_dst_addr0 },
    { "_destroyEp", "(J)I", (void *)destroy_ep0 },
    { "_getContext", "(J)J", (void *)get_context0 },
    { "_getVersion", "()I", (void *)get_version0 },
    { "_getSockAddrInSize", "()I", (void *)get_sockaddr_in_size0 },
    { "_getIbvRecvWRSize", "()I", (void *)get_recv_wr_size0 },
    { "_getIbvSendWRSize", "()I", (void *)get_send_wr_size0 },
    { "_getIbvSgeSize", "()I", (void *)get_sge_size0 },
    { "_getIbvWCSize", "()I", (void *)get_wc_size0 },
    { "_getRemoteAddressOffset", "()I", (void *)get_remote_address_offset0 },
    { "_getRKeyOffset", "()I", (void *)get_rkey_offset0 },
};

const struct disni_natives disni_cm_natives =
    DISNI_NATIVES("com/ibm/disni/verbs/impl/NativeDispatcher", cm_methods);
