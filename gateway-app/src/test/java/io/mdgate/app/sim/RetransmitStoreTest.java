package io.mdgate.app.sim;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetransmitStoreTest
{
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer copy = new UnsafeBuffer(new byte[64]);

    private void append(final RetransmitStore store, final long sequence)
    {
        final int length = 5 + (int)(sequence % 40);
        for (int i = 0; i < length; i++)
        {
            message.putByte(i, (byte)(sequence * 31 + i));
        }
        store.append(sequence, message, 0, length);
    }

    private void assertHolds(final RetransmitStore store, final long sequence)
    {
        final int length = store.copy(sequence, copy, 0);
        assertEquals(5 + (int)(sequence % 40), length, "length of " + sequence);
        for (int i = 0; i < length; i++)
        {
            assertEquals((byte)(sequence * 31 + i), copy.getByte(i), "byte " + i + " of " + sequence);
        }
    }

    @Test
    void shouldReturnEveryRetainedMessageAcrossTheRingsWrap()
    {
        final RetransmitStore store = new RetransmitStore(1, 1_000, 1_000);
        for (long sequence = 1; sequence <= 5_000; sequence++)
        {
            append(store, sequence);
            assertHolds(store, sequence);
        }
        assertTrue(store.oldestSequence() > 4_950, "bytes bound the store: " + store.oldestSequence());
        for (long sequence = store.oldestSequence(); sequence <= 5_000; sequence++)
        {
            assertHolds(store, sequence);
        }
        assertFalse(store.contains(store.oldestSequence() - 1));
        assertFalse(store.contains(5_001));
        assertEquals(-1, store.copy(5_001, copy, 0));
    }

    @Test
    void shouldKeepAtMostTheMessageCountItWasGiven()
    {
        final RetransmitStore store = new RetransmitStore(1, 100, 1 << 20);
        for (long sequence = 1; sequence <= 1_000; sequence++)
        {
            append(store, sequence);
        }
        assertEquals(901, store.oldestSequence());
        assertHolds(store, 901);
        assertHolds(store, 1_000);
        assertEquals(1_001, store.nextSequence());
    }

    @Test
    void shouldRefuseMessagesOutOfOrder()
    {
        final RetransmitStore store = new RetransmitStore(1, 100, 1_000);
        append(store, 1);
        assertThrows(IllegalArgumentException.class, () -> append(store, 3));
    }
}
