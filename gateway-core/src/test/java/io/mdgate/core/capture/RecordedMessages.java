package io.mdgate.core.capture;

import io.mdgate.core.mold.MoldUdp64MessageHandler;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Records what a reader or arbiter delivers: each message's type, length, tag (tracking number) and sequence.
 */
public final class RecordedMessages implements MoldUdp64MessageHandler
{
    /** One delivered message. */
    public record Message(char type, int length, int tag, long sequence)
    {
    }

    private final List<Message> messages = new ArrayList<>();

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        final char type = length > 0 ? (char)buffer.getByte(offset) : '?';
        final int tag = length >= 5 ? ((buffer.getByte(offset + 3) & 0xFF) << 8) | (buffer.getByte(offset + 4) & 0xFF) : -1;
        messages.add(new Message(type, length, tag, sequence));
    }

    public List<Message> messages()
    {
        return messages;
    }

    public List<Long> sequences()
    {
        return messages.stream().map(Message::sequence).toList();
    }

    public List<Integer> tags()
    {
        return messages.stream().map(Message::tag).toList();
    }
}
