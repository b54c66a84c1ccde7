/*
 * The latency histogram: exact below 2048 ns, then 1024 buckets per power of two (a relative precision of about
 * 0.1 %, as HdrHistogram with 3 significant digits), up to 60 s. Counts are allocated once; recording is an index
 * computation and an add.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int mdg_histogram_init(mdg_histogram *histogram)
{
    histogram->counts = calloc(MDG_HISTOGRAM_BUCKETS, sizeof(int64_t));
    histogram->total = 0;
    histogram->max = 0;
    return NULL == histogram->counts ? -1 : 0;
}

void mdg_histogram_free(mdg_histogram *histogram)
{
    free(histogram->counts);
    histogram->counts = NULL;
}

int mdg_histogram_index(int64_t value)
{
    if (value < MDG_HISTOGRAM_LINEAR)
    {
        return value < 0 ? 0 : (int)value;
    }
    const int magnitude = 63 - __builtin_clzll((unsigned long long)value); /* 11 or more */
    const int shift = magnitude - 10;
    const int sub = (int)(value >> shift) - MDG_HISTOGRAM_SUB_BUCKETS; /* 0..1023 */
    const int index = MDG_HISTOGRAM_LINEAR + (magnitude - 11) * MDG_HISTOGRAM_SUB_BUCKETS + sub;
    return index < MDG_HISTOGRAM_BUCKETS ? index : MDG_HISTOGRAM_BUCKETS - 1;
}

int64_t mdg_histogram_highest_equivalent(int index)
{
    if (index < MDG_HISTOGRAM_LINEAR)
    {
        return index;
    }
    const int above = index - MDG_HISTOGRAM_LINEAR;
    const int magnitude = above / MDG_HISTOGRAM_SUB_BUCKETS + 11;
    const int sub = above % MDG_HISTOGRAM_SUB_BUCKETS + MDG_HISTOGRAM_SUB_BUCKETS;
    const int shift = magnitude - 10;
    return ((((int64_t)sub) + 1) << shift) - 1;
}

void mdg_histogram_record(mdg_histogram *histogram, int64_t value, int64_t count)
{
    histogram->counts[mdg_histogram_index(value)] += count;
    histogram->total += count;
    if (value > histogram->max)
    {
        histogram->max = value;
    }
}

int64_t mdg_histogram_percentile(const mdg_histogram *histogram, double percentile)
{
    if (histogram->total == 0)
    {
        return 0;
    }
    const double clamped = percentile < 0 ? 0 : percentile > 100 ? 100 : percentile;
    int64_t wanted = (int64_t)(clamped / 100.0 * (double)histogram->total + 0.5);
    if (wanted < 1)
    {
        wanted = 1;
    }
    int64_t seen = 0;
    for (int i = 0; i < MDG_HISTOGRAM_BUCKETS; i++)
    {
        seen += histogram->counts[i];
        if (seen >= wanted)
        {
            const int64_t highest = mdg_histogram_highest_equivalent(i);
            return highest < histogram->max ? highest : histogram->max;
        }
    }
    return histogram->max;
}

void mdg_histogram_reset(mdg_histogram *histogram)
{
    memset(histogram->counts, 0, MDG_HISTOGRAM_BUCKETS * sizeof(int64_t));
    histogram->total = 0;
    histogram->max = 0;
}
