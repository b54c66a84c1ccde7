/*
 * Times libmdgate-consumer's reconnect attempts after the publisher goes away: a consumer of every instrument with
 * the reconnect intervals given, polled every 200 us when idle, prints when it lost its connection and when each
 * attempt was made (the poll that raised counters.reconnect_attempts), and checks that the ticks it gets come in
 * sequence, each once. Used by ReconnectBackoffTest.
 *
 * The library reads its clock once, as a poll starts, and times its waits from there; so the loss is timed here at the
 * start of the poll that noticed it, and each attempt both at the start and at the end of its poll. A wait is then
 * bounded from below by (end of the attempt's poll - start of the poll that began the wait), however long a poll on
 * a loaded host takes, and a library that tried early cannot hide behind the time its own poll took.
 *
 * Arguments: instance name token interval_ms max_interval_ms until_sequence
 * Prints "READY" once subscribed, "LOST" at the loss, "ATTEMPT <start us> <end us>" per attempt (its poll's start
 * and end, in microseconds since the start of the poll that noticed the loss), "RECONNECTED",
 * and at the end "DONE delivered D last L out_of_order O attempts A failures F reconnects R disconnects X".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdgate/consumer.h"

typedef struct delivery
{
    int64_t last;
    int64_t out_of_order;
} delivery;

static void on_tick(void *context, const uint8_t *tick)
{
    delivery *seen = context;
    int64_t sequence;
    memcpy(&sequence, tick, sizeof sequence);
    seen->out_of_order += sequence != seen->last + 1;
    seen->last = sequence;
}

static int64_t monotonic_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000LL + now.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
    if (argc != 7)
    {
        fprintf(stderr, "usage: reconnect-backoff instance name token interval_ms max_interval_ms until_sequence\n");
        return 2;
    }
    mdgate_consumer_config config;
    mdgate_consumer_config_init(&config);
    config.instance = argv[1];
    config.name = argv[2];
    config.token = argv[3];
    config.reconnect_interval_ns = atoll(argv[4]) * 1000000LL;
    config.reconnect_max_interval_ns = atoll(argv[5]) * 1000000LL;
    const int64_t until = atoll(argv[6]);
    mdgate_consumer *consumer;
    char error[1536];
    if (mdgate_consumer_connect(&config, &consumer, error, sizeof error, NULL) != MDGATE_OK)
    {
        fprintf(stderr, "reconnect-backoff: %s\n", error);
        return 1;
    }
    mdgate_consumer_subscribe_all(consumer, MDGATE_VIEW_ALL_TICKS);
    const mdgate_counters *counters = mdgate_consumer_counters(consumer);
    delivery seen = { 0, 0 };
    int ready = 0;
    int64_t lost_us = 0;
    int64_t attempts = 0;
    int64_t reconnects = 0;
    const struct timespec pause = { 0, 200000 };
    while (mdgate_consumer_last_delivered(consumer) < until)
    {
        const int64_t start_us = monotonic_us();
        const int work = mdgate_consumer_poll(consumer, on_tick, &seen, 256);
        const int64_t end_us = monotonic_us();
        if (work < 0)
        {
            fprintf(stderr, "reconnect-backoff: %s\n", mdgate_consumer_last_error(consumer));
            return 1;
        }
        if (!ready && mdgate_consumer_is_connected(consumer) && mdgate_consumer_awaiting_answers(consumer) == 0)
        {
            ready = 1;
            printf("READY\n");
        }
        if (lost_us == 0 && counters->disconnects > 0)
        {
            lost_us = start_us;
            printf("LOST\n");
        }
        if (counters->reconnect_attempts > attempts)
        {
            attempts = counters->reconnect_attempts;
            printf("ATTEMPT %lld %lld\n", (long long)(start_us - lost_us), (long long)(end_us - lost_us));
        }
        if (counters->reconnects > reconnects)
        {
            reconnects = counters->reconnects;
            printf("RECONNECTED\n");
        }
        fflush(stdout);
        if (work == 0)
        {
            nanosleep(&pause, NULL);
        }
    }
    printf("DONE delivered %lld last %lld out_of_order %lld attempts %lld failures %lld reconnects %lld "
        "disconnects %lld\n", (long long)counters->delivered, (long long)seen.last, (long long)seen.out_of_order,
        (long long)counters->reconnect_attempts, (long long)counters->reconnect_failures,
        (long long)counters->reconnects, (long long)counters->disconnects);
    mdgate_consumer_close(consumer);
    return 0;
}
