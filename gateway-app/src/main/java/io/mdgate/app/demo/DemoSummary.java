package io.mdgate.app.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.mdgate.app.JsonOutput;
import io.mdgate.app.report.LatencySeries;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The summary at the end of a demo run, as text or one JSON object: what the simulator sent (and the loss it
 * injected), what the gateway did with it (gaps opened, filled, lost; ticks journaled and published), what each
 * consumer received and whether it received every sequence exactly once, and latency percentiles per stage and
 * from ingress receive to consumer (in microseconds in the text, nanoseconds in the JSON), with the samples each
 * stage found negative (clocks that disagree: counted, never recorded as zero). Built once, on one thread.
 *
 * @param mode       how the lines were received.
 * @param map        where the gateway's agents ran.
 * @param idle       how the consumers waited between empty polls.
 * @param seconds    the requested duration.
 * @param rate       the requested message rate.
 * @param elapsedMs  wall-clock time of the whole run.
 * @param sendMs     wall-clock time the simulator took to send the session (its start-up included).
 * @param sim        the simulator's JSON summary, or null when it printed none.
 * @param counters   the gateway's counters at the end.
 * @param consumers  what each consumer received.
 * @param stages     per-stage latency from the gateway's .hlog files.
 * @param journalDir the journal left behind.
 * @param problems   what went wrong (empty on a clean run).
 */
public record DemoSummary(IngressMode mode, DemoConfig.CoreMap map, DemoConsumer.Idle idle, long seconds, long rate, long elapsedMs, long sendMs, JsonNode sim,
    Map<String, Long> counters, List<DemoConsumer.Result> consumers, List<LatencySeries> stages, Path journalDir,
    List<String> problems)
{
    /** @return ticks the gateway published (egress), or -1 when the counter is missing. */
    public long published()
    {
        return counters.getOrDefault("egress.ticks_published", -1L);
    }

    /** @return the last gateway sequence published, or -1 when the counter is missing. */
    public long lastPublishedSequence()
    {
        return counters.getOrDefault("egress.last_sequence", -1L);
    }

    /** @return the gap counters of the feed session. */
    public Map<String, Long> gaps()
    {
        final Map<String, Long> gaps = new LinkedHashMap<>();
        gaps.put("opened", counters.getOrDefault("feed.gaps.opened", 0L));
        gaps.put("filledByOtherLine", counters.getOrDefault("feed.gaps.filled_by_other_line", 0L));
        gaps.put("filledBySameLine", counters.getOrDefault("feed.gaps.filled_by_same_line", 0L));
        gaps.put("filledByRerequest", counters.getOrDefault("feed.gaps.filled_by_rerequest", 0L));
        gaps.put("filled", gaps.get("filledByOtherLine") + gaps.get("filledBySameLine") + gaps.get("filledByRerequest"));
        gaps.put("lost", counters.getOrDefault("feed.gaps.lost", 0L));
        gaps.put("messagesLost", counters.getOrDefault("feed.messages.lost", 0L));
        return gaps;
    }

    /** @return the summary as one line of JSON. */
    public String toJson()
    {
        final Map<String, Object> root = new LinkedHashMap<>();
        root.put("ingress", mode.name().toLowerCase(Locale.ROOT));
        root.put("ingressDescription", mode.description());
        root.put("map", map.optionName());
        root.put("consumerIdle", idle.optionName());
        root.put("durationSeconds", seconds);
        root.put("rate", rate);
        root.put("elapsedMillis", elapsedMs);
        root.put("ok", problems.isEmpty());
        root.put("problems", problems);
        final Map<String, Object> simulator = new LinkedHashMap<>();
        if (null != sim)
        {
            simulator.put("messages", sim.path("messages").asLong());
            simulator.put("packets", perLine(sim.path("packets").path("A").asLong(),
                sim.path("packets").path("B").asLong()));
            simulator.put("packetsDropped", perLine(sim.path("faults").path("A").path("lost").asLong(),
                sim.path("faults").path("B").path("lost").asLong()));
            simulator.put("rerequestsAnswered", sim.path("retransmit").path("answered").asLong());
            simulator.put("sendMillis", sendMs);
            simulator.put("achievedRate", sendMs > 0 ? sim.path("messages").asLong() * 1000 / sendMs : 0);
        }
        root.put("simulator", simulator);
        final Map<String, Object> gateway = new LinkedHashMap<>();
        gateway.put("messagesDelivered", counters.getOrDefault("feed.messages.delivered", -1L));
        gateway.put("ticksJournaled", counters.getOrDefault("journal.ticks", -1L));
        gateway.put("journalPosition", counters.getOrDefault("journal.position", -1L));
        gateway.put("messagesPublished", published());
        gateway.put("lastSequence", lastPublishedSequence());
        root.put("gateway", gateway);
        root.put("messagesPublished", published());
        root.put("gaps", gaps());
        final Map<String, Object> received = new LinkedHashMap<>();
        for (final DemoConsumer.Result c : consumers)
        {
            received.put(c.name(), consumerJson(c));
        }
        root.put("consumers", received);
        final Map<String, Object> latency = new LinkedHashMap<>();
        for (final LatencySeries stage : stages)
        {
            final Map<String, Long> p = percentiles(stage.histogram());
            p.put("negative", stageNegative(stage.name()));
            latency.put(stage.name(), p);
        }
        final Histogram endToEnd = endToEnd();
        if (endToEnd.getTotalCount() > 0)
        {
            final Map<String, Long> p = percentiles(endToEnd);
            p.put("negative", endToEndNegative());
            latency.put("ingress_to_consumer", p);
        }
        root.put("latencyNanos", latency);
        root.put("journal", journalDir.toAbsolutePath().toString());
        root.put("counters", counters);
        return JsonOutput.line(root);
    }

    /** @return {@code {"A": a, "B": b}}, always in that order (Map.of has none). */
    private static Map<String, Long> perLine(final long a, final long b)
    {
        final Map<String, Long> lines = new LinkedHashMap<>();
        lines.put("A", a);
        lines.put("B", b);
        return lines;
    }

    private static Map<String, Object> consumerJson(final DemoConsumer.Result c)
    {
        final Map<String, Object> json = new LinkedHashMap<>();
        json.put("path", c.path().name().toLowerCase(Locale.ROOT));
        json.put("slow", c.slow());
        json.put("received", c.delivered());
        json.put("firstSequence", c.first());
        json.put("lastSequence", c.last());
        json.put("missing", c.missing());
        json.put("duplicates", c.repeated());
        if (null != c.counters())
        {
            json.put("gaps", c.counters().gaps());
            json.put("recoveries", c.counters().recoveriesCompleted());
            json.put("recovered", c.counters().recoveredDelivered());
            json.put("unrecovered", c.counters().unrecovered());
            json.put("laps", c.counters().laps());
        }
        json.put("latencyNanos", percentiles(c.latency()));
        json.put("latencyNegative", c.negative());
        json.put("untimed", c.untimed());
        json.put("error", c.error());
        return json;
    }

    /** @return the fast consumers' latency added together: ingress receive to consumer delivery. */
    public Histogram endToEnd()
    {
        final Histogram total = new Histogram(3);
        consumers.stream().filter(c -> !c.slow()).forEach(c -> total.add(c.latency()));
        return total;
    }

    /** @return the fast consumers' ticks whose latency came out negative (not recorded). */
    public long endToEndNegative()
    {
        return consumers.stream().filter(c -> !c.slow()).mapToLong(DemoConsumer.Result::negative).sum();
    }

    /** @return the samples the stage found negative ({@code latency.<stage>.negative}), -1 when not counted. */
    public long stageNegative(final String stage)
    {
        return counters.getOrDefault("latency." + stage + ".negative", -1L);
    }

    private static Map<String, Long> percentiles(final Histogram h)
    {
        final Map<String, Long> p = new LinkedHashMap<>();
        p.put("samples", h.getTotalCount());
        p.put("p50", h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50));
        p.put("p99", h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99));
        p.put("p99.9", h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99.9));
        p.put("max", h.getMaxValue());
        return p;
    }

    /** @return the summary for people, several lines. */
    public String toText()
    {
        final StringBuilder out = new StringBuilder(2048);
        out.append(String.format(Locale.ROOT, "mdgate demo: %s, %d s at %,d msg/s, took %.1f s%n",
            mode.description(), seconds, rate, elapsedMs / 1e3));
        out.append(String.format(Locale.ROOT, "  core map: %s; consumers idle by %s%n", map.optionName(),
            idle.optionName()));
        if (null != sim)
        {
            out.append(String.format(Locale.ROOT,
                "  simulator: %,d messages in %,d / %,d packets (A / B), %,d / %,d packets dropped on purpose, " +
                "%,d re-requests answered; sent in %.1f s%n", sim.path("messages").asLong(), sim.path("packets").path("A").asLong(),
                sim.path("packets").path("B").asLong(), sim.path("faults").path("A").path("lost").asLong(),
                sim.path("faults").path("B").path("lost").asLong(), sim.path("retransmit").path("answered").asLong(),
                sendMs / 1e3));
        }
        final Map<String, Long> gaps = gaps();
        out.append(String.format(Locale.ROOT,
            "  gateway: %,d messages delivered, %,d ticks journaled, %,d published (last sequence %,d)%n",
            counters.getOrDefault("feed.messages.delivered", -1L), counters.getOrDefault("journal.ticks", -1L),
            published(), lastPublishedSequence()));
        out.append(String.format(Locale.ROOT,
            "  gaps: %,d opened, %,d filled (%,d by the other line, %,d by the same line, %,d by re-request), " +
            "%,d lost (%,d messages)%n", gaps.get("opened"), gaps.get("filled"), gaps.get("filledByOtherLine"),
            gaps.get("filledBySameLine"), gaps.get("filledByRerequest"), gaps.get("lost"), gaps.get("messagesLost")));
        for (final DemoConsumer.Result c : consumers)
        {
            out.append(String.format(Locale.ROOT, "  consumer %-8s %-6s %s: %,d received (sequences %,d..%,d), " +
                "%,d missing, %,d duplicates", c.name(), c.path().name().toLowerCase(Locale.ROOT),
                c.slow() ? "slow" : "    ", c.delivered(), c.first(), c.last(), c.missing(), c.repeated()));
            if (null != c.counters())
            {
                out.append(String.format(Locale.ROOT, ", %,d laps, %,d recoveries, %,d unrecovered",
                    c.counters().laps(), c.counters().recoveriesCompleted(), c.counters().unrecovered()));
            }
            out.append(null == c.error() ? "" : " (" + c.error() + ")").append(System.lineSeparator());
        }
        out.append("  latency (us)            samples        p50        p99      p99.9        max   negative")
            .append(System.lineSeparator());
        for (final LatencySeries stage : stages)
        {
            latencyLine(out, stage.name(), stage.histogram(), stageNegative(stage.name()));
        }
        latencyLine(out, "ingress_to_consumer", endToEnd(), endToEndNegative());
        out.append("  journal: ").append(journalDir.toAbsolutePath()).append(" (mdgate replay --journal ")
            .append(journalDir).append(")").append(System.lineSeparator());
        if (problems.isEmpty())
        {
            out.append("  result: every consumer received every published sequence exactly once")
                .append(System.lineSeparator());
        }
        else
        {
            problems.forEach(p -> out.append("  PROBLEM: ").append(p).append(System.lineSeparator()));
        }
        return out.toString();
    }

    private static void latencyLine(final StringBuilder out, final String name, final Histogram h,
        final long negative)
    {
        out.append(String.format(Locale.ROOT, "    %-20s %10d", name, h.getTotalCount()));
        if (h.getTotalCount() > 0)
        {
            out.append(String.format(Locale.ROOT, " %10.1f %10.1f %10.1f %10.1f", h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3));
        }
        else
        {
            out.append(String.format(Locale.ROOT, " %10s %10s %10s %10s", "-", "-", "-", "-"));
        }
        out.append(String.format(Locale.ROOT, " %10s", negative < 0 ? "-" : Long.toString(negative)));
        out.append(System.lineSeparator());
    }
}
