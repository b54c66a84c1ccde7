/*
 * The consumer's state, shared by the files of the library: consumer.c (connection, control messages,
 * subscriptions), delivery.c (ring, shared log and stream readers, gap recovery, delivery), histogram.c.
 * Everything here is allocated by mdgate_consumer_connect; the poll path allocates nothing.
 */
#ifndef MDGATE_INTERNAL_H
#define MDGATE_INTERNAL_H

#include <stdint.h>

#include "mdgate/consumer.h"
#include "mdgate/protocol.h"
#include "transport.h"

#define MDG_LOG_RUN 64
#define MDG_NO_SLOT (-1)
#define MDG_NO_VIEW 0xFF
#define MDG_MAX_SYMBOLS 4096

/* Latency histogram: log-linear buckets, 1024 per power of two above 2048 ns, up to 60 s (HdrHistogram-like). */
#define MDG_HISTOGRAM_SUB_BUCKETS 1024
#define MDG_HISTOGRAM_LINEAR 2048
#define MDG_HISTOGRAM_BUCKETS (MDG_HISTOGRAM_LINEAR + 26 * MDG_HISTOGRAM_SUB_BUCKETS)
#define MDG_HIGHEST_LATENCY_NS 60000000000LL

typedef struct mdg_histogram
{
    int64_t *counts;
    int64_t total;
    int64_t max;
} mdg_histogram;

int mdg_histogram_init(mdg_histogram *histogram);
void mdg_histogram_free(mdg_histogram *histogram);
int mdg_histogram_index(int64_t value);
void mdg_histogram_record(mdg_histogram *histogram, int64_t value, int64_t count);
int64_t mdg_histogram_highest_equivalent(int index);
int64_t mdg_histogram_percentile(const mdg_histogram *histogram, double percentile);
void mdg_histogram_reset(mdg_histogram *histogram);

enum mdg_state
{
    MDG_DISCONNECTED = 0,
    MDG_AWAITING_WELCOME = 1,
    MDG_CONNECTED = 2,
    MDG_REJECTED = 3,
    MDG_CLOSED = 4
};

/* A symbol wanted by subscription, with its view's mask (LocalSubscriptions' wanted symbols). */
typedef struct mdg_symbol_entry
{
    uint64_t symbol;
    uint8_t mask;
    uint8_t view;
    uint8_t pending;
    uint8_t used;
} mdg_symbol_entry;

typedef struct mdg_ring
{
    int attached;
    int resync_pending;
    int64_t position;
    uint8_t *region;
    int32_t slots;
} mdg_ring;

/* StreamReader: sequence tracking and gap recovery for the stream and the shared log. */
typedef struct mdg_sequencer
{
    int32_t stream_id;
    int64_t publisher_epoch;
    int64_t next_datagram;
    int64_t next;
    int recovering;
    int32_t pending_count;
    int32_t pending_capacity;
    int64_t pending_first;
    int pending_broken;
    int64_t highest_log_sequence;
    uint8_t *pending;            /* pending_capacity ticks */
    int64_t *pending_timestamps; /* their send or receive timestamps */
} mdg_sequencer;

typedef struct mdg_log_follower
{
    mdg_mapped_file file;
    int open;
    int following;
    int32_t slots;
    int64_t position;
    int64_t reported;
    uint8_t *run; /* MDG_LOG_RUN ticks, 64-byte aligned */
} mdg_log_follower;

struct mdgate_consumer
{
    mdgate_consumer_config config;
    char directory[160];
    char instance[64];
    char name[MDGATE_HELLO_MAX_NAME_LENGTH + 1];
    char token[MDGATE_HELLO_MAX_TOKEN_LENGTH + 1];
    mdg_transport *transport;
    int state;
    mdg_local_region region;
    int region_open;
    mdg_remote_region positions;
    int positions_open;
    int stream_open;
    mdgate_counters counters;
    mdg_histogram latency;
    int64_t epoch_offset;

    /* subscriptions (LocalSubscriptions + what to send again after a reconnect) */
    uint8_t *masks;        /* per instrument id: mask of its view's classes, 0 when not subscribed */
    uint8_t *wanted_views; /* per instrument id: view subscribed by id, MDG_NO_VIEW when none */
    int32_t *table_slots;  /* per instrument id: table slot granted, MDG_NO_SLOT when none */
    uint64_t *symbols;     /* per instrument id: its symbol when known */
    mdg_symbol_entry *wanted_symbols;
    int wanted_symbol_count;
    int want_all;
    int all_view;
    int all_mask;
    int awaiting_answers;

    mdg_ring ring;
    mdg_sequencer sequencer;
    mdg_log_follower log;
    uint8_t *slot_copy;   /* one ring slot, 64-byte aligned */
    uint8_t *scratch;     /* outgoing control messages */
    uint8_t *depth_copy;  /* one depth slot, read under its seqlock */
    int32_t depth_levels; /* min(L, D) once welcomed */

    int resync_due;
    int snapshot_pending;       /* asked and waiting for SNAPSHOT_END: live paths are not read */
    int snapshot_due;           /* ask at the next poll */
    int directory_wanted;       /* directory_on_connect, starting live (no snapshot, no resume point) */
    int directory_due;          /* ask for the directory at the next poll */
    int directory_pending;      /* asked and waiting for its SNAPSHOT_END: live paths are not read */
    int directory_abandoned;    /* unanswered for the heartbeat timeout and given up: its late answer is passed over */
    int64_t directory_asked_ns;
    int stale_recovery_ends;    /* RECOVER answers a snapshot abandoned: their RECOVERY_END is ignored */
    int64_t snapshot_sequence;  /* S of the last snapshot delivered: its from, where live delivery resumed */
    /*
     * The last snapshot's parts, each at its instrument's own sequence S(i) (PROTOCOL.md, SNAPSHOT): a live tick of
     * instrument i at or below floor[i], or at or below floor_from, is covered by the snapshot; none is above
     * floor_to. named lists the instruments with a floor, so clearing touches only those.
     */
    int64_t *floor;
    int32_t *named;
    int32_t named_count;
    int64_t floor_from;
    int64_t floor_to;
    int32_t snapshot_flags;               /* PER_INSTRUMENT, or 0 once an older publisher refused it */
    int64_t snapshot_ticks_at_request;
    int32_t shared_log_slots;
    int32_t stream_id;
    int log_switch_pending;
    int64_t log_switch_position;
    int64_t log_switch_sequence;
    int log_resume_owed;
    int64_t last_delivered;
    int resuming;
    int64_t now_ns;
    int64_t receipt_epoch_ns;
    int64_t last_control_poll_ns;
    int64_t last_received_ns;
    int64_t last_heartbeat_sent_ns;
    int64_t heartbeat_interval_ns;
    int64_t heartbeat_timeout_ns;
    int64_t state_since_ns;
    int64_t reconnect_delay_ns;        /* from the loss (or the last attempt) to the next attempt */
    int64_t reconnect_failures_logged; /* counters.reconnect_failures at the last report */
    int64_t last_reconnect_log_ns;
    char last_reconnect_failure[256];  /* the reason last reported, empty after a loss */
    int64_t publisher_epoch;
    int reject_reason;
    int connect_failure; /* set while awaiting WELCOME when the answer is malformed */
    int broken;          /* a send failed: the connection is dropped at the end of the poll */
    char broken_reason[128];
    mdgate_tick_handler handler;
    void *handler_context;
    char last_error[1536];
};

/* consumer.c */
void mdg_event(mdgate_consumer *consumer, const char *format, ...) __attribute__((format(printf, 2, 3)));
int mdg_send_range(mdgate_consumer *consumer, uint16_t type, int64_t from, int64_t to, int32_t flags);
void mdg_request_resync(mdgate_consumer *consumer);
void mdg_request_recovery(mdgate_consumer *consumer, int64_t from, int64_t to);
int mdg_class_of(uint8_t event_type);
void mdg_on_instrument(mdgate_consumer *consumer, uint64_t symbol, int instrument);

/* delivery.c */
void mdg_ring_attach(mdgate_consumer *consumer);
int mdg_ring_poll(mdgate_consumer *consumer, int limit);
void mdg_ring_resync(mdgate_consumer *consumer);
void mdg_ring_on_resynced(mdgate_consumer *consumer, int64_t position);
void mdg_sequencer_start(mdgate_consumer *consumer, int32_t stream_id, int64_t first);
void mdg_sequencer_follow(mdgate_consumer *consumer, int64_t first, int64_t live);
void mdg_sequencer_abandon(mdgate_consumer *consumer);
void mdg_sequencer_on_recovered(mdgate_consumer *consumer, const uint8_t *tick);
void mdg_sequencer_on_recovery_end(mdgate_consumer *consumer, int64_t to);
void mdg_sequencer_skip_to(mdgate_consumer *consumer, int64_t sequence);
void mdg_on_datagram(void *context, const uint8_t *datagram, int32_t length);
int mdg_log_open(mdgate_consumer *consumer, char *problem, size_t problem_length);
void mdg_log_start(mdgate_consumer *consumer, int64_t from, int64_t from_sequence, int64_t live_sequence);
int mdg_log_poll(mdgate_consumer *consumer, int limit);
void mdg_log_close(mdgate_consumer *consumer);
uint64_t mdg_slot_check(int64_t position, const uint8_t *slot);

/* Whether a live tick of that instrument and sequence is covered by the last snapshot's parts (not to deliver). */
static inline int mdg_snapshot_covers(const mdgate_consumer *consumer, int instrument, int64_t sequence)
{
    return sequence <= consumer->floor_to &&
        (sequence <= consumer->floor_from || sequence <= consumer->floor[instrument]);
}

#endif
