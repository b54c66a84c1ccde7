package io.mdgate.ingress;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.PacketHandler;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link DpdkIngress} in a process of its own (one EAL per process), for the namespace tests: started
 * inside the receiving namespace so the PMD binds to the interface there. Arguments:
 * {@code DEVICE PACKETS SEED TIMEOUT_MS}. Prints {@code READY <driver>} once the port is up, then receives until
 * both lines brought every packet, or 3 s passed without one, or the timeout; then prints
 * {@code RESULT a=.. b=.. aIntact=.. bIntact=.. duplicates=.. outOfOrder=..} (intact: distinct packets whose
 * bytes equal the sender's), {@code MISSING A [ranges] B [ranges]} (packet indexes never received) and
 * {@code STATS <json>}.
 */
public final class IngressProbe implements PacketHandler
{
    private static final long IDLE_NANOS = 3_000_000_000L;

    private final List<byte[]> expected;
    private final Map<Long, Integer> indexOfSequence = new HashMap<>();
    private final boolean[][] seen;
    private final int[] received = new int[FeedLines.RECOVERY + 1];
    private final int[] intact = new int[FeedLines.RECOVERY + 1];
    private final int[] lastIndex = { -1, -1, -1 };
    private int duplicates;
    private int outOfOrder;

    private IngressProbe(final List<byte[]> expected)
    {
        this.expected = expected;
        seen = new boolean[FeedLines.RECOVERY + 1][expected.size()];
        for (int i = 0; i < expected.size(); i++)
        {
            indexOfSequence.put(sequenceOf(expected.get(i)), i);
        }
    }

    public static void main(final String[] args)
    {
        final String device = args[0];
        final List<byte[]> expected = DpdkTests.moldPackets(Integer.parseInt(args[1]), Long.parseLong(args[2]));
        final long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000L;
        final IngressProbe probe = new IngressProbe(expected);
        final IngressStats stats;
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context(device).linkTimeoutMillis(10_000)))
        {
            ingress.start();
            System.out.println("READY " + ingress.driver() + " multicast=" + ingress.multicastMode());
            System.out.flush();
            long lastPacket = 0;
            while (!probe.complete())
            {
                final long now = System.nanoTime();
                if (ingress.poll(probe) > 0)
                {
                    lastPacket = now;
                }
                else if (now > deadline || (lastPacket != 0 && now - lastPacket > IDLE_NANOS))
                {
                    break;
                }
            }
            stats = ingress.stats();
        }
        System.out.println("RESULT a=" + probe.received[FeedLines.A] + " b=" + probe.received[FeedLines.B] +
            " aIntact=" + probe.intact[FeedLines.A] + " bIntact=" + probe.intact[FeedLines.B] +
            " duplicates=" + probe.duplicates + " outOfOrder=" + probe.outOfOrder);
        System.out.println("MISSING A " + probe.missing(FeedLines.A) + " B " + probe.missing(FeedLines.B));
        System.out.println("STATS " + stats.toJson());
    }

    /** @return the packet indexes the line never brought, as ranges (the first 20). */
    private String missing(final int line)
    {
        final StringBuilder sb = new StringBuilder("[");
        int ranges = 0;
        for (int i = 0; i < expected.size() && ranges < 20; i++)
        {
            if (!seen[line][i])
            {
                final int first = i;
                while (i + 1 < expected.size() && !seen[line][i + 1])
                {
                    i++;
                }
                sb.append(ranges++ == 0 ? "" : ",").append(first).append(first == i ? "" : "-" + i);
            }
        }
        return sb.append(']').toString();
    }

    private boolean complete()
    {
        return intact[FeedLines.A] == expected.size() && intact[FeedLines.B] == expected.size();
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        received[line]++;
        final byte[] payload = new byte[length];
        buffer.getBytes(offset, payload);
        final Integer index = length >= 20 ? indexOfSequence.get(sequenceOf(payload)) : null;
        if (index == null || !Arrays.equals(expected.get(index), payload))
        {
            return;
        }
        if (seen[line][index])
        {
            duplicates++;
            return;
        }
        seen[line][index] = true;
        intact[line]++;
        if (index < lastIndex[line])
        {
            outOfOrder++;
        }
        lastIndex[line] = index;
    }

    private static long sequenceOf(final byte[] packet)
    {
        return java.nio.ByteBuffer.wrap(packet).order(ByteOrder.BIG_ENDIAN).getLong(10);
    }
}
