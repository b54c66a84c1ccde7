package io.mdgate.app.sim;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class LaggedLineOutputTest
{
    private static final long LAG = 1_000;

    private static UnsafeBuffer packet(final int value, final int length)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        buffer.setMemory(0, length, (byte)value);
        return buffer;
    }

    @Test
    void shouldSendEachLineBPacketTheLagLaterJustBeforeTheFirstLineAPacketNotEarlier()
    {
        final RecordedPackets out = new RecordedPackets();
        final LaggedLineOutput lagged = new LaggedLineOutput(out, LAG, 4_096);
        for (int i = 0; i < 5; i++)
        {
            lagged.send(PacketOutput.LINE_A, i * 400L, packet(i, 30), 0, 30);
            lagged.send(PacketOutput.LINE_B, i * 400L, packet(i, 30), 0, 30);
        }
        lagged.drain();

        final List<String> order = out.packets.stream().map(p -> (p.line() == 0 ? "A" : "B") + p.bytes()[0] + "@" +
            p.timestamp()).toList();
        assertEquals(List.of("A0@0", "A1@400", "A2@800", "B0@1000", "A3@1200", "B1@1400", "A4@1600", "B2@1800",
            "B3@2200", "B4@2600"), order);
        assertEquals(0, lagged.held());
        assertEquals(0, lagged.shortened());
    }

    @Test
    void shouldSendTheOldestHeldPacketEarlyAndCountItWhenTheRingIsFullAndKeepEveryByte()
    {
        final RecordedPackets out = new RecordedPackets();
        // 100-byte packets take 112 bytes each: 4 fit 512 bytes (with a wrap's padding, sometimes 3).
        final LaggedLineOutput lagged = new LaggedLineOutput(out, 1_000_000, 512);
        for (int i = 0; i < 20; i++)
        {
            lagged.send(PacketOutput.LINE_B, i, packet(i, 100), 0, 100);
        }
        lagged.close();

        assertEquals(20, out.packets.size());
        for (int i = 0; i < 20; i++)
        {
            assertArrayEquals(packet(i, 100).byteArray(), out.packets.get(i).bytes(), "packet " + i + " intact");
            assertEquals(i + 1_000_000L, out.packets.get(i).timestamp());
        }
        assertEquals(true, lagged.shortened() >= 16 && lagged.shortened() <= 17, "shortened " + lagged.shortened());
    }
}
