package io.mdgate.app.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.JsonOutput;
import io.mdgate.core.itch.ItchMessageType;

import java.util.List;
import java.util.Locale;

/**
 * What a simulator run did, as text for people and as one JSON object for scripts. The JSON keys are stable:
 * {@code messages}, {@code counts} (type letter to count), {@code packets} (per line, as sent), {@code framed}
 * (data, heartbeat and end-of-session packets before faults), {@code faults} (per line: lost, reordered,
 * duplicated, corrupted), {@code session}, {@code firstSequence}, {@code lastSequence}, {@code seed},
 * {@code instruments}, {@code output}, {@code firstTimestamp}/{@code lastTimestamp} (ns since midnight),
 * {@code sendFailures}, {@code retransmit} (null without a re-request server) and {@code elapsedMillis}; with
 * {@code sessions} (each session's {@code session} name and {@code messages}, sequences 1 to that; {@code session}
 * and {@code lastSequence} above are the first session's), {@code lagBMillis}, and per line {@code stray} and
 * {@code farAhead} among the faults.
 * Immutable once built.
 */
public record SimSummary(
    long seed,
    int instruments,
    long messages,
    long[] countsByType,
    List<SessionReport> sessions,
    long firstTimestamp,
    long lastTimestamp,
    long dataPackets,
    long heartbeats,
    long endOfSessionPackets,
    LineReport lineA,
    LineReport lineB,
    long lagBNanos,
    String output,
    long sendFailures,
    RetransmitReport retransmit,
    long elapsedMillis)
{
    /** One MoldUDP64 session of the run: its name and its messages, sequences 1 to {@code messages}. */
    public record SessionReport(String session, long messages)
    {
    }

    /** One line's packets (injected ones included) and faults. */
    public record LineReport(
        long sent, long lost, long reordered, long duplicated, long corrupted, long stray, long farAhead)
    {
        static LineReport of(final LineFaults faults, final PacketInjector injector, final int line)
        {
            return new LineReport(faults.sent() + injector.strays(line) + injector.farAhead(line), faults.lost(),
                faults.reordered(), faults.duplicated(), faults.corrupted(), injector.strays(line),
                injector.farAhead(line));
        }

        void json(final ObjectNode json)
        {
            json.put("lost", lost).put("reordered", reordered).put("duplicated", duplicated)
                .put("corrupted", corrupted).put("stray", stray).put("farAhead", farAhead);
        }
    }

    /** @return the first session's name. */
    public String session()
    {
        return sessions.get(0).session();
    }

    /** @return the first session's last sequence. */
    public long lastSequence()
    {
        return sessions.get(0).messages();
    }

    /** The re-request server's counters. */
    public record RetransmitReport(
        String address, int port, int answerLimit, long requests, long answered, long messagesResent, long limited,
        long malformed, long wrongSession, long unavailable)
    {
        static RetransmitReport of(final String address, final RetransmitServer server)
        {
            return new RetransmitReport(address, server.port(), server.answerLimit(), server.requests(),
                server.answered(), server.messagesResent(), server.limited(), server.malformed(), server.wrongSession(),
                server.unavailable());
        }
    }

    /** @return messages of one type, e.g. {@code count((byte)'A')}. */
    public long count(final byte type)
    {
        return countsByType[type & 0xFF];
    }

    private static String time(final long nanos)
    {
        final long seconds = nanos / 1_000_000_000L;
        return String.format(Locale.ROOT, "%02d:%02d:%02d.%09d",
            seconds / 3600, seconds / 60 % 60, seconds % 60, nanos % 1_000_000_000L);
    }

    /** @return the summary for people, several lines. */
    public String toText()
    {
        final StringBuilder text = new StringBuilder(1024);
        text.append(String.format(Locale.ROOT, "mdgate sim: %,d messages, %d instruments, seed %d, session %s%n",
            messages, instruments, seed, session()));
        text.append(String.format(Locale.ROOT, "  exchange time %s to %s, sequences 1 to %d%n",
            time(firstTimestamp), time(lastTimestamp), lastSequence()));
        for (int i = 1; i < sessions.size(); i++)
        {
            text.append(String.format(Locale.ROOT, "  then session %s, sequences 1 to %d%n",
                sessions.get(i).session(), sessions.get(i).messages()));
        }
        if (lagBNanos > 0)
        {
            text.append(String.format(Locale.ROOT, "  line B lags line A by %.3f ms%n", lagBNanos / 1e6));
        }
        text.append("  messages by type:");
        int column = 0;
        for (final byte type : ItchMessageType.ALL)
        {
            text.append(column++ % 8 == 0 ? String.format("%n    ") : "  ");
            text.append(String.format(Locale.ROOT, "%c %,d", (char)type, count(type)));
        }
        text.append(String.format(Locale.ROOT, "%n  packets framed: %,d with messages, %,d heartbeats, %,d end of session%n",
            dataPackets, heartbeats, endOfSessionPackets));
        line(text, "A", lineA);
        line(text, "B", lineB);
        text.append("  output: ").append(output).append(System.lineSeparator());
        if (sendFailures > 0)
        {
            text.append(String.format(Locale.ROOT, "  send failures: %,d%n", sendFailures));
        }
        if (null != retransmit)
        {
            text.append(String.format(Locale.ROOT,
                "  re-requests on %s:%d (answer limit %d): %,d received, %,d answered with %,d messages, " +
                "%,d over the limit, %,d malformed, %,d wrong session, %,d unavailable%n",
                retransmit.address, retransmit.port, retransmit.answerLimit, retransmit.requests, retransmit.answered,
                retransmit.messagesResent, retransmit.limited, retransmit.malformed, retransmit.wrongSession,
                retransmit.unavailable));
        }
        text.append(String.format(Locale.ROOT, "  took %,d ms%n", elapsedMillis));
        return text.toString();
    }

    private static void line(final StringBuilder text, final String name, final LineReport line)
    {
        text.append(String.format(Locale.ROOT,
            "  line %s: %,d packets sent; faults: %,d lost, %,d reordered, %,d duplicated, %,d corrupted; " +
                "injected: %,d stray, %,d far ahead%n",
            name, line.sent, line.lost, line.reordered, line.duplicated, line.corrupted, line.stray, line.farAhead));
    }

    /** @return the summary as one JSON object on one line. */
    public String toJson()
    {
        final ObjectNode json = JsonOutput.object().put("messages", messages);
        final ObjectNode counts = json.putObject("counts");
        for (final byte type : ItchMessageType.ALL)
        {
            counts.put(String.valueOf((char)type), count(type));
        }
        json.putObject("packets").put("A", lineA.sent).put("B", lineB.sent);
        json.putObject("framed").put("data", dataPackets).put("heartbeats", heartbeats)
            .put("endOfSession", endOfSessionPackets);
        final ObjectNode faults = json.putObject("faults");
        lineA.json(faults.putObject("A"));
        lineB.json(faults.putObject("B"));
        json.put("session", session()).put("firstSequence", 1).put("lastSequence", lastSequence());
        final ArrayNode sessionsJson = json.putArray("sessions");
        for (final SessionReport report : sessions)
        {
            sessionsJson.addObject().put("session", report.session()).put("messages", report.messages());
        }
        json.put("lagBMillis", lagBNanos / 1e6).put("seed", seed).put("instruments", instruments)
            .put("output", output).put("firstTimestamp", firstTimestamp).put("lastTimestamp", lastTimestamp)
            .put("sendFailures", sendFailures);
        if (null == retransmit)
        {
            json.putNull("retransmit");
        }
        else
        {
            json.putObject("retransmit").put("address", retransmit.address).put("port", retransmit.port)
                .put("answerLimit", retransmit.answerLimit).put("requests", retransmit.requests)
                .put("answered", retransmit.answered).put("messagesResent", retransmit.messagesResent)
                .put("limited", retransmit.limited).put("malformed", retransmit.malformed)
                .put("wrongSession", retransmit.wrongSession).put("unavailable", retransmit.unavailable);
        }
        return JsonOutput.line(json.put("elapsedMillis", elapsedMillis));
    }
}
