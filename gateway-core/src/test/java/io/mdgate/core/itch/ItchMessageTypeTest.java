package io.mdgate.core.itch;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ItchMessageTypeTest
{
    /** Type and length, copied from the ITCH 5.0 table. */
    private static final Map<Character, Integer> SPECIFICATION = new LinkedHashMap<>();

    static
    {
        final Object[] table = {
            'S', 12, 'R', 39, 'H', 25, 'Y', 20, 'L', 26, 'V', 35, 'W', 12, 'K', 28, 'J', 35, 'h', 21, 'A', 36,
            'F', 40, 'E', 31, 'C', 36, 'X', 23, 'D', 19, 'U', 35, 'P', 44, 'Q', 40, 'B', 19, 'I', 50, 'N', 20,
            'O', 48 };
        for (int i = 0; i < table.length; i += 2)
        {
            SPECIFICATION.put((Character)table[i], (Integer)table[i + 1]);
        }
    }

    @Test
    void shouldKnowTheLengthOfEveryTypeInTheSpecification()
    {
        assertEquals(23, SPECIFICATION.size());
        for (final Map.Entry<Character, Integer> entry : SPECIFICATION.entrySet())
        {
            final byte type = (byte)entry.getKey().charValue();
            assertEquals(entry.getValue(), ItchMessageType.lengthOf(type), "type " + entry.getKey());
            assertTrue(ItchMessageType.isKnown(type));
        }
    }

    @Test
    void shouldListEachTypeOnceInSpecificationOrder()
    {
        final Set<Byte> seen = new HashSet<>();
        int i = 0;
        for (final char type : SPECIFICATION.keySet())
        {
            assertEquals((byte)type, ItchMessageType.ALL[i]);
            assertEquals(i, ItchMessageType.indexOf((byte)type));
            assertTrue(seen.add(ItchMessageType.ALL[i]));
            i++;
        }
        assertEquals(23, ItchMessageType.ALL.length);
    }

    @Test
    void shouldKnowNoOtherType()
    {
        for (int type = 0; type < 256; type++)
        {
            if (!SPECIFICATION.containsKey((char)type))
            {
                assertFalse(ItchMessageType.isKnown((byte)type), "type " + type);
                assertEquals(0, ItchMessageType.lengthOf((byte)type));
                assertEquals(-1, ItchMessageType.indexOf((byte)type));
            }
        }
    }
}
