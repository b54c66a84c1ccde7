/*
 * The consumer's connection and control plane (EgressConsumer on the Java side): HELLO and WELCOME / REJECT,
 * subscriptions and their answers, heartbeats both ways and the heartbeat timeout, RECOVER / RECOVERY_DATA /
 * RECOVERY_END, RESYNC / RESYNCED, LAPPED, BYE, reconnecting. Every message from the publisher is checked for its
 * length before a field is read; a malformed one is counted (or, while connecting, is the error returned).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "memory.h"

#define CONTROL_MESSAGES_PER_POLL 32
#define SCRATCH_LENGTH 512
#define CONTROL_QUEUE_LENGTH (1 << 20)
/* Longest quiet time between two reports of failing reconnects for the same reason (EgressConsumer's). */
#define RECONNECT_LOG_INTERVAL_NS 30000000000LL

static int64_t monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* The offset from CLOCK_MONOTONIC to the wall clock, the tightest of 16 readings (MonotonicEpochClock). */
static int64_t sample_epoch_offset(void)
{
    int64_t best_span = INT64_MAX;
    int64_t best_offset = 0;
    for (int i = 0; i < 16; i++)
    {
        struct timespec wall;
        const int64_t before = monotonic_ns();
        clock_gettime(CLOCK_REALTIME, &wall);
        const int64_t after = monotonic_ns();
        const int64_t span = after - before;
        if (span < best_span)
        {
            best_span = span;
            best_offset = (int64_t)wall.tv_sec * 1000000000LL + wall.tv_nsec - (before + span / 2);
        }
    }
    return best_offset;
}

static void default_log(void *context, const char *message)
{
    (void)context;
    fprintf(stderr, "libmdgate-consumer: %s\n", message);
}

void mdg_event(mdgate_consumer *consumer, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(consumer->last_error, sizeof consumer->last_error, format, args);
    va_end(args);
    if (NULL != consumer->config.log)
    {
        consumer->config.log(consumer->config.log_context, consumer->last_error);
    }
}

static const uint8_t VIEW_MASKS[4] = {
    MDGATE_EVERY_CLASS, MDGATE_CLASS_OTHER, MDGATE_CLASS_OTHER | MDGATE_CLASS_LEVEL,
    MDGATE_CLASS_OTHER | MDGATE_CLASS_ORDER
};

int mdg_class_of(uint8_t event_type)
{
    switch (event_type)
    {
        case MDGATE_EVENT_ADD:
        case MDGATE_EVENT_EXECUTE:
        case MDGATE_EVENT_EXECUTE_WITH_PRICE:
        case MDGATE_EVENT_CANCEL:
        case MDGATE_EVENT_DELETE:
        case MDGATE_EVENT_REPLACE:
            return MDGATE_CLASS_ORDER;
        case MDGATE_EVENT_LEVEL:
            return MDGATE_CLASS_LEVEL;
        default:
            return MDGATE_CLASS_OTHER;
    }
}

/* ---- sending ---- */

/* Sends a message; a failure marks the connection broken, handled at the end of the poll (never mid-read). */
static void send_message(mdgate_consumer *consumer, const uint8_t *message, int32_t length)
{
    if (consumer->state != MDG_CONNECTED && consumer->state != MDG_AWAITING_WELCOME)
    {
        return;
    }
    const int result = consumer->transport->ops->offer(consumer->transport, message, length);
    if (result != MDGATE_OK && !consumer->broken)
    {
        consumer->broken = 1;
        snprintf(consumer->broken_reason, sizeof consumer->broken_reason, "control send failed: %s",
            mdgate_strerror(result));
    }
}

static uint8_t *encode(mdgate_consumer *consumer, uint16_t type, size_t length)
{
    uint8_t *message = consumer->scratch;
    memset(message, 0, length);
    mdg_put16(message + MDGATE_CONTROL_TYPE_OFFSET, type);
    mdg_put16(message + MDGATE_CONTROL_VERSION_OFFSET, MDGATE_PROTOCOL_VERSION);
    return message;
}

int mdg_send_range(mdgate_consumer *consumer, uint16_t type, int64_t from, int64_t to, int32_t flags)
{
    uint8_t *message = encode(consumer, type, MDGATE_RANGE_LENGTH);
    mdg_put64(message + MDGATE_RANGE_FROM_OFFSET, (uint64_t)from);
    mdg_put64(message + MDGATE_RANGE_TO_OFFSET, (uint64_t)to);
    mdg_put32(message + MDGATE_RANGE_FLAGS_OFFSET, (uint32_t)flags);
    send_message(consumer, message, MDGATE_RANGE_LENGTH);
    return MDGATE_OK;
}

void mdg_request_resync(mdgate_consumer *consumer)
{
    consumer->counters.gaps++;
    consumer->counters.recoveries_requested++;
    mdg_send_range(consumer, MDGATE_MSG_RESYNC, consumer->last_delivered + 1, 0, 0);
}

void mdg_request_recovery(mdgate_consumer *consumer, int64_t from, int64_t to)
{
    consumer->counters.recoveries_requested++;
    mdg_send_range(consumer, MDGATE_MSG_RECOVER, from, to, MDGATE_FLAG_FILTERED);
}

static void send_subscription(mdgate_consumer *consumer, uint16_t type, int32_t instrument, uint64_t symbol,
    int32_t flags, int view)
{
    if (consumer->state != MDG_CONNECTED)
    {
        return;
    }
    consumer->awaiting_answers++;
    uint8_t *message = encode(consumer, type, MDGATE_SUBSCRIPTION_VIEW_LENGTH);
    mdg_put32(message + MDGATE_SUBSCRIPTION_INSTRUMENT_ID_OFFSET, (uint32_t)instrument);
    mdg_put32(message + MDGATE_SUBSCRIPTION_TABLE_SLOT_OFFSET, (uint32_t)MDG_NO_SLOT);
    mdg_put64(message + MDGATE_SUBSCRIPTION_SYMBOL_OFFSET, symbol);
    mdg_put32(message + MDGATE_SUBSCRIPTION_FLAGS_OFFSET, (uint32_t)flags);
    message[MDGATE_SUBSCRIPTION_VIEW_OFFSET] = (uint8_t)view;
    send_message(consumer, message, MDGATE_SUBSCRIPTION_VIEW_LENGTH);
}

static void send_subscription_to_all(mdgate_consumer *consumer)
{
    send_subscription(consumer, MDGATE_MSG_SUBSCRIBE, MDGATE_ALL_INSTRUMENTS, 0,
        consumer->log.open ? MDGATE_FLAG_SHARED_LOG : 0, consumer->all_view);
}

static void send_subscriptions(mdgate_consumer *consumer)
{
    if (consumer->want_all)
    {
        send_subscription_to_all(consumer);
    }
    for (int id = 1; id <= MDGATE_MAX_INSTRUMENT_ID; id++)
    {
        if (consumer->wanted_views[id] != MDG_NO_VIEW)
        {
            send_subscription(consumer, MDGATE_MSG_SUBSCRIBE, id, 0, 0, consumer->wanted_views[id]);
        }
    }
    for (int i = 0; i < consumer->wanted_symbol_count; i++)
    {
        send_subscription(consumer, MDGATE_MSG_SUBSCRIBE, MDGATE_BY_SYMBOL, consumer->wanted_symbols[i].symbol, 0,
            consumer->wanted_symbols[i].view);
    }
}

/* ---- symbols ---- */

static mdg_symbol_entry *find_symbol(mdgate_consumer *consumer, uint64_t symbol)
{
    for (int i = 0; i < consumer->wanted_symbol_count; i++)
    {
        if (consumer->wanted_symbols[i].symbol == symbol)
        {
            return &consumer->wanted_symbols[i];
        }
    }
    return NULL;
}

void mdg_on_instrument(mdgate_consumer *consumer, uint64_t symbol, int instrument)
{
    if (consumer->wanted_symbol_count > 0)
    {
        const mdg_symbol_entry *wanted = find_symbol(consumer, symbol);
        if (NULL != wanted)
        {
            consumer->masks[instrument] = wanted->mask;
        }
    }
}

/* ---- the connection ---- */

static void release_connection(mdgate_consumer *consumer)
{
    mdg_transport *transport = consumer->transport;
    consumer->ring.attached = 0;
    consumer->ring.resync_pending = 0;
    mdg_log_close(consumer);
    consumer->log_switch_pending = 0;
    mdg_sequencer_abandon(consumer);
    if (consumer->stream_open)
    {
        transport->ops->close_stream(transport);
        consumer->stream_open = 0;
    }
    if (consumer->positions_open)
    {
        transport->ops->close_remote(transport, &consumer->positions);
        consumer->positions_open = 0;
    }
    transport->ops->close_control(transport);
    if (consumer->region_open)
    {
        transport->ops->release_region(transport, &consumer->region);
        consumer->region_open = 0;
    }
    consumer->broken = 0;
}

static void disconnect(mdgate_consumer *consumer, const char *reason)
{
    if (consumer->state == MDG_CONNECTED || consumer->state == MDG_AWAITING_WELCOME)
    {
        consumer->counters.disconnects++;
        consumer->last_reconnect_failure[0] = '\0';
        mdg_event(consumer, "consumer '%s' lost its connection: %s%s", consumer->name, reason,
            consumer->config.reconnect ? "; reconnecting" : "");
    }
    release_connection(consumer);
    consumer->state = consumer->config.reconnect ? MDG_DISCONNECTED : MDG_CLOSED;
    consumer->state_since_ns = consumer->now_ns;
    consumer->reconnect_delay_ns = consumer->config.reconnect_interval_ns;
}

/*
 * A reconnect attempt failed: the next waits twice as long, up to reconnect_max_interval_ns. Says why on the first
 * failure after a loss, on a failure for another reason than the last one said, and then at most every
 * RECONNECT_LOG_INTERVAL_NS with the attempts since, as EgressConsumer does.
 */
static void reconnect_failed(mdgate_consumer *consumer, const char *reason)
{
    const int64_t max = consumer->config.reconnect_max_interval_ns;
    consumer->reconnect_delay_ns = consumer->reconnect_delay_ns > max / 2 ? max : consumer->reconnect_delay_ns * 2;
    consumer->counters.reconnect_failures++;
    if (strcmp(reason, consumer->last_reconnect_failure) != 0 ||
        consumer->now_ns - consumer->last_reconnect_log_ns >= RECONNECT_LOG_INTERVAL_NS)
    {
        char said[sizeof consumer->last_reconnect_failure];
        snprintf(said, sizeof said, "%s", reason); /* reason may be last_error, which mdg_event overwrites */
        mdg_event(consumer, "consumer '%s' could not reconnect (%lld attempt(s) since the last report): %s",
            consumer->name, (long long)(consumer->counters.reconnect_failures - consumer->reconnect_failures_logged),
            said);
        snprintf(consumer->last_reconnect_failure, sizeof consumer->last_reconnect_failure, "%s", said);
        consumer->last_reconnect_log_ns = consumer->now_ns;
        consumer->reconnect_failures_logged = consumer->counters.reconnect_failures;
    }
}

static size_t table_length(int32_t ring_slots, int32_t table_slots)
{
    const size_t stamps_end = MDGATE_REGION_SLOTS_OFFSET + (size_t)ring_slots * MDGATE_REGION_SLOT_LENGTH +
        (size_t)ring_slots * MDGATE_REGION_STAMP_LENGTH;
    return ((stamps_end + 63) & ~(size_t)63) + (size_t)table_slots * MDGATE_TOB_LENGTH;
}

static size_t table_offset(int32_t ring_slots)
{
    return table_length(ring_slots, 0);
}

/* DepthTableDescriptor.slotLength: the slot header and a DepthBook of `levels` (one spare level), rounded to 64. */
static size_t depth_slot_length(int32_t levels)
{
    const size_t book = MDGATE_DEPTHBOOK_LEVELS + (size_t)MDGATE_DEPTHBOOK_LEVEL_STRIDE * (size_t)(levels + 1);
    return levels == 0 ? 0 : (MDGATE_DEPTH_BOOK_OFFSET + book + 63) & ~(size_t)63;
}

static size_t region_length(int32_t ring_slots, int32_t table_slots, int32_t depth_levels)
{
    return table_length(ring_slots, table_slots) + (size_t)table_slots * depth_slot_length(depth_levels);
}

static int begin_connect(mdgate_consumer *consumer, int64_t timeout_ns)
{
    mdg_transport *transport = consumer->transport;
    int result = transport->ops->connect_control(transport, timeout_ns);
    if (result != MDGATE_OK)
    {
        snprintf(consumer->last_error, sizeof consumer->last_error, "%s", transport->ops->error(transport));
        return result;
    }
    const int32_t ring_slots = consumer->config.ring_slots;
    const int32_t table_slots = consumer->config.table_slots;
    const int32_t depth = consumer->config.depth_levels;
    result = transport->ops->register_region(transport, region_length(ring_slots, table_slots, depth),
        &consumer->region);
    if (result != MDGATE_OK)
    {
        snprintf(consumer->last_error, sizeof consumer->last_error, "%s", transport->ops->error(transport));
        transport->ops->close_control(transport);
        return result;
    }
    consumer->region_open = 1;
    uint8_t *header = consumer->region.base;
    mdg_put32(header + MDGATE_REGION_VERSION_OFFSET, MDGATE_REGION_VERSION);
    mdg_put32(header + MDGATE_REGION_RING_SLOTS_OFFSET, (uint32_t)ring_slots);
    mdg_put32(header + MDGATE_REGION_TABLE_SLOTS_OFFSET, (uint32_t)table_slots);
    mdg_put32(header + MDGATE_REGION_DEPTH_LEVELS_OFFSET, (uint32_t)depth);
    mdg_store_release(header + MDGATE_REGION_LAP_POSITION_OFFSET, (uint64_t)(int64_t)MDGATE_REGION_NOT_LAPPED);
    mdg_store_release(header + MDGATE_REGION_MAGIC_OFFSET, MDGATE_REGION_MAGIC);

    uint8_t *hello = encode(consumer, MDGATE_MSG_HELLO, MDGATE_HELLO_LENGTH);
    mdg_put32(hello + MDGATE_HELLO_RING_SLOTS_OFFSET, (uint32_t)ring_slots);
    mdg_put32(hello + MDGATE_HELLO_TABLE_SLOTS_OFFSET, (uint32_t)table_slots);
    mdg_put64(hello + MDGATE_HELLO_REGION_ADDRESS_OFFSET, consumer->region.address);
    mdg_put32(hello + MDGATE_HELLO_REGION_KEY_OFFSET, (uint32_t)consumer->region.key);
    mdg_put32(hello + MDGATE_HELLO_DEPTH_LEVELS_OFFSET, (uint32_t)depth);
    mdg_put64(hello + MDGATE_HELLO_REGION_LENGTH_OFFSET, consumer->region.length);
    const size_t name_length = strlen(consumer->name);
    const size_t token_length = strlen(consumer->token);
    hello[MDGATE_HELLO_NAME_OFFSET] = (uint8_t)name_length;
    memcpy(hello + MDGATE_HELLO_NAME_OFFSET + 1, consumer->name, name_length);
    hello[MDGATE_HELLO_TOKEN_OFFSET] = (uint8_t)token_length;
    memcpy(hello + MDGATE_HELLO_TOKEN_OFFSET + 1, consumer->token, token_length);
    consumer->state = MDG_AWAITING_WELCOME;
    consumer->state_since_ns = consumer->now_ns;
    consumer->last_received_ns = consumer->now_ns;
    consumer->connect_failure = 0;
    send_message(consumer, hello, MDGATE_HELLO_LENGTH);
    return MDGATE_OK;
}

/* Maps the shared log when the publisher has one; the consumer keeps its ring if it cannot. */
static void open_log(mdgate_consumer *consumer)
{
    if (consumer->shared_log_slots == 0 || consumer->log.open)
    {
        return;
    }
    char problem[384];
    if (mdg_log_open(consumer, problem, sizeof problem) != MDGATE_OK)
    {
        mdg_event(consumer, "consumer '%s' reads every instrument from its ring: %s", consumer->name, problem);
    }
}

/* Something the publisher sent while we wait for WELCOME is not what it should be: connecting fails with it. */
static void connect_failed(mdgate_consumer *consumer, int code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void connect_failed(mdgate_consumer *consumer, int code, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(consumer->last_error, sizeof consumer->last_error, format, args);
    va_end(args);
    consumer->connect_failure = code;
    release_connection(consumer);
    consumer->state = MDG_DISCONNECTED;
    consumer->state_since_ns = consumer->now_ns;
    if (consumer->counters.connects > 0)
    {
        reconnect_failed(consumer, consumer->last_error); /* a publisher that answers nonsense is not hammered */
    }
}

static int welcome_problem(const uint8_t *message, int32_t length, char *out, size_t out_length)
{
    const int64_t position_length = (int64_t)mdg_get64(message + MDGATE_WELCOME_POSITION_LENGTH_OFFSET);
    const int64_t interval = (int64_t)mdg_get64(message + MDGATE_WELCOME_HEARTBEAT_INTERVAL_OFFSET);
    const int64_t timeout = (int64_t)mdg_get64(message + MDGATE_WELCOME_HEARTBEAT_TIMEOUT_OFFSET);
    const int32_t log_slots = (int32_t)mdg_get32(message + MDGATE_WELCOME_SHARED_LOG_SLOTS_OFFSET);
    if (mdg_get16(message + MDGATE_CONTROL_VERSION_OFFSET) != MDGATE_PROTOCOL_VERSION)
    {
        snprintf(out, out_length, "WELCOME of protocol version %u, this library speaks %d",
            mdg_get16(message + MDGATE_CONTROL_VERSION_OFFSET), MDGATE_PROTOCOL_VERSION);
    }
    else if (position_length < MDGATE_POSITION_DELIVERED_SEQUENCE_OFFSET + 8 || position_length > (1 << 20))
    {
        snprintf(out, out_length, "WELCOME names a position region of %lld bytes, expected %d",
            (long long)position_length, MDGATE_POSITION_LENGTH);
    }
    else if (interval <= 0 || timeout <= 0)
    {
        snprintf(out, out_length, "WELCOME gives heartbeat interval %lld ns and timeout %lld ns; both must be positive",
            (long long)interval, (long long)timeout);
    }
    else if (log_slots < 0 || log_slots > MDGATE_LOG_MAX_SLOTS)
    {
        snprintf(out, out_length, "WELCOME gives %d shared log slots, expected 0..%d", log_slots, MDGATE_LOG_MAX_SLOTS);
    }
    else
    {
        (void)length;
        return 0;
    }
    return 1;
}

static void on_welcome(mdgate_consumer *consumer, const uint8_t *message, int32_t length)
{
    char problem[256];
    if (welcome_problem(message, length, problem, sizeof problem))
    {
        connect_failed(consumer, MDGATE_E_PROTOCOL, "the publisher's answer is malformed: %s", problem);
        return;
    }
    mdg_transport *transport = consumer->transport;
    const int64_t epoch = (int64_t)mdg_get64(message + MDGATE_WELCOME_PUBLISHER_EPOCH_OFFSET);
    const int64_t next_sequence = (int64_t)mdg_get64(message + MDGATE_WELCOME_NEXT_SEQUENCE_OFFSET);
    const int opened = transport->ops->open_remote(transport,
        mdg_get64(message + MDGATE_WELCOME_POSITION_ADDRESS_OFFSET),
        (int32_t)mdg_get32(message + MDGATE_WELCOME_POSITION_KEY_OFFSET),
        (int64_t)mdg_get64(message + MDGATE_WELCOME_POSITION_LENGTH_OFFSET), &consumer->positions);
    if (opened != MDGATE_OK)
    {
        connect_failed(consumer, opened, "the publisher's position region cannot be opened: %s",
            transport->ops->error(transport));
        return;
    }
    consumer->positions_open = 1;
    if (consumer->publisher_epoch != 0 && epoch != consumer->publisher_epoch &&
        next_sequence <= consumer->last_delivered)
    {
        mdg_event(consumer, "the publisher restarted with lower sequences; consumer '%s' follows it from sequence %lld",
            consumer->name, (long long)next_sequence);
        consumer->last_delivered = next_sequence - 1;
        consumer->directory_due = consumer->directory_wanted; /* it joins the restarted publisher late */
    }
    consumer->publisher_epoch = epoch;
    consumer->heartbeat_interval_ns = (int64_t)mdg_get64(message + MDGATE_WELCOME_HEARTBEAT_INTERVAL_OFFSET);
    consumer->heartbeat_timeout_ns = (int64_t)mdg_get64(message + MDGATE_WELCOME_HEARTBEAT_TIMEOUT_OFFSET);
    consumer->state = MDG_CONNECTED;
    consumer->counters.reconnects += consumer->counters.connects > 0;
    consumer->counters.connects++;
    consumer->last_received_ns = consumer->now_ns;
    consumer->last_heartbeat_sent_ns = consumer->now_ns;
    for (int id = 0; id <= MDGATE_MAX_INSTRUMENT_ID; id++)
    {
        consumer->table_slots[id] = MDG_NO_SLOT;
    }
    for (int i = 0; i < consumer->wanted_symbol_count; i++)
    {
        consumer->wanted_symbols[i].pending = 0;
    }
    consumer->awaiting_answers = 0;
    consumer->shared_log_slots = (int32_t)mdg_get32(message + MDGATE_WELCOME_SHARED_LOG_SLOTS_OFFSET);
    consumer->stream_id = (int32_t)mdg_get32(message + MDGATE_WELCOME_STREAM_ID_OFFSET);
    const int32_t publisher_depth = length >= MDGATE_WELCOME_DEPTH_LENGTH ?
        (int32_t)mdg_get32(message + MDGATE_WELCOME_DEPTH_LEVELS_OFFSET) : 0;
    consumer->depth_levels = publisher_depth < 0 ? 0 :
        publisher_depth < consumer->config.depth_levels ? publisher_depth : consumer->config.depth_levels;
    consumer->log_switch_pending = 0;
    consumer->log_resume_owed = consumer->last_delivered > 0 || consumer->resuming;
    const int owed = consumer->last_delivered > 0 || consumer->resuming;
    if (consumer->config.path == MDGATE_PATH_RING)
    {
        mdg_ring_attach(consumer);
        if (consumer->want_all)
        {
            open_log(consumer);
        }
    }
    else
    {
        const int stream = transport->ops->open_stream(transport, consumer->stream_id);
        if (stream != MDGATE_OK)
        {
            connect_failed(consumer, stream, "the multicast stream cannot be opened: %s",
                transport->ops->error(transport));
            return;
        }
        consumer->stream_open = 1;
        mdg_sequencer_start(consumer, consumer->stream_id, owed ? consumer->last_delivered + 1 : next_sequence);
    }
    send_subscriptions(consumer);
    consumer->resync_due = consumer->config.path == MDGATE_PATH_RING && owed && !consumer->log.open;
    consumer->stale_recovery_ends = 0;
    if (consumer->snapshot_pending)
    {
        consumer->snapshot_pending = 0;
        consumer->snapshot_due = 1; /* the connection carrying it was lost: ask again, after the subscriptions */
    }
    if (consumer->directory_pending)
    {
        consumer->directory_pending = 0;
        consumer->directory_due = 1;
    }
}

static void sanitize(const uint8_t *text, size_t length, char *out, size_t out_length)
{
    size_t at = 0;
    for (size_t i = 0; i < length && at + 5 < out_length; i++)
    {
        const uint8_t c = text[i];
        if (c >= 0x20 && c < 0x7F && c != '\\')
        {
            out[at++] = (char)c;
        }
        else
        {
            at += (size_t)snprintf(out + at, out_length - at, "\\x%02x", c);
        }
    }
    out[at] = '\0';
}

static void on_reject(mdgate_consumer *consumer, const uint8_t *message)
{
    const int32_t reason = (int32_t)mdg_get32(message + MDGATE_REJECT_REASON_OFFSET);
    size_t text_length = mdg_get16(message + MDGATE_REJECT_TEXT_OFFSET);
    if (text_length > MDGATE_REJECT_MAX_TEXT_LENGTH)
    {
        text_length = MDGATE_REJECT_MAX_TEXT_LENGTH;
    }
    char text[4 * MDGATE_REJECT_MAX_TEXT_LENGTH + 8];
    sanitize(message + MDGATE_REJECT_TEXT_OFFSET + 2, text_length, text, sizeof text);
    consumer->reject_reason = reason;
    snprintf(consumer->last_error, sizeof consumer->last_error, "the publisher refused consumer '%s': %s (reason %d)",
        consumer->name, text[0] != '\0' ? text : mdgate_reject_reason_text(reason), reason);
    if (consumer->state == MDG_CONNECTED && NULL != consumer->config.log)
    {
        consumer->config.log(consumer->config.log_context, consumer->last_error); /* connect returns it instead */
    }
    release_connection(consumer);
    consumer->state = MDG_REJECTED;
}

static int granted_mask(const mdgate_consumer *consumer, int instrument, uint64_t symbol)
{
    if (consumer->wanted_views[instrument] != MDG_NO_VIEW)
    {
        return VIEW_MASKS[consumer->wanted_views[instrument]];
    }
    for (int i = 0; i < consumer->wanted_symbol_count; i++)
    {
        if (consumer->wanted_symbols[i].symbol == symbol)
        {
            return consumer->wanted_symbols[i].mask;
        }
    }
    return MDGATE_EVERY_CLASS;
}

static void on_subscription(mdgate_consumer *consumer, const uint8_t *message, int32_t length)
{
    const int32_t instrument = (int32_t)mdg_get32(message + MDGATE_SUBSCRIPTION_INSTRUMENT_ID_OFFSET);
    const int32_t status = (int32_t)mdg_get32(message + MDGATE_SUBSCRIPTION_STATUS_OFFSET);
    const uint64_t symbol = mdg_get64(message + MDGATE_SUBSCRIPTION_SYMBOL_OFFSET);
    if (instrument > MDGATE_MAX_INSTRUMENT_ID || (instrument < 1 && instrument != MDGATE_BY_SYMBOL &&
        instrument != MDGATE_ALL_INSTRUMENTS))
    {
        consumer->counters.malformed++;
        return;
    }
    mdg_symbol_entry *wanted = instrument == MDGATE_ALL_INSTRUMENTS ? NULL : find_symbol(consumer, symbol);
    if (status == MDGATE_PENDING && NULL != wanted)
    {
        wanted->pending = 1;
    }
    if (instrument > 0 && symbol != 0)
    {
        consumer->symbols[instrument] = symbol;
    }
    int resolved = 0;
    if (status == MDGATE_SUBSCRIBED && symbol != 0 && NULL != wanted && wanted->pending)
    {
        wanted->pending = 0;
        resolved = 1; /* a symbol the feed named later: this grant answers no request */
    }
    if (!resolved && consumer->awaiting_answers > 0)
    {
        consumer->awaiting_answers--;
    }
    if (status == MDGATE_SUBSCRIBED)
    {
        if (instrument == MDGATE_ALL_INSTRUMENTS)
        {
            consumer->all_mask = VIEW_MASKS[consumer->all_view];
            const int32_t flags = (int32_t)mdg_get32(message + MDGATE_SUBSCRIPTION_FLAGS_OFFSET);
            if ((flags & MDGATE_FLAG_SHARED_LOG) != 0 && length >= MDGATE_SUBSCRIPTION_LOG_ANSWER_LENGTH &&
                consumer->log.open && !consumer->log.following)
            {
                consumer->log_switch_pending = 1;
                consumer->log_switch_position = (int64_t)symbol;
                consumer->log_switch_sequence = (int64_t)mdg_get64(message + MDGATE_SUBSCRIPTION_NEXT_SEQUENCE_OFFSET);
            }
        }
        else if (instrument > 0)
        {
            consumer->masks[instrument] = (uint8_t)granted_mask(consumer, instrument, symbol);
            const int32_t slot = (int32_t)mdg_get32(message + MDGATE_SUBSCRIPTION_TABLE_SLOT_OFFSET);
            if (slot >= 0 && slot < consumer->config.table_slots)
            {
                consumer->table_slots[instrument] = slot;
            }
        }
    }
    else if (status == MDGATE_UNSUBSCRIBED)
    {
        if (instrument == MDGATE_ALL_INSTRUMENTS)
        {
            consumer->all_mask = 0;
        }
        else if (instrument > 0)
        {
            consumer->masks[instrument] = 0;
            consumer->table_slots[instrument] = MDG_NO_SLOT;
        }
    }
    else if (status == MDGATE_INVALID)
    {
        char name[9];
        mdgate_unpack_symbol(symbol, name);
        if (instrument == MDGATE_BY_SYMBOL)
        {
            mdg_event(consumer, "consumer '%s': the publisher refused subscription %s", consumer->name, name);
        }
        else
        {
            mdg_event(consumer, "consumer '%s': the publisher refused subscription %d", consumer->name, instrument);
        }
    }
}

static void on_recovery_data(mdgate_consumer *consumer, const uint8_t *message, int32_t length)
{
    if (length < MDGATE_RECOVERY_DATA_TICKS_OFFSET)
    {
        consumer->counters.malformed++;
        return;
    }
    const int32_t count = (int32_t)mdg_get32(message + MDGATE_RECOVERY_DATA_TICK_COUNT_OFFSET);
    if (count < 0 || MDGATE_RECOVERY_DATA_TICKS_OFFSET + (int64_t)count * MDGATE_TICK_LENGTH > length)
    {
        consumer->counters.malformed++;
        return;
    }
    if (consumer->snapshot_pending)
    {
        consumer->counters.snapshot_skipped += count; /* asked for before the snapshot: at or below its S */
        return;
    }
    for (int32_t i = 0; i < count; i++)
    {
        mdg_sequencer_on_recovered(consumer,
            message + MDGATE_RECOVERY_DATA_TICKS_OFFSET + (size_t)i * MDGATE_TICK_LENGTH);
    }
}

static void on_recovery_end(mdgate_consumer *consumer, const uint8_t *message)
{
    const int64_t from = (int64_t)mdg_get64(message + MDGATE_RANGE_FROM_OFFSET);
    const int64_t to = (int64_t)mdg_get64(message + MDGATE_RANGE_TO_OFFSET);
    const int32_t status = (int32_t)mdg_get32(message + MDGATE_RANGE_STATUS_OFFSET);
    const int32_t flags = (int32_t)mdg_get32(message + MDGATE_RANGE_FLAGS_OFFSET);
    if (status == MDGATE_RECOVERY_REFUSED)
    {
        mdg_event(consumer, "consumer '%s': the publisher refused to recover %lld..%lld", consumer->name,
            (long long)from, (long long)to);
    }
    else
    {
        consumer->counters.recoveries_completed++;
        consumer->counters.unrecovered += (int64_t)mdg_get64(message + MDGATE_RANGE_COUNT_OFFSET);
    }
    if ((flags & MDGATE_FLAG_VIA_RING) == 0 && consumer->stale_recovery_ends > 0)
    {
        consumer->stale_recovery_ends--;
    }
    else if ((flags & MDGATE_FLAG_VIA_RING) == 0)
    {
        mdg_sequencer_on_recovery_end(consumer, status == MDGATE_RECOVERY_REFUSED ? from - 1 : to);
    }
}

/* ---- snapshots ---- */

static void begin_snapshot(mdgate_consumer *consumer)
{
    if (consumer->sequencer.recovering)
    {
        mdg_sequencer_abandon(consumer);
        consumer->stale_recovery_ends++;
    }
    consumer->snapshot_pending = 1;
    consumer->counters.snapshots_requested++;
    consumer->snapshot_ticks_at_request = consumer->counters.snapshot_ticks;
    for (int32_t i = 0; i < consumer->named_count; i++)
    {
        consumer->floor[consumer->named[i]] = 0;
    }
    consumer->named_count = 0;
    consumer->floor_from = 0;
    consumer->floor_to = 0;
    uint8_t *message = encode(consumer, MDGATE_MSG_SNAPSHOT, MDGATE_SNAPSHOT_IDS_OFFSET);
    mdg_put32(message + MDGATE_SNAPSHOT_FLAGS_OFFSET, (uint32_t)consumer->snapshot_flags);
    mdg_put32(message + MDGATE_SNAPSHOT_COUNT_OFFSET, 0); /* every subscribed instrument */
    send_message(consumer, message, MDGATE_SNAPSHOT_IDS_OFFSET);
}

int mdgate_consumer_request_snapshot(mdgate_consumer *consumer)
{
    if (NULL == consumer)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    if (consumer->snapshot_pending)
    {
        return MDGATE_OK;
    }
    if (consumer->state == MDG_CONNECTED && !consumer->directory_pending)
    {
        begin_snapshot(consumer);
    }
    else
    {
        consumer->snapshot_due = 1;
    }
    return MDGATE_OK;
}

/*
 * Asks for the directory of every instrument the publisher's session named (PER_INSTRUMENT and DIRECTORY, no list):
 * its INSTRUMENT ticks only name symbols, so nothing else of the delivery changes. As EgressConsumer.beginDirectory.
 */
static void begin_directory(mdgate_consumer *consumer)
{
    consumer->directory_pending = 1;
    consumer->directory_abandoned = 0;
    consumer->directory_asked_ns = consumer->now_ns;
    uint8_t *message = encode(consumer, MDGATE_MSG_SNAPSHOT, MDGATE_SNAPSHOT_IDS_OFFSET);
    mdg_put32(message + MDGATE_SNAPSHOT_FLAGS_OFFSET,
        (uint32_t)(MDGATE_SNAPSHOT_PER_INSTRUMENT | MDGATE_SNAPSHOT_DIRECTORY));
    mdg_put32(message + MDGATE_SNAPSHOT_COUNT_OFFSET, 0);
    send_message(consumer, message, MDGATE_SNAPSHOT_IDS_OFFSET);
}

/*
 * A publisher that predates snapshots altogether passes the request over as an unknown message: after the heartbeat
 * timeout without an answer, live delivery goes on without the directory.
 */
static void abandon_directory(mdgate_consumer *consumer)
{
    consumer->directory_pending = 0;
    consumer->directory_abandoned = 1;
    consumer->counters.directories_refused++;
    mdg_event(consumer, "consumer '%s': the publisher did not answer the directory request within %lld ms; live "
        "ticks continue, symbols of instruments named before this consumer joined stay unknown", consumer->name,
        (long long)(consumer->heartbeat_timeout_ns / 1000000));
}

static void on_directory_data(mdgate_consumer *consumer, const uint8_t *message, int32_t count)
{
    for (int32_t i = 0; i < count; i++)
    {
        const uint8_t *tick = message + MDGATE_RECOVERY_DATA_TICKS_OFFSET + (size_t)i * MDGATE_TICK_LENGTH;
        if (tick[MDGATE_TICK_EVENT_TYPE_OFFSET] == MDGATE_EVENT_INSTRUMENT)
        {
            consumer->counters.directory_ticks++;
            consumer->symbols[mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET)] =
                mdg_get64(tick + MDGATE_TICK_ORDER_REFERENCE_OFFSET);
        }
    }
}

/* The directory's end: live delivery goes on where it was; any other answer leaves those symbols unknown. */
static void on_directory_end(mdgate_consumer *consumer, const uint8_t *message)
{
    consumer->directory_pending = 0;
    const int32_t status = (int32_t)mdg_get32(message + MDGATE_RANGE_STATUS_OFFSET);
    const int32_t flags = (int32_t)mdg_get32(message + MDGATE_RANGE_FLAGS_OFFSET);
    if (status == MDGATE_RECOVERY_COMPLETE && (flags & MDGATE_SNAPSHOT_DIRECTORY) != 0)
    {
        consumer->counters.directories++;
        return;
    }
    consumer->counters.directories_refused++;
    mdg_event(consumer, "consumer '%s': the publisher sent no instrument directory (one that predates it refuses the "
        "request); live ticks continue, symbols of instruments named before this consumer joined stay unknown",
        consumer->name);
}

static void on_snapshot_data(mdgate_consumer *consumer, const uint8_t *message, int32_t length)
{
    const int32_t count = length < MDGATE_RECOVERY_DATA_TICKS_OFFSET ? -1 :
        (int32_t)mdg_get32(message + MDGATE_RECOVERY_DATA_TICK_COUNT_OFFSET);
    if (consumer->directory_pending && count >= 0 &&
        MDGATE_RECOVERY_DATA_TICKS_OFFSET + (int64_t)count * MDGATE_TICK_LENGTH <= length)
    {
        on_directory_data(consumer, message, count);
        return;
    }
    if (consumer->directory_abandoned && !consumer->snapshot_pending)
    {
        return; /* the late answer of a directory given up */
    }
    if (!consumer->snapshot_pending || count < 0 ||
        MDGATE_RECOVERY_DATA_TICKS_OFFSET + (int64_t)count * MDGATE_TICK_LENGTH > length)
    {
        consumer->counters.malformed++;
        return;
    }
    for (int32_t i = 0; i < count; i++)
    {
        const uint8_t *tick = message + MDGATE_RECOVERY_DATA_TICKS_OFFSET + (size_t)i * MDGATE_TICK_LENGTH;
        if (tick[MDGATE_TICK_EVENT_TYPE_OFFSET] == MDGATE_EVENT_INSTRUMENT)
        {
            const int instrument = mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET);
            const uint64_t symbol = mdg_get64(tick + MDGATE_TICK_ORDER_REFERENCE_OFFSET);
            mdg_on_instrument(consumer, symbol, instrument);
            consumer->symbols[instrument] = symbol;
        }
        consumer->counters.snapshot_ticks++;
        const int part_instrument = mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET);
        const int64_t part_sequence = (int64_t)mdg_get64(tick + MDGATE_TICK_GATEWAY_SEQUENCE_OFFSET);
        if (part_instrument > 0)
        {
            if (consumer->floor[part_instrument] == 0)
            {
                consumer->named[consumer->named_count++] = part_instrument;
            }
            if (part_sequence > consumer->floor[part_instrument])
            {
                consumer->floor[part_instrument] = part_sequence;
            }
        }
        if (NULL != consumer->handler)
        {
            consumer->handler(consumer->handler_context, tick);
        }
    }
}

static void on_snapshot_end(mdgate_consumer *consumer, const uint8_t *message)
{
    if (consumer->directory_pending)
    {
        on_directory_end(consumer, message);
        return;
    }
    if (consumer->directory_abandoned && !consumer->snapshot_pending)
    {
        consumer->directory_abandoned = 0; /* the late end of a directory given up */
        return;
    }
    if (!consumer->snapshot_pending)
    {
        consumer->counters.malformed++;
        return;
    }
    consumer->snapshot_pending = 0;
    const int32_t status = (int32_t)mdg_get32(message + MDGATE_RANGE_STATUS_OFFSET);
    const int32_t flags = (int32_t)mdg_get32(message + MDGATE_RANGE_FLAGS_OFFSET);
    const int64_t to = (int64_t)mdg_get64(message + MDGATE_RANGE_TO_OFFSET);
    if (status != MDGATE_RECOVERY_COMPLETE && consumer->snapshot_flags != 0 && flags == 0 &&
        consumer->counters.snapshot_ticks == consumer->snapshot_ticks_at_request && consumer->state == MDG_CONNECTED)
    {
        /* An older publisher refuses PER_INSTRUMENT: ask it for its single sequence, every S(i) the same. */
        consumer->snapshot_flags = 0;
        begin_snapshot(consumer);
        return;
    }
    if (status != MDGATE_RECOVERY_COMPLETE)
    {
        consumer->floor_from = consumer->last_delivered; /* parts that came before the refusal hold */
        consumer->floor_to = to > consumer->floor_from ? to : consumer->floor_from;
        consumer->counters.snapshots_refused++;
        mdg_event(consumer, "consumer '%s': the publisher refused the snapshot (too large for its buffer, or a "
            "malformed request); live ticks continue", consumer->name);
        return;
    }
    const int64_t sequence = (int64_t)mdg_get64(message + MDGATE_RANGE_FROM_OFFSET);
    consumer->counters.snapshots++;
    if ((flags & MDGATE_SNAPSHOT_ORDERS_OMITTED) != 0)
    {
        mdg_event(consumer, "consumer '%s': the publisher keeps no order books, so the snapshot at %lld has no "
            "orders", consumer->name, (long long)sequence);
    }
    if (sequence > consumer->snapshot_sequence)
    {
        consumer->snapshot_sequence = sequence;
    }
    consumer->floor_from = sequence;
    consumer->floor_to = to > sequence ? to : sequence;
    if (sequence > consumer->last_delivered)
    {
        consumer->last_delivered = sequence;
    }
    mdg_sequencer_skip_to(consumer, sequence);
}

static void on_control_message(void *context, const uint8_t *message, int32_t length)
{
    mdgate_consumer *consumer = context;
    if (length < MDGATE_CONTROL_HEADER_LENGTH)
    {
        if (consumer->state == MDG_AWAITING_WELCOME)
        {
            connect_failed(consumer, MDGATE_E_PROTOCOL, "the publisher answered HELLO with a %d-byte message; a "
                "control message has at least an %d-byte header", length, MDGATE_CONTROL_HEADER_LENGTH);
            return;
        }
        consumer->counters.malformed++;
        return;
    }
    const uint16_t type = mdg_get16(message + MDGATE_CONTROL_TYPE_OFFSET);
    if (consumer->state == MDG_AWAITING_WELCOME)
    {
        if (type == MDGATE_MSG_WELCOME && length >= MDGATE_WELCOME_LENGTH)
        {
            on_welcome(consumer, message, length);
        }
        else if (type == MDGATE_MSG_REJECT && length >= MDGATE_REJECT_LENGTH)
        {
            on_reject(consumer, message);
        }
        else
        {
            connect_failed(consumer, MDGATE_E_PROTOCOL, "the publisher answered HELLO with message type %u of %d "
                "bytes; expected WELCOME (type %d, at least %d bytes) or REJECT (type %d, %d bytes)", type, length,
                MDGATE_MSG_WELCOME, MDGATE_WELCOME_LENGTH, MDGATE_MSG_REJECT, MDGATE_REJECT_LENGTH);
        }
        return;
    }
    if (consumer->state != MDG_CONNECTED)
    {
        return; /* the rest of a burst after a REJECT or BYE */
    }
    switch (type)
    {
        case MDGATE_MSG_SUBSCRIPTION:
            if (length >= MDGATE_SUBSCRIPTION_LENGTH)
            {
                on_subscription(consumer, message, length);
                return;
            }
            break;
        case MDGATE_MSG_HEARTBEAT:
            consumer->counters.heartbeats_received++;
            return;
        case MDGATE_MSG_RESYNCED:
            if (length >= MDGATE_RANGE_LENGTH)
            {
                mdg_ring_on_resynced(consumer, (int64_t)mdg_get64(message + MDGATE_RANGE_POSITION_OFFSET));
                return;
            }
            break;
        case MDGATE_MSG_LAPPED:
            consumer->counters.lap_notices++;
            return;
        case MDGATE_MSG_RECOVERY_DATA:
            on_recovery_data(consumer, message, length);
            return;
        case MDGATE_MSG_RECOVERY_END:
            if (length >= MDGATE_RANGE_LENGTH)
            {
                on_recovery_end(consumer, message);
                return;
            }
            break;
        case MDGATE_MSG_REJECT:
            if (length >= MDGATE_REJECT_LENGTH)
            {
                on_reject(consumer, message);
                return;
            }
            break;
        case MDGATE_MSG_SNAPSHOT_DATA:
            on_snapshot_data(consumer, message, length);
            return;
        case MDGATE_MSG_SNAPSHOT_END:
            if (length >= MDGATE_RANGE_LENGTH)
            {
                on_snapshot_end(consumer, message);
                return;
            }
            break;
        case MDGATE_MSG_BYE:
            disconnect(consumer, "the publisher said goodbye");
            return;
        default:
            break;
    }
    consumer->counters.malformed++;
}

static int poll_control(mdgate_consumer *consumer)
{
    if (consumer->state != MDG_CONNECTED && consumer->state != MDG_AWAITING_WELCOME)
    {
        return 0;
    }
    mdg_transport *transport = consumer->transport;
    const int result = transport->ops->poll(transport, on_control_message, consumer, CONTROL_MESSAGES_PER_POLL);
    if (result < 0)
    {
        if (consumer->state == MDG_AWAITING_WELCOME)
        {
            connect_failed(consumer, result, "%s", result == MDGATE_E_PROTOCOL ? transport->ops->error(transport) :
                "the publisher closed the connection before answering HELLO");
        }
        else if (consumer->state == MDG_CONNECTED)
        {
            disconnect(consumer, result == MDGATE_E_PROTOCOL ? transport->ops->error(transport) :
                "the publisher closed the connection");
        }
        return 1;
    }
    if (result > 0)
    {
        consumer->last_received_ns = consumer->now_ns;
    }
    return result;
}

static int keep_alive(mdgate_consumer *consumer)
{
    if (consumer->state == MDG_CONNECTED)
    {
        if (consumer->now_ns - consumer->last_received_ns > consumer->heartbeat_timeout_ns)
        {
            char reason[96];
            snprintf(reason, sizeof reason, "no heartbeat from the publisher for %lld ms",
                (long long)((consumer->now_ns - consumer->last_received_ns) / 1000000));
            disconnect(consumer, reason);
            return 1;
        }
        if (consumer->now_ns - consumer->last_heartbeat_sent_ns >= consumer->heartbeat_interval_ns)
        {
            consumer->last_heartbeat_sent_ns = consumer->now_ns;
            uint8_t *message = encode(consumer, MDGATE_MSG_HEARTBEAT, MDGATE_HEARTBEAT_LENGTH);
            mdg_put64(message + MDGATE_HEARTBEAT_TIMESTAMP_OFFSET, (uint64_t)consumer->receipt_epoch_ns);
            mdg_put64(message + MDGATE_HEARTBEAT_SEQUENCE_OFFSET, (uint64_t)consumer->last_delivered);
            send_message(consumer, message, MDGATE_HEARTBEAT_LENGTH);
        }
        if (consumer->stream_open)
        {
            consumer->counters.transport_loss = consumer->transport->ops->stream_loss(consumer->transport);
        }
    }
    else if (consumer->state == MDG_AWAITING_WELCOME &&
        consumer->now_ns - consumer->state_since_ns > consumer->config.connect_timeout_ns)
    {
        disconnect(consumer, "no WELCOME from the publisher");
    }
    else if (consumer->state == MDG_DISCONNECTED && consumer->config.reconnect &&
        consumer->now_ns - consumer->state_since_ns >= consumer->reconnect_delay_ns)
    {
        consumer->state_since_ns = consumer->now_ns;
        consumer->counters.reconnect_attempts++;
        if (begin_connect(consumer, 0) != MDGATE_OK)
        {
            release_connection(consumer);
            consumer->state = MDG_DISCONNECTED;
            consumer->state_since_ns = consumer->now_ns;
            reconnect_failed(consumer, consumer->last_error);
        }
        return 1;
    }
    return 0;
}

/* The ring had every tick before the log position the answer named, and was read up to there: move to the log. */
static void switch_to_log(mdgate_consumer *consumer)
{
    consumer->log_switch_pending = 0;
    const int owed = consumer->log_resume_owed || consumer->ring.resync_pending;
    consumer->log_resume_owed = 0;
    consumer->ring.attached = 0;
    consumer->ring.resync_pending = 0;
    int64_t from = owed ? consumer->last_delivered + 1 : consumer->log_switch_sequence;
    if (from < consumer->last_delivered + 1)
    {
        from = consumer->last_delivered + 1;
    }
    mdg_log_start(consumer, consumer->log_switch_position, from, consumer->log_switch_sequence);
}

static int poll_live(mdgate_consumer *consumer, int limit)
{
    if (consumer->log.following)
    {
        return mdg_log_poll(consumer, limit);
    }
    if (consumer->config.path == MDGATE_PATH_RING)
    {
        const int read = mdg_ring_poll(consumer, limit);
        if (consumer->log_switch_pending && read < limit)
        {
            switch_to_log(consumer);
        }
        return read;
    }
    const int read = consumer->transport->ops->poll_stream(consumer->transport, mdg_on_datagram, consumer, limit);
    return read > 0 ? read : 0;
}

int mdgate_consumer_is_recovering(const mdgate_consumer *consumer)
{
    return NULL != consumer && (consumer->sequencer.recovering || consumer->ring.resync_pending);
}

int mdgate_consumer_poll(mdgate_consumer *consumer, mdgate_tick_handler handler, void *context, int limit)
{
    if (NULL == consumer || limit < 1)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    consumer->handler = handler;
    consumer->handler_context = context;
    consumer->now_ns = monotonic_ns();
    consumer->receipt_epoch_ns = consumer->now_ns + consumer->epoch_offset;
    int work = 0;
    if (consumer->state == MDG_CONNECTED)
    {
        if (consumer->directory_due && !consumer->snapshot_pending)
        {
            consumer->directory_due = 0;
            begin_directory(consumer);
        }
        if (consumer->snapshot_due && !consumer->directory_pending)
        {
            consumer->snapshot_due = 0;
            consumer->resync_due = 0;
            begin_snapshot(consumer);
        }
        if (consumer->resync_due)
        {
            consumer->resync_due = 0;
            mdg_ring_resync(consumer);
        }
        if (consumer->directory_pending &&
            consumer->now_ns - consumer->directory_asked_ns > consumer->heartbeat_timeout_ns)
        {
            abandon_directory(consumer);
        }
        if (!consumer->snapshot_pending && !consumer->directory_pending)
        {
            work += poll_live(consumer, limit); /* while a snapshot or the directory comes, live ticks wait */
        }
    }
    if (consumer->now_ns - consumer->last_control_poll_ns >= consumer->config.control_poll_ns ||
        mdgate_consumer_is_recovering(consumer) || consumer->snapshot_pending || consumer->directory_pending)
    {
        consumer->last_control_poll_ns = consumer->now_ns;
        work += poll_control(consumer);
        work += keep_alive(consumer);
    }
    if (consumer->broken)
    {
        char reason[sizeof consumer->broken_reason];
        memcpy(reason, consumer->broken_reason, sizeof reason);
        disconnect(consumer, reason);
    }
    consumer->handler = NULL;
    consumer->handler_context = NULL;
    if (consumer->state == MDG_REJECTED)
    {
        return MDGATE_E_REJECTED;
    }
    return consumer->state == MDG_CLOSED ? MDGATE_E_CLOSED : work;
}

/* ---- subscriptions ---- */

static int valid_view(mdgate_view view)
{
    return (int)view >= 0 && (int)view <= 3;
}

int mdgate_consumer_subscribe_id(mdgate_consumer *consumer, int instrument_id, mdgate_view view)
{
    if (NULL == consumer || instrument_id < 1 || instrument_id > MDGATE_MAX_INSTRUMENT_ID || !valid_view(view))
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    consumer->wanted_views[instrument_id] = (uint8_t)view;
    consumer->masks[instrument_id] = VIEW_MASKS[view];
    send_subscription(consumer, MDGATE_MSG_SUBSCRIBE, instrument_id, 0, 0, (int)view);
    return MDGATE_OK;
}

int mdgate_consumer_subscribe_symbol(mdgate_consumer *consumer, const char *symbol, mdgate_view view)
{
    const uint64_t packed = NULL == symbol ? 0 : mdgate_pack_symbol(symbol);
    if (NULL == consumer || packed == 0 || !valid_view(view))
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    mdg_symbol_entry *entry = find_symbol(consumer, packed);
    if (NULL == entry)
    {
        if (consumer->wanted_symbol_count == MDG_MAX_SYMBOLS)
        {
            return MDGATE_E_INVALID_ARGUMENT;
        }
        entry = &consumer->wanted_symbols[consumer->wanted_symbol_count++];
        memset(entry, 0, sizeof *entry);
        entry->symbol = packed;
    }
    entry->view = (uint8_t)view;
    entry->mask = VIEW_MASKS[view];
    send_subscription(consumer, MDGATE_MSG_SUBSCRIBE, MDGATE_BY_SYMBOL, packed, 0, (int)view);
    return MDGATE_OK;
}

int mdgate_consumer_subscribe_all(mdgate_consumer *consumer, mdgate_view view)
{
    if (NULL == consumer || !valid_view(view))
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    consumer->want_all = 1;
    consumer->all_view = (int)view;
    consumer->all_mask = VIEW_MASKS[view];
    if (consumer->state == MDG_CONNECTED && consumer->config.path == MDGATE_PATH_RING)
    {
        open_log(consumer);
    }
    send_subscription_to_all(consumer);
    return MDGATE_OK;
}

int mdgate_consumer_unsubscribe_id(mdgate_consumer *consumer, int instrument_id)
{
    if (NULL == consumer || instrument_id < 1 || instrument_id > MDGATE_MAX_INSTRUMENT_ID)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    consumer->wanted_views[instrument_id] = MDG_NO_VIEW;
    consumer->masks[instrument_id] = 0;
    consumer->table_slots[instrument_id] = MDG_NO_SLOT;
    send_subscription(consumer, MDGATE_MSG_UNSUBSCRIBE, instrument_id, 0, 0, MDGATE_VIEW_ALL);
    return MDGATE_OK;
}

int mdgate_consumer_unsubscribe_symbol(mdgate_consumer *consumer, const char *symbol)
{
    const uint64_t packed = NULL == symbol ? 0 : mdgate_pack_symbol(symbol);
    if (NULL == consumer || packed == 0)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    mdg_symbol_entry *entry = find_symbol(consumer, packed);
    if (NULL != entry)
    {
        *entry = consumer->wanted_symbols[--consumer->wanted_symbol_count];
    }
    send_subscription(consumer, MDGATE_MSG_UNSUBSCRIBE, MDGATE_BY_SYMBOL, packed, 0, MDGATE_VIEW_ALL);
    return MDGATE_OK;
}

int mdgate_consumer_awaiting_answers(const mdgate_consumer *consumer)
{
    return NULL == consumer ? 0 : consumer->awaiting_answers;
}

/* ---- top of book ---- */

int mdgate_consumer_top_of_book(mdgate_consumer *consumer, int instrument_id, mdgate_top_of_book *out)
{
    if (NULL == consumer || NULL == out || instrument_id < 0 || instrument_id > MDGATE_MAX_INSTRUMENT_ID)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    const int32_t slot = consumer->table_slots[instrument_id];
    if (slot < 0 || consumer->state != MDG_CONNECTED || !consumer->region_open)
    {
        return MDGATE_E_NO_SLOT;
    }
    const uint8_t *at =
        consumer->region.base + table_offset(consumer->config.ring_slots) + (size_t)slot * MDGATE_TOB_LENGTH;
    _Alignas(64) uint8_t copy[MDGATE_TOB_LENGTH];
    for (int attempt = 0; attempt < 64; attempt++)
    {
        const uint64_t before = mdg_load_acquire(at + MDGATE_TOB_VERSION_OFFSET);
        if (before == 0)
        {
            return MDGATE_TOB_EMPTY;
        }
        if ((before & 1) == 0)
        {
            mdg_copy_shared(copy, at, MDGATE_TOB_LENGTH);
            mdg_load_fence();
            if (mdg_load_relaxed(at + MDGATE_TOB_VERSION_OFFSET) == before)
            {
                out->version = before;
                out->gateway_sequence = mdg_get64(copy + MDGATE_TOB_GATEWAY_SEQUENCE_OFFSET);
                out->exchange_timestamp = (int64_t)mdg_get64(copy + MDGATE_TOB_EXCHANGE_TIMESTAMP_OFFSET);
                out->symbol = mdg_get64(copy + MDGATE_TOB_SYMBOL_OFFSET);
                out->bid_price = (int32_t)mdg_get32(copy + MDGATE_TOB_BID_PRICE_OFFSET);
                out->bid_size = mdg_get32(copy + MDGATE_TOB_BID_SIZE_OFFSET);
                out->ask_price = (int32_t)mdg_get32(copy + MDGATE_TOB_ASK_PRICE_OFFSET);
                out->ask_size = mdg_get32(copy + MDGATE_TOB_ASK_SIZE_OFFSET);
                out->bid_orders = mdg_get32(copy + MDGATE_TOB_BID_ORDERS_OFFSET);
                out->ask_orders = mdg_get32(copy + MDGATE_TOB_ASK_ORDERS_OFFSET);
                out->instrument_id = mdg_get16(copy + MDGATE_TOB_INSTRUMENT_ID_OFFSET);
                out->trading_state = copy[MDGATE_TOB_TRADING_STATE_OFFSET];
                memset(out->reserved, 0, sizeof out->reserved);
                return MDGATE_TOB_READ;
            }
        }
    }
    return MDGATE_TOB_BUSY;
}

static void level(const uint8_t *book, int side, int index, mdgate_level *out)
{
    const uint8_t *at = book + MDGATE_DEPTHBOOK_LEVELS + (size_t)index * MDGATE_DEPTHBOOK_LEVEL_STRIDE +
        (size_t)side * MDGATE_DEPTHBOOK_SIDE_STRIDE;
    out->price = (int32_t)mdg_get32(at + MDGATE_DEPTHBOOK_PRICE);
    out->shares = mdg_get32(at + MDGATE_DEPTHBOOK_SHARES);
    out->orders = mdg_get32(at + MDGATE_DEPTHBOOK_ORDERS);
}

static int32_t held(const uint8_t *book, int side, int32_t depth)
{
    const int32_t count = (int32_t)mdg_get32(book + MDGATE_DEPTHBOOK_COUNTS + (size_t)side * 4);
    return count < 0 ? 0 : count > depth ? depth : count;
}

int mdgate_consumer_depth(mdgate_consumer *consumer, int instrument_id, mdgate_depth *out)
{
    if (NULL == consumer || NULL == out || instrument_id < 0 || instrument_id > MDGATE_MAX_INSTRUMENT_ID)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    const int32_t slot = consumer->table_slots[instrument_id];
    if (slot < 0 || consumer->state != MDG_CONNECTED || !consumer->region_open || consumer->depth_levels == 0)
    {
        return MDGATE_E_NO_SLOT;
    }
    const int32_t levels = consumer->config.depth_levels;
    const size_t length = depth_slot_length(levels);
    const uint8_t *at = consumer->region.base + table_length(consumer->config.ring_slots, consumer->config.table_slots)
        + (size_t)slot * length;
    const uint8_t *copy = consumer->depth_copy;
    for (int attempt = 0; attempt < 64; attempt++)
    {
        const uint64_t before = mdg_load_acquire(at + MDGATE_DEPTH_VERSION_OFFSET);
        if (before == 0)
        {
            return MDGATE_TOB_EMPTY;
        }
        if ((before & 1) == 0)
        {
            mdg_copy_shared(consumer->depth_copy, at, length);
            mdg_load_fence();
            if (mdg_load_relaxed(at + MDGATE_DEPTH_VERSION_OFFSET) == before)
            {
                const uint8_t *book = copy + MDGATE_DEPTH_BOOK_OFFSET;
                out->version = before;
                out->gateway_sequence = mdg_get64(copy + MDGATE_DEPTH_GATEWAY_SEQUENCE_OFFSET);
                out->exchange_timestamp = (int64_t)mdg_get64(copy + MDGATE_DEPTH_EXCHANGE_TIMESTAMP_OFFSET);
                out->instrument_id = (uint16_t)mdg_get32(copy + MDGATE_DEPTH_INSTRUMENT_ID_OFFSET);
                out->bid_levels = held(book, 0, consumer->depth_levels);
                out->ask_levels = held(book, 1, consumer->depth_levels);
                for (int i = 0; i < out->bid_levels; i++)
                {
                    level(book, 0, i, &out->bids[i]);
                }
                for (int i = 0; i < out->ask_levels; i++)
                {
                    level(book, 1, i, &out->asks[i]);
                }
                return MDGATE_TOB_READ;
            }
        }
    }
    return MDGATE_TOB_BUSY;
}

int mdgate_consumer_depth_levels(const mdgate_consumer *consumer)
{
    return NULL == consumer ? 0 : consumer->depth_levels;
}

/* ---- set-up ---- */

void mdgate_consumer_config_init(mdgate_consumer_config *config)
{
    if (NULL == config)
    {
        return;
    }
    memset(config, 0, sizeof *config);
    config->directory = "/dev/shm";
    config->instance = "mdgate";
    config->path = MDGATE_PATH_RING;
    config->ring_slots = 8192;
    config->table_slots = 256;
    config->depth_levels = 10;
    config->connect_timeout_ns = 10000000000LL;
    config->control_poll_ns = 1000000LL;
    config->reconnect_interval_ns = 500000000LL;
    config->reconnect_max_interval_ns = 4000000000LL;
    config->reconnect = 1;
    config->pending_ticks = 65536;
    config->max_control_message = 65536;
    config->record_latency = 1;
    config->log = default_log;
}

static int printable(const char *text, size_t max)
{
    const size_t length = strlen(text);
    if (length < 1 || length > max)
    {
        return 0;
    }
    for (size_t i = 0; i < length; i++)
    {
        if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] > 0x7E)
        {
            return 0;
        }
    }
    return 1;
}

static int config_problem(const mdgate_consumer_config *config, char *out, size_t length)
{
    const int ring = config->ring_slots;
    if (NULL == config->name || !printable(config->name, MDGATE_HELLO_MAX_NAME_LENGTH))
    {
        snprintf(out, length, "the consumer name must be 1 to %d printable ASCII characters",
            MDGATE_HELLO_MAX_NAME_LENGTH);
    }
    else if (NULL == config->token || strlen(config->token) < 1 ||
        strlen(config->token) > MDGATE_HELLO_MAX_TOKEN_LENGTH)
    {
        snprintf(out, length, "the token must be 1 to %d bytes", MDGATE_HELLO_MAX_TOKEN_LENGTH);
    }
    else if (NULL == config->directory || NULL == config->instance || !printable(config->instance, 63) ||
        strchr(config->instance, '/') != NULL)
    {
        snprintf(out, length,
            "the directory must be given and the instance be 1 to 63 printable characters without '/'");
    }
    else if (config->path != MDGATE_PATH_RING && config->path != MDGATE_PATH_STREAM)
    {
        snprintf(out, length, "path must be MDGATE_PATH_RING or MDGATE_PATH_STREAM, was %d", config->path);
    }
    else if (config->path == MDGATE_PATH_RING
                 ? (ring < 16 || ring > MDGATE_REGION_MAX_RING_SLOTS || (ring & (ring - 1)) != 0)
                 : ring != 0)
    {
        snprintf(out, length, "ring_slots must be a power of two from 16 to %d on the ring path, 0 on the stream path; "
            "was %d", MDGATE_REGION_MAX_RING_SLOTS, ring);
    }
    else if (config->table_slots < 0 || config->table_slots > MDGATE_REGION_MAX_TABLE_SLOTS)
    {
        snprintf(out, length, "table_slots must be 0 to %d, was %d", MDGATE_REGION_MAX_TABLE_SLOTS,
            config->table_slots);
    }
    else if (config->depth_levels < 0 || config->depth_levels > MDGATE_DEPTHBOOK_MAX_DEPTH)
    {
        snprintf(out, length, "depth_levels must be 0 (no depth table) to %d, was %d", MDGATE_DEPTHBOOK_MAX_DEPTH,
            config->depth_levels);
    }
    else if (config->connect_timeout_ns <= 0 || config->control_poll_ns <= 0 || config->reconnect_interval_ns <= 0)
    {
        snprintf(out, length, "connect_timeout_ns, control_poll_ns and reconnect_interval_ns must be positive");
    }
    else if (config->reconnect_max_interval_ns < config->reconnect_interval_ns)
    {
        snprintf(out, length, "reconnect_max_interval_ns must be at least reconnect_interval_ns (%lld), was %lld",
            (long long)config->reconnect_interval_ns, (long long)config->reconnect_max_interval_ns);
    }
    else if (config->pending_ticks < 1 || config->pending_ticks > (1 << 24))
    {
        snprintf(out, length, "pending_ticks must be 1 to %d, was %d", 1 << 24, config->pending_ticks);
    }
    else if (config->max_control_message < 4096 || config->max_control_message > (1 << 20) - 4)
    {
        snprintf(out, length, "max_control_message must be 4096 to %d bytes, was %d", (1 << 20) - 4,
            config->max_control_message);
    }
    else if (config->resume_from_sequence < 0)
    {
        snprintf(out, length, "resume_from_sequence must not be negative");
    }
    else if (config->snapshot_on_connect && config->resume_from_sequence > 0)
    {
        snprintf(out, length, "snapshot_on_connect and resume_from_sequence exclude each other: the snapshot is the "
            "state at its own sequence; choose one");
    }
    else
    {
        return 0;
    }
    return 1;
}

static void free_consumer(mdgate_consumer *consumer)
{
    if (NULL == consumer)
    {
        return;
    }
    if (NULL != consumer->transport)
    {
        release_connection(consumer);
        consumer->transport->ops->destroy(consumer->transport);
    }
    mdg_histogram_free(&consumer->latency);
    free(consumer->masks);
    free(consumer->wanted_views);
    free(consumer->table_slots);
    free(consumer->symbols);
    free(consumer->floor);
    free(consumer->named);
    free(consumer->wanted_symbols);
    free(consumer->sequencer.pending);
    free(consumer->sequencer.pending_timestamps);
    free(consumer->log.run);
    free(consumer->slot_copy);
    free(consumer->scratch);
    free(consumer->depth_copy);
    free(consumer);
}

static mdgate_consumer *allocate(const mdgate_consumer_config *config)
{
    mdgate_consumer *consumer = calloc(1, sizeof *consumer);
    if (NULL == consumer)
    {
        return NULL;
    }
    const size_t ids = MDGATE_MAX_INSTRUMENT_ID + 1;
    consumer->masks = calloc(ids, 1);
    consumer->wanted_views = malloc(ids);
    consumer->table_slots = malloc(ids * sizeof(int32_t));
    consumer->symbols = calloc(ids, sizeof(uint64_t));
    consumer->floor = calloc(ids, sizeof(int64_t));
    consumer->named = calloc(ids, sizeof(int32_t));
    consumer->wanted_symbols = calloc(MDG_MAX_SYMBOLS, sizeof(mdg_symbol_entry));
    consumer->sequencer.pending = aligned_alloc(64, (size_t)config->pending_ticks * MDGATE_TICK_LENGTH);
    consumer->sequencer.pending_timestamps = calloc((size_t)config->pending_ticks, sizeof(int64_t));
    consumer->log.run = aligned_alloc(64, MDG_LOG_RUN * MDGATE_TICK_LENGTH);
    consumer->slot_copy = aligned_alloc(64, MDGATE_TICK_LENGTH);
    consumer->scratch = aligned_alloc(64, SCRATCH_LENGTH);
    consumer->depth_copy = aligned_alloc(64, depth_slot_length(MDGATE_DEPTHBOOK_MAX_DEPTH));
    const int histogram = mdg_histogram_init(&consumer->latency);
    if (NULL == consumer->masks || NULL == consumer->wanted_views || NULL == consumer->table_slots ||
        NULL == consumer->symbols || NULL == consumer->floor || NULL == consumer->named ||
        NULL == consumer->wanted_symbols || NULL == consumer->sequencer.pending ||
        NULL == consumer->sequencer.pending_timestamps || NULL == consumer->log.run || NULL == consumer->slot_copy ||
        NULL == consumer->scratch || NULL == consumer->depth_copy || histogram != 0)
    {
        free_consumer(consumer);
        return NULL;
    }
    memset(consumer->wanted_views, MDG_NO_VIEW, ids);
    consumer->snapshot_flags = MDGATE_SNAPSHOT_PER_INSTRUMENT;
    for (size_t id = 0; id < ids; id++)
    {
        consumer->table_slots[id] = MDG_NO_SLOT;
    }
    consumer->masks[MDGATE_MARKET_WIDE] = MDGATE_EVERY_CLASS;
    consumer->sequencer.pending_capacity = config->pending_ticks;
    return consumer;
}

static void copy_text(char *out, size_t length, const char *text)
{
    if (NULL != out && length > 0)
    {
        snprintf(out, length, "%s", text);
    }
}

int mdgate_consumer_connect(const mdgate_consumer_config *config, mdgate_consumer **result, char *error_text,
    size_t error_text_length, int *reject_reason)
{
    char problem[512];
    if (NULL != reject_reason)
    {
        *reject_reason = 0;
    }
    if (NULL == result || NULL == config)
    {
        copy_text(error_text, error_text_length, "mdgate_consumer_connect needs a config and a place for the consumer");
        return MDGATE_E_INVALID_ARGUMENT;
    }
    *result = NULL;
    if (config_problem(config, problem, sizeof problem))
    {
        copy_text(error_text, error_text_length, problem);
        return MDGATE_E_INVALID_ARGUMENT;
    }
    mdgate_consumer *consumer = allocate(config);
    if (NULL == consumer)
    {
        copy_text(error_text, error_text_length, "no memory for the consumer's buffers");
        return MDGATE_E_NO_MEMORY;
    }
    consumer->config = *config;
    snprintf(consumer->directory, sizeof consumer->directory, "%s", config->directory);
    snprintf(consumer->instance, sizeof consumer->instance, "%s", config->instance);
    snprintf(consumer->name, sizeof consumer->name, "%s", config->name);
    snprintf(consumer->token, sizeof consumer->token, "%s", config->token);
    consumer->config.directory = consumer->directory;
    consumer->config.instance = consumer->instance;
    consumer->config.name = consumer->name;
    consumer->config.token = consumer->token;
    consumer->last_delivered = config->resume_from_sequence > 1 ? config->resume_from_sequence - 1 : 0;
    consumer->resuming = config->resume_from_sequence > 0;
    consumer->snapshot_due = config->snapshot_on_connect != 0;
    consumer->directory_wanted = config->directory_on_connect != 0 && config->snapshot_on_connect == 0 &&
        config->resume_from_sequence <= 0;
    consumer->directory_due = consumer->directory_wanted;
    consumer->heartbeat_interval_ns = 100000000LL;
    consumer->heartbeat_timeout_ns = 5000000000LL;
    consumer->reconnect_delay_ns = config->reconnect_interval_ns;
    consumer->epoch_offset = sample_epoch_offset();
    int code = mdg_shm_transport_create(consumer->directory, consumer->instance, config->max_control_message,
        CONTROL_QUEUE_LENGTH, &consumer->transport, problem, sizeof problem);
    if (code != MDGATE_OK)
    {
        copy_text(error_text, error_text_length, problem);
        free_consumer(consumer);
        return code;
    }
    consumer->now_ns = monotonic_ns();
    const int64_t deadline = consumer->now_ns + config->connect_timeout_ns;
    code = begin_connect(consumer, config->connect_timeout_ns);
    while (code == MDGATE_OK && consumer->state == MDG_AWAITING_WELCOME && consumer->now_ns < deadline)
    {
        poll_control(consumer);
        if (consumer->state == MDG_AWAITING_WELCOME)
        {
            const struct timespec pause = { 0, 20000 };
            nanosleep(&pause, NULL);
        }
        consumer->now_ns = monotonic_ns();
    }
    if (code == MDGATE_OK && consumer->broken)
    {
        code = MDGATE_E_NOT_CONNECTED;
        snprintf(consumer->last_error, sizeof consumer->last_error, "%s", consumer->broken_reason);
    }
    else if (code == MDGATE_OK && consumer->state == MDG_REJECTED)
    {
        code = MDGATE_E_REJECTED;
        if (NULL != reject_reason)
        {
            *reject_reason = consumer->reject_reason;
        }
    }
    else if (code == MDGATE_OK && consumer->connect_failure != 0)
    {
        code = consumer->connect_failure;
    }
    else if (code == MDGATE_OK && consumer->state != MDG_CONNECTED)
    {
        code = MDGATE_E_TIMEOUT;
        snprintf(consumer->last_error, sizeof consumer->last_error, "the publisher did not answer consumer '%s' within "
            "%lld ms", consumer->name, (long long)(config->connect_timeout_ns / 1000000));
    }
    if (code != MDGATE_OK)
    {
        copy_text(error_text, error_text_length, consumer->last_error);
        free_consumer(consumer);
        return code;
    }
    consumer->last_error[0] = '\0';
    *result = consumer;
    return MDGATE_OK;
}

void mdgate_consumer_close(mdgate_consumer *consumer)
{
    if (NULL == consumer)
    {
        return;
    }
    if (consumer->state == MDG_CONNECTED)
    {
        uint8_t *bye = encode(consumer, MDGATE_MSG_BYE, MDGATE_CONTROL_HEADER_LENGTH);
        consumer->transport->ops->offer(consumer->transport, bye, MDGATE_CONTROL_HEADER_LENGTH);
    }
    free_consumer(consumer);
}

/* ---- accessors ---- */

uint64_t mdgate_consumer_symbol_of(const mdgate_consumer *consumer, int instrument_id)
{
    if (NULL == consumer || instrument_id < 0 || instrument_id > MDGATE_MAX_INSTRUMENT_ID)
    {
        return 0;
    }
    return consumer->symbols[instrument_id];
}

int mdgate_consumer_snapshot_pending(const mdgate_consumer *consumer)
{
    return NULL != consumer && (consumer->snapshot_pending || consumer->snapshot_due);
}

int mdgate_consumer_directory_pending(const mdgate_consumer *consumer)
{
    return NULL != consumer && (consumer->directory_pending || consumer->directory_due);
}

int64_t mdgate_consumer_snapshot_sequence(const mdgate_consumer *consumer)
{
    return NULL == consumer ? 0 : consumer->snapshot_sequence;
}

int64_t mdgate_consumer_last_delivered(const mdgate_consumer *consumer)
{
    return NULL == consumer ? 0 : consumer->last_delivered;
}

int mdgate_consumer_is_connected(const mdgate_consumer *consumer)
{
    return NULL != consumer && consumer->state == MDG_CONNECTED;
}

int mdgate_consumer_is_rejected(const mdgate_consumer *consumer)
{
    return NULL != consumer && consumer->state == MDG_REJECTED;
}

int mdgate_consumer_reads_shared_log(const mdgate_consumer *consumer)
{
    return NULL != consumer && consumer->log.following;
}

int mdgate_consumer_reject_reason(const mdgate_consumer *consumer)
{
    return NULL == consumer ? 0 : consumer->reject_reason;
}

const mdgate_counters *mdgate_consumer_counters(const mdgate_consumer *consumer)
{
    return NULL == consumer ? NULL : &consumer->counters;
}

const char *mdgate_consumer_last_error(const mdgate_consumer *consumer)
{
    return NULL == consumer ? "no consumer" : consumer->last_error;
}

int64_t mdgate_consumer_latency_count(const mdgate_consumer *consumer)
{
    return NULL == consumer ? 0 : consumer->latency.total;
}

int64_t mdgate_consumer_latency_percentile(const mdgate_consumer *consumer, double percentile)
{
    return NULL == consumer ? 0 : mdg_histogram_percentile(&consumer->latency, percentile);
}

int64_t mdgate_consumer_latency_max(const mdgate_consumer *consumer)
{
    return NULL == consumer ? 0 : consumer->latency.max;
}

void mdgate_consumer_latency_reset(mdgate_consumer *consumer)
{
    if (NULL != consumer)
    {
        mdg_histogram_reset(&consumer->latency);
    }
}

int64_t mdgate_consumer_epoch_nanos(const mdgate_consumer *consumer)
{
    return monotonic_ns() + (NULL == consumer ? 0 : consumer->epoch_offset);
}
