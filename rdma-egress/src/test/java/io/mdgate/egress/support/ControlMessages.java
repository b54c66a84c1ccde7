package io.mdgate.egress.support;

import io.mdgate.egress.protocol.ControlFlyweight;
import io.mdgate.egress.transport.ControlChannel;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: one end of a control channel spoken by hand, reading messages of the types a test waits for and
 * keeping the others it reads on the way (heartbeats, answers it asks for later) in order. Not thread-safe.
 */
public final class ControlMessages
{
    private final ControlChannel channel;
    private final List<byte[]> received = new ArrayList<>();

    public ControlMessages(final ControlChannel channel)
    {
        this.channel = channel;
    }

    /** @return the next message of one of the types (others are skipped), within 10 s. */
    public byte[] next(final short... types)
    {
        return next(() -> { }, types);
    }

    /**
     * @param between run before each poll of the channel (e.g. the peer's own poll, in the same thread).
     * @return the next message of one of the types (others are skipped), within 10 s.
     */
    public byte[] next(final Runnable between, final short... types)
    {
        final byte[][] found = new byte[1][];
        Await.until("control message " + java.util.Arrays.toString(types), 10, () ->
        {
            between.run();
            while (!received.isEmpty() && null == found[0])
            {
                final byte[] message = received.remove(0);
                final short type = ControlFlyweight.typeOf(new UnsafeBuffer(message), 0);
                for (final short wanted : types)
                {
                    if (type == wanted)
                    {
                        found[0] = message;
                    }
                }
            }
            if (null == found[0])
            {
                channel.poll((buffer, offset, length) ->
                {
                    final byte[] copy = new byte[length];
                    buffer.getBytes(offset, copy);
                    received.add(copy);
                }, 16);
            }
            return null != found[0];
        });
        return found[0];
    }

    /** Puts a message back in front, to be the next one read. */
    public void pushBack(final byte[] message)
    {
        received.add(0, message);
    }
}
