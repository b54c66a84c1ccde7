/*
 * Loads and stores on memory shared with the publisher (mapped files), with the orderings EGRESS.md prescribes.
 * Shared words are read and written through C11 atomics on the mapping (a uint64_t there is 8-byte aligned and
 * _Atomic uint64_t has its size and alignment on every target this library builds for: checked below), so a
 * concurrent write by the publisher is never a data race in the C11 sense. Private copies (control messages,
 * slot copies) are read with the little-endian functions below. Internal to the library.
 */
#ifndef MDGATE_MEMORY_H
#define MDGATE_MEMORY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libmdgate-consumer reads the little-endian wire layouts in place: build it for a little-endian target"
#endif

_Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t), "_Atomic uint64_t must be a plain 8-byte word");
_Static_assert(_Alignof(_Atomic uint64_t) == 8, "_Atomic uint64_t must be 8-byte aligned");

/* A word of a mapping the publisher writes: the acquire load of a stamp, version or tail (getLongAcquire/Volatile). */
static inline uint64_t mdg_load_acquire(const uint8_t *word)
{
    return atomic_load_explicit((const _Atomic uint64_t *)(const void *)word, memory_order_acquire);
}

static inline uint64_t mdg_load_relaxed(const uint8_t *word)
{
    return atomic_load_explicit((const _Atomic uint64_t *)(const void *)word, memory_order_relaxed);
}

/* An ordered store into a peer's mapping (putLongRelease): what one-sided writeLong is over shm. */
static inline void mdg_store_release(uint8_t *word, uint64_t value)
{
    atomic_store_explicit((_Atomic uint64_t *)(void *)word, value, memory_order_release);
}

/*
 * Copies words a concurrent writer may be changing: relaxed atomic loads, one per 8-byte word, so the copy may mix
 * two writes (the caller checks stamps or versions after an acquire fence) but is never undefined behaviour.
 * length is a multiple of 8; both pointers 8-byte aligned.
 */
static inline void mdg_copy_shared(uint8_t *destination, const uint8_t *source, size_t length)
{
    uint64_t *out = (uint64_t *)(void *)destination;
    const _Atomic uint64_t *in = (const _Atomic uint64_t *)(const void *)source;
    for (size_t i = 0; i < length / 8; i++)
    {
        out[i] = atomic_load_explicit(&in[i], memory_order_relaxed);
    }
}

/* The load-load fence between a copy and the second read of its stamp (VarHandle.loadLoadFence). */
static inline void mdg_load_fence(void)
{
    atomic_thread_fence(memory_order_acquire);
}

static inline uint16_t mdg_get16(const uint8_t *at)
{
    uint16_t value;
    memcpy(&value, at, sizeof value);
    return value;
}

static inline uint32_t mdg_get32(const uint8_t *at)
{
    uint32_t value;
    memcpy(&value, at, sizeof value);
    return value;
}

static inline uint64_t mdg_get64(const uint8_t *at)
{
    uint64_t value;
    memcpy(&value, at, sizeof value);
    return value;
}

static inline void mdg_put16(uint8_t *at, uint16_t value)
{
    memcpy(at, &value, sizeof value);
}

static inline void mdg_put32(uint8_t *at, uint32_t value)
{
    memcpy(at, &value, sizeof value);
}

static inline void mdg_put64(uint8_t *at, uint64_t value)
{
    memcpy(at, &value, sizeof value);
}

#endif
