/*
 * Reader of an mdgate journal's tick queue (docs/JOURNAL.md, "Reading a journal without Java"): the manifest, the
 * cycle files of ticks/ in name order, and in each file Chronicle Queue's records, 4-byte headers each:
 *
 *   bit 31  not complete (a record being written)     bits 0..29  length of the record's bytes after the header
 *   bit 30  metadata (Chronicle's own record: file header, index, end-of-file marker)
 *
 * A header of 0 is where nothing has been written yet; 0xC0000000 is the end-of-file marker of a cycle the writer
 * has rolled past. Records start at multiples of 4. The first record of a file is Chronicle's metadata header,
 * which holds the write position: the offset of the last record written. Every data record of the tick queue is
 * one 64-byte tick.
 */
#include "mdgate/journal.h"
#include "memory.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER_NOT_COMPLETE 0x80000000u
#define HEADER_METADATA 0x40000000u
#define HEADER_LENGTH_MASK 0x3FFFFFFFu
#define HEADER_END_OF_FILE 0xC0000000u
#define HEADER_BYTES 4u

#define WIRE_I64_ARRAY 0x8D
#define WIRE_PADDING32 0x8E
#define WIRE_PADDING 0x8F
#define WIRE_INT64 0xA7

#define MANIFEST "mdgate-journal.properties"
#define TICKS "ticks"
#define CYCLE_SUFFIX ".cq4"
#define MAX_MANIFEST 65536
#define MESSAGE_LENGTH 1024

/* Cycle file names per roll cycle: 'D' is a digit, anything else itself (Chronicle's formats, UTC). */
static const struct
{
    const char *roll_cycle;
    const char *name;
} ROLL_CYCLES[] = {
    { "FIVE_MINUTELY", "DDDDDDDD-DDDDV" },
    { "TEN_MINUTELY", "DDDDDDDD-DDDDX" },
    { "HALF_HOURLY", "DDDDDDDD-DDDDH" },
    { "HOURLY", "DDDDDDDD-DDL" },
    { "TWO_HOURLY", "DDDDDDDD-DDII" },
    { "FOUR_HOURLY", "DDDDDDDD-DDIV" },
    { "SIX_HOURLY", "DDDDDDDD-DDVI" },
    { "DAILY", "DDDDDDDDL" },
    { "WEEKLY", "DDDDWDD" },
};

struct cycle
{
    const uint8_t *base;
    size_t size;
    uint64_t write_position;
    uint64_t position;
};

struct mdgate_journal
{
    char *directory;
    char roll_cycle[32];
    char **names;
    size_t count;
    size_t index;
    bool mapped;
    struct cycle cycle;
    bool have_last;
    uint64_t last_sequence;
    uint64_t from;
    uint64_t to;
    int error;
    char message[MESSAGE_LENGTH];
};

static int fail(mdgate_journal *journal, const int error, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(mdgate_journal *journal, const int error, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(journal->message, sizeof journal->message, format, args);
    va_end(args);
    journal->error = error;
    return error;
}

static int damaged(mdgate_journal *journal, const int error, const char *what)
{
    return fail(journal, error, "journal file %s/" TICKS "/%s is damaged: %s. Restore the file from a copy; or, to "
        "read the rest of the journal, move this file and every later one out of the directory (ticks after the "
        "last good record are then lost from the journal)", journal->directory, journal->names[journal->index], what);
}

/* A record header the writer may be completing: read it once, with acquire order, as the writer releases it. */
static uint32_t load_header(const uint8_t *at)
{
    return __atomic_load_n((const uint32_t *)(const void *)at, __ATOMIC_ACQUIRE);
}

static uint64_t align4(const uint64_t position)
{
    return (position + 3) & ~(uint64_t)3;
}

uint64_t mdgate_journal_tick_sequence(const uint8_t *tick)
{
    return mdg_get64(tick);
}

/* ---- the manifest ------------------------------------------------------------------------------------------ */

/* Copies the value of "key=value" in the manifest's text into value; false when the key is absent or too long. */
static bool manifest_value(const char *text, const char *key, char *value, const size_t size)
{
    const size_t key_length = strlen(key);
    for (const char *line = text; line != NULL && *line != '\0';)
    {
        const char *end = strchr(line, '\n');
        if (strncmp(line, key, key_length) == 0 && line[key_length] == '=')
        {
            const char *start = line + key_length + 1;
            size_t length = end == NULL ? strlen(start) : (size_t)(end - start);
            while (length > 0 && (start[length - 1] == '\r' || start[length - 1] == ' '))
            {
                length--;
            }
            if (length >= size)
            {
                return false;
            }
            memcpy(value, start, length);
            value[length] = '\0';
            return true;
        }
        line = end == NULL ? NULL : end + 1;
    }
    return false;
}

static bool manifest_says(const char *text, const char *key, const char *expected)
{
    char value[64];
    return manifest_value(text, key, value, sizeof value) && strcmp(value, expected) == 0;
}

static int read_manifest(mdgate_journal *journal)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/" MANIFEST, journal->directory);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        return fail(journal, errno == ENOENT ? MDGATE_JOURNAL_ENOTJOURNAL : MDGATE_JOURNAL_EIO,
            "%s is not a journal: cannot open %s (%s)", journal->directory, path, strerror(errno));
    }
    char *text = malloc(MAX_MANIFEST + 1);
    if (text == NULL)
    {
        close(fd);
        return fail(journal, MDGATE_JOURNAL_ENOMEM, "out of memory reading %s", path);
    }
    size_t length = 0;
    ssize_t got;
    while (length < MAX_MANIFEST && (got = read(fd, text + length, MAX_MANIFEST - length)) > 0)
    {
        length += (size_t)got;
    }
    close(fd);
    text[length] = '\0';
    int result = MDGATE_JOURNAL_OK;
    if (!manifest_says(text, "format", "1"))
    {
        result = fail(journal, MDGATE_JOURNAL_ENOTJOURNAL, "%s does not name journal format 1, the one this reader "
            "knows", path);
    }
    else if (!manifest_says(text, "tickLength", "64"))
    {
        result = fail(journal, MDGATE_JOURNAL_ENOTJOURNAL, "%s does not name a tick length of 64", path);
    }
    else if (!manifest_says(text, "tickSchemaId", "7001"))
    {
        result = fail(journal, MDGATE_JOURNAL_ENOTJOURNAL, "%s does not name tick schema 7001", path);
    }
    else if (!manifest_value(text, "rollCycle", journal->roll_cycle, sizeof journal->roll_cycle))
    {
        result = fail(journal, MDGATE_JOURNAL_ENOTJOURNAL, "%s names no roll cycle", path);
    }
    free(text);
    return result;
}

/* ---- the cycle files --------------------------------------------------------------------------------------- */

static const char *name_pattern(const char *roll_cycle)
{
    for (size_t i = 0; i < sizeof ROLL_CYCLES / sizeof ROLL_CYCLES[0]; i++)
    {
        if (strcmp(ROLL_CYCLES[i].roll_cycle, roll_cycle) == 0)
        {
            return ROLL_CYCLES[i].name;
        }
    }
    return NULL;
}

static bool matches(const char *name, const char *pattern)
{
    const size_t length = strlen(pattern);
    if (strlen(name) != length + strlen(CYCLE_SUFFIX) || strcmp(name + length, CYCLE_SUFFIX) != 0)
    {
        return false;
    }
    for (size_t i = 0; i < length; i++)
    {
        if (pattern[i] == 'D' ? (name[i] < '0' || name[i] > '9') : name[i] != pattern[i])
        {
            return false;
        }
    }
    return true;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_cycles(mdgate_journal *journal)
{
    const char *pattern = name_pattern(journal->roll_cycle);
    if (pattern == NULL)
    {
        return fail(journal, MDGATE_JOURNAL_ENOTJOURNAL, "%s/" MANIFEST " names roll cycle %s, which this reader "
            "does not know", journal->directory, journal->roll_cycle);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/" TICKS, journal->directory);
    DIR *dir = opendir(path);
    if (dir == NULL)
    {
        return fail(journal, MDGATE_JOURNAL_EIO, "cannot list %s: %s", path, strerror(errno));
    }
    size_t capacity = 0;
    int result = MDGATE_JOURNAL_OK;
    struct dirent *entry;
    while (result == MDGATE_JOURNAL_OK && (entry = readdir(dir)) != NULL)
    {
        const size_t length = strlen(entry->d_name);
        if (length < strlen(CYCLE_SUFFIX) || strcmp(entry->d_name + length - strlen(CYCLE_SUFFIX), CYCLE_SUFFIX) != 0)
        {
            continue;
        }
        if (!matches(entry->d_name, pattern))
        {
            result = fail(journal, MDGATE_JOURNAL_EFORMAT, "%s/%s is not named as a %s cycle file is (%s" CYCLE_SUFFIX
                ", D a digit): move it out of the directory", path, entry->d_name, journal->roll_cycle, pattern);
            break;
        }
        if (journal->count == capacity)
        {
            capacity = capacity == 0 ? 16 : capacity * 2;
            char **names = realloc(journal->names, capacity * sizeof *names);
            if (names == NULL)
            {
                result = fail(journal, MDGATE_JOURNAL_ENOMEM, "out of memory listing %s", path);
                break;
            }
            journal->names = names;
        }
        journal->names[journal->count] = strdup(entry->d_name);
        if (journal->names[journal->count] == NULL)
        {
            result = fail(journal, MDGATE_JOURNAL_ENOMEM, "out of memory listing %s", path);
            break;
        }
        journal->count++;
    }
    closedir(dir);
    if (result == MDGATE_JOURNAL_OK && journal->count > 1)
    {
        qsort(journal->names, journal->count, sizeof *journal->names, compare_names);
    }
    return result;
}

/* Skips the wire padding codes Chronicle writes before a field's value; returns the value's offset, or end. */
static size_t skip_padding(const uint8_t *bytes, size_t at, const size_t end)
{
    while (at < end)
    {
        if (bytes[at] == WIRE_PADDING)
        {
            at++;
        }
        else if (bytes[at] == WIRE_PADDING32 && at + 5 <= end)
        {
            const uint64_t skip = mdg_get32(bytes + at + 1);
            if (skip > end - at - 5)
            {
                return end;
            }
            at += 5 + (size_t)skip;
        }
        else
        {
            return at;
        }
    }
    return end;
}

/*
 * Reads the write position out of the file's header record (Chronicle's "header: !SCQStore { writePosition: ..." in
 * its binary wire): an array of 64-bit values whose first is the offset of the last record written, or a single
 * 64-bit value. Returns false for a header this reader does not recognise.
 */
static bool header_write_position(const uint8_t *bytes, const size_t end, uint64_t *write_position)
{
    static const char FIELD[] = "\xCDwritePosition";
    if (memmem(bytes, end, "SCQStore", 8) == NULL)
    {
        return false;
    }
    const uint8_t *field = memmem(bytes, end, FIELD, sizeof FIELD - 1);
    if (field == NULL)
    {
        return false;
    }
    size_t at = skip_padding(bytes, (size_t)(field - bytes) + sizeof FIELD - 1, end);
    if (at + 9 <= end && bytes[at] == WIRE_INT64)
    {
        *write_position = mdg_get64(bytes + at + 1);
        return true;
    }
    if (at + 25 <= end && bytes[at] == WIRE_I64_ARRAY && mdg_get64(bytes + at + 9) >= 1)
    {
        *write_position = mdg_get64(bytes + at + 17);
        return true;
    }
    return false;
}

static void unmap(mdgate_journal *journal)
{
    if (journal->mapped)
    {
        munmap((void *)journal->cycle.base, journal->cycle.size);
        journal->mapped = false;
    }
}

/* Maps cycle file index into cycle and reads its header; an empty or newly created file is an empty cycle. */
static int map_cycle(mdgate_journal *journal, const size_t index, struct cycle *cycle)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/" TICKS "/%s", journal->directory, journal->names[index]);
    memset(cycle, 0, sizeof *cycle);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        return fail(journal, MDGATE_JOURNAL_EIO, "cannot open %s: %s", path, strerror(errno));
    }
    struct stat status;
    if (fstat(fd, &status) != 0)
    {
        close(fd);
        return fail(journal, MDGATE_JOURNAL_EIO, "cannot stat %s: %s", path, strerror(errno));
    }
    if (status.st_size < (off_t)HEADER_BYTES)
    {
        close(fd);
        return MDGATE_JOURNAL_OK; /* created, nothing written yet */
    }
    void *base = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED)
    {
        return fail(journal, MDGATE_JOURNAL_EIO, "cannot map %s: %s", path, strerror(errno));
    }
    cycle->base = base;
    cycle->size = (size_t)status.st_size;
    const uint32_t header = load_header(cycle->base);
    if (header == 0 || (header & HEADER_NOT_COMPLETE) != 0)
    {
        cycle->position = cycle->size; /* its header is still being written: nothing to read yet */
        return MDGATE_JOURNAL_OK;
    }
    const uint64_t length = header & HEADER_LENGTH_MASK;
    if ((header & HEADER_METADATA) == 0 || HEADER_BYTES + length > cycle->size ||
        !header_write_position(cycle->base + HEADER_BYTES, (size_t)length, &cycle->write_position))
    {
        munmap(base, cycle->size);
        memset(cycle, 0, sizeof *cycle);
        return fail(journal, MDGATE_JOURNAL_EFORMAT, "%s does not start with a Chronicle Queue header this reader "
            "recognises (header word 0x%08x)", path, header);
    }
    cycle->position = align4(HEADER_BYTES + length);
    return MDGATE_JOURNAL_OK;
}

enum step
{
    STEP_TICK,
    STEP_CYCLE_END,
    STEP_IN_PROGRESS
};

static int truncated(mdgate_journal *journal, const struct cycle *cycle)
{
    char what[256];
    snprintf(what, sizeof what, "it is %zu bytes long but its header says records were written up to byte %" PRIu64
        " (the file was truncated)", cycle->size, cycle->write_position);
    return damaged(journal, MDGATE_JOURNAL_ETRUNCATED, what);
}

/*
 * Moves through the records of the current cycle to the next tick. Returns STEP_TICK with *tick set, STEP_CYCLE_END
 * at the end of the cycle's records, STEP_IN_PROGRESS at a record still being written, or a negative result.
 */
static int next_record(mdgate_journal *journal, struct cycle *cycle, const uint8_t **tick)
{
    char what[256];
    for (;;)
    {
        const uint64_t position = cycle->position;
        if (position + HEADER_BYTES > cycle->size)
        {
            return position <= cycle->write_position ? truncated(journal, cycle) : STEP_CYCLE_END;
        }
        const uint32_t header = load_header(cycle->base + position);
        if (header == 0)
        {
            if (position <= cycle->write_position)
            {
                snprintf(what, sizeof what, "it holds no record at byte %" PRIu64 " although its header says "
                    "records were written up to byte %" PRIu64, position, cycle->write_position);
                return damaged(journal, MDGATE_JOURNAL_ETRUNCATED, what);
            }
            return STEP_CYCLE_END;
        }
        if (header == HEADER_END_OF_FILE)
        {
            return STEP_CYCLE_END;
        }
        if ((header & HEADER_NOT_COMPLETE) != 0)
        {
            return STEP_IN_PROGRESS;
        }
        const uint64_t length = header & HEADER_LENGTH_MASK;
        if (position + HEADER_BYTES + length > cycle->size)
        {
            if (cycle->size < cycle->write_position)
            {
                return truncated(journal, cycle);
            }
            snprintf(what, sizeof what, "the record at byte %" PRIu64 " is %" PRIu64 " bytes long and runs past "
                "the end of the file (%zu bytes)", position, length, cycle->size);
            return damaged(journal, MDGATE_JOURNAL_ERECORD, what);
        }
        cycle->position = align4(position + HEADER_BYTES + length);
        if ((header & HEADER_METADATA) != 0)
        {
            continue; /* Chronicle's index records and the like */
        }
        if (length != MDGATE_JOURNAL_TICK_LENGTH)
        {
            cycle->position = position;
            snprintf(what, sizeof what, "the record at byte %" PRIu64 " is %" PRIu64 " bytes long, not a 64-byte "
                "tick", position, length);
            return damaged(journal, MDGATE_JOURNAL_ERECORD, what);
        }
        *tick = cycle->base + position + HEADER_BYTES;
        return STEP_TICK;
    }
}

static int open_current(mdgate_journal *journal)
{
    unmap(journal);
    const int result = map_cycle(journal, journal->index, &journal->cycle);
    journal->mapped = result == MDGATE_JOURNAL_OK && journal->cycle.base != NULL;
    return result;
}

int mdgate_journal_open(const char *directory, mdgate_journal **out)
{
    if (out == NULL)
    {
        return MDGATE_JOURNAL_EINVAL;
    }
    *out = NULL;
    mdgate_journal *journal = calloc(1, sizeof *journal);
    if (journal == NULL)
    {
        return MDGATE_JOURNAL_ENOMEM;
    }
    *out = journal;
    journal->to = UINT64_MAX;
    if (directory == NULL)
    {
        return fail(journal, MDGATE_JOURNAL_EINVAL, "no journal directory given");
    }
    journal->directory = strdup(directory);
    if (journal->directory == NULL)
    {
        return fail(journal, MDGATE_JOURNAL_ENOMEM, "out of memory");
    }
    int result = read_manifest(journal);
    if (result == MDGATE_JOURNAL_OK)
    {
        result = list_cycles(journal);
    }
    if (result == MDGATE_JOURNAL_OK && journal->count > 0)
    {
        result = open_current(journal);
    }
    return result;
}

static int check_sequence(mdgate_journal *journal, const uint8_t *tick)
{
    const uint64_t sequence = mdg_get64(tick);
    if (journal->have_last && sequence != journal->last_sequence + 1)
    {
        char what[256];
        if (sequence > journal->last_sequence + 1)
        {
            snprintf(what, sizeof what, "ticks %" PRIu64 "..%" PRIu64 " are missing: the tick at byte %" PRIu64
                " has sequence %" PRIu64 " after %" PRIu64, journal->last_sequence + 1, sequence - 1,
                (uint64_t)(tick - journal->cycle.base) - HEADER_BYTES, sequence, journal->last_sequence);
        }
        else
        {
            snprintf(what, sizeof what, "the tick at byte %" PRIu64 " has sequence %" PRIu64 ", not the %" PRIu64
                " that follows the one before it", (uint64_t)(tick - journal->cycle.base) - HEADER_BYTES, sequence,
                journal->last_sequence + 1);
        }
        return damaged(journal, MDGATE_JOURNAL_ESEQUENCE, what);
    }
    journal->have_last = true;
    journal->last_sequence = sequence;
    return MDGATE_JOURNAL_OK;
}

/* The next tick of the journal, whatever the range. */
static int next_tick(mdgate_journal *journal, const uint8_t **tick)
{
    while (journal->index < journal->count)
    {
        const int step = journal->mapped ? next_record(journal, &journal->cycle, tick) : STEP_CYCLE_END;
        if (step < 0)
        {
            return step;
        }
        if (step == STEP_TICK)
        {
            return check_sequence(journal, *tick);
        }
        if (step == STEP_IN_PROGRESS && journal->index + 1 == journal->count)
        {
            return MDGATE_JOURNAL_END; /* the writer is appending this record now */
        }
        if (step == STEP_IN_PROGRESS)
        {
            char what[160];
            snprintf(what, sizeof what, "the record at byte %" PRIu64 " was never completed, and later cycle files "
                "follow it", journal->cycle.position);
            return damaged(journal, MDGATE_JOURNAL_EINCOMPLETE, what);
        }
        if (journal->index + 1 == journal->count)
        {
            return MDGATE_JOURNAL_END;
        }
        journal->index++;
        const int result = open_current(journal);
        if (result != MDGATE_JOURNAL_OK)
        {
            return result;
        }
    }
    return MDGATE_JOURNAL_END;
}

int mdgate_journal_next(mdgate_journal *journal, const uint8_t **tick)
{
    if (journal == NULL || tick == NULL)
    {
        return MDGATE_JOURNAL_EINVAL;
    }
    if (journal->error != 0)
    {
        return journal->error;
    }
    for (;;)
    {
        const uint8_t *found = NULL;
        const int result = next_tick(journal, &found);
        if (result != MDGATE_JOURNAL_OK)
        {
            return result;
        }
        const uint64_t sequence = mdg_get64(found);
        if (sequence > journal->to)
        {
            journal->index = journal->count;
            unmap(journal);
            return MDGATE_JOURNAL_END;
        }
        if (sequence >= journal->from)
        {
            *tick = found;
            return MDGATE_JOURNAL_OK;
        }
    }
}

/* The first tick of cycle index, read through a mapping of its own; false when it has none. */
static int first_sequence(mdgate_journal *journal, const size_t index, bool *has, uint64_t *sequence)
{
    struct cycle cycle;
    *has = false;
    int result = map_cycle(journal, index, &cycle);
    if (result != MDGATE_JOURNAL_OK || cycle.base == NULL)
    {
        return result;
    }
    const size_t current = journal->index;
    journal->index = index; /* for the file name in a damage message */
    const uint8_t *tick = NULL;
    const int step = next_record(journal, &cycle, &tick);
    journal->index = current;
    if (step == STEP_TICK)
    {
        *has = true;
        *sequence = mdg_get64(tick);
    }
    result = step < 0 ? step : MDGATE_JOURNAL_OK;
    munmap((void *)cycle.base, cycle.size);
    return result;
}

int mdgate_journal_range(mdgate_journal *journal, const uint64_t from, const uint64_t to)
{
    if (journal == NULL)
    {
        return MDGATE_JOURNAL_EINVAL;
    }
    if (journal->error != 0)
    {
        return journal->error;
    }
    journal->from = from;
    journal->to = to;
    size_t skip = journal->index;
    while (skip + 1 < journal->count)
    {
        bool has;
        uint64_t first;
        const int result = first_sequence(journal, skip + 1, &has, &first);
        if (result != MDGATE_JOURNAL_OK)
        {
            return result;
        }
        if (!has || first > from)
        {
            break;
        }
        skip++;
    }
    if (skip != journal->index)
    {
        journal->index = skip;
        journal->have_last = false;
        return open_current(journal);
    }
    return MDGATE_JOURNAL_OK;
}

const char *mdgate_journal_message(const mdgate_journal *journal)
{
    return journal == NULL ? "out of memory" : journal->message;
}

const char *mdgate_journal_roll_cycle(const mdgate_journal *journal)
{
    return journal == NULL ? "" : journal->roll_cycle;
}

size_t mdgate_journal_cycle_count(const mdgate_journal *journal)
{
    return journal == NULL ? 0 : journal->count;
}

const char *mdgate_journal_cycle_name(const mdgate_journal *journal, const size_t index)
{
    return journal == NULL || index >= journal->count ? NULL : journal->names[index];
}

size_t mdgate_journal_cycle_index(const mdgate_journal *journal)
{
    return journal == NULL ? 0 : journal->index;
}

const char *mdgate_journal_result_name(const int result)
{
    switch (result)
    {
        case MDGATE_JOURNAL_OK: return "OK";
        case MDGATE_JOURNAL_END: return "END";
        case MDGATE_JOURNAL_EIO: return "EIO";
        case MDGATE_JOURNAL_ENOTJOURNAL: return "ENOTJOURNAL";
        case MDGATE_JOURNAL_EFORMAT: return "EFORMAT";
        case MDGATE_JOURNAL_ETRUNCATED: return "ETRUNCATED";
        case MDGATE_JOURNAL_ERECORD: return "ERECORD";
        case MDGATE_JOURNAL_ESEQUENCE: return "ESEQUENCE";
        case MDGATE_JOURNAL_EINCOMPLETE: return "EINCOMPLETE";
        case MDGATE_JOURNAL_ENOMEM: return "ENOMEM";
        case MDGATE_JOURNAL_EINVAL: return "EINVAL";
        default: return "UNKNOWN";
    }
}

void mdgate_journal_close(mdgate_journal *journal)
{
    if (journal == NULL)
    {
        return;
    }
    unmap(journal);
    for (size_t i = 0; i < journal->count; i++)
    {
        free(journal->names[i]);
    }
    free(journal->names);
    free(journal->directory);
    free(journal);
}
