/*
 * The verbs half of DiSNI's NativeDispatcher (what RdmaVerbsNat and its stateful verb calls reach): protection
 * domains, completion channels and queues, memory regions, posting, polling, and the object queries.
 *
 * Hot path (post send, post receive, poll): no allocation, no lock, no print. A post send reads DiSNI's list of
 * 72-byte work requests and posts it as struct ibv_send_wr in chunks of POST_CHUNK, each request pointing at the
 * scatter/gather entries the Java side wrote (their layout is struct ibv_sge). Receives and completions need no
 * translation: their layouts are rdma-core's (asserted below).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "disni.h"

#define PTR(type, id) ((type *)(uintptr_t)(id))
#define ID(ptr) ((jlong)(uintptr_t)(ptr))

#define POST_CHUNK 16

/* DiSNI's send work request: the offsets NatIbvSendWR writes at, and its stride. */
_Static_assert(sizeof(struct disni_send_wr) == DISNI_SEND_WR_SIZE, "DiSNI send WR is 72 bytes");
_Static_assert(offsetof(struct disni_send_wr, next) == 8, "next at 8");
_Static_assert(offsetof(struct disni_send_wr, sg_list) == 16, "sg_list at 16");
_Static_assert(offsetof(struct disni_send_wr, num_sge) == 24, "num_sge at 24");
_Static_assert(offsetof(struct disni_send_wr, opcode) == 28, "opcode at 28");
_Static_assert(offsetof(struct disni_send_wr, send_flags) == 32, "NatIbvSendWR.SENDFLAGS_OFFSET");
_Static_assert(offsetof(struct disni_send_wr, imm_data) == 36, "imm_data at 36");
_Static_assert(offsetof(struct disni_send_wr, remote_addr) == DISNI_REMOTE_ADDR_OFFSET, "remote_addr");
_Static_assert(offsetof(struct disni_send_wr, rkey) == DISNI_RKEY_OFFSET, "rkey");

/* NatPostRecvCall writes struct ibv_recv_wr as is (wr_id, next, sg_list, num_sge; stride 32). */
_Static_assert(sizeof(struct ibv_recv_wr) == 32, "ibv_recv_wr is DiSNI's 32 bytes");
_Static_assert(offsetof(struct ibv_recv_wr, next) == 8, "recv next at 8");
_Static_assert(offsetof(struct ibv_recv_wr, sg_list) == 16, "recv sg_list at 16");
_Static_assert(offsetof(struct ibv_recv_wr, num_sge) == 24, "recv num_sge at 24");

/* NatIbvSge / NatPostRecvCall write addr (8), length (4), lkey (4). */
_Static_assert(sizeof(struct ibv_sge) == 16, "ibv_sge is 16 bytes");
_Static_assert(offsetof(struct ibv_sge, length) == 8 && offsetof(struct ibv_sge, lkey) == 12, "sge layout");

/* NatPollCqCall reads wr_id, status, opcode, vendor_err, byte_len, imm_data, qp_num, src_qp, wc_flags (4 each
 * after the first), pkey_index, slid (2), sl, dlid_path_bits (1), at a stride of IbvWC.CSIZE = 48. */
_Static_assert(sizeof(struct ibv_wc) == 48, "ibv_wc is IbvWC.CSIZE");
_Static_assert(offsetof(struct ibv_wc, status) == 8 && offsetof(struct ibv_wc, opcode) == 12, "wc status");
_Static_assert(offsetof(struct ibv_wc, vendor_err) == 16 && offsetof(struct ibv_wc, byte_len) == 20, "wc len");
_Static_assert(offsetof(struct ibv_wc, qp_num) == 28 && offsetof(struct ibv_wc, src_qp) == 32, "wc qp");
_Static_assert(offsetof(struct ibv_wc, wc_flags) == 36 && offsetof(struct ibv_wc, pkey_index) == 40, "wc flags");
_Static_assert(offsetof(struct ibv_wc, slid) == 42 && offsetof(struct ibv_wc, sl) == 44, "wc slid");
_Static_assert(offsetof(struct ibv_wc, dlid_path_bits) == 45, "wc dlid_path_bits");

static jlong alloc_pd0(JNIEnv *env, jobject self, jlong ctx)
{
    (void)self;
    struct ibv_pd *pd = ibv_alloc_pd(PTR(struct ibv_context, ctx));
    if (pd == NULL)
    {
        disni_throw(env, "ibv_alloc_pd", errno != 0 ? errno : ENOMEM);
        return -1;
    }
    return ID(pd);
}

static jlong create_comp_channel0(JNIEnv *env, jobject self, jlong ctx)
{
    (void)self;
    struct ibv_comp_channel *channel = ibv_create_comp_channel(PTR(struct ibv_context, ctx));
    if (channel == NULL)
    {
        disni_throw(env, "ibv_create_comp_channel", errno != 0 ? errno : ENOMEM);
        return -1;
    }
    return ID(channel);
}

static jlong create_cq0(JNIEnv *env, jobject self, jlong ctx, jlong channel, jint ncqe, jint comp_vector)
{
    (void)self;
    struct ibv_cq *cq = ibv_create_cq(PTR(struct ibv_context, ctx), ncqe, NULL,
        PTR(struct ibv_comp_channel, channel), comp_vector);
    if (cq == NULL)
    {
        char what[64];
        snprintf(what, sizeof(what), "ibv_create_cq(%d entries)", (int)ncqe);
        disni_throw(env, what, errno != 0 ? errno : ENOMEM);
        return -1;
    }
    return ID(cq);
}

/*
 * RdmaVerbsNat.modifyQP passes no attributes (address 0): RDMA-CM moves the queue pair through its states, so
 * there is nothing to change and the call succeeds. An attribute block is not part of DiSNI 2.1's contract.
 */
static jint modify_qp0(JNIEnv *env, jobject self, jlong qp, jlong attr)
{
    (void)self;
    (void)qp;
    if (attr != 0)
    {
        disni_throw(env, "modifyQP with an attribute block", EOPNOTSUPP);
        return -EOPNOTSUPP;
    }
    return 0;
}

static jlong reg_mr0(JNIEnv *env, jobject self, jlong pd, jlong addr, jint length, jint access, jlong lkey_out,
    jlong rkey_out, jlong handle_out)
{
    (void)self;
    struct ibv_mr *mr = ibv_reg_mr(PTR(struct ibv_pd, pd), PTR(void, addr), (size_t)(uint32_t)length, access);
    if (mr == NULL)
    {
        char what[96];
        snprintf(what, sizeof(what), "ibv_reg_mr(%u bytes, access 0x%x)", (unsigned)length, (unsigned)access);
        disni_throw(env, what, errno != 0 ? errno : ENOMEM);
        return -1;
    }
    *PTR(uint32_t, lkey_out) = mr->lkey;
    *PTR(uint32_t, rkey_out) = mr->rkey;
    *PTR(uint32_t, handle_out) = mr->handle;
    return ID(mr);
}

/* RC on-demand-paging capabilities (ibv_query_device_ex), or -1 when the device has no ODP. */
static jint query_odp_support0(JNIEnv *env, jobject self, jlong ctx)
{
    (void)env;
    (void)self;
    struct ibv_device_attr_ex attr;
    memset(&attr, 0, sizeof(attr));
    if (ibv_query_device_ex(PTR(struct ibv_context, ctx), NULL, &attr) != 0)
    {
        return -1;
    }
    if ((attr.odp_caps.general_caps & IBV_ODP_SUPPORT) == 0)
    {
        return -1;
    }
    return (jint)attr.odp_caps.per_transport_caps.rc_odp_caps;
}

/*
 * DiSNI's experimental prefetch, mapped onto rdma-core's ibv_advise_mr(PREFETCH). Returns 0, or the positive errno
 * DiSNI documents: ENOSYS when the provider cannot prefetch (Soft-RoCE cannot), EFAULT, EINVAL.
 */
static jint exp_prefetch_mr0(JNIEnv *env, jobject self, jlong mr_id, jlong addr, jint length)
{
    (void)env;
    (void)self;
    struct ibv_mr *mr = PTR(struct ibv_mr, mr_id);
    struct ibv_sge sge = { .addr = (uint64_t)addr, .length = (uint32_t)length, .lkey = mr->lkey };
    const int rc = ibv_advise_mr(mr->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1);
    if (rc == EOPNOTSUPP || rc == ENOSYS)
    {
        return ENOSYS;
    }
    return rc;
}

static void dereg_mr0(JNIEnv *env, jobject self, jlong mr)
{
    (void)self;
    const int rc = ibv_dereg_mr(PTR(struct ibv_mr, mr));
    if (rc != 0)
    {
        disni_throw(env, "ibv_dereg_mr", rc);
    }
}

static void post_send0(JNIEnv *env, jobject self, jlong qp_id, jlong list)
{
    (void)self;
    struct ibv_qp *qp = PTR(struct ibv_qp, qp_id);
    struct ibv_send_wr wrs[POST_CHUNK];
    const struct disni_send_wr *src = PTR(const struct disni_send_wr, list);
    while (src != NULL)
    {
        int n = 0;
        for (; src != NULL && n < POST_CHUNK; n++)
        {
            if (src->opcode > IBV_WR_RDMA_READ)
            {
                /* DiSNI's send WR carries no compare/swap operands: atomics cannot be expressed. */
                disni_throw(env, "ibv_post_send of an atomic work request", EOPNOTSUPP);
                return;
            }
            struct ibv_send_wr *wr = &wrs[n];
            memset(wr, 0, sizeof(*wr));
            wr->wr_id = src->wr_id;
            wr->sg_list = PTR(struct ibv_sge, src->sg_list);
            wr->num_sge = (int)src->num_sge;
            wr->opcode = (enum ibv_wr_opcode)src->opcode;
            wr->send_flags = src->send_flags;
            wr->imm_data = src->imm_data;
            wr->wr.rdma.remote_addr = src->remote_addr;
            wr->wr.rdma.rkey = src->rkey;
            if (n > 0)
            {
                wrs[n - 1].next = wr;
            }
            src = PTR(const struct disni_send_wr, src->next);
        }
        struct ibv_send_wr *bad = NULL;
        const int rc = ibv_post_send(qp, wrs, &bad);
        if (rc != 0)
        {
            char what[96];
            snprintf(what, sizeof(what), "ibv_post_send (work request %ld of a chunk of %d)",
                bad != NULL ? (long)(bad - wrs) : -1L, n);
            disni_throw(env, what, rc);
            return;
        }
    }
}

static void post_recv0(JNIEnv *env, jobject self, jlong qp_id, jlong list)
{
    (void)self;
    struct ibv_recv_wr *bad = NULL;
    const int rc = ibv_post_recv(PTR(struct ibv_qp, qp_id), PTR(struct ibv_recv_wr, list), &bad);
    if (rc != 0)
    {
        disni_throw(env, "ibv_post_recv", rc);
    }
}

/* Waits up to timeout_ms (negative: for ever) for a completion event and takes it: 0, or -1 on timeout/error. */
static jint get_cq_event0(JNIEnv *env, jobject self, jlong channel_id, jint timeout_ms)
{
    (void)env;
    (void)self;
    struct ibv_comp_channel *channel = PTR(struct ibv_comp_channel, channel_id);
    struct pollfd pfd = { .fd = channel->fd, .events = POLLIN, .revents = 0 };
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
    struct ibv_cq *cq = NULL;
    void *cq_context = NULL;
    return ibv_get_cq_event(channel, &cq, &cq_context) == 0 ? 0 : -1;
}

/* Polls up to ne completions straight into the caller's IbvWC buffer; their count, or -1 (Java throws). */
static jint poll_cq0(JNIEnv *env, jobject self, jlong cq, jint ne, jlong wcs)
{
    (void)env;
    (void)self;
    const int n = ibv_poll_cq(PTR(struct ibv_cq, cq), ne, PTR(struct ibv_wc, wcs));
    return n >= 0 ? n : -1;
}

static jint req_notify_cq0(JNIEnv *env, jobject self, jlong cq, jint solicited_only)
{
    (void)env;
    (void)self;
    return ibv_req_notify_cq(PTR(struct ibv_cq, cq), solicited_only);
}

static jint ack_cq_event0(JNIEnv *env, jobject self, jlong cq, jint nevents)
{
    (void)env;
    (void)self;
    ibv_ack_cq_events(PTR(struct ibv_cq, cq), (unsigned int)nevents);
    return 0;
}

static jint destroy_comp_channel0(JNIEnv *env, jobject self, jlong channel)
{
    (void)env;
    (void)self;
    return ibv_destroy_comp_channel(PTR(struct ibv_comp_channel, channel)) == 0 ? 0 : -errno;
}

static jint dealloc_pd0(JNIEnv *env, jobject self, jlong pd)
{
    (void)env;
    (void)self;
    const int rc = ibv_dealloc_pd(PTR(struct ibv_pd, pd));
    return rc == 0 ? 0 : -rc;
}

static jint destroy_cq0(JNIEnv *env, jobject self, jlong cq)
{
    (void)env;
    (void)self;
    const int rc = ibv_destroy_cq(PTR(struct ibv_cq, cq));
    return rc == 0 ? 0 : -rc;
}

static jint get_qp_num0(JNIEnv *env, jobject self, jlong qp)
{
    (void)env;
    (void)self;
    return (jint)PTR(struct ibv_qp, qp)->qp_num;
}

static jint get_context_fd0(JNIEnv *env, jobject self, jlong ctx)
{
    (void)env;
    (void)self;
    return PTR(struct ibv_context, ctx)->cmd_fd;
}

static jint get_context_num_comp_vectors0(JNIEnv *env, jobject self, jlong ctx)
{
    (void)env;
    (void)self;
    return PTR(struct ibv_context, ctx)->num_comp_vectors;
}

static jint get_pd_handle0(JNIEnv *env, jobject self, jlong pd)
{
    (void)env;
    (void)self;
    return (jint)PTR(struct ibv_pd, pd)->handle;
}

static const JNINativeMethod verbs_methods[] = {
    { "_allocPd", "(J)J", (void *)alloc_pd0 },
    { "_createCompChannel", "(J)J", (void *)create_comp_channel0 },
    { "_createCQ", "(JJII)J", (void *)create_cq0 },
    { "_modifyQP", "(JJ)I", (void *)modify_qp0 },
    { "_regMr", "(JJIIJJJ)J", (void *)reg_mr0 },
    { "_queryOdpSupport", "(J)I", (void *)query_odp_support0 },
    { "_expPrefetchMr", "(JJI)I", (void *)exp_prefetch_mr0 },
    { "_deregMr", "(J)V", (void *)dereg_mr0 },
    { "_postSend", "(JJ)V", (void *)post_send0 },
    { "_postRecv", "(JJ)V", (void *)post_recv0 },
    { "_getCqEvent", "(JI)I", (void *)get_cq_event0 },
    { "_pollCQ", "(JIJ)I", (void *)poll_cq0 },
    { "_reqNotifyCQ", "(JI)I", (void *)req_notify_cq0 },
    { "_ackCqEvent", "(JI)I", (void *)ack_cq_event0 },
    { "_destroyCompChannel", "(J)I", (void *)destroy_comp_channel0 },
    { "_deallocPd", "(J)I", (void *)dealloc_pd0 },
    { "_destroyCQ", "(J)I", (void *)destroy_cq0 },
    { "_getQpNum", "(J)I", (void *)get_qp_num0 },
    { "_getContextFd", "(J)I", (void *)get_context_fd0 },
    { "_getContextNumCompVectors", "(J)I", (void *)get_context_num_comp_vectors0 },
    { "_getPdHandle", "(J)I", (void *)get_pd_handle0 },
};

const struct disni_natives disni_verbs_natives =
    DISNI_NATIVES("com/ibm/disni/verbs/impl/NativeDispatcher", verbs_methods);
