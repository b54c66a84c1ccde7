package io.mdgate.runtime;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSessionListener;
import io.mdgate.egress.PeerText;
import org.agrona.DirectBuffer;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Says on the gateway's stderr, once each, what an operator must know of the feed session: the session it took,
 * each change with both names, the end of session, a line gone stale and back. Session names come from the wire, so
 * they are escaped as every peer-supplied text is ({@link PeerText}); and when the hold behind a gap fills up, the
 * start and end of shedding. These are rare events (a handful a day), so
 * printing on the session's thread costs nothing that matters; gaps are counted, not logged.
 * <p>
 * Threading: the session agent's thread.
 */
final class FeedEventLog implements FeedSessionListener
{
    private static final String[] LINES = { "A", "B" };
    private static final int SESSION_NAME_LENGTH = 10;

    private final PrintStream out;

    FeedEventLog(final PrintStream out)
    {
        this.out = out;
    }

    @Override
    public void onSessionStarted(
        final int sessionNumber, final DirectBuffer sessionId, final int offset, final long nextSequence)
    {
        out.println("mdgate run: feed: session " + name(sessionId, offset) + " (number " + sessionNumber +
            ") accepted, from sequence " + nextSequence);
    }

    @Override
    public void onSessionChanged(final int sessionNumber, final DirectBuffer previousId, final int previousOffset,
        final DirectBuffer sessionId, final int offset, final long nextSequence)
    {
        out.println("mdgate run: feed: session changed from " + name(previousId, previousOffset) + " to " +
            name(sessionId, offset) + " (number " + sessionNumber + "), from sequence " + nextSequence +
            "; books and instruments reset");
    }

    @Override
    public void onSheddingStarted(final long firstShed, final long gapFrom, final int heldPackets)
    {
        out.println("mdgate run: feed: the hold is nearly full (" + heldPackets + " packets behind the gap at " +
            "sequence " + gapFrom + "); packets from sequence " + firstShed + " on are not held but asked for again " +
            "once it drains");
    }

    @Override
    public void onSheddingStopped(final long firstShed, final long endShed, final long packets)
    {
        out.println("mdgate run: feed: the hold drained; asking for sequences " + firstShed + " to " + (endShed - 1) +
            " (" + packets + " packets were not held)");
    }

    @Override
    public void onEndOfSession(final long nextSequence)
    {
        out.println("mdgate run: feed: end of session after sequence " + (nextSequence - 1));
    }

    @Override
    public void onLineStale(final int line)
    {
        out.println("mdgate run: feed: line " + lineName(line) + " is silent (no packet, not even a heartbeat)");
    }

    @Override
    public void onLineActive(final int line)
    {
        out.println("mdgate run: feed: line " + lineName(line) + " is receiving again");
    }

    private static String lineName(final int line)
    {
        return line >= FeedLines.A && line <= FeedLines.B ? LINES[line] : Integer.toString(line);
    }

    /** @return the 10-byte name in quotes, escaped as every peer-supplied text is ({@link PeerText}). */
    static String name(final DirectBuffer buffer, final int offset)
    {
        final byte[] bytes = new byte[SESSION_NAME_LENGTH];
        buffer.getBytes(offset, bytes);
        return "'" + PeerText.sanitize(new String(bytes, StandardCharsets.ISO_8859_1)) + "'";
    }
}
