package io.mdgate.app.report;

import org.HdrHistogram.Histogram;

/**
 * One latency distribution of a report: every interval histogram of one stage added together.
 *
 * @param name      what the distribution measures: the log file's name without {@code .hlog}, or the intervals' tag
 *                  when they all carry one, or {@code name/tag} for each tag of a log that mixes them.
 * @param histogram the sum of the intervals, values in nanoseconds.
 * @param intervals how many interval histograms were added.
 */
public record LatencySeries(String name, Histogram histogram, int intervals)
{
}
