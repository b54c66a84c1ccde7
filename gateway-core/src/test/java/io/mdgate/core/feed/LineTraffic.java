package io.mdgate.core.feed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;

/**
 * Test support: a seeded model of two faulty lines carrying the same MoldUDP64 packets. Packet i is sent at
 * {@code i * spacing}; each line delivers it after its own delay plus random jitter (so packets overtake each other),
 * or loses it (alone, or in a burst), duplicates it, or damages it (cut short, so it is malformed). Some bursts hit
 * both lines at once. Every arrival is recorded with its time; the model also knows which sequences no line
 * delivered intact, which is what a re-request must fill. An end-of-session packet, never faulted, closes both
 * lines.
 */
final class LineTraffic
{
    /** One packet arriving on a line. */
    record Arrival(long time, int line, byte[] packet)
    {
    }

    /** Fault rates per packet and per line. */
    record Faults(double loss, double burstLoss, int maxBurst, double bothLinesBurst, double duplicate, double damage)
    {
    }

    static final long SPACING_NANOS = 10_000;
    static final long MAX_JITTER_NANOS = 25_000;
    static final long MAX_LINE_DELAY_NANOS = 40_000;

    private final List<Arrival> arrivals = new ArrayList<>();
    private final BitSet intact = new BitSet();
    private final long[] packetsPerLine = new long[2];
    private final long[] damagedPerLine = new long[2];
    private long lastSequence;
    private long endTime;

    private LineTraffic()
    {
    }

    /**
     * @param seed    of every random choice.
     * @param packets packets in the session, each of 1 to 4 messages.
     * @param faults  applied to each line independently (plus the bursts on both).
     */
    static LineTraffic generate(final long seed, final int packets, final Faults faults)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final LineTraffic traffic = new LineTraffic();
        final long[] lineDelay = { random.nextLong(MAX_LINE_DELAY_NANOS), random.nextLong(MAX_LINE_DELAY_NANOS) };
        final int[] burstLeft = new int[2];
        int bothBurstLeft = 0;
        long sequence = 1;
        for (int i = 0; i < packets; i++)
        {
            final int count = 1 + random.nextInt(4);
            final byte[] packet = moldPacketOfAdds(SESSION, sequence, count);
            final long sent = i * SPACING_NANOS;
            if (bothBurstLeft == 0 && random.nextDouble() < faults.bothLinesBurst())
            {
                bothBurstLeft = 1 + random.nextInt(faults.maxBurst());
            }
            final boolean bothLost = bothBurstLeft > 0;
            if (bothLost)
            {
                bothBurstLeft--;
            }
            boolean anyIntact = false;
            for (int line = 0; line < 2; line++)
            {
                if (burstLeft[line] == 0 && random.nextDouble() < faults.burstLoss())
                {
                    burstLeft[line] = 1 + random.nextInt(faults.maxBurst());
                }
                final boolean lost = bothLost || burstLeft[line] > 0 || random.nextDouble() < faults.loss();
                if (burstLeft[line] > 0)
                {
                    burstLeft[line]--;
                }
                if (lost)
                {
                    continue;
                }
                final long arrival = sent + lineDelay[line] + random.nextLong(MAX_JITTER_NANOS);
                if (random.nextDouble() < faults.damage())
                {
                    traffic.add(arrival, line, Arrays.copyOf(packet, packet.length - 1 - random.nextInt(5)));
                    traffic.damagedPerLine[line]++;
                    continue;
                }
                anyIntact = true;
                traffic.add(arrival, line, packet);
                if (random.nextDouble() < faults.duplicate())
                {
                    traffic.add(arrival + random.nextLong(MAX_JITTER_NANOS), line, packet);
                }
            }
            if (anyIntact)
            {
                traffic.intact.set((int)sequence, (int)sequence + count);
            }
            sequence += count;
        }
        traffic.lastSequence = sequence - 1;
        traffic.endTime = packets * SPACING_NANOS + MAX_LINE_DELAY_NANOS + 2 * MAX_JITTER_NANOS;
        for (int line = 0; line < 2; line++)
        {
            traffic.add(traffic.endTime, line, moldEndOfSession(SESSION, sequence));
        }
        traffic.arrivals.sort(Comparator.comparingLong(Arrival::time));
        return traffic;
    }

    private void add(final long time, final int line, final byte[] packet)
    {
        arrivals.add(new Arrival(time, line, packet));
        packetsPerLine[line]++;
    }

    List<Arrival> arrivals()
    {
        return arrivals;
    }

    long lastSequence()
    {
        return lastSequence;
    }

    /** @return when the last packet (the end of session) arrives. */
    long endTime()
    {
        return endTime;
    }

    /** @return sequences no line delivered intact. */
    List<Long> missingOnBothLines()
    {
        final List<Long> missing = new ArrayList<>();
        for (long sequence = 1; sequence <= lastSequence; sequence++)
        {
            if (!intact.get((int)sequence))
            {
                missing.add(sequence);
            }
        }
        return missing;
    }

    long packets(final int line)
    {
        return packetsPerLine[line];
    }

    long damaged(final int line)
    {
        return damagedPerLine[line];
    }
}
