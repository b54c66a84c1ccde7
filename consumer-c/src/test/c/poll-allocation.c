/*
 * Counts the heap allocations libmdgate-consumer makes while it polls, once warm: this program defines malloc and
 * its kin (forwarding to glibc's __libc_* entry points), and the dynamic linker binds the library's calls to them,
 * so every allocation the library makes is seen. Used by PollAllocationTest.
 *
 * Arguments: instance name token (all | ids,... | stream:ids,...) warm_until measure_until
 * Prints "READY" once subscribed, then "ALLOCATIONS <n> DELIVERED <ticks in the measured window>".
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdgate/consumer.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static atomic_int counting;
static atomic_long allocations;

static void count(void)
{
    if (atomic_load_explicit(&counting, memory_order_relaxed))
    {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size)
{
    count();
    return __libc_malloc(size);
}

void *calloc(size_t number, size_t size)
{
    count();
    return __libc_calloc(number, size);
}

void *realloc(void *pointer, size_t size)
{
    count();
    return __libc_realloc(pointer, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **pointer, size_t alignment, size_t size)
{
    count();
    *pointer = __libc_memalign(alignment, size);
    return NULL == *pointer ? 12 : 0;
}

void free(void *pointer)
{
    __libc_free(pointer);
}

static void on_tick(void *context, const uint8_t *tick)
{
    (void)tick;
    (*(long *)context)++;
}

int main(int argc, char **argv)
{
    if (argc != 7)
    {
        fprintf(stderr, "usage: poll-allocation instance name token subscription warm_until measure_until\n");
        return 2;
    }
    mdgate_consumer_config config;
    mdgate_consumer_config_init(&config);
    config.instance = argv[1];
    config.name = argv[2];
    config.token = argv[3];
    const char *subscription = argv[4];
    if (strncmp(subscription, "stream:", 7) == 0)
    {
        config.path = MDGATE_PATH_STREAM;
        config.ring_slots = 0;
        subscription += 7;
    }
    const long long warm = atoll(argv[5]);
    const long long last = atoll(argv[6]);
    mdgate_consumer *consumer;
    char error[1536];
    if (mdgate_consumer_connect(&config, &consumer, error, sizeof error, NULL) != MDGATE_OK)
    {
        fprintf(stderr, "poll-allocation: %s\n", error);
        return 1;
    }
    if (strcmp(subscription, "all") == 0)
    {
        mdgate_consumer_subscribe_all(consumer, MDGATE_VIEW_ALL_TICKS);
    }
    else
    {
        char list[256];
        snprintf(list, sizeof list, "%s", subscription);
        for (char *id = strtok(list, ","); NULL != id; id = strtok(NULL, ","))
        {
            mdgate_consumer_subscribe_id(consumer, atoi(id), MDGATE_VIEW_ALL_TICKS);
        }
    }
    long delivered = 0;
    int ready = 0;
    while (mdgate_consumer_last_delivered(consumer) < warm)
    {
        if (mdgate_consumer_poll(consumer, on_tick, &delivered, 256) < 0)
        {
            fprintf(stderr, "poll-allocation: %s\n", mdgate_consumer_last_error(consumer));
            return 1;
        }
        if (!ready && mdgate_consumer_awaiting_answers(consumer) == 0)
        {
            ready = 1;
            printf("READY\n");
            fflush(stdout);
        }
    }
    const long before = delivered;
    atomic_store(&counting, 1);
    while (mdgate_consumer_last_delivered(consumer) < last)
    {
        if (mdgate_consumer_poll(consumer, on_tick, &delivered, 256) < 0)
        {
            break;
        }
    }
    atomic_store(&counting, 0);
    printf("ALLOCATIONS %ld DELIVERED %ld\n", atomic_load(&allocations), delivered - before);
    mdgate_consumer_close(consumer);
    return 0;
}
