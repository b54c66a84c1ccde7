package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64MessageHandler;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: records what a feed session delivers, messages and declared gaps in one stream, so a test can
 * check both their order and that together they cover every sequence exactly once.
 */
final class SessionOutput implements MoldUdp64MessageHandler, GapHandler
{
    /** One message (count 0) or one declared gap. */
    record Item(long sequence, long gapCount)
    {
        boolean isGap()
        {
            return gapCount > 0;
        }

        @Override
        public String toString()
        {
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

    List<Item> items()
    {
        return items;
    }

    /** @return the stream as text, e.g. {@code [1, 2, gap 3x2, 5]}. */
    String stream()
    {
        return items.toString();
    }

    List<Long> sequences()
    {
        return items.stream().filter(item -> !item.isGap()).map(Item::sequence).toList();
    }

    /** @return the tracking numbers of the messages delivered (test packets tag each message with its sequence). */
    List<Integer> tags()
    {
        return tags;
    }

    List<Item> gaps()
    {
        return items.stream().filter(Item::isGap).toList();
    }

    long messages()
    {
        return items.stream().filter(item -> !item.isGap()).count();
    }

    void clear()
    {
        items.clear();
        tags.clear();
    }
}
