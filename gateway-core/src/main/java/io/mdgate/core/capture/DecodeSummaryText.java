package io.mdgate.core.capture;

import java.util.Locale;
import java.util.Map;

/**
 * Writes a {@link DecodeSummary} as a report for people: what the file is, the count per message type, then what
 * went wrong (malformed input by reason, gaps with their first ranges, duplicates) and, for captures, the lines,
 * the session and the frames skipped. Lines about things that did not happen are left out, except the main
 * counts. Stateless and thread-safe.
 */
final class DecodeSummaryText
{
    private static final String[] NAMES = new String[256];

    static
    {
        name('S', "System Event");
        name('R', "Stock Directory");
        name('H', "Stock Trading Action");
        name('Y', "Reg SHO Restriction");
        name('L', "Market Participant Position");
        name('V', "MWCB Decline Level");
        name('W', "MWCB Status");
        name('K', "IPO Quoting Period Update");
        name('J', "LULD Auction Collar");
        name('h', "Operational Halt");
        name('A', "Add Order");
        name('F', "Add Order with MPID");
        name('E', "Order Executed");
        name('C', "Order Executed With Price");
        name('X', "Order Cancel");
        name('D', "Order Delete");
        name('U', "Order Replace");
        name('P', "Trade (non-cross)");
        name('Q', "Cross Trade");
        name('B', "Broken Trade");
        name('I', "NOII");
        name('N', "Retail Price Improvement");
        name('O', "Direct Listing with Capital Raise");
    }

    private DecodeSummaryText()
    {
    }

    private static void name(final char type, final String name)
    {
        NAMES[type] = name;
    }

    static String write(final DecodeSummary s)
    {
        final StringBuilder sb = new StringBuilder(2048);
        line(sb, "file", s.file());
        line(sb, "format", (s.format() == null ? "?" : s.format().cliName()) + (s.compressed() ? ", gzip" : "") +
            (s.compressedStreamTruncated() ? ", compressed stream cut short" : ""));
        line(sb, "messages", Long.toString(s.messages()));
        for (final byte type : DecodeSummary.types())
        {
            if (s.count(type) > 0)
            {
                sb.append(String.format(Locale.ROOT, "  %c  %-34s %12d%n", (char)type, NAMES[type], s.count(type)));
            }
        }
        line(sb, "malformed", Long.toString(s.malformed()) + malformedDetail(s));
        line(sb, "gaps", s.gaps() + (s.gaps() > 0 ? " (" + s.missingMessages() + " messages missing)" : ""));
        for (int i = 0; i < s.gapRanges(); i++)
        {
            sb.append(String.format(Locale.ROOT, "  missing %d..%d (%d)%n",
                s.gapFirst(i), s.gapLast(i), s.gapLast(i) - s.gapFirst(i) + 1));
        }
        line(sb, "sequences", s.firstSequence() + ".." + s.lastSequence());
        if (s.format() != null && s.format().isCapture())
        {
            capture(sb, s);
        }
        line(sb, "elapsed", String.format(Locale.ROOT, "%.3f s, %d messages/s",
            s.elapsedNanos() / 1e9, s.messagesPerSecond()));
        return sb.toString();
    }

    private static void capture(final StringBuilder sb, final DecodeSummary s)
    {
        line(sb, "duplicates", s.duplicates() + " messages, " + s.duplicatePackets() + " whole packets");
        line(sb, "packets", s.packets() + " (heartbeats " + s.heartbeats() + ", end of session " +
            (s.endOfSession() ? "seen" : "not seen") +
            (s.unsequencedPackets() > 0 ? ", sequence 0 (malformed) " + s.unsequencedPackets() : "") +
            (s.heldPackets() > 0 ? ", held after a gap " + s.heldPackets() : "") + ")");
        for (int line = 0; line < 2; line++)
        {
            line(sb, line == 0 ? "line A" : "line B", (s.lineDestination(line) == null ? "-" : s.lineDestination(line)) +
                ", " + s.linePackets(line) + " packets");
        }
        line(sb, "session", (s.session() == null ? "-" : s.session().isEmpty() ? "(blank)" : printable(s.session())) +
            (s.sessionChanges() > 0 ? " (then " + s.sessionChanges() + " session changes)" : ""));
        for (final Map.Entry<String, Long> other : s.otherSessions().entrySet())
        {
            line(sb, "other session", printable(other.getKey()) + ": " + other.getValue() + " packets dropped");
        }
        final String skipped = skippedFrames(s);
        line(sb, "frames", s.frames() + " (UDP " + s.udpDatagrams() + (skipped.isEmpty() ? "" : "; skipped " + skipped) + ")");
    }

    private static String malformedDetail(final DecodeSummary s)
    {
        final StringBuilder sb = new StringBuilder();
        part(sb, "unknown type", s.unknownType());
        part(sb, "length mismatch", s.lengthMismatch());
        part(sb, "truncated record", s.truncatedRecords());
        part(sb, "oversized record", s.oversizedRecords());
        part(sb, "malformed block", s.malformedBlocks());
        part(sb, "truncated frame", s.truncatedFrames());
        part(sb, "malformed frame", s.malformedFrames());
        part(sb, "MoldUDP64 header", s.moldMalformedHeader());
        part(sb, "MoldUDP64 block overrun", s.moldBlockOverrun());
        part(sb, "MoldUDP64 trailing bytes", s.moldTrailingBytes());
        part(sb, "MoldUDP64 other", s.moldMalformedOther());
        part(sb, "bytes skipped", s.skippedBytes());
        return sb.length() == 0 ? "" : " (" + sb + ")";
    }

    private static String skippedFrames(final DecodeSummary s)
    {
        final StringBuilder sb = new StringBuilder();
        part(sb, "not IPv4", s.notIpv4());
        part(sb, "not UDP", s.notUdp());
        part(sb, "IP fragments", s.fragments());
        part(sb, "other destinations", s.otherDestinations());
        part(sb, "not MoldUDP64", s.notMoldUdp64());
        part(sb, "unsupported link type", s.unsupportedLinkType());
        return sb.toString();
    }

    private static void part(final StringBuilder sb, final String what, final long count)
    {
        if (count > 0)
        {
            sb.append(sb.length() == 0 ? "" : ", ").append(what).append(' ').append(count);
        }
    }

    private static void line(final StringBuilder sb, final String label, final String value)
    {
        sb.append(String.format(Locale.ROOT, "%-14s %s%n", label, value));
    }

    /** Session ids are ASCII; anything else (e.g. the zero bytes of a rewritten capture) is shown as a hex escape. */
    static String printable(final String text)
    {
        final StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7F)
            {
                sb.append(c);
            }
            else
            {
                sb.append(String.format(Locale.ROOT, "\\x%02x", (int)c));
            }
        }
        return sb.toString();
    }
}
