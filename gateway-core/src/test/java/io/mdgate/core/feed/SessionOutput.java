package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: records what a feed session delivers, messages, declared gaps and session starts in one stream, so
 * a test can check both their order and that together they cover every sequence exactly once.
 */
final class SessionOutput implements MoldUdp64MessageHandler, GapHandler
{
    /** One message (count 0, no session), one declared gap, or one session start (its text and first sequence). */
    record Item(long sequence, long gapCount, String session)
    {
        Item(final long sequence, final long gapCount)
        {
            this(sequence, gapCount, null);
        }

        boolean isGap()
        {
            return gapCount > 0;
        }

        boolean isMessage()
        {
            return gapCount == 0 && session == null;
        }

        @Override
        public String toString()
        {
            if (session != null)
            {
                return "session " + session + "@" + sequence;
            }
            return isGap() ? "gap " + sequence + "x" + gapCount : Long.toString(sequence);
        }
    }

    private final List<Item> items = new ArrayList<>();
    private final List<Integer> tags = new ArrayList<>();

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        items.add(new Item(sequence, 0));
        tags.add(length >= 5 ? ((buffer.getByte(offset + 3) & 0xFF) << 8) | (buffer.getByte(offset + 4) & 0xFF) : -1);
    }

    @Override
    public void onGapDeclared(final long firstSequence, final long count)
    {
        items.add(new Item(firstSequence, count));
    }

    @Override
    public void onSessionStarted(
        final int sessionNumber, final DirectBuffer sessionId, final int offset, final long firstSequence)
    {
        final byte[] name = new byte[MoldUdp64Session.LENGTH];
        sessionId.getBytes(offset, name);
        items.add(new Item(firstSequence, 0, sessionNumber + " " + MoldUdp64Session.text(name)));
    }

    List<Item> items()
    {
        return items;
    }

    /** @return the stream as text, e.g. {@code [1, 2, gap 3x2, 5]}. */
    String stream()
    {
        return items.toString();
    }

    /** @return the messages and gaps as text, without the session starts, e.g. {@code [1, 2, gap 3x2, 5]}. */
    String messagesAndGaps()
    {
        return items.stream().filter(item -> item.session() == null).toList().toString();
    }

    List<Long> sequences()
    {
        return items.stream().filter(Item::isMessage).map(Item::sequence).toList();
    }

    /** @return the tracking numbers of the messages delivered (test packets tag each message with its sequence). */
    List<Integer> tags()
    {
        return tags;
    }

    /** @return the session starts, e.g. {@code [session 1 000010059B@1]}. */
    List<Item> sessions()
    {
        return items.stream().filter(item -> item.session() != null).toList();
    }

    List<Item> gaps()
    {
        return items.stream().filter(Item::isGap).toList();
    }

    long messages()
    {
        return items.stream().filter(Item::isMessage).count();
    }

    void clear()
    {
        items.clear();
        tags.clear();
    }
}
