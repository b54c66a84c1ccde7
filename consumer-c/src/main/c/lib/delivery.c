/*
 * The data paths: the consumer's ring (RingReader + RingSlotReader), the shared tick log (SharedLogFollower +
 * SharedLogReader), the multicast stream and the gap recovery both share (StreamReader), and delivery to the
 * application in sequence order, each sequence once. Allocation-free; the consumer's polling thread only.
 *
 * Memory order, as docs/EGRESS.md prescribes and the Java readers do:
 * - ring slot p: stamp (acquire) == p + 1, copy the 64 bytes, acquire fence, stamp again == p + 1 and the
 *   SlotCheck of the copy == the stamp's check; anything else is not trusted;
 * - shared log position p: stamp (acquire) == p + 1, copy, acquire fence, stamp again == p + 1; a run of slots is
 *   vouched for by its last slot's stamp before the copy and its first slot's stamp after it;
 * - the lap notice and the log tail are acquire loads; the reports into the position region release stores.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "memory.h"

/* ---- delivery ---- */

static int accepts(const mdgate_consumer *consumer, int instrument, uint8_t event_type)
{
    return ((consumer->masks[instrument] | consumer->all_mask) & mdg_class_of(event_type)) != 0;
}

static int accepts_from_ring(const mdgate_consumer *consumer, int instrument, uint8_t event_type)
{
    const int mask = consumer->masks[instrument] | consumer->all_mask;
    return mask == 0 || (mask & mdg_class_of(event_type)) != 0;
}

static void record_latency(mdgate_consumer *consumer, int64_t sent)
{
    int64_t nanos = consumer->receipt_epoch_ns - sent;
    nanos = nanos < 0 ? 0 : nanos > MDG_HIGHEST_LATENCY_NS ? MDG_HIGHEST_LATENCY_NS : nanos;
    mdg_histogram_record(&consumer->latency, nanos, 1);
}

/* A delivered SESSION tick: the new session reuses stock locates, so every symbol known is forgotten. */
static void forget_symbols(mdgate_consumer *consumer)
{
    memset(consumer->symbols, 0, (MDGATE_MAX_INSTRUMENT_ID + 1) * sizeof(uint64_t));
}

/*
 * An INSTRUMENT tick read from the ring or the stream, whether the subscriptions take it or not: it resolves
 * subscriptions by symbol, and names its instrument's symbol unless it was delivered already (a duplicate may come
 * from before a SESSION tick that made its symbol stale). As EgressConsumer.onInstrumentRead.
 */
static void on_instrument_read(mdgate_consumer *consumer, const uint8_t *tick, const int instrument)
{
    const uint64_t symbol = mdg_get64(tick + MDGATE_TICK_ORDER_REFERENCE_OFFSET);
    mdg_on_instrument(consumer, symbol, instrument);
    if ((int64_t)mdg_get64(tick + MDGATE_TICK_GATEWAY_SEQUENCE_OFFSET) > consumer->last_delivered)
    {
        consumer->symbols[instrument] = symbol;
    }
}

static void deliver(mdgate_consumer *consumer, const uint8_t *tick, int64_t sent_epoch_ns)
{
    const int64_t sequence = (int64_t)mdg_get64(tick + MDGATE_TICK_GATEWAY_SEQUENCE_OFFSET);
    if (sequence <= consumer->last_delivered)
    {
        if (sequence <= consumer->snapshot_sequence)
        {
            consumer->counters.snapshot_skipped++;
        }
        else
        {
            consumer->counters.duplicates++;
        }
        return;
    }
    consumer->last_delivered = sequence;
    const int instrument = mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET);
    if (sequence <= consumer->floor_to && mdg_snapshot_covers(consumer, instrument, sequence))
    {
        consumer->counters.snapshot_skipped++; /* its instrument's part was taken after it */
        return;
    }
    consumer->counters.delivered++;
    if (tick[MDGATE_TICK_EVENT_TYPE_OFFSET] == MDGATE_EVENT_SESSION)
    {
        forget_symbols(consumer);
    }
    if ((mdg_get16(tick + MDGATE_TICK_FLAGS_OFFSET) & MDGATE_TICK_REPLAYED_FLAG) != 0)
    {
        consumer->counters.recovered_delivered++;
    }
    else if (consumer->config.record_latency && sent_epoch_ns > 0)
    {
        record_latency(consumer, sent_epoch_ns);
    }
    if (NULL != consumer->handler)
    {
        consumer->handler(consumer->handler_context, tick);
    }
}

static void deliver_from_ring(mdgate_consumer *consumer, const uint8_t *tick)
{
    const int instrument = mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET);
    const uint8_t event_type = tick[MDGATE_TICK_EVENT_TYPE_OFFSET];
    if (event_type == MDGATE_EVENT_INSTRUMENT)
    {
        on_instrument_read(consumer, tick, instrument);
    }
    if (accepts_from_ring(consumer, instrument, event_type))
    {
        deliver(consumer, tick, (int64_t)mdg_get64(tick + MDGATE_TICK_RECEIVE_TIMESTAMP_OFFSET));
    }
    else
    {
        consumer->counters.filtered++;
    }
}

static void deliver_from_stream(mdgate_consumer *consumer, const uint8_t *tick, int64_t sent_epoch_ns)
{
    const int instrument = mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET);
    const uint8_t event_type = tick[MDGATE_TICK_EVENT_TYPE_OFFSET];
    if (event_type == MDGATE_EVENT_INSTRUMENT)
    {
        on_instrument_read(consumer, tick, instrument);
    }
    if (accepts(consumer, instrument, event_type))
    {
        deliver(consumer, tick, sent_epoch_ns);
    }
}

/*
 * A run of live ticks copied from the shared log, while their sequences are first, first + 1, ...: the checks that
 * hold for the whole run made once, latencies of one histogram bucket recorded together. Returns ticks delivered.
 */
static int deliver_log_run(mdgate_consumer *consumer, const uint8_t *run, int count, int64_t first)
{
    if (consumer->all_mask != MDGATE_EVERY_CLASS || first <= consumer->last_delivered || first <= consumer->floor_to)
    {
        return 0; /* one by one: some may be covered by the last snapshot's parts */
    }
    const int timed = consumer->config.record_latency;
    const int64_t receipt = consumer->receipt_epoch_ns;
    int bucket = -1;
    int64_t in_bucket = 0;
    int delivered = 0;
    for (const uint8_t *tick = run; delivered < count; delivered++, tick += MDGATE_TICK_LENGTH)
    {
        const int64_t sequence = (int64_t)mdg_get64(tick + MDGATE_TICK_GATEWAY_SEQUENCE_OFFSET);
        if (sequence != first + delivered)
        {
            break;
        }
        consumer->last_delivered = sequence;
        if (tick[MDGATE_TICK_EVENT_TYPE_OFFSET] == MDGATE_EVENT_INSTRUMENT)
        {
            const int instrument = mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET);
            const uint64_t symbol = mdg_get64(tick + MDGATE_TICK_ORDER_REFERENCE_OFFSET);
            mdg_on_instrument(consumer, symbol, instrument);
            consumer->symbols[instrument] = symbol;
        }
        else if (tick[MDGATE_TICK_EVENT_TYPE_OFFSET] == MDGATE_EVENT_SESSION)
        {
            forget_symbols(consumer);
        }
        const int64_t receive = (int64_t)mdg_get64(tick + MDGATE_TICK_RECEIVE_TIMESTAMP_OFFSET);
        if ((mdg_get16(tick + MDGATE_TICK_FLAGS_OFFSET) & MDGATE_TICK_REPLAYED_FLAG) != 0)
        {
            consumer->counters.recovered_delivered++;
        }
        else if (timed && receive > 0)
        {
            int64_t nanos = receipt - receive;
            nanos = nanos < 0 ? 0 : nanos > MDG_HIGHEST_LATENCY_NS ? MDG_HIGHEST_LATENCY_NS : nanos;
            const int index = mdg_histogram_index(nanos);
            if (index != bucket)
            {
                if (in_bucket > 0)
                {
                    mdg_histogram_record(&consumer->latency, mdg_histogram_highest_equivalent(bucket), in_bucket);
                }
                bucket = index;
                in_bucket = 0;
            }
            in_bucket++;
        }
        if (NULL != consumer->handler)
        {
            consumer->handler(consumer->handler_context, tick);
        }
    }
    if (in_bucket > 0)
    {
        mdg_histogram_record(&consumer->latency, mdg_histogram_highest_equivalent(bucket), in_bucket);
    }
    consumer->counters.delivered += delivered;
    return delivered;
}

/* ---- SlotCheck and the ring ---- */

static uint64_t rotate_left(uint64_t value, int bits)
{
    return (value << bits) | (value >> (64 - bits));
}

uint64_t mdg_slot_check(int64_t position, const uint8_t *slot)
{
    uint64_t hash = (uint64_t)(position + 1) * MDGATE_SLOT_CHECK_SEED;
    for (int i = 0; i < MDGATE_REGION_SLOT_LENGTH; i += 8)
    {
        hash = rotate_left(hash ^ mdg_get64(slot + i), 27) * MDGATE_SLOT_CHECK_MULTIPLIER;
    }
    hash ^= hash >> 31;
    hash *= MDGATE_SLOT_CHECK_FINAL_MULTIPLIER;
    return hash ^ (hash >> 29);
}

enum
{
    SLOT_READ = 1,
    SLOT_EMPTY = 0,
    SLOT_TORN = -1,
    SLOT_AHEAD = -2
};

static int read_slot(const mdg_ring *ring, int64_t position, uint8_t *copy)
{
    const size_t index = (size_t)(position & (ring->slots - 1));
    const uint8_t *stamp = ring->region + MDGATE_REGION_SLOTS_OFFSET + (size_t)ring->slots * MDGATE_REGION_SLOT_LENGTH +
        index * MDGATE_REGION_STAMP_LENGTH;
    const uint64_t expected = (uint64_t)position + 1;
    const uint64_t before = mdg_load_acquire(stamp);
    if (before != expected)
    {
        return (int64_t)before > (int64_t)expected ? SLOT_AHEAD : SLOT_EMPTY;
    }
    mdg_copy_shared(copy, ring->region + MDGATE_REGION_SLOTS_OFFSET + index * MDGATE_REGION_SLOT_LENGTH,
        MDGATE_REGION_SLOT_LENGTH);
    mdg_load_fence();
    const uint64_t after = mdg_load_relaxed(stamp);
    const uint64_t check = mdg_load_relaxed(stamp + MDGATE_REGION_STAMP_CHECK_OFFSET);
    if (after != expected || check != mdg_slot_check(position, copy))
    {
        return SLOT_TORN;
    }
    return SLOT_READ;
}

static void ring_report(mdgate_consumer *consumer)
{
    mdg_transport *transport = consumer->transport;
    transport->ops->write_long(transport, &consumer->positions, MDGATE_POSITION_READ_POSITION_OFFSET,
        consumer->ring.position);
    transport->ops->write_long(transport, &consumer->positions, MDGATE_POSITION_DELIVERED_SEQUENCE_OFFSET,
        consumer->last_delivered);
}

static void ring_request_resync(mdgate_consumer *consumer)
{
    if (!consumer->ring.resync_pending)
    {
        consumer->ring.resync_pending = 1;
        mdg_request_resync(consumer);
    }
}

void mdg_ring_attach(mdgate_consumer *consumer)
{
    consumer->ring.attached = consumer->config.ring_slots > 0;
    consumer->ring.region = consumer->region.base;
    consumer->ring.slots = consumer->config.ring_slots;
    consumer->ring.position = 0;
    consumer->ring.resync_pending = 0;
}

int mdg_ring_poll(mdgate_consumer *consumer, int limit)
{
    mdg_ring *ring = &consumer->ring;
    /* While a resync is pending, slots ahead may be live ticks written before the gateway took the RESYNC. */
    if (!ring->attached || ring->resync_pending)
    {
        return 0;
    }
    int read = 0;
    while (read < limit)
    {
        const int result = read_slot(ring, ring->position, consumer->slot_copy);
        if (result == SLOT_READ)
        {
            ring->position++;
            read++;
            deliver_from_ring(consumer, consumer->slot_copy);
            continue;
        }
        if (result == SLOT_TORN)
        {
            consumer->counters.torn_reads++;
        }
        else if (result == SLOT_AHEAD)
        {
            consumer->counters.malformed++;
            ring_request_resync(consumer);
        }
        else if ((int64_t)mdg_load_acquire(ring->region + MDGATE_REGION_LAP_POSITION_OFFSET) == ring->position)
        {
            consumer->counters.laps++;
            ring_request_resync(consumer);
        }
        break;
    }
    if (read > 0)
    {
        ring_report(consumer);
    }
    return read;
}

void mdg_ring_resync(mdgate_consumer *consumer)
{
    if (consumer->ring.attached)
    {
        ring_request_resync(consumer);
    }
}

void mdg_ring_on_resynced(mdgate_consumer *consumer, int64_t position)
{
    if (!consumer->ring.attached)
    {
        return;
    }
    consumer->ring.position = position;
    consumer->ring.resync_pending = 0;
    ring_report(consumer);
}

/* ---- the sequencer: gaps in the stream's or the shared log's sequence, recovered over control ---- */

static void start_recovery(mdgate_consumer *consumer, int64_t from, int64_t to)
{
    consumer->sequencer.recovering = 1;
    consumer->counters.gaps++;
    mdg_request_recovery(consumer, from, to);
}

void mdg_sequencer_abandon(mdgate_consumer *consumer)
{
    consumer->sequencer.recovering = 0;
    consumer->sequencer.pending_count = 0;
    consumer->sequencer.pending_broken = 0;
}

void mdg_sequencer_start(mdgate_consumer *consumer, int32_t stream_id, int64_t first)
{
    mdg_sequencer *sequencer = &consumer->sequencer;
    sequencer->stream_id = stream_id;
    if (sequencer->next == 0)
    {
        sequencer->next = first;
    }
    sequencer->next_datagram = -1;
    mdg_sequencer_abandon(consumer);
}

void mdg_sequencer_follow(mdgate_consumer *consumer, int64_t first, int64_t live)
{
    mdg_sequencer *sequencer = &consumer->sequencer;
    sequencer->next = first;
    sequencer->next_datagram = -1;
    sequencer->highest_log_sequence = 0;
    mdg_sequencer_abandon(consumer);
    if (live > first)
    {
        start_recovery(consumer, first, live - 1);
    }
}

static void hold(mdgate_consumer *consumer, const uint8_t *tick, int64_t sequence, int64_t sent)
{
    mdg_sequencer *sequencer = &consumer->sequencer;
    if (sequencer->pending_broken)
    {
        return;
    }
    if (sequencer->pending_count > 0)
    {
        const int64_t expected = sequencer->pending_first + sequencer->pending_count;
        if (sequence < expected)
        {
            return;
        }
        if (sequence > expected)
        {
            sequencer->pending_broken = 1;
            return;
        }
    }
    if (sequencer->pending_count == sequencer->pending_capacity)
    {
        consumer->counters.pending_overflows++;
        sequencer->pending_broken = 1;
        return;
    }
    if (sequencer->pending_count == 0)
    {
        sequencer->pending_first = sequence;
    }
    memcpy(sequencer->pending + (size_t)sequencer->pending_count * MDGATE_TICK_LENGTH, tick, MDGATE_TICK_LENGTH);
    sequencer->pending_timestamps[sequencer->pending_count++] = sent;
}

static void on_live_tick(mdgate_consumer *consumer, const uint8_t *tick, int64_t sequence, int64_t sent)
{
    mdg_sequencer *sequencer = &consumer->sequencer;
    if (sequencer->recovering)
    {
        hold(consumer, tick, sequence, sent);
    }
    else if (sequence == sequencer->next)
    {
        sequencer->next = sequence + 1;
        deliver_from_stream(consumer, tick, sent);
    }
    else if (sequence > sequencer->next)
    {
        start_recovery(consumer, sequencer->next, sequence - 1);
        hold(consumer, tick, sequence, sent);
    }
    else if (sequence <= consumer->snapshot_sequence)
    {
        consumer->counters.snapshot_skipped++;
    }
}

void mdg_sequencer_skip_to(mdgate_consumer *consumer, int64_t sequence)
{
    if (sequence + 1 > consumer->sequencer.next)
    {
        consumer->sequencer.next = sequence + 1;
    }
}

void mdg_sequencer_on_recovered(mdgate_consumer *consumer, const uint8_t *tick)
{
    const int64_t sequence = (int64_t)mdg_get64(tick + MDGATE_TICK_GATEWAY_SEQUENCE_OFFSET);
    if (sequence >= consumer->sequencer.next)
    {
        consumer->sequencer.next = sequence + 1;
        deliver_from_stream(consumer, tick, 0);
    }
    else if (sequence <= consumer->snapshot_sequence)
    {
        consumer->counters.snapshot_skipped++;
    }
}

void mdg_sequencer_on_recovery_end(mdgate_consumer *consumer, int64_t to)
{
    mdg_sequencer *sequencer = &consumer->sequencer;
    if (!sequencer->recovering)
    {
        return;
    }
    sequencer->recovering = 0;
    if (to + 1 > sequencer->next)
    {
        sequencer->next = to + 1;
    }
    int i = 0;
    for (; i < sequencer->pending_count; i++)
    {
        const int64_t sequence = sequencer->pending_first + i;
        if (sequence < sequencer->next)
        {
            continue;
        }
        if (sequence > sequencer->next)
        {
            break;
        }
        sequencer->next = sequence + 1;
        deliver_from_stream(consumer, sequencer->pending + (size_t)i * MDGATE_TICK_LENGTH,
            sequencer->pending_timestamps[i]);
    }
    if (i < sequencer->pending_count)
    {
        const int64_t gap_end = sequencer->pending_first + i - 1;
        const int remaining = sequencer->pending_count - i;
        memmove(sequencer->pending, sequencer->pending + (size_t)i * MDGATE_TICK_LENGTH,
            (size_t)remaining * MDGATE_TICK_LENGTH);
        memmove(sequencer->pending_timestamps, sequencer->pending_timestamps + i, (size_t)remaining * sizeof(int64_t));
        sequencer->pending_first += i;
        sequencer->pending_count = remaining;
        start_recovery(consumer, sequencer->next, gap_end);
        return;
    }
    sequencer->pending_count = 0;
    sequencer->pending_broken = 0;
}

void mdg_on_datagram(void *context, const uint8_t *datagram, int32_t length)
{
    mdgate_consumer *consumer = context;
    mdg_sequencer *sequencer = &consumer->sequencer;
    if (length < MDGATE_DGRAM_HEADER_LENGTH || datagram[MDGATE_DGRAM_VERSION_OFFSET] != MDGATE_DGRAM_VERSION ||
        (int32_t)mdg_get32(datagram + MDGATE_DGRAM_STREAM_ID_OFFSET) != sequencer->stream_id ||
        mdg_get16(datagram + MDGATE_DGRAM_TICK_LENGTH_OFFSET) != MDGATE_TICK_LENGTH)
    {
        consumer->counters.malformed++;
        return;
    }
    const int count = mdg_get16(datagram + MDGATE_DGRAM_TICK_COUNT_OFFSET);
    if (MDGATE_DGRAM_HEADER_LENGTH + count * MDGATE_TICK_LENGTH > length)
    {
        consumer->counters.malformed++;
        return;
    }
    const int64_t epoch = (int64_t)mdg_get64(datagram + MDGATE_DGRAM_PUBLISHER_EPOCH_OFFSET);
    const int64_t datagram_sequence = (int64_t)mdg_get64(datagram + MDGATE_DGRAM_DATAGRAM_SEQUENCE_OFFSET);
    if (epoch == sequencer->publisher_epoch && sequencer->next_datagram >= 0 &&
        datagram_sequence > sequencer->next_datagram)
    {
        consumer->counters.datagrams_lost += datagram_sequence - sequencer->next_datagram;
    }
    sequencer->publisher_epoch = epoch;
    sequencer->next_datagram = datagram_sequence + 1;
    const int64_t first = (int64_t)mdg_get64(datagram + MDGATE_DGRAM_FIRST_TICK_SEQUENCE_OFFSET);
    if (datagram[MDGATE_DGRAM_TYPE_OFFSET] == MDGATE_DGRAM_TYPE_HEARTBEAT)
    {
        if (!sequencer->recovering && first > sequencer->next)
        {
            start_recovery(consumer, sequencer->next, first - 1);
        }
        return;
    }
    const int64_t sent = (int64_t)mdg_get64(datagram + MDGATE_DGRAM_SEND_TIMESTAMP_OFFSET);
    for (int i = 0; i < count; i++)
    {
        on_live_tick(consumer, datagram + MDGATE_DGRAM_HEADER_LENGTH + i * MDGATE_TICK_LENGTH, first + i, sent);
    }
}

/* ---- the shared tick log ---- */

static const char *check_log(const mdg_mapped_file *file, int32_t stream_id, char *problem, size_t length)
{
    if (file->length < MDGATE_LOG_HEADER_LENGTH ||
        mdg_load_acquire(file->base + MDGATE_LOG_MAGIC_OFFSET) != MDGATE_LOG_MAGIC)
    {
        snprintf(problem, length, "not a shared tick log");
        return problem;
    }
    if (mdg_get32(file->base + MDGATE_LOG_VERSION_OFFSET) != MDGATE_LOG_VERSION)
    {
        snprintf(problem, length, "shared log version %u, expected %d",
            mdg_get32(file->base + MDGATE_LOG_VERSION_OFFSET), MDGATE_LOG_VERSION);
        return problem;
    }
    if ((int32_t)mdg_get32(file->base + MDGATE_LOG_STREAM_ID_OFFSET) != stream_id)
    {
        snprintf(problem, length, "shared log of stream %d, expected %d",
            (int32_t)mdg_get32(file->base + MDGATE_LOG_STREAM_ID_OFFSET), stream_id);
        return problem;
    }
    const int32_t slots = (int32_t)mdg_get32(file->base + MDGATE_LOG_SLOTS_OFFSET);
    const int valid = slots >= MDGATE_LOG_MIN_SLOTS && slots <= MDGATE_LOG_MAX_SLOTS && (slots & (slots - 1)) == 0;
    if (!valid || file->length < MDGATE_LOG_HEADER_LENGTH +
        (size_t)slots * (MDGATE_LOG_SLOT_LENGTH + MDGATE_LOG_STAMP_LENGTH))
    {
        snprintf(problem, length, "shared log header says %d slots, which the %zu bytes do not hold", slots,
            file->length);
        return problem;
    }
    return NULL;
}

int mdg_log_open(mdgate_consumer *consumer, char *problem, size_t problem_length)
{
    mdg_log_close(consumer);
    mdg_transport *transport = consumer->transport;
    mdg_log_follower *log = &consumer->log;
    const int opened = transport->ops->open_shared_log(transport, consumer->stream_id, &log->file);
    if (opened != MDGATE_OK)
    {
        snprintf(problem, problem_length, "%s", transport->ops->error(transport));
        return opened;
    }
    if (NULL != check_log(&log->file, consumer->stream_id, problem, problem_length))
    {
        transport->ops->close_mapped(transport, &log->file);
        return MDGATE_E_REGION;
    }
    log->slots = (int32_t)mdg_get32(log->file.base + MDGATE_LOG_SLOTS_OFFSET);
    log->open = 1;
    return MDGATE_OK;
}

void mdg_log_close(mdgate_consumer *consumer)
{
    mdg_log_follower *log = &consumer->log;
    log->following = 0;
    if (log->open)
    {
        consumer->transport->ops->close_mapped(consumer->transport, &log->file);
        log->open = 0;
    }
}

void mdg_log_start(mdgate_consumer *consumer, int64_t from, int64_t from_sequence, int64_t live_sequence)
{
    consumer->log.position = from;
    mdg_sequencer_follow(consumer, from_sequence, live_sequence);
    consumer->log.following = 1;
    consumer->log.reported = -1;
}

static const uint8_t *log_stamp(const mdg_log_follower *log, int64_t position)
{
    return log->file.base + MDGATE_LOG_HEADER_LENGTH + (size_t)log->slots * MDGATE_LOG_SLOT_LENGTH +
        (size_t)(position & (log->slots - 1)) * MDGATE_LOG_STAMP_LENGTH;
}

/* SharedLogReader.readRun: ticks copied (1 or more), 0 when not written yet, -1 when lapped. */
static int read_run(mdg_log_follower *log, int64_t position, int max_ticks)
{
    const uint64_t expected = (uint64_t)position + 1;
    const uint8_t *first_stamp = log_stamp(log, position);
    const uint64_t first = mdg_load_acquire(first_stamp);
    if (first != expected)
    {
        return (first & ~MDGATE_LOG_WRITING) > expected ? -1 : 0;
    }
    const int to_end = log->slots - (int)(position & (log->slots - 1));
    const int run = max_ticks < to_end ? max_ticks : to_end;
    int count = run;
    if (run > 1 &&
        mdg_load_acquire(first_stamp + (size_t)(run - 1) * MDGATE_LOG_STAMP_LENGTH) != expected + (uint64_t)run - 1)
    {
        count = 1;
        while (count < run &&
            mdg_load_acquire(first_stamp + (size_t)count * MDGATE_LOG_STAMP_LENGTH) == expected + (uint64_t)count)
        {
            count++;
        }
    }
    mdg_copy_shared(log->run, log->file.base + MDGATE_LOG_HEADER_LENGTH +
        (size_t)(position & (log->slots - 1)) * MDGATE_LOG_SLOT_LENGTH, (size_t)count * MDGATE_LOG_SLOT_LENGTH);
    mdg_load_fence();
    return mdg_load_relaxed(first_stamp) == expected ? count : -1;
}

static void on_log_tick(mdgate_consumer *consumer, const uint8_t *tick)
{
    const int64_t sequence = (int64_t)mdg_get64(tick + MDGATE_TICK_GATEWAY_SEQUENCE_OFFSET);
    if (sequence > consumer->sequencer.highest_log_sequence)
    {
        consumer->sequencer.highest_log_sequence = sequence;
    }
    on_live_tick(consumer, tick, sequence, (int64_t)mdg_get64(tick + MDGATE_TICK_RECEIVE_TIMESTAMP_OFFSET));
}

static void on_log_run(mdgate_consumer *consumer, const uint8_t *run, int count)
{
    mdg_sequencer *sequencer = &consumer->sequencer;
    int done = 0;
    if (!sequencer->recovering)
    {
        done = deliver_log_run(consumer, run, count, sequencer->next);
        if (done > 0)
        {
            sequencer->next += done;
            if (sequencer->next - 1 > sequencer->highest_log_sequence)
            {
                sequencer->highest_log_sequence = sequencer->next - 1;
            }
        }
    }
    for (; done < count; done++)
    {
        on_log_tick(consumer, run + (size_t)done * MDGATE_TICK_LENGTH);
    }
}

int mdg_log_poll(mdgate_consumer *consumer, int limit)
{
    mdg_log_follower *log = &consumer->log;
    int read = 0;
    while (read < limit)
    {
        const int copied = read_run(log, log->position, limit - read < MDG_LOG_RUN ? limit - read : MDG_LOG_RUN);
        if (copied > 0)
        {
            log->position += copied;
            read += copied;
            on_log_run(consumer, log->run, copied);
            continue;
        }
        if (copied < 0)
        {
            consumer->counters.laps++;
            const int64_t tail = (int64_t)mdg_load_acquire(log->file.base + MDGATE_LOG_TAIL_OFFSET);
            int64_t resume = tail - log->slots / 2;
            if (resume < log->position + 1)
            {
                resume = log->position + 1;
            }
            consumer->counters.log_ticks_skipped += resume - log->position;
            log->position = resume;
            continue;
        }
        break;
    }
    mdg_sequencer *sequencer = &consumer->sequencer;
    if (!sequencer->recovering && sequencer->next <= sequencer->highest_log_sequence)
    {
        start_recovery(consumer, sequencer->next, sequencer->highest_log_sequence);
    }
    if (consumer->last_delivered != log->reported)
    {
        log->reported = consumer->last_delivered;
        consumer->transport->ops->write_long(consumer->transport, &consumer->positions,
            MDGATE_POSITION_DELIVERED_SEQUENCE_OFFSET, consumer->last_delivered);
    }
    return read;
}
