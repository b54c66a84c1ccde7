/*
 * The multicast stream: an unreliable-datagram queue pair of an RDMA-CM id (port space UDP, so RDMA-CM brings it
 * to RTS with its Q_Key) that joins an IPv4 multicast group through rdma_join_multicast, which attaches the queue
 * pair to the group and answers with the group's address-handle attributes, remote QPN (0xFFFFFF) and Q_Key. The
 * sender posts to an address handle made from them with one pre-built work request; a receiver keeps receive
 * buffers posted (each datagram lands after a 40-byte GRH) and copies datagrams out as frames.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdgate_verbs.h"

#define UD_PARAM_SEND_DEPTH 0
#define UD_PARAM_RECV_DEPTH 1
#define UD_PARAM_MTU 2
#define UD_PARAM_TIMEOUT 3
#define UD_PARAM_COUNT 4

struct mdg_ud
{
    struct mdg_dev *dev;
    struct rdma_event_channel *channel;
    struct rdma_cm_id *id;
    struct sockaddr_in group;
    struct ibv_cq *send_cq;
    struct ibv_cq *recv_cq;
    struct ibv_ah *ah;
    struct mdg_sq sq;
    struct mdg_rq rq;
    struct ibv_send_wr send_wr;
    struct ibv_sge send_sge;
    uint32_t mtu;
    int has_qp;
    int joined;
};

static void ud_destroy(struct mdg_ud *ud)
{
    if (ud->joined)
    {
        rdma_leave_multicast(ud->id, (struct sockaddr *)&ud->group);
    }
    if (ud->ah != NULL)
    {
        ibv_destroy_ah(ud->ah);
    }
    if (ud->has_qp)
    {
        rdma_destroy_qp(ud->id);
    }
    mdg_sq_destroy(&ud->sq);
    mdg_rq_destroy(&ud->rq);
    if (ud->send_cq != NULL)
    {
        ibv_destroy_cq(ud->send_cq);
    }
    if (ud->recv_cq != NULL)
    {
        ibv_destroy_cq(ud->recv_cq);
    }
    if (ud->id != NULL)
    {
        rdma_destroy_id(ud->id);
    }
    if (ud->channel != NULL)
    {
        rdma_destroy_event_channel(ud->channel);
    }
    free(ud);
}

static int ud_queue_pair(struct mdg_ud *ud, const jint *params)
{
    struct rdma_cm_id *id = ud->id;
    const int send_depth = params[UD_PARAM_SEND_DEPTH];
    const int recv_depth = params[UD_PARAM_RECV_DEPTH];
    ud->send_cq = ibv_create_cq(id->verbs, send_depth, NULL, NULL, 0);
    ud->recv_cq = ibv_create_cq(id->verbs, recv_depth > 0 ? recv_depth : 1, NULL, NULL, 0);
    if (ud->send_cq == NULL || ud->recv_cq == NULL)
    {
        const int err = errno != 0 ? errno : ENOMEM;
        mdg_set_error("ibv_create_cq: %s", strerror(err));
        return -err;
    }
    struct ibv_qp_init_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.send_cq = ud->send_cq;
    attr.recv_cq = ud->recv_cq;
    attr.qp_type = IBV_QPT_UD;
    attr.cap.max_send_wr = (uint32_t)send_depth;
    attr.cap.max_recv_wr = recv_depth > 0 ? (uint32_t)recv_depth : 1;
    attr.cap.max_send_sge = 1;
    attr.cap.max_recv_sge = 1;
    if (rdma_create_qp(id, ud->dev->pd, &attr) != 0)
    {
        const int err = errno;
        mdg_set_error("rdma_create_qp (UD, %d send / %d receive work requests): %s", send_depth, recv_depth,
            strerror(err));
        return -err;
    }
    ud->has_qp = 1;
    int result = mdg_sq_init(&ud->sq, ud->dev->pd, id->qp, ud->send_cq, (uint32_t)send_depth,
        (uint64_t)send_depth * (uint64_t)((ud->mtu + 63) & ~63u) + MDG_BOUNCE_MAX, 0);
    /* A sender posts no receives: its own datagrams, looped back to its attached queue pair, are dropped. */
    if (result == 0 && recv_depth > 0)
    {
        result = mdg_rq_init(&ud->rq, ud->dev->pd, id->qp, ud->recv_cq, (uint32_t)recv_depth,
            ud->mtu + MDG_GRH_LENGTH);
    }
    return result;
}

/*
 * Creates a UD queue pair on localIp's device and joins groupIp with it. params: [0] send depth, [1] receive
 * buffers (0 for a sender), [2] largest datagram, [3] join timeout in ms. Returns a handle or -errno.
 */
static jlong ud_open0(JNIEnv *env, jclass clazz, jlong dev_handle, jstring jlocal, jstring jgroup, jintArray jparams)
{
    (void)clazz;
    jint params[UD_PARAM_COUNT];
    if ((*env)->GetArrayLength(env, jparams) < UD_PARAM_COUNT)
    {
        return -EINVAL;
    }
    (*env)->GetIntArrayRegion(env, jparams, 0, UD_PARAM_COUNT, params);
    if (params[UD_PARAM_SEND_DEPTH] < 32 || params[UD_PARAM_RECV_DEPTH] < 0 || params[UD_PARAM_MTU] < 64 ||
        params[UD_PARAM_MTU] > MDG_BOUNCE_MAX)
    {
        mdg_set_error("multicast parameters out of range");
        return -EINVAL;
    }
    struct mdg_ud *ud = calloc(1, sizeof(*ud));
    if (ud == NULL)
    {
        return -ENOMEM;
    }
    ud->dev = (struct mdg_dev *)(uintptr_t)dev_handle;
    ud->mtu = (uint32_t)params[UD_PARAM_MTU];
    struct sockaddr_in local;
    const char *local_ip = (*env)->GetStringUTFChars(env, jlocal, NULL);
    const char *group_ip = (*env)->GetStringUTFChars(env, jgroup, NULL);
    int result = (local_ip == NULL || group_ip == NULL) ? -ENOMEM : mdg_parse_ipv4(local_ip, 0, &local);
    if (result == 0)
    {
        result = mdg_parse_ipv4(group_ip, 0, &ud->group);
    }
    if (local_ip != NULL)
    {
        (*env)->ReleaseStringUTFChars(env, jlocal, local_ip);
    }
    if (group_ip != NULL)
    {
        (*env)->ReleaseStringUTFChars(env, jgroup, group_ip);
    }
    if (result != 0)
    {
        free(ud);
        return result;
    }
    ud->channel = rdma_create_event_channel();
    if (ud->channel == NULL)
    {
        result = -errno;
        mdg_set_error("rdma_create_event_channel: %s", strerror(errno));
        goto fail;
    }
    if (rdma_create_id(ud->channel, &ud->id, ud, RDMA_PS_UDP) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_create_id (UDP port space): %s", strerror(errno));
        ud->id = NULL;
        goto fail;
    }
    if (rdma_bind_addr(ud->id, (struct sockaddr *)&local) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_bind_addr to the local address: %s", strerror(errno));
        goto fail;
    }
    if (ud->id->verbs != ud->dev->ctx)
    {
        result = -ENODEV;
        mdg_set_error("the local address is not on RDMA device %s", ibv_get_device_name(ud->dev->ctx->device));
        goto fail;
    }
    result = ud_queue_pair(ud, params);
    if (result != 0)
    {
        goto fail;
    }
    if (rdma_join_multicast(ud->id, (struct sockaddr *)&ud->group, ud) != 0)
    {
        result = -errno;
        mdg_set_error("rdma_join_multicast: %s", strerror(errno));
        goto fail;
    }
    ud->joined = 1;
    struct rdma_cm_event *event = NULL;
    result = mdg_wait_event(ud->channel, params[UD_PARAM_TIMEOUT], &event);
    if (result != 0)
    {
        mdg_set_error("joining the multicast group: %s",
            result == -ETIMEDOUT ? "no answer within the timeout" : strerror(-result));
        goto fail;
    }
    if (event->event != RDMA_CM_EVENT_MULTICAST_JOIN)
    {
        mdg_set_error("joining the multicast group: %s (status %d)", rdma_event_str(event->event), event->status);
        rdma_ack_cm_event(event);
        result = -EADDRNOTAVAIL;
        goto fail;
    }
    ud->ah = ibv_create_ah(ud->dev->pd, &event->param.ud.ah_attr);
    ud->send_wr.opcode = IBV_WR_SEND;
    ud->send_wr.wr.ud.ah = ud->ah;
    ud->send_wr.wr.ud.remote_qpn = event->param.ud.qp_num;
    ud->send_wr.wr.ud.remote_qkey = event->param.ud.qkey;
    rdma_ack_cm_event(event);
    if (ud->ah == NULL)
    {
        result = errno != 0 ? -errno : -ENOMEM;
        mdg_set_error("ibv_create_ah for the group: %s", strerror(-result));
        goto fail;
    }
    result = mdg_set_nonblocking(ud->channel->fd);
    if (result != 0)
    {
        goto fail;
    }
    return (jlong)(uintptr_t)ud;
fail:
    ud_destroy(ud);
    return result;
}

static jint ud_send0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jint length)
{
    (void)env;
    (void)clazz;
    struct mdg_ud *ud = (struct mdg_ud *)(uintptr_t)handle;
    if (length < 0 || (uint32_t)length > ud->mtu)
    {
        return -EMSGSIZE;
    }
    return mdg_sq_post_copy(&ud->sq, &ud->send_wr, &ud->send_sge, (const void *)(uintptr_t)address,
        (uint32_t)length, 0);
}

static jint ud_poll0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jint capacity, jint limit)
{
    (void)env;
    (void)clazz;
    struct mdg_ud *ud = (struct mdg_ud *)(uintptr_t)handle;
    mdg_sq_reap(&ud->sq);
    if (ud->rq.buffers == NULL)
    {
        return 0;
    }
    return mdg_rq_poll(&ud->rq, (uint8_t *)(uintptr_t)address, (uint32_t)capacity, limit, MDG_GRH_LENGTH);
}

static jint ud_close0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    struct mdg_ud *ud = (struct mdg_ud *)(uintptr_t)handle;
    struct rdma_cm_event *event = NULL;
    while (rdma_get_cm_event(ud->channel, &event) == 0)
    {
        rdma_ack_cm_event(event);
    }
    ud_destroy(ud);
    return 0;
}

static const JNINativeMethod ud_methods[] = {
    { "udOpen0", "(JLjava/lang/String;Ljava/lang/String;[I)J", (void *)ud_open0 },
    { "udSend0", "(JJI)I", (void *)ud_send0 },
    { "udPoll0", "(JJII)I", (void *)ud_poll0 },
    { "udClose0", "(J)I", (void *)ud_close0 },
};

const struct mdg_natives mdg_ud_natives = MDG_NATIVES(ud_methods);
