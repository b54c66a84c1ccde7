package io.mdgate.core.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UdpEndpointTest
{
    @Test
    void shouldParseAGroupAndPortIntoABigEndianAddress()
    {
        final UdpEndpoint endpoint = UdpEndpoint.parse("233.54.12.111:26477");

        assertEquals(0xE9360C6F, endpoint.address());
        assertEquals(26477, endpoint.port());
        assertEquals("233.54.12.111:26477", endpoint.toString());
    }

    @Test
    void shouldRoundTripThroughItsKeyEvenForHighAddresses()
    {
        final UdpEndpoint endpoint = new UdpEndpoint(0xFFFFFFFF, 65535);

        assertEquals(endpoint, UdpEndpoint.fromKey(endpoint.key()));
        assertEquals(endpoint.key(), UdpEndpoint.key(0xFFFFFFFF, 65535));
        assertNotEquals(UdpEndpoint.key(1, 2), UdpEndpoint.key(2, 1));
    }

    @ParameterizedTest
    @ValueSource(strings = { "233.54.12:26477", "233.54.12.111", "a.b.c.d:1", "1.2.3.4:70000", "300.1.1.1:1",
        "1.2.3.4:", ":80", "1.2.3.4:-1", "1..3.4:5" })
    void shouldRefuseAnythingButFourOctetsAndAPortSayingWhatIsExpected(final String text)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> UdpEndpoint.parse(text));
        assertTrue(ex.getMessage().contains("GROUP:PORT"), ex.getMessage());
        assertTrue(ex.getMessage().contains(text), ex.getMessage());
    }
}
