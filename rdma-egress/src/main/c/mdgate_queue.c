/*
 * Send and receive queues shared by the RC control connections and the UD multicast queue pairs.
 *
 * Send side: a post either puts the payload inline in the work request (up to the QP's max_inline_data), or
 * copies it into the queue's own registered byte ring (up to MDG_BOUNCE_MAX), or, for larger writes, points at
 * the caller's registered memory. So small control messages, 8-byte position writes and table updates never
 * depend on the caller's buffer after the call; large ring writes are zero-copy and their source must stay
 * unchanged until completion (the transport interface's contract). Only every few work requests is signaled
 * (selective signaling); completions of one send queue arrive in posting order, so one signaled completion
 * frees the ring bytes of every request before it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mdgate_verbs.h"

#define SIGNAL_EVERY 16
#define REAP_BATCH 16
#define RECV_BATCH 32
#define RING_SLOT_ALIGN 64

static uint64_t align_up(const uint64_t value, const uint64_t alignment)
{
    return (value + alignment - 1) & ~(alignment - 1);
}

int mdg_sq_init(struct mdg_sq *sq, struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_cq *cq, uint32_t depth,
    uint64_t ring_bytes, uint32_t max_inline)
{
    memset(sq, 0, sizeof(*sq));
    sq->qp = qp;
    sq->cq = cq;
    sq->depth = depth;
    sq->max_inline = max_inline;
    sq->ring_bytes = ring_bytes;
    sq->ends = calloc(depth, sizeof(uint64_t));
    if (sq->ends == NULL || posix_memalign((void **)&sq->ring, 4096, ring_bytes) != 0)
    {
        free(sq->ends);
        sq->ends = NULL;
        sq->ring = NULL;
        mdg_set_error("cannot allocate a send ring of %llu bytes", (unsigned long long)ring_bytes);
        return -ENOMEM;
    }
    memset(sq->ring, 0, ring_bytes);
    sq->mr = ibv_reg_mr(pd, sq->ring, ring_bytes, IBV_ACCESS_LOCAL_WRITE);
    if (sq->mr == NULL)
    {
        const int err = errno != 0 ? errno : ENOMEM;
        mdg_set_error("ibv_reg_mr of the %llu-byte send ring: %s", (unsigned long long)ring_bytes, strerror(err));
        free(sq->ring);
        free(sq->ends);
        sq->ring = NULL;
        sq->ends = NULL;
        return -err;
    }
    return 0;
}

void mdg_sq_destroy(struct mdg_sq *sq)
{
    if (sq->mr != NULL)
    {
        ibv_dereg_mr(sq->mr);
        sq->mr = NULL;
    }
    free(sq->ring);
    free(sq->ends);
    sq->ring = NULL;
    sq->ends = NULL;
}

int mdg_sq_reap(struct mdg_sq *sq)
{
    struct ibv_wc wc[REAP_BATCH];
    int n;
    do
    {
        n = ibv_poll_cq(sq->cq, REAP_BATCH, wc);
        if (n < 0)
        {
            sq->broken = 1;
            break;
        }
        for (int i = 0; i < n; i++)
        {
            if (wc[i].status != IBV_WC_SUCCESS)
            {
                sq->broken = 1;
                continue;
            }
            sq->completed = wc[i].wr_id + 1;
            sq->tail = sq->ends[wc[i].wr_id % sq->depth];
        }
    }
    while (n == REAP_BATCH);
    return sq->broken ? -ENOTCONN : 0;
}

/* Reserves need bytes (already aligned) contiguously in the ring; NULL when they do not fit. */
static uint8_t *reserve(struct mdg_sq *sq, const uint64_t need)
{
    const uint64_t position = sq->head % sq->ring_bytes;
    const uint64_t skip = position + need > sq->ring_bytes ? sq->ring_bytes - position : 0;
    if (sq->head + skip + need - sq->tail > sq->ring_bytes)
    {
        return NULL;
    }
    sq->head += skip;
    uint8_t *slot = sq->ring + (sq->head % sq->ring_bytes);
    sq->head += need;
    return slot;
}

int mdg_sq_post_copy(struct mdg_sq *sq, struct ibv_send_wr *wr, struct ibv_sge *sge, const void *src,
    uint32_t length, uint32_t lkey)
{
    if (sq->broken)
    {
        return -ENOTCONN;
    }
    if (sq->posted - sq->completed >= sq->depth - 1)
    {
        if (mdg_sq_reap(sq) != 0)
        {
            return -ENOTCONN;
        }
        if (sq->posted - sq->completed >= sq->depth - 1)
        {
            return -EAGAIN;
        }
    }
    const uint64_t head_before = sq->head;
    wr->send_flags = 0;
    wr->sg_list = sge;
    wr->num_sge = 1;
    wr->next = NULL;
    sge->length = length;
    if (length <= sq->max_inline)
    {
        wr->send_flags |= IBV_SEND_INLINE;
        sge->addr = (uintptr_t)src;
        sge->lkey = 0;
    }
    else if (length <= MDG_BOUNCE_MAX || lkey == 0)
    {
        if (length > MDG_BOUNCE_MAX)
        {
            return -EMSGSIZE;
        }
        const uint64_t need = align_up(length, RING_SLOT_ALIGN);
        uint8_t *slot = reserve(sq, need);
        if (slot == NULL)
        {
            if (mdg_sq_reap(sq) != 0)
            {
                return -ENOTCONN;
            }
            slot = reserve(sq, need);
            if (slot == NULL)
            {
                return -EAGAIN;
            }
        }
        memcpy(slot, src, length);
        sge->addr = (uintptr_t)slot;
        sge->lkey = sq->mr->lkey;
    }
    else
    {
        sge->addr = (uintptr_t)src;
        sge->lkey = lkey;
    }
    const uint64_t outstanding = sq->posted - sq->completed;
    if (sq->unsignaled + 1 >= SIGNAL_EVERY || outstanding >= sq->depth / 2 ||
        sq->head - sq->tail > sq->ring_bytes / 2)
    {
        wr->send_flags |= IBV_SEND_SIGNALED;
        sq->unsignaled = 0;
    }
    else
    {
        sq->unsignaled++;
    }
    wr->wr_id = sq->posted;
    sq->ends[sq->posted % sq->depth] = sq->head;
    struct ibv_send_wr *bad = NULL;
    const int posted = ibv_post_send(sq->qp, wr, &bad);
    if (posted != 0)
    {
        sq->head = head_before;
        if (posted == ENOMEM)
        {
            return -EAGAIN;
        }
        sq->broken = 1;
        return -ENOTCONN;
    }
    sq->posted++;
    return 0;
}

int mdg_rq_init(struct mdg_rq *rq, struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_cq *cq, uint32_t count,
    uint32_t buffer_length)
{
    memset(rq, 0, sizeof(*rq));
    rq->qp = qp;
    rq->cq = cq;
    rq->count = count;
    rq->buffer_length = (uint32_t)align_up(buffer_length, RING_SLOT_ALIGN);
    const size_t bytes = (size_t)rq->count * rq->buffer_length;
    if (posix_memalign((void **)&rq->buffers, 4096, bytes) != 0)
    {
        rq->buffers = NULL;
        mdg_set_error("cannot allocate %zu bytes of receive buffers", bytes);
        return -ENOMEM;
    }
    memset(rq->buffers, 0, bytes);
    rq->mr = ibv_reg_mr(pd, rq->buffers, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (rq->mr == NULL)
    {
        const int err = errno != 0 ? errno : ENOMEM;
        mdg_set_error("ibv_reg_mr of %zu bytes of receive buffers: %s", bytes, strerror(err));
        free(rq->buffers);
        rq->buffers = NULL;
        return -err;
    }
    for (uint32_t i = 0; i < count; i++)
    {
        struct ibv_sge sge = {
            .addr = (uintptr_t)(rq->buffers + (size_t)i * rq->buffer_length),
            .length = rq->buffer_length,
            .lkey = rq->mr->lkey,
        };
        struct ibv_recv_wr wr = { .wr_id = i, .next = NULL, .sg_list = &sge, .num_sge = 1 };
        struct ibv_recv_wr *bad = NULL;
        const int posted = ibv_post_recv(qp, &wr, &bad);
        if (posted != 0)
        {
            mdg_set_error("ibv_post_recv of receive buffer %u of %u: %s", i, count, strerror(posted));
            mdg_rq_destroy(rq);
            return -posted;
        }
    }
    return 0;
}

void mdg_rq_destroy(struct mdg_rq *rq)
{
    if (rq->mr != NULL)
    {
        ibv_dereg_mr(rq->mr);
        rq->mr = NULL;
    }
    free(rq->buffers);
    rq->buffers = NULL;
}

int mdg_rq_poll(struct mdg_rq *rq, uint8_t *dst, uint32_t capacity, int limit, uint32_t skip)
{
    const uint32_t frame_max = (uint32_t)align_up(MDG_FRAME_HEADER + rq->buffer_length, MDG_FRAME_ALIGN);
    int room = (int)(capacity / frame_max);
    if (room > limit)
    {
        room = limit;
    }
    if (room > RECV_BATCH)
    {
        room = RECV_BATCH;
    }
    if (room <= 0)
    {
        return rq->broken ? -ENOTCONN : 0;
    }
    struct ibv_wc wc[RECV_BATCH];
    const int n = ibv_poll_cq(rq->cq, room, wc);
    if (n < 0)
    {
        rq->broken = 1;
        return -ENOTCONN;
    }
    uint32_t used = 0;
    int delivered = 0;
    for (int i = 0; i < n; i++)
    {
        const uint32_t index = (uint32_t)wc[i].wr_id;
        if (wc[i].status != IBV_WC_SUCCESS)
        {
            rq->broken = 1;
            continue;
        }
        uint8_t *buffer = rq->buffers + (size_t)index * rq->buffer_length;
        if (wc[i].byte_len >= skip)
        {
            const uint32_t length = wc[i].byte_len - skip;
            memcpy(dst + used, &length, MDG_FRAME_HEADER);
            memcpy(dst + used + MDG_FRAME_HEADER, buffer + skip, length);
            used += (uint32_t)align_up(MDG_FRAME_HEADER + length, MDG_FRAME_ALIGN);
            delivered++;
        }
        struct ibv_sge sge = { .addr = (uintptr_t)buffer, .length = rq->buffer_length, .lkey = rq->mr->lkey };
        struct ibv_recv_wr wr = { .wr_id = index, .next = NULL, .sg_list = &sge, .num_sge = 1 };
        struct ibv_recv_wr *bad = NULL;
        if (ibv_post_recv(rq->qp, &wr, &bad) != 0)
        {
            rq->broken = 1;
        }
    }
    if (delivered == 0 && rq->broken)
    {
        return -ENOTCONN;
    }
    return delivered;
}
