/*
 * libmdgate-consumer: read an mdgate journal's ticks without a JVM.
 *
 * A journal directory (docs/JOURNAL.md) holds a manifest and a tick queue, ticks/, of Chronicle Queue cycle files.
 * This reader maps the cycle files one at a time, oldest first, skips Chronicle's own records (the file header, the
 * index records, the end-of-file marker) and hands out each tick as a pointer to its 64 bytes in the mapping
 * (docs/TICK.md; little-endian). It checks what the Java reader checks: every tick record is 64 bytes, every tick
 * carries the gateway sequence after its predecessor's, no cycle file ends before the write position its header
 * records. Damage stops the read with a negative code and a message naming the file, the byte and what is wrong;
 * the ticks before it have been handed out.
 *
 * Threading: one journal handle is used by one thread. Handles are independent. A journal can be read while the
 * gateway writes it: the reader sees the cycle files there were when it was opened, and stops at the record being
 * written.
 */
#ifndef MDGATE_JOURNAL_H
#define MDGATE_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mdgate/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of one tick. */
#define MDGATE_JOURNAL_TICK_LENGTH 64

/** Results. 0 and 1 are normal; every error is negative and leaves a message (mdgate_journal_message). */
enum mdgate_journal_result
{
    MDGATE_JOURNAL_OK = 0,            /* a tick was handed out */
    MDGATE_JOURNAL_END = 1,           /* no more ticks (in the journal, or in the range asked for) */
    MDGATE_JOURNAL_EIO = -1,          /* a file or directory could not be opened, listed, read or mapped */
    MDGATE_JOURNAL_ENOTJOURNAL = -2,  /* no manifest, or a manifest of another format, tick length or schema */
    MDGATE_JOURNAL_EFORMAT = -3,      /* a cycle file whose name or header this reader does not recognise */
    MDGATE_JOURNAL_ETRUNCATED = -4,   /* a cycle file ends before the records its header says were written */
    MDGATE_JOURNAL_ERECORD = -5,      /* a record that cannot be a tick: length not 64, or running past the file */
    MDGATE_JOURNAL_ESEQUENCE = -6,    /* a tick whose gateway sequence does not follow the one before it */
    MDGATE_JOURNAL_EINCOMPLETE = -7,  /* an incomplete record in a cycle file that later cycles follow */
    MDGATE_JOURNAL_ENOMEM = -8,       /* out of memory */
    MDGATE_JOURNAL_EINVAL = -9        /* a null argument, or a call on a handle already in error */
};

typedef struct mdgate_journal mdgate_journal;

/**
 * Opens a journal directory (the one holding mdgate-journal.properties) and lists its tick cycle files.
 *
 * @param directory the journal directory.
 * @param journal   receives the handle, also when the open fails (then with the error's message), so that
 *                  mdgate_journal_message can say why; NULL only when even the handle could not be allocated.
 *                  Close it with mdgate_journal_close in every case.
 * @return MDGATE_JOURNAL_OK, or a negative result.
 */
MDGATE_EXPORT int mdgate_journal_open(const char *directory, mdgate_journal **journal);

/**
 * Hands out the next tick, in gateway sequence order across the cycle files.
 *
 * @param tick receives a pointer to the tick's 64 bytes, valid until the next call on this handle.
 * @return MDGATE_JOURNAL_OK, MDGATE_JOURNAL_END, or a negative result (the handle stays in that error).
 */
MDGATE_EXPORT int mdgate_journal_next(mdgate_journal *journal, const uint8_t **tick);

/**
 * Limits the ticks handed out to gateway sequences from..to (both included), and moves to the first one: cycles
 * whose successor starts at or before {@code from} are not read. Call before the first mdgate_journal_next.
 *
 * @return MDGATE_JOURNAL_OK, or a negative result.
 */
MDGATE_EXPORT int mdgate_journal_range(mdgate_journal *journal, uint64_t from, uint64_t to);

/** @return the message of the last error ("" when there was none); valid until the handle is closed. */
MDGATE_EXPORT const char *mdgate_journal_message(const mdgate_journal *journal);

/** @return the roll cycle the manifest names (e.g. "HOURLY"), "" before the manifest was read. */
MDGATE_EXPORT const char *mdgate_journal_roll_cycle(const mdgate_journal *journal);

/** @return how many tick cycle files the journal has. */
MDGATE_EXPORT size_t mdgate_journal_cycle_count(const mdgate_journal *journal);

/** @return the name of cycle file {@code index} (0 = oldest), NULL past the last. */
MDGATE_EXPORT const char *mdgate_journal_cycle_name(const mdgate_journal *journal, size_t index);

/** @return the index of the cycle file the last tick came from (meaningful after MDGATE_JOURNAL_OK). */
MDGATE_EXPORT size_t mdgate_journal_cycle_index(const mdgate_journal *journal);

/** @return a short name of a result, e.g. "ETRUNCATED". */
MDGATE_EXPORT const char *mdgate_journal_result_name(int result);

/** Unmaps and frees everything; NULL is allowed. */
MDGATE_EXPORT void mdgate_journal_close(mdgate_journal *journal);

/** @return the gateway sequence of a tick (its first 8 bytes, little-endian). */
MDGATE_EXPORT uint64_t mdgate_journal_tick_sequence(const uint8_t *tick);

#ifdef __cplusplus
}
#endif

#endif
