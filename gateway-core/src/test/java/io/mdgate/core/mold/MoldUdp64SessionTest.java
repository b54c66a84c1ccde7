package io.mdgate.core.mold;

import org.junit.jupiter.api.Test;

import static io.mdgate.core.mold.PacketBytes.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MoldUdp64SessionTest
{
    @Test
    void shouldPadAShortSessionWithSpaces()
    {
        assertArrayEquals(ascii("ABC       "), MoldUdp64Session.of("ABC"));
        assertArrayEquals(ascii("          "), MoldUdp64Session.of(""));
    }

    @Test
    void shouldKeepATenCharacterSessionAsIs()
    {
        assertArrayEquals(ascii("000010059B"), MoldUdp64Session.of("000010059B"));
    }

    @Test
    void shouldRefuseASessionLongerThanTenCharacters()
    {
        final IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> MoldUdp64Session.of("00001005900"));
        assertTrue(e.getMessage().contains("at most 10"), e.getMessage());
    }

    @Test
    void shouldRefuseANonAsciiSession()
    {
        final IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> MoldUdp64Session.of("SESSIÖN"));
        assertTrue(e.getMessage().contains("ASCII"), e.getMessage());
    }

    @Test
    void shouldTurnWireBytesBackIntoTextWithoutPadding()
    {
        assertEquals("ABC", MoldUdp64Session.text(MoldUdp64Session.of("ABC")));
        assertEquals("A B", MoldUdp64Session.text(MoldUdp64Session.of("A B")));
        assertEquals("", MoldUdp64Session.text(new byte[10]));
    }
}
