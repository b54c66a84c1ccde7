package io.mdgate.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.core.capture.DecodeSummary;
import io.mdgate.core.capture.DecodeSummaryBuilder;
import io.mdgate.core.capture.MessageTally;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;

import java.io.PrintWriter;
import java.util.Map;

/**
 * What {@code mdgate ingress} prints: the same summary as {@code decode} (filled from the feed session, the
 * message tally and the ingress's frame counters), followed by the feed session's counters per line and the
 * ingress's counters per line, per drop reason and of the port. With JSON, one object: decode's keys, then
 * {@code "feed"} and {@code "ingress"}. Stateless.
 */
final class IngressReport
{
    private static final int[] LINES = { FeedLines.A, FeedLines.B, FeedLines.RECOVERY };

    private IngressReport()
    {
    }

    static DecodeSummary summary(final String source, final IngressLines lines, final MessageTally tally,
        final FeedSession session, final IngressStats stats, final long elapsedNanos)
    {
        long gaps = 0;
        long duplicates = 0;
        long malformed = 0;
        for (final int line : LINES)
        {
            gaps += session.gapsDeclaredLost(line);
            duplicates += session.duplicates(line);
            malformed += session.malformed(line);
        }
        return new DecodeSummaryBuilder()
            .source(source)
            .messages(tally)
            .gaps(gaps, session.messagesLost())
            .duplicates(duplicates)
            .packets(session.packets(FeedLines.A) + session.packets(FeedLines.B),
                session.heartbeats(FeedLines.A) + session.heartbeats(FeedLines.B), session.isEndOfSession())
            .line(FeedLines.A, destination(lines, FeedLines.A), session.packets(FeedLines.A))
            .line(FeedLines.B, destination(lines, FeedLines.B), session.packets(FeedLines.B))
            .session(session.sessionNumber() == 0 ? null : session.sessionString(), session.otherSessionPackets())
            .malformedPackets(malformed)
            .frames(stats.port("frames"), stats.packets() + stats.dropped(IngressStats.OTHER_DESTINATION),
                stats.dropped(IngressStats.NOT_IPV4) + stats.dropped(IngressStats.ARP),
                stats.dropped(IngressStats.NOT_UDP) + stats.dropped(IngressStats.IGMP),
                stats.dropped(IngressStats.FRAGMENT), stats.dropped(IngressStats.OTHER_DESTINATION),
                stats.dropped(IngressStats.MALFORMED) + stats.dropped(IngressStats.LENGTH) +
                    stats.dropped(IngressStats.IP_CHECKSUM) + stats.dropped(IngressStats.UDP_CHECKSUM))
            .volume(stats.port("ibytes"), elapsedNanos)
            .build();
    }

    /** @return the first destination feeding the line, or null. */
    private static String destination(final IngressLines lines, final int line)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.line(i) == line)
            {
                return lines.endpoint(i).toString();
            }
        }
        return null;
    }

    static String json(final DecodeSummary summary, final FeedSession session, final IngressStats stats)
    {
        final ObjectNode json = JsonOutput.parseObject(summary.toJson());
        feedJson(json.putObject("feed"), session);
        json.set("ingress", JsonOutput.parseObject(stats.toJson()));
        return JsonOutput.line(json);
    }

    static void text(final PrintWriter out, final DecodeSummary summary, final FeedSession session,
        final IngressStats stats)
    {
        out.print(summary.toText());
        out.println("ingress        " + stats.source());
        for (final int line : LINES)
        {
            out.printf("  line %-8s %d packets, %d messages, %d duplicates, gaps %d opened, %d filled by the " +
                "other line, %d by re-request, %d lost; %d malformed, %d stale periods%n",
                IngressLines.name(line), session.packets(line), session.messages(line), session.duplicates(line),
                session.gapsOpened(line), session.gapsFilledByOtherLine(line), session.gapsFilledByRerequest(line),
                session.gapsDeclaredLost(line), session.malformed(line), session.stalePeriods(line));
        }
        out.println("  dropped      " + join(stats.dropped()));
        out.println("  port         " + join(stats.port()));
    }

    private static String join(final Map<String, Long> values)
    {
        final StringBuilder sb = new StringBuilder();
        values.forEach((name, value) -> sb.append(sb.length() == 0 ? "" : ", ").append(name).append(' ').append(value));
        return sb.toString();
    }

    private static void feedJson(final ObjectNode feed, final FeedSession session)
    {
        for (final int line : LINES)
        {
            feed.putObject(IngressLines.name(line))
                .put("packets", session.packets(line))
                .put("messages", session.messages(line))
                .put("duplicates", session.duplicates(line))
                .put("heartbeats", session.heartbeats(line))
                .put("gapsOpened", session.gapsOpened(line))
                .put("gapsFilledByOtherLine", session.gapsFilledByOtherLine(line))
                .put("gapsFilledByRerequest", session.gapsFilledByRerequest(line))
                .put("gapsDeclaredLost", session.gapsDeclaredLost(line))
                .put("malformed", session.malformed(line))
                .put("stalePeriods", session.stalePeriods(line));
        }
        feed.put("messagesDelivered", session.messagesDelivered())
            .put("messagesLost", session.messagesLost())
            .put("sessionChanges", session.sessionChanges());
    }
}
