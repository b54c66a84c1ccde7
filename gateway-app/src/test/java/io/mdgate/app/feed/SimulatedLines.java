package io.mdgate.app.feed;

import io.mdgate.app.sim.FaultConfig;
import io.mdgate.app.sim.LineFaults;
import io.mdgate.app.sim.MoldUdp64Framer;
import io.mdgate.app.sim.PacketOutput;
import io.mdgate.app.sim.RetransmitStore;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Test support: a simulated session as the two lines deliver it, built with the simulator's own parts: the
 * generator, the MoldUDP64 framer and one fault injector per line, plus the re-request server's store holding
 * every message. Keeps each message as generated, the packets in the order the lines sent them, and which
 * sequences each line carried intact.
 */
final class SimulatedLines
{
    static final String SESSION = "FEEDTEST01";
    static final int MAX_PAYLOAD = 1_472;

    /** One datagram as a line sent it. */
    record Arrival(int line, byte[] packet)
    {
    }

    private final List<byte[]> messages = new ArrayList<>();
    private final List<Arrival> arrivals = new ArrayList<>();
    private final BitSet[] intact = { new BitSet(), new BitSet() };
    private final RetransmitStore store;
    private final ItchSessionGenerator generator;
    private final LineFaults[] faults = new LineFaults[2];

    SimulatedLines(final long seed, final int messageCount, final FaultConfig faultsA, final FaultConfig faultsB)
    {
        generator = new ItchSessionGenerator(new SimulationConfig().seed(seed).instruments(40).messages(messageCount));
        store = new RetransmitStore(MoldUdp64Framer.FIRST_SEQUENCE, messageCount + 16, messageCount * 64);
        final PacketOutput output = new PacketOutput()
        {
            @Override
            public void send(final int line, final long timestamp, final DirectBuffer buffer, final int offset,
                final int length)
            {
                final byte[] packet = new byte[length];
                buffer.getBytes(offset, packet);
                arrivals.add(new Arrival(line, packet));
                markIntact(line, buffer, offset, length);
            }

            @Override
            public String describe()
            {
                return "memory";
            }

            @Override
            public void close()
            {
            }
        };
        faults[0] = new LineFaults(PacketOutput.LINE_A, faultsA, seed * 31 + 1, MAX_PAYLOAD, output);
        faults[1] = new LineFaults(PacketOutput.LINE_B, faultsB, seed * 31 + 2, MAX_PAYLOAD, output);
        final MoldUdp64Framer framer = new MoldUdp64Framer(
            MoldUdp64Session.of(SESSION), MAX_PAYLOAD, 0, 10_000, 1_000_000_000L, this::toLines);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        int length;
        while ((length = generator.next(message, 0)) > 0)
        {
            final long sequence = framer.onMessage(generator.timestamp(), message, 0, length);
            store.append(sequence, message, 0, length);
            final byte[] copy = new byte[length];
            message.getBytes(0, copy);
            messages.add(copy);
        }
        framer.finish(generator.timestamp());
    }

    private void toLines(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        final int count = buffer.getShort(offset + 18, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        for (final LineFaults line : faults)
        {
            if (count == MoldUdp64PacketDecoder.END_OF_SESSION_COUNT)
            {
                line.offerUnfaulted(timestamp, buffer, offset, length);
            }
            else
            {
                line.offer(timestamp, buffer, offset, length);
            }
        }
    }

    private void markIntact(final int line, final DirectBuffer buffer, final int offset, final int length)
    {
        final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
        if (decoder.decode(buffer, offset, length, (b, o, l, s) -> { }) > 0)
        {
            intact[line].set((int)decoder.sequenceNumber(), (int)decoder.nextSequenceNumber());
        }
    }

    /** @return message {@code sequence} as generated. */
    byte[] message(final long sequence)
    {
        return messages.get((int)(sequence - 1));
    }

    int messageCount()
    {
        return messages.size();
    }

    List<Arrival> arrivals()
    {
        return arrivals;
    }

    RetransmitStore store()
    {
        return store;
    }

    ItchSessionGenerator generator()
    {
        return generator;
    }

    LineFaults faults(final int line)
    {
        return faults[line];
    }

    /** @return how many sequences neither line carried intact. */
    int lostOnBothLines()
    {
        final BitSet any = (BitSet)intact[0].clone();
        any.or(intact[1]);
        return messages.size() - any.cardinality();
    }
}
