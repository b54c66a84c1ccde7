package io.mdgate.core.itch;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AlphaTest
{
    @Test
    void shouldPackASymbolAsItsWireBytesReadBigEndian()
    {
        assertEquals(0x4141_504C_2020_2020L, Alpha.pack8("AAPL"));

        final UnsafeBuffer wire = new UnsafeBuffer("AAPL    ".getBytes(StandardCharsets.US_ASCII));
        assertEquals(Alpha.pack8("AAPL"), wire.getLong(0, java.nio.ByteOrder.BIG_ENDIAN));
    }

    @Test
    void shouldUnpackWithoutTrailingPadding()
    {
        assertEquals("AAPL", Alpha.unpack8(Alpha.pack8("AAPL")));
        assertEquals("ABCDEFGH", Alpha.unpack8(Alpha.pack8("ABCDEFGH")));
        assertEquals("BRK A", Alpha.unpack8(Alpha.pack8("BRK A")));
        assertEquals("", Alpha.unpack8(Alpha.pack8("")));
        assertEquals(0x2020_2020_2020_2020L, Alpha.pack8(""));
    }

    @Test
    void shouldPackAndUnpackFourCharacterFields()
    {
        assertEquals(0x4E53_4451, Alpha.pack4("NSDQ"));
        assertEquals("NSDQ", Alpha.unpack4(Alpha.pack4("NSDQ")));
        assertEquals(0x5431_2020, Alpha.pack4("T1"));
        assertEquals("T1", Alpha.unpack4(Alpha.pack4("T1")));
    }

    @Test
    void shouldPackFieldsOfAnyWidthUpToEight()
    {
        assertEquals('Q', Alpha.pack("Q", 1));
        assertEquals(0x5A42, Alpha.pack("ZB", 2));
        assertEquals("ZB", Alpha.unpack(0x5A42, 2));
    }

    @Test
    void shouldUnpackBytesWithTheTopBitSetWithoutSignExtension()
    {
        assertEquals("\u00C1BCD", Alpha.unpack4(0xC142_4344));
        assertEquals("\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF", Alpha.unpack8(-1L));
    }

    @Test
    void shouldRefuseTextLongerThanTheField()
    {
        assertThrows(IllegalArgumentException.class, () -> Alpha.pack8("ABCDEFGHI"));
        assertThrows(IllegalArgumentException.class, () -> Alpha.pack4("ABCDE"));
    }

    @Test
    void shouldRefuseNonAsciiText()
    {
        assertThrows(IllegalArgumentException.class, () -> Alpha.pack8("CAFÉ"));
    }
}
