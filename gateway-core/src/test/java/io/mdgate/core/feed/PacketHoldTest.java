package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class PacketHoldTest
{
    /** A packet whose every byte is its sequence's low byte, so a copy can be checked. */
    private static UnsafeBuffer packet(final long sequence, final int length)
    {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte)sequence);
        return new UnsafeBuffer(bytes);
    }

    private static void add(final PacketHold hold, final long sequence, final int length)
    {
        assertTrue(hold.add(packet(sequence, length), 0, length, sequence, 1, (int)(sequence % 3), sequence * 10));
    }

    private static long takeLowest(final PacketHold hold)
    {
        final int entry = hold.lowestEntry();
        final long sequence = hold.sequence(entry);
        for (int i = 0; i < hold.length(entry); i++)
        {
            assertEquals((byte)sequence, hold.buffer().getByte(hold.offset(entry) + i), "byte " + i + " of " + sequence);
        }
        assertEquals(sequence * 10, hold.timestamp(entry));
        assertEquals(sequence % 3, hold.line(entry));
        hold.removeLowest();
        return sequence;
    }

    @Test
    void shouldGiveBackPacketsLowestSequenceFirstWhateverTheirArrivalOrder()
    {
        final PacketHold hold = new PacketHold(1_000, 8);
        for (final long sequence : new long[] { 5, 3, 9, 4, 7 })
        {
            add(hold, sequence, 50);
        }
        final List<Long> out = new ArrayList<>();
        while (!hold.isEmpty())
        {
            out.add(takeLowest(hold));
        }
        assertEquals(List.of(3L, 4L, 5L, 7L, 9L), out);
    }

    @Test
    void shouldRefuseAPacketWhenEitherTheBytesOrTheEntriesRunOut()
    {
        final PacketHold bytes = new PacketHold(100, 8);
        add(bytes, 1, 60);
        assertFalse(bytes.canHold(41));
        assertTrue(bytes.canHold(40));
        assertFalse(bytes.add(packet(2, 41), 0, 41, 2, 1, 0, 0));
        assertEquals(1, bytes.size());

        final PacketHold entries = new PacketHold(1_000, 2);
        add(entries, 1, 10);
        add(entries, 2, 10);
        assertFalse(entries.canHold(10));
    }

    @Test
    void shouldWrapRoundTheRingOnceTheOldestPacketsHaveLeft()
    {
        final PacketHold hold = new PacketHold(100, 8);
        add(hold, 1, 40);
        add(hold, 2, 40);
        assertFalse(hold.canHold(30), "20 bytes left at the end, none at the start");
        assertEquals(1, takeLowest(hold));
        assertTrue(hold.canHold(40), "the start of the ring is free again");
        add(hold, 3, 40);
        assertFalse(hold.canHold(1), "wrapped: the newest packet reaches the oldest");
        assertEquals(2, takeLowest(hold));
        assertEquals(3, takeLowest(hold));
        assertTrue(hold.isEmpty());
        assertTrue(hold.canHold(100));
    }

    @Test
    void shouldKeepTheBytesOfAPacketReleasedOutOfArrivalOrderUntilTheOlderOnesLeave()
    {
        final PacketHold hold = new PacketHold(100, 8);
        add(hold, 9, 40);
        add(hold, 2, 40);
        assertEquals(2, takeLowest(hold));
        assertFalse(hold.canHold(30), "the packet of 2 came after 9 in the ring; its bytes stay until 9 leaves");
        assertEquals(9, takeLowest(hold));
        assertTrue(hold.canHold(100));
    }

    @Test
    void shouldNeverHandOutOverlappingBytesUnderRandomUse()
    {
        final SplittableRandom random = new SplittableRandom(11);
        final PacketHold hold = new PacketHold(4_096, 64);
        final TreeSet<Long> held = new TreeSet<>();
        long nextSequence = 1;
        for (int step = 0; step < 50_000; step++)
        {
            if (random.nextInt(3) > 0)
            {
                final int length = 20 + random.nextInt(400);
                final long sequence = nextSequence + random.nextInt(50);
                if (!held.contains(sequence) && hold.canHold(length))
                {
                    add(hold, sequence, length);
                    held.add(sequence);
                }
            }
            else if (!hold.isEmpty())
            {
                assertEquals(held.pollFirst(), takeLowest(hold));
                nextSequence++;
            }
            assertEquals(held.size(), hold.size());
        }
    }

    @Test
    void shouldRefuseAnEmptyConfiguration()
    {
        assertThrows(IllegalArgumentException.class, () -> new PacketHold(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PacketHold(1, 0));
    }
}
