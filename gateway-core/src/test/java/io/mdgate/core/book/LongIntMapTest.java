package io.mdgate.core.book;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class LongIntMapTest
{
    @Test
    void shouldFindWhatWasInsertedAndForgetWhatWasRemoved()
    {
        final LongIntMap map = new LongIntMap(4);
        assertTrue(map.insert(7, 70));
        assertTrue(map.insert(-1, 10));
        assertTrue(map.insert(0, 0));
        assertEquals(70, map.get(7));
        assertEquals(10, map.get(-1));
        assertEquals(0, map.get(0));
        assertEquals(70, map.remove(7));
        assertEquals(LongIntMap.MISSING, map.get(7));
        assertEquals(LongIntMap.MISSING, map.remove(7));
        assertEquals(2, map.size());
    }

    @Test
    void shouldRefuseAnInsertBeyondItsMaximumSizeInsteadOfGrowing()
    {
        final LongIntMap map = new LongIntMap(2);
        assertTrue(map.insert(1, 1));
        assertTrue(map.insert(2, 2));
        assertFalse(map.insert(3, 3));
        assertEquals(LongIntMap.MISSING, map.get(3));
        map.remove(1);
        assertTrue(map.insert(3, 3));
    }

    @Test
    void shouldRefuseASizeItCannotIndex()
    {
        assertThrows(IllegalArgumentException.class, () -> new LongIntMap(0));
        assertThrows(IllegalArgumentException.class, () -> new LongIntMap((1 << 29) + 1));
    }

    @Test
    void shouldAgreeWithAHashMapOverAMillionRandomInsertsAndRemovals()
    {
        final long seed = 77;
        final Random random = new Random(seed);
        final LongIntMap map = new LongIntMap(1000);
        final Map<Long, Integer> reference = new HashMap<>();
        for (int i = 0; i < 1_000_000; i++)
        {
            final long key = random.nextInt(3000) * 1024L;
            if (random.nextBoolean() && !reference.containsKey(key) && reference.size() < 1000)
            {
                final int value = random.nextInt(Integer.MAX_VALUE);
                assertTrue(map.insert(key, value));
                reference.put(key, value);
            }
            else
            {
                final Integer expected = reference.remove(key);
                assertEquals(expected == null ? LongIntMap.MISSING : expected, map.remove(key), "seed " + seed);
            }
            final long probe = random.nextInt(3000) * 1024L;
            final Integer expected = reference.get(probe);
            assertEquals(expected == null ? LongIntMap.MISSING : expected, map.get(probe), "seed " + seed);
        }
        assertEquals(reference.size(), map.size());
    }
}
