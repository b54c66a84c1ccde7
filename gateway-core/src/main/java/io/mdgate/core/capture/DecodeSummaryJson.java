package io.mdgate.core.capture;

import java.util.Locale;
import java.util.Map;

/**
 * Writes a {@link DecodeSummary} as one JSON object. The first keys are those scripts rely on, in this order:
 * {@code messages, counts, malformed, gaps, firstSequence, lastSequence}; more follow, always present (null or 0
 * when they do not apply), so the shape never depends on the input. Written by hand: the format is small and
 * fixed. Stateless and thread-safe.
 */
final class DecodeSummaryJson
{
    private DecodeSummaryJson()
    {
    }

    static String write(final DecodeSummary s)
    {
        final StringBuilder sb = new StringBuilder(2048).append('{');
        number(sb, "messages", s.messages());
        counts(sb.append(", "), s);
        number(sb.append(", "), "malformed", s.malformed());
        number(sb.append(", "), "gaps", s.gaps());
        number(sb.append(", "), "firstSequence", s.firstSequence());
        number(sb.append(", "), "lastSequence", s.lastSequence());
        number(sb.append(", "), "missingMessages", s.missingMessages());
        number(sb.append(", "), "duplicates", s.duplicates());
        number(sb.append(", "), "duplicatePackets", s.duplicatePackets());
        number(sb.append(", "), "packets", s.packets());
        number(sb.append(", "), "heartbeats", s.heartbeats());
        bool(sb.append(", "), "endOfSession", s.endOfSession());
        malformedDetail(sb.append(", "), s);
        gapRanges(sb.append(", "), s);
        lines(sb.append(", "), s);
        string(sb.append(", "), "session", s.session());
        otherSessions(sb.append(", "), s);
        number(sb.append(", "), "sessionChanges", s.sessionChanges());
        number(sb.append(", "), "unsequencedPackets", s.unsequencedPackets());
        number(sb.append(", "), "heldPackets", s.heldPackets());
        capture(sb.append(", "), s);
        string(sb.append(", "), "file", s.file());
        string(sb.append(", "), "format", s.format() == null ? null : s.format().cliName());
        bool(sb.append(", "), "compressed", s.compressed());
        bool(sb.append(", "), "compressedStreamTruncated", s.compressedStreamTruncated());
        number(sb.append(", "), "bytes", s.bytes());
        key(sb.append(", "), "elapsedMillis").append(String.format(Locale.ROOT, "%.3f", s.elapsedNanos() / 1e6));
        number(sb.append(", "), "messagesPerSecond", s.messagesPerSecond());
        return sb.append('}').toString();
    }

    private static void counts(final StringBuilder sb, final DecodeSummary s)
    {
        key(sb, "counts").append('{');
        boolean first = true;
        for (final byte type : DecodeSummary.types())
        {
            number(first ? sb : sb.append(", "), String.valueOf((char)type), s.count(type));
            first = false;
        }
        sb.append('}');
    }

    private static void malformedDetail(final StringBuilder sb, final DecodeSummary s)
    {
        key(sb, "malformedDetail").append('{');
        number(sb, "unknownType", s.unknownType());
        number(sb.append(", "), "lengthMismatch", s.lengthMismatch());
        number(sb.append(", "), "truncatedRecords", s.truncatedRecords());
        number(sb.append(", "), "oversizedRecords", s.oversizedRecords());
        number(sb.append(", "), "malformedBlocks", s.malformedBlocks());
        number(sb.append(", "), "truncatedFrames", s.truncatedFrames());
        number(sb.append(", "), "malformedFrames", s.malformedFrames());
        number(sb.append(", "), "moldMalformedHeader", s.moldMalformedHeader());
        number(sb.append(", "), "moldBlockOverrun", s.moldBlockOverrun());
        number(sb.append(", "), "moldTrailingBytes", s.moldTrailingBytes());
        number(sb.append(", "), "moldMalformedOther", s.moldMalformedOther());
        number(sb.append(", "), "skippedBytes", s.skippedBytes());
        sb.append('}');
    }

    private static void gapRanges(final StringBuilder sb, final DecodeSummary s)
    {
        key(sb, "gapRanges").append('[');
        for (int i = 0; i < s.gapRanges(); i++)
        {
            sb.append(i == 0 ? "{" : ", {");
            number(sb, "first", s.gapFirst(i));
            number(sb.append(", "), "last", s.gapLast(i));
            number(sb.append(", "), "missing", s.gapLast(i) - s.gapFirst(i) + 1);
            sb.append('}');
        }
        sb.append(']');
    }

    private static void lines(final StringBuilder sb, final DecodeSummary s)
    {
        key(sb, "lines").append('{');
        for (int line = 0; line < 2; line++)
        {
            key(line == 0 ? sb : sb.append(", "), line == 0 ? "A" : "B").append('{');
            string(sb, "destination", s.lineDestination(line));
            number(sb.append(", "), "packets", s.linePackets(line));
            sb.append('}');
        }
        sb.append('}');
    }

    private static void otherSessions(final StringBuilder sb, final DecodeSummary s)
    {
        key(sb, "otherSessions").append('{');
        boolean first = true;
        for (final Map.Entry<String, Long> entry : s.otherSessions().entrySet())
        {
            number(first ? sb : sb.append(", "), entry.getKey(), entry.getValue());
            first = false;
        }
        sb.append('}');
    }

    private static void capture(final StringBuilder sb, final DecodeSummary s)
    {
        key(sb, "capture").append('{');
        number(sb, "frames", s.frames());
        number(sb.append(", "), "udpDatagrams", s.udpDatagrams());
        number(sb.append(", "), "notIpv4", s.notIpv4());
        number(sb.append(", "), "notUdp", s.notUdp());
        number(sb.append(", "), "fragments", s.fragments());
        number(sb.append(", "), "otherDestinations", s.otherDestinations());
        number(sb.append(", "), "notMoldUdp64", s.notMoldUdp64());
        number(sb.append(", "), "unsupportedLinkType", s.unsupportedLinkType());
        sb.append('}');
    }

    private static void number(final StringBuilder sb, final String key, final long value)
    {
        key(sb, key).append(value);
    }

    private static void bool(final StringBuilder sb, final String key, final boolean value)
    {
        key(sb, key).append(value);
    }

    private static void string(final StringBuilder sb, final String key, final String value)
    {
        key(sb, key);
        if (value == null)
        {
            sb.append("null");
        }
        else
        {
            quote(sb, value);
        }
    }

    private static StringBuilder key(final StringBuilder sb, final String key)
    {
        return quote(sb, key).append(": ");
    }

    /**
     * Appends a JSON string literal: quotes, backslashes and control characters escaped (RFC 8259), everything
     * else as is.
     */
    static StringBuilder quote(final StringBuilder sb, final String value)
    {
        sb.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            switch (c)
            {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default ->
                {
                    if (c < 0x20 || c == 0x7F || Character.isSurrogate(c) && !isPairedSurrogate(value, i))
                    {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
                    }
                    else
                    {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    private static boolean isPairedSurrogate(final String value, final int i)
    {
        final char c = value.charAt(i);
        if (Character.isHighSurrogate(c))
        {
            return i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(value.charAt(i - 1));
    }
}
