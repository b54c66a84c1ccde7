/*
 * Control connections: RDMA-CM listen / accept / connect of reliable-connected queue pairs, each with its own
 * event channel (non-blocking once established, so a poll notices a disconnect without waiting), a send queue
 * with pre-built work requests for SEND and RDMA WRITE (only their changing fields are set per post), and posted
 * receive buffers. Every RDMA-CM wait during set-up is bounded by the caller's timeout.
 *
 * params (int[]): [0] send queue depth, [1] receive buffers, [2] largest message, [3] send ring bytes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mdgate_verbs.h"

#define PARAM_SEND_DEPTH 0
#define PARAM_RECV_DEPTH 1
#define PARAM_MAX_MESSAGE 2
#define PARAM_RING_BYTES 3
#define PARAM_COUNT 4
#define WANTED_INLINE 64

struct mdg_listener
{
    struct mdg_dev *dev;
    struct rdma_event_channel *channel;
    struct rdma_cm_id *id;
    /* Connection requests whose requester had given up before they were taken (see accept0). */
    jlong stale;
};

struct mdg_conn
{
    struct mdg_dev *dev;
    struct rdma_event_channel *channel;
    struct rdma_cm_id *id;
    struct ibv_cq *send_cq;
    struct ibv_cq *recv_cq;
    struct mdg_sq sq;
    struct mdg_rq rq;
    struct ibv_send_wr send_wr;
    struct ibv_sge send_sge;
    struct ibv_send_wr write_wr;
    struct ibv_sge write_sge;
    uint32_t max_message;
    int disconnected;
    int has_qp;
};

static void describe_address(const struct sockaddr *address, char *out, size_t length)
{
    if (address != NULL && address->sa_family == AF_INET)
    {
        const struct sockaddr_in *in = (const struct sockaddr_in *)address;
        char ip[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
        snprintf(out, length, "%s:%u", ip, ntohs(in->sin_port));
    }
    else
    {
        snprintf(out, length, "?");
    }
}

static int read_params(JNIEnv *env, jintArray jparams, jint *params)
{
    if ((*env)->GetArrayLength(env, jparams) < PARAM_COUNT)
    {
        return -EINVAL;
    }
    (*env)->GetIntArrayRegion(env, jparams, 0, PARAM_COUNT, params);
    if (params[PARAM_SEND_DEPTH] < 32 || params[PARAM_RECV_DEPTH] < 4 || params[PARAM_MAX_MESSAGE] < 64 ||
        params[PARAM_MAX_MESSAGE] > MDG_BOUNCE_MAX || params[PARAM_RING_BYTES] < 16 * MDG_BOUNCE_MAX)
    {
        mdg_set_error("connection parameters out of range");
        return -EINVAL;
    }
    return 0;
}

static void conn_destroy(struct mdg_conn *conn)
{
    if (conn->has_qp)
    {
        rdma_destroy_qp(conn->id);
        conn->has_qp = 0;
    }
    mdg_sq_destroy(&conn->sq);
    mdg_rq_destroy(&conn->rq);
    if (conn->send_cq != NULL)
    {
        ibv_destroy_cq(conn->send_cq);
    }
    if (conn->recv_cq != NULL)
    {
        ibv_destroy_cq(conn->recv_cq);
    }
    if (conn->id != NULL)
    {
        rdma_destroy_id(conn->id);
    }
    if (conn->channel != NULL)
    {
        rdma_destroy_event_channel(conn->channel);
    }
    free(conn);
}

/* Queue pair, completion queues, send ring and posted receives for conn->id, which is bound to conn->dev. */
static int conn_resources(struct mdg_conn *conn, const jint *params)
{
    struct rdma_cm_id *id = conn->id;
    if (id->verbs != conn->dev->ctx)
    {
        mdg_set_error("the connection runs over RDMA device %s, not the transport's %s",
            id->verbs == NULL ? "(none)" : ibv_get_device_name(id->verbs->device),
            ibv_get_device_name(conn->dev->ctx->device));
        return -ENODEV;
    }
    conn->send_cq = ibv_create_cq(id->verbs, params[PARAM_SEND_DEPTH], NULL, NULL, 0);
    conn->recv_cq = ibv_create_cq(id->verbs, params[PARAM_RECV_DEPTH], NULL, NULL, 0);
    if (conn->send_cq == NULL || conn->recv_cq == NULL)
    {
        const int err = errno != 0 ? errno : ENOMEM;
        mdg_set_error("ibv_create_cq: %s", strerror(err));
        return -err;
    }
    struct ibv_qp_init_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.send_cq = conn->send_cq;
    attr.recv_cq = conn->recv_cq;
    attr.qp_type = IBV_QPT_RC;
    attr.sq_sig_all = 0;
    attr.cap.max_send_wr = (uint32_t)params[PARAM_SEND_DEPTH];
    attr.cap.max_recv_wr = (uint32_t)params[PARAM_RECV_DEPTH];
    attr.cap.max_send_sge = 1;
    attr.cap.max_recv_sge = 1;
    attr.cap.max_inline_data = WANTED_INLINE;
    if (rdma_create_qp(id, conn->dev->pd, &attr) != 0)
    {
        attr.cap.max_inline_data = 0;
        if (rdma_create_qp(id, conn->dev->pd, &attr) != 0)
        {
            const int err = errno;
            mdg_set_error("rdma_create_qp (RC, %d send / %d receive work requests): %s",
                params[PARAM_SEND_DEPTH], params[PARAM_RECV_DEPTH], strerror(err));
            return -err;
        }
    }
    conn->has_qp = 1;
    conn->max_message = (uint32_t)params[PARAM_MAX_MESSAGE];
    int result = mdg_sq_init(&conn->sq, conn->dev->pd, id->qp, conn->send_cq, (uint32_t)params[PARAM_SEND_DEPTH],
        (uint64_t)params[PARAM_RING_BYTES], attr.cap.max_inline_data);
    if (result == 0)
    {
        result = mdg_rq_init(&conn->rq, conn->dev->pd, id->qp, conn->recv_cq, (uint32_t)params[PARAM_RECV_DEPTH],
            conn->max_message);
    }
    conn->send_wr.opcode = IBV_WR_SEND;
    conn->write_wr.opcode = IBV_WR_RDMA_WRITE;
    return result;
}

static void conn_param(struct rdma_conn_param *param)
{
    memset(param, 0, sizeof(*param));
    param->responder_resources = 0;
    param->initiator_depth = 0;
    param->retry_count = 7;
    /* 7 = retry for ever while the peer has no receive posted (a stopped consumer resumes where it was). */
    param->rnr_retry_count = 7;
}

static int expect_event(struct rdma_event_channel *channel, enum rdma_cm_event_type wanted, int timeout_ms,
    const char *step)
{
    struct rdma_cm_event *event = NULL;
    const int waited = mdg_wait_event(channel, timeout_ms, &event);
    if (waited != 0)
    {
        mdg_set_error("%s: %s", step, waited == -ETIMEDOUT ? "no answer within the timeout" : strerror(-waited));
        return waited;
    }
    const enum rdma_cm_event_type got = event->event;
    const int status = event->status;
    rdma_ack_cm_event(event);
    if (got != wanted)
    {
        mdg_set_error("%s: %s (status %d)", step, rdma_event_str(got), status);
        switch (got)
        {
            case RDMA_CM_EVENT_REJECTED: return -ECONNREFUSED;
            case RDMA_CM_EVENT_UNREACHABLE: return -EHOSTUNREACH;
            case RDMA_CM_EVENT_ADDR_ERROR: return -EADDRNOTAVAIL;
            case RDMA_CM_EVENT_ROUTE_ERROR: return -ENETUNREACH;
            default: return -ECONNABORTED;
        }
    }
    return 0;
}

static jlong listen0(JNIEnv *env, jclass clazz, jlong dev_handle, jstring jip, jint port, jint backlog)
{
    (void)clazz;
    struct mdg_dev *dev = (struct mdg_dev *)(uintptr_t)dev_handle;
    const char *ip = (*env)->GetStringUTFChars(env, jip, NULL);
    if (ip == NULL)
    {
        return -ENOMEM;
    }
    struct sockaddr_in address;
    int result = mdg_parse_ipv4(ip, port, &address);
    (*env)->ReleaseStringUTFChars(env, jip, ip);
    if (result != 0)
    {
        return result;
    }
    struct mdg_listener *listener = calloc(1, sizeof(*listener));
    if (listener == NULL)
    {
        return -ENOMEM;
    }
    listener->dev = dev;
    listener->channel = rdma_create_event_channel();
    if (listener->channel == NULL)
    {
        result = -errno;
        mdg_set_error("rdma_create_event_channel: %s", strerror(errno));
        goto fail;
    }
    if (rdma_create_id(listener->channel, &listener->id, listener, RDMA_PS_TCP) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_create_id: %s", strerror(errno));
        goto fail;
    }
    if (rdma_bind_addr(listener->id, (struct sockaddr *)&address) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_bind_addr to port %d: %s (is the address assigned to the RDMA device's interface, "
            "and the port free?)", port, strerror(errno));
        goto fail;
    }
    if (listener->id->verbs != NULL && listener->id->verbs != dev->ctx)
    {
        result = -ENODEV;
        mdg_set_error("the address belongs to RDMA device %s, not to %s",
            ibv_get_device_name(listener->id->verbs->device), ibv_get_device_name(dev->ctx->device));
        goto fail;
    }
    if (rdma_listen(listener->id, backlog) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_listen: %s", strerror(errno));
        goto fail;
    }
    result = mdg_set_nonblocking(listener->channel->fd);
    if (result != 0)
    {
        mdg_set_error("cannot make the event channel non-blocking: %s", strerror(-result));
        goto fail;
    }
    return (jlong)(uintptr_t)listener;
fail:
    if (listener->id != NULL)
    {
        rdma_destroy_id(listener->id);
    }
    if (listener->channel != NULL)
    {
        rdma_destroy_event_channel(listener->channel);
    }
    free(listener);
    return result;
}

static jstring listener_endpoint0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)clazz;
    struct mdg_listener *listener = (struct mdg_listener *)(uintptr_t)handle;
    char text[64];
    describe_address(rdma_get_local_addr(listener->id), text, sizeof(text));
    return (*env)->NewStringUTF(env, text);
}

static jint listener_close0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    struct mdg_listener *listener = (struct mdg_listener *)(uintptr_t)handle;
    struct rdma_cm_event *event = NULL;
    while (rdma_get_cm_event(listener->channel, &event) == 0)
    {
        if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
        {
            struct rdma_cm_id *id = event->id;
            rdma_ack_cm_event(event);
            rdma_reject(id, NULL, 0);
            rdma_destroy_id(id);
        }
        else
        {
            rdma_ack_cm_event(event);
        }
    }
    rdma_destroy_id(listener->id);
    rdma_destroy_event_channel(listener->channel);
    free(listener);
    return 0;
}

/*
 * Accepts one waiting connection: a handle, 0 when none is waiting, or -errno for one that failed set-up.
 *
 * A request can be stale by the time it is taken: its requester timed out (a gateway starved of CPU, a link that
 * was down) and gave up or asked again, and the CM moved the request's id out of REQ_RCVD, so setting up its queue
 * pair fails with EINVAL (rdma_init_qp_attr) or the accept with EINVAL/ETIMEDOUT. Such a request is dropped,
 * counted (listener_stale0), and the next one is taken in the same call: stale requests queued behind each other
 * must not each cost a poll while fresh ones wait behind them and go stale in turn.
 */
static jlong accept0(JNIEnv *env, jclass clazz, jlong handle, jintArray jparams)
{
    (void)clazz;
    struct mdg_listener *listener = (struct mdg_listener *)(uintptr_t)handle;
    jint params[PARAM_COUNT];
    int result = read_params(env, jparams, params);
    if (result != 0)
    {
        return result;
    }
    struct rdma_cm_event *event = NULL;
    while (rdma_get_cm_event(listener->channel, &event) == 0)
    {
        if (event->event != RDMA_CM_EVENT_CONNECT_REQUEST)
        {
            rdma_ack_cm_event(event);
            continue;
        }
        struct rdma_cm_id *id = event->id;
        rdma_ack_cm_event(event);
        struct mdg_conn *conn = calloc(1, sizeof(*conn));
        if (conn == NULL)
        {
            rdma_reject(id, NULL, 0);
            rdma_destroy_id(id);
            return -ENOMEM;
        }
        conn->dev = listener->dev;
        conn->channel = rdma_create_event_channel();
        if (conn->channel == NULL)
        {
            result = -errno;
            mdg_set_error("rdma_create_event_channel: %s", strerror(errno));
            rdma_reject(id, NULL, 0);
            rdma_destroy_id(id);
            free(conn);
            return result;
        }
        conn->id = id;
        if (rdma_migrate_id(id, conn->channel) != 0)
        {
            result = -errno;
            mdg_set_error("rdma_migrate_id: %s", strerror(errno));
        }
        else
        {
            result = conn_resources(conn, params);
        }
        if (result == 0)
        {
            struct rdma_conn_param param;
            conn_param(&param);
            if (rdma_accept(id, &param) != 0)
            {
                result = -errno;
                mdg_set_error("rdma_accept: %s", strerror(errno));
            }
        }
        if (result == 0)
        {
            result = mdg_set_nonblocking(conn->channel->fd);
        }
        if (result != 0)
        {
            rdma_reject(id, NULL, 0);
            conn_destroy(conn);
            if (result == -EINVAL || result == -ETIMEDOUT || result == -ECONNREFUSED)
            {
                listener->stale++;
                result = 0;
                continue;
            }
            return result;
        }
        return (jlong)(uintptr_t)conn;
    }
    return 0;
}

static jlong listener_stale0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    return ((struct mdg_listener *)(uintptr_t)handle)->stale;
}

static jlong connect0(JNIEnv *env, jclass clazz, jlong dev_handle, jstring jip, jint port, jint timeout_ms,
    jintArray jparams)
{
    (void)clazz;
    jint params[PARAM_COUNT];
    int result = read_params(env, jparams, params);
    if (result != 0)
    {
        return result;
    }
    const char *ip = (*env)->GetStringUTFChars(env, jip, NULL);
    if (ip == NULL)
    {
        return -ENOMEM;
    }
    struct sockaddr_in address;
    result = mdg_parse_ipv4(ip, port, &address);
    (*env)->ReleaseStringUTFChars(env, jip, ip);
    if (result != 0)
    {
        return result;
    }
    struct mdg_conn *conn = calloc(1, sizeof(*conn));
    if (conn == NULL)
    {
        return -ENOMEM;
    }
    conn->dev = (struct mdg_dev *)(uintptr_t)dev_handle;
    conn->channel = rdma_create_event_channel();
    if (conn->channel == NULL)
    {
        result = -errno;
        mdg_set_error("rdma_create_event_channel: %s", strerror(errno));
        free(conn);
        return result;
    }
    if (rdma_create_id(conn->channel, &conn->id, conn, RDMA_PS_TCP) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_create_id: %s", strerror(errno));
        conn->id = NULL;
        goto fail;
    }
    if (rdma_resolve_addr(conn->id, NULL, (struct sockaddr *)&address, timeout_ms) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_resolve_addr: %s", strerror(errno));
        goto fail;
    }
    result = expect_event(conn->channel, RDMA_CM_EVENT_ADDR_RESOLVED, timeout_ms, "resolving the address");
    if (result != 0)
    {
        goto fail;
    }
    if (rdma_resolve_route(conn->id, timeout_ms) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_resolve_route: %s", strerror(errno));
        goto fail;
    }
    result = expect_event(conn->channel, RDMA_CM_EVENT_ROUTE_RESOLVED, timeout_ms, "resolving the route");
    if (result != 0)
    {
        goto fail;
    }
    result = conn_resources(conn, params);
    if (result != 0)
    {
        goto fail;
    }
    struct rdma_conn_param param;
    conn_param(&param);
    if (rdma_connect(conn->id, &param) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_connect: %s", strerror(errno));
        goto fail;
    }
    result = expect_event(conn->channel, RDMA_CM_EVENT_ESTABLISHED, timeout_ms, "connecting");
    if (result != 0)
    {
        goto fail;
    }
    result = mdg_set_nonblocking(conn->channel->fd);
    if (result != 0)
    {
        goto fail;
    }
    return (jlong)(uintptr_t)conn;
fail:
    conn_destroy(conn);
    return result;
}

/* Notices disconnects (non-blocking channel) and reaps send completions. */
static void conn_check(struct mdg_conn *conn)
{
    struct rdma_cm_event *event = NULL;
    while (rdma_get_cm_event(conn->channel, &event) == 0)
    {
        switch (event->event)
        {
            case RDMA_CM_EVENT_DISCONNECTED:
            case RDMA_CM_EVENT_DEVICE_REMOVAL:
            case RDMA_CM_EVENT_TIMEWAIT_EXIT:
            case RDMA_CM_EVENT_CONNECT_ERROR:
            case RDMA_CM_EVENT_UNREACHABLE:
            case RDMA_CM_EVENT_REJECTED:
                conn->disconnected = 1;
                break;
            default:
                break;
        }
        rdma_ack_cm_event(event);
    }
    mdg_sq_reap(&conn->sq);
}

static int conn_down(const struct mdg_conn *conn)
{
    return conn->disconnected || conn->sq.broken || conn->rq.broken;
}

/* Copies up to limit received messages into [address, address + capacity) as frames; count or -ENOTCONN. */
static jint rc_poll0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jint capacity, jint limit)
{
    (void)env;
    (void)clazz;
    struct mdg_conn *conn = (struct mdg_conn *)(uintptr_t)handle;
    conn_check(conn);
    const int received = mdg_rq_poll(&conn->rq, (uint8_t *)(uintptr_t)address, (uint32_t)capacity, limit, 0);
    if (received > 0)
    {
        return received;
    }
    return conn_down(conn) ? -ENOTCONN : 0;
}

static jint rc_send0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jint length)
{
    (void)env;
    (void)clazz;
    struct mdg_conn *conn = (struct mdg_conn *)(uintptr_t)handle;
    if (conn_down(conn))
    {
        return -ENOTCONN;
    }
    if (length < 0 || (uint32_t)length > conn->max_message)
    {
        return -EMSGSIZE;
    }
    return mdg_sq_post_copy(&conn->sq, &conn->send_wr, &conn->send_sge, (const void *)(uintptr_t)address,
        (uint32_t)length, 0);
}

static jint rc_write0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jint lkey, jint length,
    jlong remote_address, jint rkey)
{
    (void)env;
    (void)clazz;
    struct mdg_conn *conn = (struct mdg_conn *)(uintptr_t)handle;
    if (conn_down(conn))
    {
        return -ENOTCONN;
    }
    conn->write_wr.wr.rdma.remote_addr = (uint64_t)remote_address;
    conn->write_wr.wr.rdma.rkey = (uint32_t)rkey;
    return mdg_sq_post_copy(&conn->sq, &conn->write_wr, &conn->write_sge, (const void *)(uintptr_t)address,
        (uint32_t)length, (uint32_t)lkey);
}

static jint rc_write_long0(JNIEnv *env, jclass clazz, jlong handle, jlong value, jlong remote_address, jint rkey)
{
    (void)env;
    (void)clazz;
    struct mdg_conn *conn = (struct mdg_conn *)(uintptr_t)handle;
    if (conn_down(conn))
    {
        return -ENOTCONN;
    }
    const uint64_t bytes = (uint64_t)value; /* x86-64: little-endian, as the interface promises */
    conn->write_wr.wr.rdma.remote_addr = (uint64_t)remote_address;
    conn->write_wr.wr.rdma.rkey = (uint32_t)rkey;
    return mdg_sq_post_copy(&conn->sq, &conn->write_wr, &conn->write_sge, &bytes, sizeof(bytes), 0);
}

static jstring rc_address0(JNIEnv *env, jclass clazz, jlong handle, jboolean local)
{
    (void)clazz;
    struct mdg_conn *conn = (struct mdg_conn *)(uintptr_t)handle;
    char text[64];
    describe_address(local ? rdma_get_local_addr(conn->id) : rdma_get_peer_addr(conn->id), text, sizeof(text));
    return (*env)->NewStringUTF(env, text);
}

static jint rc_close0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    struct mdg_conn *conn = (struct mdg_conn *)(uintptr_t)handle;
    if (!conn->disconnected)
    {
        rdma_disconnect(conn->id);
    }
    struct rdma_cm_event *event = NULL;
    while (rdma_get_cm_event(conn->channel, &event) == 0)
    {
        rdma_ack_cm_event(event);
    }
    conn_destroy(conn);
    return 0;
}

static const JNINativeMethod rc_methods[] = {
    { "listen0", "(JLjava/lang/String;II)J", (void *)listen0 },
    { "listenerEndpoint0", "(J)Ljava/lang/String;", (void *)listener_endpoint0 },
    { "listenerClose0", "(J)I", (void *)listener_close0 },
    { "listenerStale0", "(J)J", (void *)listener_stale0 },
    { "accept0", "(J[I)J", (void *)accept0 },
    { "connect0", "(JLjava/lang/String;II[I)J", (void *)connect0 },
    { "rcPoll0", "(JJII)I", (void *)rc_poll0 },
    { "rcSend0", "(JJI)I", (void *)rc_send0 },
    { "rcWrite0", "(JJIIJI)I", (void *)rc_write0 },
    { "rcWriteLong0", "(JJJI)I", (void *)rc_write_long0 },
    { "rcAddress0", "(JZ)Ljava/lang/String;", (void *)rc_address0 },
    { "rcClose0", "(J)I", (void *)rc_close0 },
};

const struct mdg_natives mdg_rc_natives = MDG_NATIVES(rc_methods);
