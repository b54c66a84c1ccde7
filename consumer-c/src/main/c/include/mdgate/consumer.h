/*
 * libmdgate-consumer: the egress consumer for C (C11, no JVM), with the semantics of the Java SDK
 * (io.mdgate.egress.consumer.EgressConsumer): connect and authenticate, subscribe, and poll ticks in gateway
 * sequence order, each exactly once, gaps and laps recovered by the library. docs/CONSUMER-C.md explains it.
 *
 * Threading: one thread creates, subscribes, polls and closes a consumer. Several consumers may live in one process,
 * each on its own thread. mdgate_consumer_poll allocates nothing and makes a syscall only at the control interval
 * (1 ms by default) or while something is recovered.
 *
 * Errors: every function that can fail returns an int, 0 or more for success and a negative MDGATE_E_* code for
 * failure; nothing aborts, nothing exits. mdgate_consumer_last_error() says what went wrong in words.
 */
#ifndef MDGATE_CONSUMER_H
#define MDGATE_CONSUMER_H

#include <stddef.h>
#include <stdint.h>

#include "mdgate/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error codes (negative) ---- */
#define MDGATE_OK 0
#define MDGATE_E_INVALID_ARGUMENT (-1) /* a setting or argument is out of range: the message says which */
#define MDGATE_E_NO_PUBLISHER (-2)     /* nothing listens on the control socket (not started, or elsewhere) */
#define MDGATE_E_TIMEOUT (-3)          /* the publisher did not answer HELLO in time */
#define MDGATE_E_REJECTED (-4)         /* the publisher refused this consumer: see the REJECT reason */
#define MDGATE_E_PROTOCOL (-5)         /* the publisher sent something malformed (truncated, garbage, wrong length) */
#define MDGATE_E_TRANSPORT (-6)        /* a system call of the transport failed (errno in the message) */
#define MDGATE_E_NO_MEMORY (-7)        /* allocation or mapping failed at set-up */
#define MDGATE_E_NOT_CONNECTED (-8)    /* the connection is down (the library reconnects when allowed) */
#define MDGATE_E_CLOSED (-9)           /* the consumer was closed, or lost its connection with reconnect off */
#define MDGATE_E_REGION (-10)          /* a region or log file is missing, too short, or refuses the key */
#define MDGATE_E_BACK_PRESSURED (-11)  /* the control channel's send queue is full */
#define MDGATE_E_NO_SLOT (-12)         /* top of book: the instrument has no table slot (not subscribed, full) */

/* ---- delivery paths ---- */
#define MDGATE_PATH_RING 0   /* the consumer's own ring (and the shared tick log once subscribed to all) */
#define MDGATE_PATH_STREAM 1 /* the multicast stream, filtered here */

/* ---- views (SubscriptionView) ---- */
typedef enum mdgate_view
{
    MDGATE_VIEW_ALL_TICKS = 0, /* everything */
    MDGATE_VIEW_TOP_ONLY = 1,  /* no order events, no LEVEL ticks */
    MDGATE_VIEW_DEPTH_ONLY = 2, /* LEVEL ticks, no order events */
    MDGATE_VIEW_ORDERS_ONLY = 3 /* order events, no LEVEL ticks */
} mdgate_view;

/* ---- top of book (TopOfBookDescriptor), as read under the seqlock ---- */
#define MDGATE_TOB_READ 1
#define MDGATE_TOB_EMPTY 0
#define MDGATE_TOB_BUSY (-1)

typedef struct mdgate_top_of_book
{
    uint64_t version;
    uint64_t gateway_sequence;
    int64_t exchange_timestamp;
    uint64_t symbol; /* alpha8 packed big-endian: first character in the most significant byte */
    int32_t bid_price; /* Price(4); MDGATE_PRICE_NULL when empty */
    uint32_t bid_size;
    int32_t ask_price;
    uint32_t ask_size;
    uint32_t bid_orders;
    uint32_t ask_orders;
    uint16_t instrument_id;
    uint8_t trading_state;
    uint8_t reserved[5];
} mdgate_top_of_book;

/* ---- depth (DepthTableDescriptor, DepthBook), as read under the seqlock ---- */
typedef struct mdgate_level
{
    int32_t price; /* Price(4) */
    uint32_t shares;
    uint32_t orders;
} mdgate_level;

typedef struct mdgate_depth
{
    uint64_t version;
    uint64_t gateway_sequence; /* of the last change */
    int64_t exchange_timestamp;
    uint16_t instrument_id;
    int32_t bid_levels; /* levels held, 0 .. mdgate_consumer_depth_levels() */
    int32_t ask_levels;
    mdgate_level bids[64]; /* best first */
    mdgate_level asks[64];
} mdgate_depth;

/* ---- settings (ConsumerContext); mdgate_consumer_config_init fills the defaults ---- */
typedef void (*mdgate_log_function)(void *context, const char *message);

typedef struct mdgate_consumer_config
{
    const char *directory;         /* shm directory, default "/dev/shm" */
    const char *instance;          /* publisher instance name, default "mdgate" */
    const char *name;              /* consumer name as configured at the publisher (1..32 ASCII) */
    const char *token;             /* its token (1..64 bytes) */
    int path;                      /* MDGATE_PATH_RING (default) or MDGATE_PATH_STREAM */
    int32_t ring_slots;            /* power of two from 16, default 8192 (0 with the stream path) */
    int32_t table_slots;           /* top-of-book table slots, default 256 */
    int32_t depth_levels;          /* L: levels per side of each depth slot, 0..64, default 10 (0: no depth table) */
    int64_t connect_timeout_ns;    /* default 10 s */
    int64_t control_poll_ns;       /* default 1 ms */
    int64_t reconnect_interval_ns; /* wait before the first reconnect attempt after a loss, default 500 ms */
    int64_t reconnect_max_interval_ns; /* each failed attempt doubles the wait, up to this; default 4 s, at least
                                          reconnect_interval_ns */
    int reconnect;                 /* reconnect after a lost connection, default 1 */
    int64_t resume_from_sequence;  /* first sequence wanted (recovered if already sent), 0: live */
    int32_t pending_ticks;         /* live ticks held while a gap is recovered, default 65536 */
    int32_t max_control_message;   /* largest control message accepted, default 65536 */
    int record_latency;            /* keep the latency histogram, default 1 */
    int snapshot_on_connect;       /* ask for a snapshot at the first poll (late join), default 0; not with resume */
    int directory_on_connect;      /* starting live (no snapshot, no resume): ask for the instrument directory at the
                                      first poll, so symbols named before joining are known; default 0 */
    mdgate_log_function log;       /* session events (reconnects, refusals); default stderr; NULL-safe */
    void *log_context;
} mdgate_consumer_config;

/* ---- counters (ConsumerCounters) ---- */
typedef struct mdgate_counters
{
    int64_t delivered;
    int64_t recovered_delivered;
    int64_t duplicates;
    int64_t filtered;
    int64_t gaps;
    int64_t recoveries_requested;
    int64_t recoveries_completed;
    int64_t unrecovered;
    int64_t laps;
    int64_t log_ticks_skipped;
    int64_t lap_notices;
    int64_t torn_reads;
    int64_t datagrams_lost;
    int64_t transport_loss;
    int64_t malformed;
    int64_t connects;
    int64_t disconnects;
    int64_t heartbeats_received;
    int64_t pending_overflows;
    int64_t snapshots;           /* snapshots completed */
    int64_t snapshots_requested;
    int64_t snapshot_ticks;      /* snapshot ticks handed over (not in delivered) */
    int64_t snapshot_skipped;    /* live or recovered ticks at or below a snapshot's sequence, dropped */
    int64_t snapshots_refused;
    int64_t directories;         /* instrument directories received whole (directory_on_connect) */
    int64_t directory_ticks;     /* INSTRUMENT ticks of a directory read (naming symbols; not handed over) */
    int64_t directories_refused; /* refused directory requests (a publisher that predates it refuses every one) */
    int64_t reconnect_attempts;  /* connection attempts after a loss */
    int64_t reconnect_failures;  /* of them, those that failed: no publisher, or its answer could not be set up */
    int64_t reconnects;          /* of them, those that ended in WELCOME: connects after the first */
} mdgate_counters;

typedef struct mdgate_consumer mdgate_consumer;

/*
 * Receives one tick: 64 bytes (docs/TICK.md, or the SBE codecs of mdgate/sbe) valid only during the call. The
 * pointer is into the library's stable copy of the slot, or of a run of slots: no copy is made per tick.
 */
typedef void (*mdgate_tick_handler)(void *context, const uint8_t *tick);

MDGATE_EXPORT void mdgate_consumer_config_init(mdgate_consumer_config *config);

/*
 * Connects and authenticates, waiting up to connect_timeout_ns. On success *consumer is set and 0 returned. On
 * failure *consumer is NULL and a negative code is returned; when error_text is not NULL it receives the reason
 * (NUL-terminated, at most error_text_length bytes) and *reject_reason (when not NULL) the REJECT reason code.
 */
MDGATE_EXPORT int mdgate_consumer_connect(const mdgate_consumer_config *config, mdgate_consumer **consumer,
    char *error_text, size_t error_text_length, int *reject_reason);

/*
 * Delivers ticks that arrived, in gateway sequence order, and does the housekeeping (control messages, heartbeats,
 * recovery, reconnecting). limit: most ring slots, log ticks or datagrams read in this call.
 * Returns work done (0 when idle), or MDGATE_E_REJECTED / MDGATE_E_CLOSED when the consumer cannot go on.
 */
MDGATE_EXPORT int mdgate_consumer_poll(mdgate_consumer *consumer, mdgate_tick_handler handler, void *context,
    int limit);

/* Subscriptions: sent at once, answered during poll. Subscribing again changes the view. */
MDGATE_EXPORT int mdgate_consumer_subscribe_id(mdgate_consumer *consumer, int instrument_id, mdgate_view view);
MDGATE_EXPORT int mdgate_consumer_subscribe_symbol(mdgate_consumer *consumer, const char *symbol, mdgate_view view);
MDGATE_EXPORT int mdgate_consumer_subscribe_all(mdgate_consumer *consumer, mdgate_view view);
MDGATE_EXPORT int mdgate_consumer_unsubscribe_id(mdgate_consumer *consumer, int instrument_id);
MDGATE_EXPORT int mdgate_consumer_unsubscribe_symbol(mdgate_consumer *consumer, const char *symbol);
/*
 * Asks for a late-join snapshot of every subscribed instrument (docs/PROTOCOL.md, SNAPSHOT): from the next poll the
 * handler gets each instrument's part first (flag snapshot; every tick of a part carries that instrument's own
 * sequence S(i)), then the live ticks after the snapshot: of instrument i only those after S(i), each once. Live
 * ticks wait meanwhile. Ignored while one is pending.
 */
MDGATE_EXPORT int mdgate_consumer_request_snapshot(mdgate_consumer *consumer);
/* Whether a snapshot was asked for and has not ended; where live delivery resumed after the last one (its from; 0: none). */
MDGATE_EXPORT int mdgate_consumer_snapshot_pending(const mdgate_consumer *consumer);
MDGATE_EXPORT int64_t mdgate_consumer_snapshot_sequence(const mdgate_consumer *consumer);
/*
 * Whether the instrument directory (directory_on_connect; docs/PROTOCOL.md, The directory) is due or asked for and
 * has not ended: live ticks wait meanwhile, then go on from where they were, each once. Its INSTRUMENT ticks only
 * name symbols (mdgate_consumer_symbol_of) and are not handed to the handler.
 */
MDGATE_EXPORT int mdgate_consumer_directory_pending(const mdgate_consumer *consumer);

/* Subscription requests not answered yet. */
MDGATE_EXPORT int mdgate_consumer_awaiting_answers(const mdgate_consumer *consumer);

/* Reads an instrument's top of book under its seqlock: MDGATE_TOB_READ, _EMPTY, _BUSY or MDGATE_E_NO_SLOT. */
MDGATE_EXPORT int mdgate_consumer_top_of_book(mdgate_consumer *consumer, int instrument_id, mdgate_top_of_book *out);

/*
 * Reads an instrument's depth (its top min(L, D) levels per side) under its seqlock: MDGATE_TOB_READ, _EMPTY, _BUSY,
 * or MDGATE_E_NO_SLOT (no table slot, or no depth table: depth_levels 0 or a publisher that keeps none).
 */
MDGATE_EXPORT int mdgate_consumer_depth(mdgate_consumer *consumer, int instrument_id, mdgate_depth *out);
/* min(L, D): levels per side of mdgate_consumer_depth, 0 when either keeps none. */
MDGATE_EXPORT int mdgate_consumer_depth_levels(const mdgate_consumer *consumer);

/*
 * The symbol of an instrument as the publisher or an INSTRUMENT tick read named it (alpha8 packed), 0 when unknown;
 * a delivered SESSION tick forgets them all (the new session reuses stock locates).
 */
MDGATE_EXPORT uint64_t mdgate_consumer_symbol_of(const mdgate_consumer *consumer, int instrument_id);

MDGATE_EXPORT int64_t mdgate_consumer_last_delivered(const mdgate_consumer *consumer);
MDGATE_EXPORT int mdgate_consumer_is_connected(const mdgate_consumer *consumer);
MDGATE_EXPORT int mdgate_consumer_is_rejected(const mdgate_consumer *consumer);
MDGATE_EXPORT int mdgate_consumer_is_recovering(const mdgate_consumer *consumer);
MDGATE_EXPORT int mdgate_consumer_reads_shared_log(const mdgate_consumer *consumer);
/* REJECT reason (MDGATE_REJECT_*) once refused, else 0. */
MDGATE_EXPORT int mdgate_consumer_reject_reason(const mdgate_consumer *consumer);
MDGATE_EXPORT const mdgate_counters *mdgate_consumer_counters(const mdgate_consumer *consumer);
/* The last error or session event, in words (never NULL). */
MDGATE_EXPORT const char *mdgate_consumer_last_error(const mdgate_consumer *consumer);

/*
 * Latency, ns, from the tick's gateway receive timestamp (ring, shared log) or the datagram's send timestamp
 * (stream) to the poll that found it; recovered ticks are not recorded. Both ends read CLOCK_MONOTONIC plus one
 * offset to the wall clock measured at start, as the Java side does.
 */
MDGATE_EXPORT int64_t mdgate_consumer_latency_count(const mdgate_consumer *consumer);
/* The value at a percentile (0..100), the highest value of its bucket (precision about 0.1 %); 0 when empty. */
MDGATE_EXPORT int64_t mdgate_consumer_latency_percentile(const mdgate_consumer *consumer, double percentile);
MDGATE_EXPORT int64_t mdgate_consumer_latency_max(const mdgate_consumer *consumer);
MDGATE_EXPORT void mdgate_consumer_latency_reset(mdgate_consumer *consumer);

/* Nanoseconds since the epoch on the clock latencies are measured with (CLOCK_MONOTONIC + wall-clock offset). */
MDGATE_EXPORT int64_t mdgate_consumer_epoch_nanos(const mdgate_consumer *consumer);

/* Says goodbye, releases the connection, the region (its file is removed) and the memory. NULL is ignored. */
MDGATE_EXPORT void mdgate_consumer_close(mdgate_consumer *consumer);

/* The name of an error code, e.g. "MDGATE_E_REJECTED: the publisher refused this consumer". */
MDGATE_EXPORT const char *mdgate_strerror(int code);
/* What a REJECT reason means, as the Java side says it. */
MDGATE_EXPORT const char *mdgate_reject_reason_text(int reason);
/* Packs a symbol (1..8 printable ASCII) as alpha8; 0 when it is not one. */
MDGATE_EXPORT uint64_t mdgate_pack_symbol(const char *symbol);
/* Unpacks an alpha8 symbol into out (at least 9 bytes), trailing spaces removed. */
MDGATE_EXPORT void mdgate_unpack_symbol(uint64_t packed, char *out);

#ifdef __cplusplus
}
#endif

#endif
