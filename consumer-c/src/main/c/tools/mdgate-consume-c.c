/*
 * mdgate-consume-c: the C counterpart of `mdgate consume`. Connects to a publisher as a named consumer, subscribes,
 * and prints every tick as a JSON line (the keys of TickJson), or with --stats one line per interval with the
 * rate, gaps, recoveries, laps and latency percentiles. Ends after --count ticks, --until a sequence, --duration,
 * or SIGINT/SIGTERM, then prints a summary on standard error.
 *
 * Exit codes: 0 done, 1 the publisher refused us or could not be reached or spoke nonsense, 2 bad options.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdgate/consumer.h"
#include "mdgate/tick.h"
#include "mdgate/protocol.h"

#define PROGRAM "mdgate-consume-c"
#define MAX_SUBSCRIPTIONS 1024

typedef enum format
{
    FORMAT_JSON,
    FORMAT_SEQUENCE,
    FORMAT_HEX,
    FORMAT_NONE
} format;

typedef struct options
{
    mdgate_consumer_config config;
    int all;
    int instruments[MAX_SUBSCRIPTIONS];
    int instrument_count;
    char symbols[MAX_SUBSCRIPTIONS][9];
    int symbol_count;
    mdgate_view view;
    int stats;
    long long stats_interval_ms;
    long long count;
    long long until;
    long long duration_s;
    int idle; /* 0 backoff, 1 yield, 2 spin */
    format output;
    const char *raw_path;
} options;

typedef struct run
{
    int64_t first_delivery_ns;
    int64_t last_delivery_ns;
    mdgate_consumer *consumer;
    const options *options;
    FILE *raw;
    long long printed;
    char line[640];
} run;

static volatile sig_atomic_t stop_requested;

static void on_signal(int signal)
{
    (void)signal;
    stop_requested = 1;
}

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: " PROGRAM " --consumer NAME --token TOKEN (--all | --instruments ID[,ID...] | --symbols SYM[,SYM...])\n"
        "                        [--dir DIR] [--instance NAME] [--view all|top|depth|orders] [--path ring|stream]\n"
        "                        [--ring-slots N] [--depth-levels L] [--resume-from SEQ] [--stats]\n"
        "                        [--stats-interval-ms MS] [--count N] [--until SEQ] [--duration SECONDS]\n"
        "                        [--idle backoff|yield|spin] [--snapshot] [--no-directory]\n"
        "                        [--connect-timeout-ms MS] [--format json|seq|hex|none] [--raw FILE] [--quiet-log]\n"
        "Consume ticks from an mdgate publisher over shm: print them as JSON lines, or statistics with --stats.\n"
        "  --dir DIR               shm directory of the publisher (default /dev/shm)\n"
        "  --instance NAME         publisher instance (default mdgate)\n"
        "  --consumer NAME         this consumer's name, as configured at the publisher\n"
        "  --token TOKEN           this consumer's token\n"
        "  --all                   every instrument (through the shared tick log when the publisher has one)\n"
        "  --instruments IDS       instruments by id (1..65535)\n"
        "  --symbols SYMS          instruments by symbol (1 to 8 characters)\n"
        "  --view VIEW             all (default), top, depth or orders\n"
        "  --path PATH             ring (default) or stream\n"
        "  --ring-slots N          slots of the ring, a power of two from 16 (default 8192)\n"
        "  --depth-levels L        levels per side of the depth table, 0 to 64 (default 10; 0: none)\n"
        "  --resume-from SEQ       first sequence wanted, recovered if already sent (default 0: live)\n"
        "  --snapshot              join late: the state of the subscribed instruments first, then live ticks\n"
        "  --no-directory          starting live, do not ask for the instrument directory first (asked by default\n"
        "                          without --snapshot and --resume-from): symbols named before joining stay null\n"
        "  --stats                 a line of statistics per interval instead of the ticks\n"
        "  --count N               stop after N ticks; --until SEQ after delivering sequence SEQ or later\n"
        "  --duration SECONDS      stop after this long\n"
        "  --format FORMAT         json (default), seq (the sequence only), hex (the 64 bytes) or none\n"
        "  --raw FILE              also write every delivered tick's 64 bytes to FILE\n");
}

static int bad_option(const char *format_text, const char *value)
{
    fprintf(stderr, PROGRAM ": ");
    fprintf(stderr, format_text, value);
    fprintf(stderr, "\n");
    usage(stderr);
    return 2;
}

static int parse_number(const char *text, long long minimum, long long maximum, long long *out)
{
    char *end = NULL;
    errno = 0;
    const long long value = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < minimum || value > maximum)
    {
        return -1;
    }
    *out = value;
    return 0;
}

static int parse_list(char *text, options *parsed, int symbols)
{
    for (char *item = strtok(text, ","); NULL != item; item = strtok(NULL, ","))
    {
        if (symbols)
        {
            if (parsed->symbol_count == MAX_SUBSCRIPTIONS || mdgate_pack_symbol(item) == 0)
            {
                return bad_option("symbols are 1 to 8 printable ASCII characters (at most 1024 of them), was '%s'",
                    item);
            }
            snprintf(parsed->symbols[parsed->symbol_count++], 9, "%s", item);
        }
        else
        {
            long long id;
            if (parsed->instrument_count == MAX_SUBSCRIPTIONS || parse_number(item, 1, 65535, &id) != 0)
            {
                return bad_option("instrument ids are 1..65535 (at most 1024 of them), was '%s'", item);
            }
            parsed->instruments[parsed->instrument_count++] = (int)id;
        }
    }
    return 0;
}

static void quiet_log(void *context, const char *message)
{
    (void)context;
    (void)message;
}

static void stderr_log(void *context, const char *message)
{
    (void)context;
    fprintf(stderr, PROGRAM ": %s\n", message);
}

static int parse(int argc, char **argv, options *parsed)
{
    static const struct option long_options[] = {
        { "dir", required_argument, NULL, 'd' }, { "instance", required_argument, NULL, 'i' },
        { "consumer", required_argument, NULL, 'n' }, { "token", required_argument, NULL, 't' },
        { "all", no_argument, NULL, 'a' }, { "instruments", required_argument, NULL, 'I' },
        { "symbols", required_argument, NULL, 'S' }, { "view", required_argument, NULL, 'v' },
        { "path", required_argument, NULL, 'p' }, { "ring-slots", required_argument, NULL, 'r' },
        { "resume-from", required_argument, NULL, 'R' }, { "stats", no_argument, NULL, 's' },
        { "stats-interval-ms", required_argument, NULL, 'N' }, { "count", required_argument, NULL, 'c' },
        { "until", required_argument, NULL, 'u' }, { "duration", required_argument, NULL, 'D' },
        { "idle", required_argument, NULL, 'w' }, { "connect-timeout-ms", required_argument, NULL, 'T' },
        { "format", required_argument, NULL, 'f' }, { "raw", required_argument, NULL, 'o' },
        { "quiet-log", no_argument, NULL, 'q' }, { "depth-levels", required_argument, NULL, 'L' },
        { "snapshot", no_argument, NULL, 'P' }, { "no-directory", no_argument, NULL, 'X' },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
    };
    mdgate_consumer_config_init(&parsed->config);
    parsed->config.log = stderr_log;
    parsed->stats_interval_ms = 1000;
    int option;
    long long number;
    const char *path = "ring";
    long long ring_slots = 8192;
    int no_directory = 0;
    while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1)
    {
        int failed = 0;
        switch (option)
        {
            case 'd': parsed->config.directory = optarg; break;
            case 'i': parsed->config.instance = optarg; break;
            case 'n': parsed->config.name = optarg; break;
            case 't': parsed->config.token = optarg; break;
            case 'a': parsed->all = 1; break;
            case 'I': failed = parse_list(optarg, parsed, 0); break;
            case 'S': failed = parse_list(optarg, parsed, 1); break;
            case 'v':
                if (strcmp(optarg, "all") == 0) parsed->view = MDGATE_VIEW_ALL_TICKS;
                else if (strcmp(optarg, "top") == 0) parsed->view = MDGATE_VIEW_TOP_ONLY;
                else if (strcmp(optarg, "depth") == 0) parsed->view = MDGATE_VIEW_DEPTH_ONLY;
                else if (strcmp(optarg, "orders") == 0) parsed->view = MDGATE_VIEW_ORDERS_ONLY;
                else return bad_option("--view must be all, top, depth or orders, was '%s'", optarg);
                break;
            case 'p':
                if (strcmp(optarg, "ring") != 0 && strcmp(optarg, "stream") != 0)
                {
                    return bad_option("--path must be ring or stream, was '%s'", optarg);
                }
                path = optarg;
                break;
            case 'r':
                if (parse_number(optarg, 16, 1 << 22, &ring_slots) != 0 || (ring_slots & (ring_slots - 1)) != 0)
                {
                    return bad_option("--ring-slots must be a power of two from 16 to 4194304, was '%s'", optarg);
                }
                break;
            case 'R':
                if (parse_number(optarg, 0, INT64_MAX, &number) != 0)
                {
                    return bad_option("--resume-from must be a sequence, 0 or more, was '%s'", optarg);
                }
                parsed->config.resume_from_sequence = number;
                break;
            case 's': parsed->stats = 1; break;
            case 'N':
                if (parse_number(optarg, 1, 3600000, &parsed->stats_interval_ms) != 0)
                {
                    return bad_option("--stats-interval-ms must be 1 to 3600000, was '%s'", optarg);
                }
                break;
            case 'c':
                if (parse_number(optarg, 0, INT64_MAX, &parsed->count) != 0)
                {
                    return bad_option("--count must be 0 or more, was '%s'", optarg);
                }
                break;
            case 'u':
                if (parse_number(optarg, 0, INT64_MAX, &parsed->until) != 0)
                {
                    return bad_option("--until must be a sequence, 0 or more, was '%s'", optarg);
                }
                break;
            case 'D':
                if (parse_number(optarg, 0, 86400 * 7, &parsed->duration_s) != 0)
                {
                    return bad_option("--duration must be 0 to 604800 seconds, was '%s'", optarg);
                }
                break;
            case 'w':
                if (strcmp(optarg, "backoff") == 0) parsed->idle = 0;
                else if (strcmp(optarg, "yield") == 0) parsed->idle = 1;
                else if (strcmp(optarg, "spin") == 0) parsed->idle = 2;
                else return bad_option("--idle must be backoff, yield or spin, was '%s'", optarg);
                break;
            case 'T':
                if (parse_number(optarg, 1, 3600000, &number) != 0)
                {
                    return bad_option("--connect-timeout-ms must be 1 to 3600000, was '%s'", optarg);
                }
                parsed->config.connect_timeout_ns = number * 1000000LL;
                break;
            case 'f':
                if (strcmp(optarg, "json") == 0) parsed->output = FORMAT_JSON;
                else if (strcmp(optarg, "seq") == 0) parsed->output = FORMAT_SEQUENCE;
                else if (strcmp(optarg, "hex") == 0) parsed->output = FORMAT_HEX;
                else if (strcmp(optarg, "none") == 0) parsed->output = FORMAT_NONE;
                else return bad_option("--format must be json, seq, hex or none, was '%s'", optarg);
                break;
            case 'o': parsed->raw_path = optarg; break;
            case 'q': parsed->config.log = quiet_log; break;
            case 'P': parsed->config.snapshot_on_connect = 1; break;
            case 'X': no_directory = 1; break;
            case 'L':
                if (parse_number(optarg, 0, 64, &number) != 0)
                {
                    return bad_option("--depth-levels must be 0 (no depth table) to 64, was '%s'", optarg);
                }
                parsed->config.depth_levels = (int32_t)number;
                break;
            case 'h': usage(stdout); exit(0);
            default: usage(stderr); return 2;
        }
        if (failed)
        {
            return failed;
        }
    }
    if (optind < argc)
    {
        return bad_option("unexpected argument '%s'", argv[optind]);
    }
    if (NULL == parsed->config.name || NULL == parsed->config.token)
    {
        return bad_option("%s", "--consumer NAME and --token TOKEN are required: the name and token configured at "
            "the publisher");
    }
    if (parsed->all == (parsed->instrument_count + parsed->symbol_count > 0))
    {
        return bad_option("%s", "choose what to consume: --all, or --symbols and/or --instruments");
    }
    if (parsed->config.snapshot_on_connect && parsed->config.resume_from_sequence > 0)
    {
        return bad_option("%s", "--snapshot and --resume-from exclude each other: the snapshot is the state at its "
            "own sequence; choose one");
    }
    /* A live start misses the INSTRUMENT ticks sent before it; a snapshot or a resume point brings them. */
    parsed->config.directory_on_connect = !no_directory && !parsed->config.snapshot_on_connect &&
        parsed->config.resume_from_sequence == 0;
    parsed->config.path = strcmp(path, "ring") == 0 ? MDGATE_PATH_RING : MDGATE_PATH_STREAM;
    parsed->config.ring_slots = parsed->config.path == MDGATE_PATH_RING ? (int32_t)ring_slots : 0;
    return 0;
}

/* ---- printing ---- */

static uint64_t get64(const uint8_t *at)
{
    uint64_t value;
    memcpy(&value, at, sizeof value);
    return value;
}

static uint16_t get16(const uint8_t *at)
{
    uint16_t value;
    memcpy(&value, at, sizeof value);
    return value;
}

static void print_json(run *state, const uint8_t *tick)
{
    const uint64_t symbol = mdgate_consumer_symbol_of(state->consumer,
        get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET));
    char text[9];
    if (symbol != 0)
    {
        mdgate_unpack_symbol(symbol, text);
    }
    mdgate_tick_json(state->line, sizeof state->line, tick, symbol != 0 ? text : NULL);
    puts(state->line);
}

static void on_tick(void *context, const uint8_t *tick)
{
    run *state = context;
    const options *parsed = state->options;
    if (NULL != state->raw)
    {
        fwrite(tick, 1, MDGATE_TICK_LENGTH, state->raw);
    }
    if (parsed->stats || parsed->output == FORMAT_NONE || (parsed->count > 0 && state->printed >= parsed->count))
    {
        return;
    }
    const int snapshot_tick = (get16(tick + MDGATE_TICK_FLAGS_OFFSET) & MDGATE_TICK_SNAPSHOT_FLAG) != 0;
    state->printed += snapshot_tick ? 0 : 1; /* --count counts live ticks */
    if (parsed->output == FORMAT_SEQUENCE)
    {
        printf("%" PRIu64 "\n", get64(tick));
    }
    else if (parsed->output == FORMAT_HEX)
    {
        char hex[2 * MDGATE_TICK_LENGTH + 1];
        for (int i = 0; i < MDGATE_TICK_LENGTH; i++)
        {
            snprintf(hex + 2 * i, 3, "%02x", tick[i]);
        }
        puts(hex);
    }
    else
    {
        print_json(state, tick);
    }
}

static int64_t monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void print_stats(mdgate_consumer *consumer, double seconds, int64_t *last_delivered)
{
    const mdgate_counters *counters = mdgate_consumer_counters(consumer);
    printf("rate %.0f ticks/s | delivered %" PRId64 " (last seq %" PRId64 ") | gaps %" PRId64 ", recoveries %" PRId64
        "/%" PRId64 ", unrecovered %" PRId64 ", laps %" PRId64 " | latency us p50 %.1f p99 %.1f p99.9 %.1f max %.1f "
        "(%" PRId64 " timed)\n",
        (double)(counters->delivered - *last_delivered) / seconds, counters->delivered,
        mdgate_consumer_last_delivered(consumer), counters->gaps, counters->recoveries_completed,
        counters->recoveries_requested, counters->unrecovered, counters->laps,
        (double)mdgate_consumer_latency_percentile(consumer, 50) / 1e3,
        (double)mdgate_consumer_latency_percentile(consumer, 99) / 1e3,
        (double)mdgate_consumer_latency_percentile(consumer, 99.9) / 1e3,
        (double)mdgate_consumer_latency_max(consumer) / 1e3, mdgate_consumer_latency_count(consumer));
    fflush(stdout);
    mdgate_consumer_latency_reset(consumer);
    *last_delivered = counters->delivered;
}

static void idle(int strategy, int work, int *idle_count)
{
    if (work > 0)
    {
        *idle_count = 0;
        return;
    }
    (*idle_count)++;
    if (strategy == 2 || (strategy == 0 && *idle_count < 100))
    {
        return;
    }
    if (strategy == 1 || *idle_count < 120)
    {
        sched_yield();
        return;
    }
    long pause_ns = 1000L << (*idle_count - 120 < 7 ? *idle_count - 120 : 7);
    const struct timespec pause = { 0, pause_ns > 100000 ? 100000 : pause_ns };
    nanosleep(&pause, NULL);
}

static int subscribe(mdgate_consumer *consumer, const options *parsed)
{
    int result = MDGATE_OK;
    if (parsed->all)
    {
        result = mdgate_consumer_subscribe_all(consumer, parsed->view);
    }
    for (int i = 0; i < parsed->instrument_count && result == MDGATE_OK; i++)
    {
        result = mdgate_consumer_subscribe_id(consumer, parsed->instruments[i], parsed->view);
    }
    for (int i = 0; i < parsed->symbol_count && result == MDGATE_OK; i++)
    {
        result = mdgate_consumer_subscribe_symbol(consumer, parsed->symbols[i], parsed->view);
    }
    return result;
}

static run state;

static int consume(const options *parsed, mdgate_consumer *consumer, FILE *raw)
{
    state.consumer = consumer;
    state.options = parsed;
    state.raw = raw;
    const int64_t start = monotonic_ns();
    const int64_t end = parsed->duration_s > 0 ? start + parsed->duration_s * 1000000000LL : INT64_MAX;
    const int64_t interval = parsed->stats_interval_ms * 1000000LL;
    int64_t next_stats = start + interval;
    int64_t last_stats = start;
    int64_t last_delivered = 0;
    int ready = 0;
    int64_t snapshot_reported = 0;
    int idle_count = 0;
    int result = 0;
    while (!stop_requested && monotonic_ns() < end)
    {
        const mdgate_counters *counters = mdgate_consumer_counters(consumer);
        if ((parsed->count > 0 && counters->delivered >= parsed->count) ||
            (parsed->until > 0 && mdgate_consumer_last_delivered(consumer) >= parsed->until))
        {
            break;
        }
        const int64_t delivered_before = counters->delivered;
        const int work = mdgate_consumer_poll(consumer, on_tick, &state, 256);
        if (work < 0)
        {
            result = work;
            break;
        }
        if (mdgate_consumer_snapshot_sequence(consumer) > snapshot_reported)
        {
            snapshot_reported = mdgate_consumer_snapshot_sequence(consumer);
            fprintf(stderr, PROGRAM ": snapshot at sequence %lld (%lld ticks so far)\n", (long long)snapshot_reported,
                (long long)counters->snapshot_ticks);
            fflush(stderr);
        }
        if (!ready && mdgate_consumer_is_connected(consumer) && mdgate_consumer_awaiting_answers(consumer) == 0)
        {
            ready = 1;
            fprintf(stderr, PROGRAM ": ready: consumer '%s' subscribed on instance '%s'\n", parsed->config.name,
                parsed->config.instance);
            fflush(stderr);
        }
        if (work > 0 && mdgate_consumer_counters(consumer)->delivered != delivered_before)
        {
            state.last_delivery_ns = monotonic_ns();
            if (state.first_delivery_ns == 0)
            {
                state.first_delivery_ns = state.last_delivery_ns;
            }
            if (!parsed->stats)
            {
                fflush(stdout);
            }
        }
        if (parsed->stats && monotonic_ns() >= next_stats)
        {
            const int64_t now = monotonic_ns();
            print_stats(consumer, (double)(now - last_stats) / 1e9, &last_delivered);
            last_stats = now;
            next_stats += interval;
        }
        idle(parsed->idle, work, &idle_count);
    }
    fflush(stdout);
    return result;
}

static void summary(mdgate_consumer *consumer, int stats)
{
    const mdgate_counters *c = mdgate_consumer_counters(consumer);
    if (!stats)
    {
        fprintf(stderr, PROGRAM ": latency us p50 %.2f p99 %.2f p99.9 %.2f max %.2f (%" PRId64 " timed), first to last "
            "delivery %.3f s\n", (double)mdgate_consumer_latency_percentile(consumer, 50) / 1e3,
            (double)mdgate_consumer_latency_percentile(consumer, 99) / 1e3,
            (double)mdgate_consumer_latency_percentile(consumer, 99.9) / 1e3,
            (double)mdgate_consumer_latency_max(consumer) / 1e3, mdgate_consumer_latency_count(consumer),
            (double)(state.last_delivery_ns - state.first_delivery_ns) / 1e9);
    }
    fprintf(stderr, PROGRAM ": delivered %" PRId64 " ticks (last sequence %" PRId64 "), gaps %" PRId64
        ", recoveries %" PRId64 "/%" PRId64 ", unrecovered %" PRId64 ", laps %" PRId64 ", reconnects %" PRId64
        "/%" PRId64 ", failed reconnects %" PRId64 ", recovered %" PRId64 ", duplicates %" PRId64 ", torn %" PRId64
        ", malformed %" PRId64 ", shared log %s\n",
        c->delivered, mdgate_consumer_last_delivered(consumer), c->gaps, c->recoveries_completed,
        c->recoveries_requested, c->unrecovered, c->laps, c->reconnects, c->reconnect_attempts, c->reconnect_failures,
        c->recovered_delivered, c->duplicates, c->torn_reads, c->malformed,
        mdgate_consumer_reads_shared_log(consumer) ? "yes" : "no");
    if (c->snapshots_requested > 0)
    {
        fprintf(stderr, PROGRAM ": snapshots %" PRId64 " (%" PRId64 " ticks, %" PRId64 " live ticks it covered "
            "dropped, %" PRId64 " refused)\n", c->snapshots, c->snapshot_ticks, c->snapshot_skipped,
            c->snapshots_refused);
    }
    if (c->directories + c->directories_refused > 0)
    {
        fprintf(stderr, PROGRAM ": directory %s (%" PRId64 " symbols)\n", c->directories > 0 ? "in" :
            "refused by the publisher", c->directory_ticks);
    }
}

int main(int argc, char **argv)
{
    static options parsed;
    const int bad = parse(argc, argv, &parsed);
    if (bad != 0)
    {
        return bad;
    }
    FILE *raw = NULL;
    if (NULL != parsed.raw_path && NULL == (raw = fopen(parsed.raw_path, "wb")))
    {
        fprintf(stderr, PROGRAM ": cannot write --raw %s: %s; give a writable file\n", parsed.raw_path,
            strerror(errno));
        return 2;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);

    mdgate_consumer *consumer = NULL;
    char error[1536];
    int reason = 0;
    const int connected = mdgate_consumer_connect(&parsed.config, &consumer, error, sizeof error, &reason);
    if (connected != MDGATE_OK)
    {
        if (connected == MDGATE_E_REJECTED)
        {
            fprintf(stderr, PROGRAM ": %s; check --consumer and --token against the publisher's tokens\n", error);
        }
        else if (connected == MDGATE_E_NO_PUBLISHER || connected == MDGATE_E_TIMEOUT)
        {
            fprintf(stderr, PROGRAM ": %s (--dir %s --instance %s)\n", error, parsed.config.directory,
                parsed.config.instance);
        }
        else
        {
            fprintf(stderr, PROGRAM ": %s [%s]\n", error, mdgate_strerror(connected));
        }
        if (NULL != raw)
        {
            fclose(raw);
        }
        return connected == MDGATE_E_INVALID_ARGUMENT ? 2 : 1;
    }
    int result = subscribe(consumer, &parsed);
    if (result == MDGATE_OK)
    {
        result = consume(&parsed, consumer, raw);
    }
    if (result != MDGATE_OK)
    {
        fprintf(stderr, PROGRAM ": %s [%s]\n", mdgate_consumer_last_error(consumer), mdgate_strerror(result));
    }
    summary(consumer, parsed.stats);
    mdgate_consumer_close(consumer);
    if (NULL != raw)
    {
        fclose(raw);
    }
    return result == MDGATE_OK ? 0 : 1;
}
