package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: records a feed session's operational events as text, e.g. {@code "started 1 000010059B next 1"},
 * {@code "changed 2 000010059B to NEXTSESS01 next 1"},
 * {@code "lost 3x2 reason 2"}, {@code "end 7"}, {@code "stale 1"}, {@code "active 1"}.
 */
final class RecordingSessionListener implements FeedSessionListener
{
    private final List<String> events = new ArrayList<>();

    @Override
    public void onSessionStarted(
        final int sessionNumber, final DirectBuffer sessionId, final int offset, final long nextSequence)
    {
        final byte[] bytes = new byte[MoldUdp64Session.LENGTH];
        sessionId.getBytes(offset, bytes);
        events.add("started " + sessionNumber + " " + MoldUdp64Session.text(bytes) + " next " + nextSequence);
    }

    @Override
    public void onSessionChanged(
        final int sessionNumber,
        final DirectBuffer previousId,
        final int previousOffset,
        final DirectBuffer sessionId,
        final int offset,
        final long nextSequence)
    {
        final byte[] previous = new byte[MoldUdp64Session.LENGTH];
        final byte[] bytes = new byte[MoldUdp64Session.LENGTH];
        previousId.getBytes(previousOffset, previous);
        sessionId.getBytes(offset, bytes);
        events.add("changed " + sessionNumber + " " + MoldUdp64Session.text(previous) + " to " +
            MoldUdp64Session.text(bytes) + " next " + nextSequence);
    }

    @Override
    public void onGapDeclared(final long firstSequence, final long count, final int reason)
    {
        events.add("lost " + firstSequence + "x" + count + " reason " + reason);
    }

    @Override
    public void onSheddingStarted(final long firstShed, final long gapFrom, final int heldPackets)
    {
        events.add("shedding from " + firstShed + " behind " + gapFrom + " held " + heldPackets);
    }

    @Override
    public void onSheddingStopped(final long firstShed, final long endShed, final long packets)
    {
        events.add("shed " + firstShed + ".." + endShed + " packets " + packets);
    }

    @Override
    public void onEndOfSession(final long nextSequence)
    {
        events.add("end " + nextSequence);
    }

    @Override
    public void onLineStale(final int line)
    {
        events.add("stale " + line);
    }

    @Override
    public void onLineActive(final int line)
    {
        events.add("active " + line);
    }

    List<String> events()
    {
        return events;
    }

    /** @return the events that start with the word, e.g. "lost". */
    List<String> events(final String kind)
    {
        return events.stream().filter(event -> event.startsWith(kind + " ")).toList();
    }
}
