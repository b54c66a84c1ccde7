package io.mdgate.app.sim;

import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Applies one line's {@link FaultConfig} to the packets on their way to the output, from its own seeded random
 * stream, and counts what it did. Packets are copied into preallocated buffers before being changed or held
 * back, so the caller's packet is never modified. Allocation-free after construction. Not thread-safe.
 */
public final class LineFaults
{
    private static final int MOLD_HEADER = MoldUdp64PacketDecoder.HEADER_LENGTH;
    private static final byte UNKNOWN_TYPE = 'z';

    private final int line;
    private final FaultConfig config;
    private final SplittableRandom random;
    private final PacketOutput output;
    private final UnsafeBuffer work;
    private final UnsafeBuffer held;
    private int heldLength;
    private long heldTimestamp;
    private int releaseAfter;
    private int burstLeft;
    private long packets;
    private long sent;
    private long lost;
    private long reordered;
    private long duplicated;
    private long corrupted;

    /**
     * @param line      the line number given to the output.
     * @param config    faults to inject.
     * @param seed      of this line's random stream.
     * @param maxPacket largest packet that will be offered.
     * @param output    receives the packets that survive.
     */
    public LineFaults(
        final int line, final FaultConfig config, final long seed, final int maxPacket, final PacketOutput output)
    {
        this.line = line;
        this.config = config;
        this.random = new SplittableRandom(seed);
        this.output = output;
        this.work = new UnsafeBuffer(new byte[maxPacket]);
        this.held = new UnsafeBuffer(new byte[maxPacket]);
    }

    /** Passes one packet through the faults. */
    public void offer(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        packets++;
        if (config.isNone())
        {
            send(timestamp, buffer, offset, length);
            return;
        }
        if (burstLeft > 0)
        {
            burstLeft--;
            lost++;
            return;
        }
        if (hit(config.lossRate()))
        {
            lost++;
            burstLeft = random.nextInt(config.lossBurst());
            return;
        }
        work.putBytes(0, buffer, offset, length);
        int workLength = length;
        if (hit(config.corruptRate()))
        {
            corrupted++;
            workLength = corrupt(workLength);
        }
        if (heldLength == 0 && hit(config.reorderRate()))
        {
            reordered++;
            held.putBytes(0, work, 0, workLength);
            heldLength = workLength;
            heldTimestamp = timestamp;
            releaseAfter = 1 + random.nextInt(config.reorderDepth());
            return;
        }
        send(timestamp, work, 0, workLength);
        if (hit(config.duplicateRate()))
        {
            duplicated++;
            send(timestamp, work, 0, workLength);
        }
        if (heldLength > 0 && --releaseAfter == 0)
        {
            releaseHeld(timestamp);
        }
    }

    /** Passes a packet that must not be faulted (the end of session), after any packet still held back. */
    public void offerUnfaulted(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        packets++;
        if (heldLength > 0)
        {
            releaseHeld(Math.max(timestamp, heldTimestamp));
        }
        send(timestamp, buffer, offset, length);
    }

    private void releaseHeld(final long timestamp)
    {
        final int length = heldLength;
        heldLength = 0;
        send(timestamp, held, 0, length);
    }

    private boolean hit(final double rate)
    {
        return rate > 0 && random.nextDouble() < rate;
    }

    private void send(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        sent++;
        output.send(line, timestamp, buffer, offset, length);
    }

    /**
     * Damages the packet in the work buffer so a receiver's validation catches it: cut short, a block length
     * that overruns the datagram, or a message whose type byte is unknown.
     *
     * @return the new length.
     */
    private int corrupt(final int length)
    {
        if (length <= MOLD_HEADER + 2)
        {
            return MOLD_HEADER / 2 + random.nextInt(MOLD_HEADER / 2);
        }
        switch (random.nextInt(3))
        {
            case 0:
                return length - 1 - random.nextInt(Math.min(8, length - MOLD_HEADER - 1));
            case 1:
                work.putShort(MOLD_HEADER, (short)(length + random.nextInt(64)), ByteOrder.BIG_ENDIAN);
                return length;
            default:
                work.putByte(MOLD_HEADER + 2, UNKNOWN_TYPE);
                return length;
        }
    }

    /** @return packets offered. */
    public long packets()
    {
        return packets;
    }

    /** @return packets handed to the output, duplicates included. */
    public long sent()
    {
        return sent;
    }

    public long lost()
    {
        return lost;
    }

    public long reordered()
    {
        return reordered;
    }

    public long duplicated()
    {
        return duplicated;
    }

    public long corrupted()
    {
        return corrupted;
    }
}
