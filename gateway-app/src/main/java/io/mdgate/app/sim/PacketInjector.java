package io.mdgate.app.sim;

import io.mdgate.core.mold.MoldUdp64Descriptor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Sends the {@link InjectedPackets} of a run: after each data packet, decides from the run's message count so far
 * (for the counts, spread evenly over the run) and its own seeded random stream (for the rates) whether a stray or
 * a far-ahead copy follows it, builds the copy in a preallocated buffer and hands it to the output on the next line
 * in turn for its kind. Injected packets pass no line faults, so every one reaches the output. Allocation-free after
 * construction. Not thread-safe.
 */
public final class PacketInjector
{
    private static final int SESSION_OFFSET = MoldUdp64Descriptor.SESSION_OFFSET;
    private static final int SEQUENCE_OFFSET = MoldUdp64Descriptor.SEQUENCE_NUMBER_OFFSET;

    private final InjectedPackets config;
    private final long runMessages;
    private final SplittableRandom random;
    private final PacketOutput output;
    private final UnsafeBuffer copy;
    private final long[] strays = new long[2];
    private final long[] farAhead = new long[2];
    private long straysByCount;
    private long farAheadByCount;

    /**
     * @param config      what to inject.
     * @param runMessages messages of the whole run, over which the counts are spread.
     * @param seed        of the injector's random stream.
     * @param maxPacket   largest packet offered.
     * @param output      receives the injected packets.
     */
    public PacketInjector(final InjectedPackets config, final long runMessages, final long seed, final int maxPacket,
        final PacketOutput output)
    {
        this.config = config;
        this.runMessages = runMessages;
        this.random = new SplittableRandom(seed);
        this.output = output;
        this.copy = new UnsafeBuffer(new byte[maxPacket]);
    }

    /**
     * Offers a data packet just sent on the lines.
     *
     * @param messagesSoFar messages of the run framed up to and including this packet.
     */
    public void afterDataPacket(final long timestamp, final DirectBuffer buffer, final int offset, final int length,
        final long messagesSoFar)
    {
        if (config.isNone())
        {
            return;
        }
        final boolean strayDue = due(config.strays(), straysByCount, messagesSoFar);
        if (strayDue || hit(config.strayRate()))
        {
            straysByCount += strayDue ? 1 : 0;
            sendStray(timestamp, buffer, offset, length);
        }
        final boolean farAheadDue = due(config.farAhead(), farAheadByCount, messagesSoFar);
        if (farAheadDue || hit(config.farAheadRate()))
        {
            farAheadByCount += farAheadDue ? 1 : 0;
            sendFarAhead(timestamp, buffer, offset, length);
        }
    }

    /** The k-th of n packets by count is due once the run has framed k / (n + 1) of its messages. */
    private boolean due(final long count, final long sent, final long messagesSoFar)
    {
        return sent < count && messagesSoFar * (count + 1) >= (sent + 1) * runMessages;
    }

    private boolean hit(final double rate)
    {
        return rate > 0 && random.nextDouble() < rate;
    }

    private void sendStray(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        copy.putBytes(0, buffer, offset, length);
        final int at = SESSION_OFFSET + random.nextInt(MoldUdp64Descriptor.SESSION_LENGTH);
        copy.putByte(at, (byte)(copy.getByte(at) ^ (1 << random.nextInt(5))));
        send(strays, timestamp, length);
    }

    private void sendFarAhead(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        copy.putBytes(0, buffer, offset, length);
        final long sequence = copy.getLong(SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN);
        copy.putLong(SEQUENCE_OFFSET, sequence + config.farAheadSequence() - 1, ByteOrder.BIG_ENDIAN);
        send(farAhead, timestamp, length);
    }

    private void send(final long[] perLine, final long timestamp, final int length)
    {
        final int line = (perLine[0] + perLine[1]) % 2 == 0 ? PacketOutput.LINE_A : PacketOutput.LINE_B;
        perLine[line]++;
        output.send(line, timestamp, copy, 0, length);
    }

    /** @return stray packets sent on a line. */
    public long strays(final int line)
    {
        return strays[line];
    }

    /** @return far-ahead packets sent on a line. */
    public long farAhead(final int line)
    {
        return farAhead[line];
    }
}
