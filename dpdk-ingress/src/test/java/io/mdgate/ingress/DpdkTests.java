package io.mdgate.ingress;

import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What the DPDK tests share: the lines, an ingress context with the EAL settings every test in one JVM uses (EAL
 * starts once per process, so they must agree), feed packets, and a bounded drain loop.
 */
final class DpdkTests
{
    static final UdpEndpoint LINE_A = UdpEndpoint.parse("233.54.12.111:26477");
    static final UdpEndpoint LINE_B = UdpEndpoint.parse("233.49.196.111:26477");
    static final byte[] SESSION = MoldUdp64Session.of("TEST000001");

    private DpdkTests()
    {
    }

    /** Skips the calling test, saying why, when this host cannot run DPDK. */
    static void assumeDpdk()
    {
        if (!DpdkNative.isAvailable())
        {
            final String reason = "DPDK library unavailable: " + DpdkNative.unavailabilityCause();
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
        if (!DpdkErrors.isRoot())
        {
            final String reason = "DPDK tests need root (EAL memory, raw sockets)";
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
    }

    static IngressLines lines()
    {
        return IngressLines.of(LINE_A, LINE_B);
    }

    /** @return a context for the device with this JVM's common EAL settings: the last CPU, 256 MB, no hugepages. */
    static DpdkIngress.Context context(final String device)
    {
        return new DpdkIngress.Context()
            .device(device)
            .lines(lines())
            .lcores(Integer.toString(EalArguments.lastOnlineCpu()))
            .memoryMegabytes(256)
            .mbufs(4095)
            .linkTimeoutMillis(3000);
    }

    /** @return MoldUDP64 packets with sequences 1..count, one or more messages of seeded random bytes each. */
    static List<byte[]> moldPackets(final int count, final long seed)
    {
        final Random random = new Random(seed);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[1500]);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[256]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        final List<byte[]> packets = new ArrayList<>();
        long sequence = 1;
        for (int i = 0; i < count; i++)
        {
            encoder.wrap(packet, 0, packet.capacity()).session(SESSION).sequenceNumber(sequence);
            final int messages = 1 + random.nextInt(4);
            for (int m = 0; m < messages; m++)
            {
                final int length = 12 + random.nextInt(200);
                for (int b = 0; b < length; b++)
                {
                    message.putByte(b, (byte)random.nextInt());
                }
                encoder.tryAppend(message, 0, length);
            }
            sequence += encoder.messageCount();
            final byte[] bytes = new byte[encoder.length()];
            packet.getBytes(0, bytes);
            packets.add(bytes);
        }
        return packets;
    }

    /**
     * Polls until no packet came for idleMillis (a capture is exhausted), or maxMillis passed.
     *
     * @return packets handed over.
     */
    static long drain(final Ingress ingress, final PacketHandler handler, final long idleMillis, final long maxMillis)
    {
        final long start = System.nanoTime();
        long lastPacket = start;
        long packets = 0;
        while (true)
        {
            final int count = ingress.poll(handler);
            final long now = System.nanoTime();
            if (count < 0)
            {
                throw new AssertionError("poll failed: " + count);
            }
            if (count > 0)
            {
                packets += count;
                lastPacket = now;
            }
            else if (now - lastPacket > idleMillis * 1_000_000L || now - start > maxMillis * 1_000_000L)
            {
                return packets;
            }
        }
    }
}
