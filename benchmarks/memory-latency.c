/*
 * Dependent-load latency by working-set size: a random cyclic permutation of cache lines, followed one load at a
 * time, so each load waits for the one before. What an order book that misses the cache pays per miss.
 * Build and run: gcc -O2 -o /tmp/memory-latency benchmarks/memory-latency.c && /tmp/memory-latency
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LINE 64
#define STEPS 20000000L

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

int main(void)
{
    for (size_t megabytes = 1; megabytes <= 256; megabytes *= 2)
    {
        const size_t lines = megabytes * 1024 * 1024 / LINE;
        uint64_t *memory = aligned_alloc(LINE, lines * LINE);
        size_t *order = malloc(lines * sizeof(size_t));
        if (memory == NULL || order == NULL)
        {
            fprintf(stderr, "memory-latency: cannot allocate %zu MB\n", megabytes);
            return 1;
        }
        uint64_t state = 88172645463325252ULL;
        for (size_t i = 0; i < lines; i++)
        {
            order[i] = i;
        }
        for (size_t i = lines - 1; i > 0; i--)
        {
            const size_t j = next_random(&state) % (i + 1);
            const size_t swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        for (size_t i = 0; i < lines; i++)
        {
            memory[order[i] * (LINE / 8)] = order[(i + 1) % lines] * (LINE / 8);
        }
        struct timespec start, end;
        size_t at = 0;
        clock_gettime(CLOCK_MONOTONIC, &start);
        for (long step = 0; step < STEPS; step++)
        {
            at = memory[at];
        }
        clock_gettime(CLOCK_MONOTONIC, &end);
        const double nanos = (end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec);
        printf("%4zu MB working set: %6.1f ns per dependent load (%zu)\n", megabytes, nanos / STEPS, at & 1);
        free(memory);
        free(order);
    }
    return 0;
}
