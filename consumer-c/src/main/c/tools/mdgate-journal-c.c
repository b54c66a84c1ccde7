/*
 * mdgate-journal-c: reads the ticks of an mdgate journal without a JVM (libmdgate-consumer's journal reader) and
 * prints them as JSON lines, the same objects as `mdgate replay --to json`, symbols included, or a count, a summary,
 * or the raw 64-byte ticks.
 *
 *   mdgate-journal-c DIR [--from N] [--to N] [--no-symbols] [--count | --summary | --raw FILE]
 *
 * The symbols come from the INSTRUMENT ticks of each tick's session, emptied at each SESSION tick, as replay's do.
 * This reader has no index to find a session's start by, so for a range that does not start at the journal's first
 * tick it reads every tick before the range (without printing it) to learn them; --no-symbols prints "symbol": null
 * and reads only from the cycle file that holds --from.
 *
 * Exit codes: 0 done; 1 the journal is damaged or cannot be read (the ticks before the damage were printed, the
 * message is on stderr); 2 bad arguments, or a directory that is not a journal.
 */
#include "mdgate/journal.h"
#include "mdgate/tick.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum output
{
    OUTPUT_JSON,
    OUTPUT_COUNT,
    OUTPUT_SUMMARY,
    OUTPUT_RAW
};

struct options
{
    const char *directory;
    uint64_t from;
    uint64_t to;
    enum output output;
    const char *raw;
    bool no_symbols;
};

/* Offsets of the tick fields the symbol directory reads (docs/TICK.md). */
#define TICK_ORDER_REFERENCE_OFFSET 32
#define TICK_INSTRUMENT_OFFSET 56
#define TICK_EVENT_OFFSET 62
#define EVENT_INSTRUMENT 13
#define EVENT_SESSION 25

/* The symbol of every stock locate the current session named (packed alpha8, 0 for none), as replay keeps it. */
static uint64_t directory[1 << 16];
static size_t named;

static uint64_t get_le(const uint8_t *bytes, const int length)
{
    uint64_t value = 0;
    for (int i = length - 1; i >= 0; i--)
    {
        value = value << 8 | bytes[i];
    }
    return value;
}

/* Feeds the directory one tick: an INSTRUMENT tick names its locate, a SESSION tick empties the directory. */
static void learn(const uint8_t *tick)
{
    if (tick[TICK_EVENT_OFFSET] == EVENT_SESSION && named > 0)
    {
        memset(directory, 0, sizeof directory);
        named = 0;
    }
    else if (tick[TICK_EVENT_OFFSET] == EVENT_INSTRUMENT)
    {
        const uint64_t symbol = get_le(tick + TICK_ORDER_REFERENCE_OFFSET, 8);
        const uint16_t instrument = (uint16_t)get_le(tick + TICK_INSTRUMENT_OFFSET, 2);
        named += directory[instrument] == 0 && symbol != 0 ? 1 : 0;
        directory[instrument] = symbol != 0 ? symbol : directory[instrument];
    }
}

/*
 * Writes the tick's symbol as the inside of a JSON string, as TickJson does: trailing spaces removed, '"' and '\'
 * escaped, other characters outside 0x20..0x7E as \u00XX. @return text, or NULL when the locate has no symbol.
 */
static const char *symbol_text(const uint8_t *tick, char text[8 * 6 + 1])
{
    const uint64_t packed = directory[(uint16_t)get_le(tick + TICK_INSTRUMENT_OFFSET, 2)];
    if (packed == 0)
    {
        return NULL;
    }
    int length = 8;
    while (length > 0 && (uint8_t)(packed >> ((8 - length) * 8)) == ' ')
    {
        length--;
    }
    char *at = text;
    for (int i = 0; i < length; i++)
    {
        const uint8_t c = (uint8_t)(packed >> ((7 - i) * 8));
        if (c == '"' || c == '\\')
        {
            *at++ = '\\';
            *at++ = (char)c;
        }
        else if (c < 0x20 || c > 0x7E)
        {
            at += sprintf(at, "\\u%04x", c);
        }
        else
        {
            *at++ = (char)c;
        }
    }
    *at = '\0';
    return text;
}

static void usage(FILE *out)
{
    fputs("usage: mdgate-journal-c DIR [--from N] [--to N] [--no-symbols] [--count | --summary | --raw FILE]\n"
          "  DIR          a journal directory (the one holding mdgate-journal.properties)\n"
          "  --from N     first gateway sequence to print (default: the journal's first)\n"
          "  --to N       last gateway sequence to print (default: the journal's last)\n"
          "  --no-symbols print \"symbol\":null, and do not read the ticks before --from to learn the symbols\n"
          "  --count      print only the number of ticks\n"
          "  --summary    print one JSON object: roll cycle, cycle files, ticks, first and last sequence\n"
          "  --raw FILE   write the ticks' 64 bytes each, back to back, to FILE (- for stdout)\n"
          "without an output option, one JSON object per tick and line\n", out);
}

static bool parse_sequence(const char *text, uint64_t *value)
{
    if (text == NULL || *text < '0' || *text > '9')
    {
        return false;
    }
    char *end;
    errno = 0;
    const unsigned long long parsed = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
    {
        return false;
    }
    *value = parsed;
    return true;
}

static bool set_output(struct options *options, const enum output output)
{
    if (options->output != OUTPUT_JSON)
    {
        fputs("mdgate-journal-c: --count, --summary and --raw exclude each other\n", stderr);
        return false;
    }
    options->output = output;
    return true;
}

static bool parse(const int argc, char **argv, struct options *options)
{
    options->to = UINT64_MAX;
    for (int i = 1; i < argc; i++)
    {
        const char *arg = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--from") == 0 || strcmp(arg, "--to") == 0)
        {
            if (!parse_sequence(next, strcmp(arg, "--from") == 0 ? &options->from : &options->to))
            {
                fprintf(stderr, "mdgate-journal-c: %s needs a sequence number, not '%s'\n", arg,
                    next == NULL ? "" : next);
                return false;
            }
            i++;
        }
        else if (strcmp(arg, "--count") == 0 || strcmp(arg, "--summary") == 0)
        {
            if (!set_output(options, strcmp(arg, "--count") == 0 ? OUTPUT_COUNT : OUTPUT_SUMMARY))
            {
                return false;
            }
        }
        else if (strcmp(arg, "--no-symbols") == 0)
        {
            options->no_symbols = true;
        }
        else if (strcmp(arg, "--raw") == 0)
        {
            if (next == NULL || !set_output(options, OUTPUT_RAW))
            {
                if (next == NULL)
                {
                    fputs("mdgate-journal-c: --raw needs a file (- for stdout)\n", stderr);
                }
                return false;
            }
            options->raw = next;
            i++;
        }
        else if (arg[0] == '-' && arg[1] != '\0')
        {
            fprintf(stderr, "mdgate-journal-c: unknown option '%s'\n", arg);
            return false;
        }
        else if (options->directory != NULL)
        {
            fprintf(stderr, "mdgate-journal-c: one journal directory only ('%s' and '%s')\n", options->directory, arg);
            return false;
        }
        else
        {
            options->directory = arg;
        }
    }
    if (options->directory == NULL)
    {
        fputs("mdgate-journal-c: no journal directory given\n", stderr);
        return false;
    }
    if (options->from > options->to)
    {
        fprintf(stderr, "mdgate-journal-c: --from %" PRIu64 " is after --to %" PRIu64 "\n", options->from,
            options->to);
        return false;
    }
    return true;
}

/* The tick as `mdgate replay --to json` writes it (TickJson), one line; symbols from the directory when given. */
static void print_json(FILE *out, const uint8_t *tick, const bool symbols)
{
    char line[1024];
    char text[8 * 6 + 1];
    mdgate_tick_json(line, sizeof line, tick, symbols ? symbol_text(tick, text) : NULL);
    fputs(line, out);
    fputc('\n', out);
}

static void print_summary(FILE *out, const mdgate_journal *journal, const uint64_t ticks, const uint64_t first,
    const uint64_t last)
{
    fprintf(out, "{\"rollCycle\":\"%s\",\"cycleFiles\":%zu,\"ticks\":%" PRIu64, mdgate_journal_roll_cycle(journal),
        mdgate_journal_cycle_count(journal), ticks);
    if (ticks > 0)
    {
        fprintf(out, ",\"firstSequence\":%" PRIu64 ",\"lastSequence\":%" PRIu64, first, last);
    }
    else
    {
        fputs(",\"firstSequence\":null,\"lastSequence\":null", out);
    }
    fputs("}\n", out);
}

static FILE *open_output(const struct options *options)
{
    if (options->output != OUTPUT_RAW || strcmp(options->raw, "-") == 0)
    {
        return stdout;
    }
    FILE *out = fopen(options->raw, "wb");
    if (out == NULL)
    {
        fprintf(stderr, "mdgate-journal-c: cannot write %s: %s\n", options->raw, strerror(errno));
    }
    return out;
}

int main(const int argc, char **argv)
{
    struct options options = { 0 };
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
    {
        usage(stdout);
        return 0;
    }
    if (!parse(argc, argv, &options))
    {
        usage(stderr);
        return 2;
    }
    const bool symbols = options.output == OUTPUT_JSON && !options.no_symbols;
    mdgate_journal *journal = NULL;
    int result = mdgate_journal_open(options.directory, &journal);
    if (result == MDGATE_JOURNAL_OK)
    {
        /* With symbols, from the journal's start: the ticks before --from name the instruments of its session. */
        result = mdgate_journal_range(journal, symbols ? 0 : options.from, options.to);
    }
    if (result != MDGATE_JOURNAL_OK)
    {
        fprintf(stderr, "mdgate-journal-c: %s\n", mdgate_journal_message(journal));
        mdgate_journal_close(journal);
        return result == MDGATE_JOURNAL_ENOTJOURNAL || result == MDGATE_JOURNAL_EINVAL ? 2 : 1;
    }
    FILE *out = open_output(&options);
    if (out == NULL)
    {
        mdgate_journal_close(journal);
        return 1;
    }
    static char buffer[1 << 20];
    setvbuf(out, buffer, _IOFBF, sizeof buffer);
    uint64_t ticks = 0;
    uint64_t first = 0;
    uint64_t last = 0;
    const uint8_t *tick;
    while ((result = mdgate_journal_next(journal, &tick)) == MDGATE_JOURNAL_OK)
    {
        if (symbols)
        {
            learn(tick);
            if (mdgate_journal_tick_sequence(tick) < options.from)
            {
                continue;
            }
        }
        last = mdgate_journal_tick_sequence(tick);
        first = ticks++ == 0 ? last : first;
        if (options.output == OUTPUT_JSON)
        {
            print_json(out, tick, symbols);
        }
        else if (options.output == OUTPUT_RAW)
        {
            fwrite(tick, MDGATE_JOURNAL_TICK_LENGTH, 1, out);
        }
    }
    if (options.output == OUTPUT_COUNT)
    {
        fprintf(out, "%" PRIu64 "\n", ticks);
    }
    else if (options.output == OUTPUT_SUMMARY)
    {
        print_summary(out, journal, ticks, first, last);
    }
    const bool written = fflush(out) == 0 && !ferror(out);
    if (out != stdout)
    {
        fclose(out);
    }
    if (result != MDGATE_JOURNAL_END)
    {
        fprintf(stderr, "mdgate-journal-c: %s (%s, after %" PRIu64 " ticks)\n", mdgate_journal_message(journal),
            mdgate_journal_result_name(result), ticks);
    }
    else if (!written)
    {
        fprintf(stderr, "mdgate-journal-c: writing the output failed: %s\n", strerror(errno));
    }
    mdgate_journal_close(journal);
    return result == MDGATE_JOURNAL_END && written ? 0 : 1;
}
