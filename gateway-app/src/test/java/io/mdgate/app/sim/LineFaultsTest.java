package io.mdgate.app.sim;

import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class LineFaultsTest
{
    private static final int MAX_PAYLOAD = 1_472;

    /** Frames a generated session and passes every packet through one line's faults. */
    private static RecordedPackets run(final FaultConfig faults, final long seed, final LineFaults[] holder)
    {
        final RecordedPackets output = new RecordedPackets();
        final LineFaults line = new LineFaults(PacketOutput.LINE_A, faults, seed, MAX_PAYLOAD, output);
        holder[0] = line;
        final MoldUdp64Framer framer = new MoldUdp64Framer(MoldUdp64Session.of("F"), MAX_PAYLOAD, 4, 10_000,
            1_000_000_000L, (timestamp, buffer, offset, length) ->
            {
                if (length == 20 && (buffer.getShort(offset + 18) & 0xFFFF) == 0xFFFF)
                {
                    line.offerUnfaulted(timestamp, buffer, offset, length);
                }
                else
                {
                    line.offer(timestamp, buffer, offset, length);
                }
            });
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(2).instruments(20).messages(40_000));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        int length;
        while ((length = generator.next(message, 0)) > 0)
        {
            framer.onMessage(generator.timestamp(), message, 0, length);
        }
        framer.finish(generator.timestamp());
        return output;
    }

    private static long firstSequence(final byte[] packet)
    {
        return ByteBuffer.wrap(packet).getLong(10);
    }

    @Test
    void shouldInjectTheSameFaultsForTheSameSeedAndCountEachOne()
    {
        final FaultConfig faults = new FaultConfig(0.02, 3, 0.02, 3, 0.02, 0.01);
        final LineFaults[] first = new LineFaults[1];
        final LineFaults[] second = new LineFaults[1];
        final LineFaults[] other = new LineFaults[1];
        final List<Long> a = run(faults, 7, first).packets.stream().map(p -> firstSequence(p.bytes()) * 100_000 +
            p.bytes().length).toList();
        final List<Long> b = run(faults, 7, second).packets.stream().map(p -> firstSequence(p.bytes()) * 100_000 +
            p.bytes().length).toList();
        final List<Long> c = run(faults, 8, other).packets.stream().map(p -> firstSequence(p.bytes()) * 100_000 +
            p.bytes().length).toList();

        assertEquals(a, b);
        assertNotEquals(a, c);
        final LineFaults line = first[0];
        assertTrue(line.lost() > 0 && line.reordered() > 0 && line.duplicated() > 0 && line.corrupted() > 0);
        assertEquals(line.packets() - line.lost() + line.duplicated(), line.sent());
        assertEquals(a.size(), line.sent());
        assertEquals(line.lost(), second[0].lost());
        final double lossEvents = line.packets() * 0.02;
        assertTrue(line.lost() > lossEvents && line.lost() < lossEvents * 3, "lost " + line.lost());
    }

    @Test
    void shouldDropConsecutivePacketsInBursts()
    {
        final LineFaults[] holder = new LineFaults[1];
        final RecordedPackets output = run(new FaultConfig(0.01, 10, 0, 1, 0, 0), 3, holder);
        final List<Long> sequences = output.packets.stream().map(p -> firstSequence(p.bytes())).toList();
        final RecordedPackets clean = run(FaultConfig.NONE, 3, new LineFaults[1]);
        final List<Long> all = clean.packets.stream().map(p -> firstSequence(p.bytes())).toList();
        final Set<Integer> delivered = new HashSet<>();
        int d = 0;
        for (int i = 0; i < all.size() && d < sequences.size(); i++)
        {
            if (all.get(i).equals(sequences.get(d)) &&
                clean.packets.get(i).bytes().length == output.packets.get(d).bytes().length)
            {
                delivered.add(i);
                d++;
            }
        }
        int longestGap = 0;
        int gap = 0;
        for (int i = 0; i < all.size(); i++)
        {
            gap = delivered.contains(i) ? 0 : gap + 1;
            longestGap = Math.max(longestGap, gap);
        }
        assertEquals(all.size() - holder[0].lost(), delivered.size());
        assertTrue(longestGap > 1, "bursts drop consecutive packets, longest run " + longestGap);
        assertTrue(longestGap <= 20, "a burst is at most 10 packets (two may touch), longest run " + longestGap);
    }

    @Test
    void shouldDeliverReorderedPacketsLaterButDeliverThemAll()
    {
        final LineFaults[] holder = new LineFaults[1];
        final RecordedPackets output = run(new FaultConfig(0, 1, 0.05, 3, 0, 0), 4, holder);
        final List<Long> sequences = new ArrayList<>(output.packets.stream().map(p -> firstSequence(p.bytes())).toList());
        int inversions = 0;
        for (int i = 1; i < sequences.size(); i++)
        {
            inversions += sequences.get(i) < sequences.get(i - 1) ? 1 : 0;
        }
        assertEquals(holder[0].reordered(), inversions);
        assertTrue(inversions > 0);
        final RecordedPackets.Decoded decoded = RecordedPackets.decodePackets(output.packets);
        assertEquals(40_000, decoded.messages.size());
        assertEquals(new HashSet<>(decoded.sequences).size(), 40_000);
        assertEquals(1, decoded.endOfSession);
        assertEquals(20, output.packets.get(output.packets.size() - 1).bytes().length, "end of session comes last");
    }

    @Test
    void shouldDamageEveryCorruptedPacketSoValidationCatchesIt()
    {
        final LineFaults[] holder = new LineFaults[1];
        final RecordedPackets output = run(new FaultConfig(0, 1, 0, 1, 0, 1.0), 5, holder);
        final List<byte[]> faulted = output.packets.subList(0, output.packets.size() - 1).stream()
            .map(RecordedPackets.Packet::bytes).toList();
        final RecordedPackets.Decoded decoded = RecordedPackets.decode(faulted);

        assertEquals(faulted.size(), holder[0].corrupted());
        assertEquals(faulted.size(), decoded.malformedPackets + decoded.malformedMessages);
        assertTrue(decoded.malformedPackets > 0 && decoded.malformedMessages > 0);
    }

    @Test
    void shouldRefuseRatesThatAreNotProbabilities()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new FaultConfig(1.5, 1, 0, 1, 0, 0));
        assertTrue(refused.getMessage().contains("from 0 to 1"));
        assertThrows(IllegalArgumentException.class, () -> new FaultConfig(0, 0, 0, 1, 0, 0));
    }
}
