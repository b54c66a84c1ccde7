package io.mdgate.journal;

import io.mdgate.core.feed.FeedLines;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class PacketJournalTest
{
    private static final long T0 = TestTicks.OPEN_NANOS;

    @TempDir
    Path dir;

    private record Packet(int line, byte[] payload, long receiveTime)
    {
    }

    private static byte[] payload(final int i)
    {
        final byte[] bytes = new byte[20 + i % 1400];
        for (int b = 0; b < bytes.length; b++)
        {
            bytes[b] = (byte)(i * 31 + b);
        }
        return bytes;
    }

    private void writePackets(final JournalContext context, final int count)
    {
        try (TickJournal journal = TickJournal.open(context))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            for (int i = 0; i < count; i++)
            {
                final byte[] bytes = payload(i);
                journal.publisher().onPacket(i % 3, new UnsafeBuffer(bytes), 0, bytes.length, T0 + i * 1_000L);
                agent.doWork();
            }
            agent.onClose();
            assertEquals(count, agent.packetsAppended());
        }
    }

    @Test
    void shouldReplayRawPacketsWithTheirLineAndReceiveTimeByTimeRange()
    {
        writePackets(JournalFixture.context(dir), 5_000);
        try (JournalReader reader = JournalReader.open(dir); PacketReplay replay = reader.newPacketReplay())
        {
            assertEquals(5_000, replay.count());
            assertEquals(1_001, replay.countByReceiveTime(T0 + 1_000_000, T0 + 2_000_000));
            final List<Packet> packets = new ArrayList<>();
            final long delivered = replay.replayByReceiveTime(T0 + 999_999, T0 + 2_000_500,
                (line, buffer, offset, length, time) ->
                {
                    final byte[] bytes = new byte[length];
                    buffer.getBytes(offset, bytes);
                    packets.add(new Packet(line, bytes, time));
                });
            assertEquals(1_001, delivered);
            for (int i = 0; i < packets.size(); i++)
            {
                final int n = 1_000 + i;
                assertEquals(n % 3, packets.get(i).line());
                assertEquals(T0 + n * 1_000L, packets.get(i).receiveTime());
                assertArrayEquals(payload(n), packets.get(i).payload());
            }
            assertEquals(0, replay.replayByReceiveTime(T0 + 6_000_000, T0 + 7_000_000, (l, b, o, n, t) -> { }));
            assertEquals(5_000, reader.info().packets());
        }
    }

    @Test
    void shouldIgnorePacketsWhenNotRecordingThem()
    {
        writePackets(JournalFixture.context(dir).recordPackets(false), 0);
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir).recordPackets(false)))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            journal.publisher().onPacket(FeedLines.A, new UnsafeBuffer(new byte[40]), 0, 40, T0);
            agent.onClose();
            assertEquals(0, agent.packetsAppended());
        }
        try (JournalReader reader = JournalReader.open(dir); PacketReplay replay = reader.newPacketReplay())
        {
            assertEquals(0, replay.count());
        }
    }

    @Test
    void shouldCountAPacketTooLongToJournal()
    {
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            journal.publisher().onPacket(FeedLines.A, new UnsafeBuffer(new byte[70_000]), 0, 70_000, T0);
            assertEquals(1, journal.publisher().oversizedPackets());
        }
    }
}
