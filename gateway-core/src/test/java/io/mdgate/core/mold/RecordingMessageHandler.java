package io.mdgate.core.mold;

import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a copy of every message a decoder dispatches, with its sequence, for assertions.
 */
final class RecordingMessageHandler implements MoldUdp64MessageHandler
{
    final List<byte[]> messages = new ArrayList<>();
    final List<Long> sequences = new ArrayList<>();
    /** What happened in order: "prefetch:" or "message:" followed by the message's text. */
    final List<String> events = new ArrayList<>();

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        messages.add(copy);
        sequences.add(sequence);
        events.add("message:" + new String(copy, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Override
    public void prefetch(final DirectBuffer buffer, final int offset, final int length)
    {
        events.add("prefetch:" + buffer.getStringWithoutLengthAscii(offset, length));
    }
}
