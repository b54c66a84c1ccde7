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

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        messages.add(copy);
        sequences.add(sequence);
    }
}
