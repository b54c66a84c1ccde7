package io.mdgate.core.capture;

import io.mdgate.core.feed.LineArbiter;

/**
 * Copies the counters of a capture's reading stages into a {@link DecodeSummary}. Stateless.
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
        final LineArbiter arbiter)
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

        for (int line = 0; line < LineArbiter.LINES; line++)
        {
            final UdpEndpoint endpoint = selector.line(line);
            summary.lineDestinations[line] = endpoint == null ? null : endpoint.toString();
            summary.linePackets[line] = arbiter.packets(line);
        }
        summary.packets = arbiter.packets();
        summary.session = arbiter.hasSession() ? arbiter.session() : null;
        for (int i = 0; i < arbiter.otherSessions(); i++)
        {
            summary.otherSessions.put(arbiter.otherSession(i), arbiter.otherSessionPackets(i));
        }
        if (arbiter.otherSessionOverflowPackets() > 0)
        {
            summary.otherSessions.put("(more sessions)", arbiter.otherSessionOverflowPackets());
        }
        summary.moldMalformedHeader = arbiter.malformedHeaderPackets();
        summary.moldBlockOverrun = arbiter.blockOverrunPackets();
        summary.moldTrailingBytes = arbiter.trailingBytesPackets();
        summary.moldMalformedOther = arbiter.malformedOtherPackets();
        summary.duplicateMessages = arbiter.duplicateMessages();
        summary.duplicatePackets = arbiter.duplicatePackets();
        summary.heartbeats = arbiter.heartbeats();
        summary.endOfSession = arbiter.endOfSession();
        summary.unsequencedPackets = arbiter.unsequencedPackets();
        summary.heldPackets = arbiter.heldPackets();
        summary.gaps = arbiter.gaps();
        summary.missingMessages = arbiter.missingMessages();
        summary.gapRanges = Math.min(arbiter.gapRanges(), DecodeSummary.MAX_GAP_RANGES);
        for (int i = 0; i < summary.gapRanges; i++)
        {
            summary.gapFirst[i] = arbiter.gapFrom(i);
            summary.gapLast[i] = arbiter.gapTo(i) - 1;
        }
        summary.firstSequence = arbiter.firstSequence();
        summary.lastSequence = arbiter.lastSequence();
    }
}
