package io.mdgate.core.capture;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;

/**
 * Copies the counters of a capture's reading stages and of its feed session into a {@link DecodeSummary}.
 * Stateless.
 */
final class CaptureSummaries
{
    private CaptureSummaries()
    {
    }

    static void fill(
        final DecodeSummary summary,
        final UdpFrameDissector dissector,
        final MoldUdp64LineSelector selector,
        final CaptureFeed feed,
        final MessageTally tally)
    {
        frames(summary, dissector, selector);
        final FeedSession session = feed.session();
        for (int line = FeedLines.A; line <= FeedLines.B; line++)
        {
            final UdpEndpoint endpoint = selector.line(line);
            summary.lineDestinations[line] = endpoint == null ? null : endpoint.toString();
            summary.linePackets[line] = session.packets(line);
        }
        summary.packets = session.packets(FeedLines.A) + session.packets(FeedLines.B);
        sessions(summary, feed);
        malformed(summary, session);
        summary.duplicateMessages = session.duplicates(FeedLines.A) + session.duplicates(FeedLines.B);
        summary.duplicatePackets = feed.duplicatePackets();
        summary.heartbeats = session.heartbeats(FeedLines.A) + session.heartbeats(FeedLines.B);
        summary.endOfSession = session.isEndOfSession();
        summary.unsequencedPackets = feed.unsequencedPackets();
        summary.heldPackets = feed.heldPackets();
        summary.gaps = feed.gaps();
        summary.missingMessages = feed.missingMessages();
        summary.gapRanges = feed.gapRanges();
        for (int i = 0; i < summary.gapRanges; i++)
        {
            summary.gapFirst[i] = feed.gapFirst(i);
            summary.gapLast[i] = feed.gapFirst(i) + feed.gapCount(i) - 1;
        }
        summary.firstSequence = tally.firstSequence();
        summary.lastSequence = tally.lastSequence();
    }

    private static void frames(
        final DecodeSummary summary, final UdpFrameDissector dissector, final MoldUdp64LineSelector selector)
    {
        summary.frames = dissector.frames();
        summary.udpDatagrams = dissector.datagrams();
        summary.notIpv4 = dissector.notIpv4();
        summary.notUdp = dissector.notUdp();
        summary.fragments = dissector.fragments();
        summary.truncatedFrames = dissector.truncated();
        summary.malformedFrames = dissector.malformed();
        summary.unsupportedLinkType = dissector.unsupportedLinkType();
        summary.otherDestinations = selector.otherDestinationDatagrams();
        summary.notMoldUdp64 = selector.notMoldUdp64Datagrams();
    }

    private static void sessions(final DecodeSummary summary, final CaptureFeed feed)
    {
        summary.session = feed.sessionsStarted() == 0 ? null : feed.sessionStarted(0);
        summary.sessionChanges = feed.session().sessionChanges();
        for (int i = 0; i < feed.otherSessions(); i++)
        {
            summary.otherSessions.put(feed.otherSession(i), feed.otherSessionPackets(i));
        }
        if (feed.otherSessionOverflowPackets() > 0)
        {
            summary.otherSessions.put("(more sessions)", feed.otherSessionOverflowPackets());
        }
    }

    /**
     * The session counts malformed packets per line; its packet decoder, which validates every packet it drops as
     * malformed once, says why for the framing faults. The rest (sequence 0 or out of range, a session id that is
     * not printable, no room to hold the packet) are the session's own reasons.
     */
    private static void malformed(final DecodeSummary summary, final FeedSession session)
    {
        final MoldUdp64PacketDecoder decoder = session.decoder();
        summary.moldMalformedHeader = decoder.malformedHeaderCount();
        summary.moldBlockOverrun = decoder.blockOverrunCount();
        summary.moldTrailingBytes = decoder.trailingBytesCount();
        final long total = session.malformed(FeedLines.A) + session.malformed(FeedLines.B);
        summary.moldMalformedOther = Math.max(0, total - summary.moldMalformedHeader - summary.moldBlockOverrun -
            summary.moldTrailingBytes);
    }
}
