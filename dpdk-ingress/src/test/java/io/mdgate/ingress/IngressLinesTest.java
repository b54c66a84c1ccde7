package io.mdgate.ingress;

import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.FeedLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IngressLinesTest
{
    @Test
    void shouldMapEachGroupAndPortToItsLine()
    {
        final IngressLines lines = IngressLines.parse("A=233.54.12.111:26477,B=233.49.196.111:26477");

        assertEquals(2, lines.size());
        assertEquals(FeedLines.A, lines.lineOf(0xE9360C6F, 26477));
        assertEquals(FeedLines.B, lines.lineOf(UdpEndpoint.parse("233.49.196.111:26477").address(), 26477));
        assertEquals(-1, lines.lineOf(0xE9360C6F, 26478));
        assertEquals(-1, lines.lineOf(0xE9360C70, 26477));
        assertEquals(UdpEndpoint.parse("233.49.196.111:26477"), lines.endpoint(1));
        assertEquals(FeedLines.B, lines.line(1));
    }

    @Test
    void shouldAcceptSeveralPairsOnOneLineLowerCaseNamesAndSpaces()
    {
        final IngressLines lines = IngressLines.parse(" a=239.1.1.1:1000, A=239.1.1.2:1000 ,recovery=10.0.0.2:26400");

        assertEquals(3, lines.size());
        assertEquals(FeedLines.A, lines.lineOf(UdpEndpoint.parse("239.1.1.2:1000").address(), 1000));
        assertEquals(FeedLines.RECOVERY, lines.line(2));
        assertTrue(lines.isMulticast(0));
        assertFalse(lines.isMulticast(2));
        assertEquals("A=239.1.1.1:1000,A=239.1.1.2:1000,RECOVERY=10.0.0.2:26400", lines.toString());
        assertEquals(lines, IngressLines.parse(lines.toString()));
    }

    @Test
    void shouldBuildTheTwoLineMappingFromEndpoints()
    {
        final IngressLines lines = IngressLines.of(
            UdpEndpoint.parse("233.54.12.111:26477"), UdpEndpoint.parse("233.49.196.111:26477"));

        assertEquals(IngressLines.parse("A=233.54.12.111:26477,B=233.49.196.111:26477"), lines);
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "A", "A=", "C=239.1.1.1:1", "A=239.1.1.1", "A=239.1.1.1:1,B=239.1.1.1:1",
        "A=239.1.1.1:0", "A=239.1.1.1:1,", "=239.1.1.1:1" })
    void shouldRefuseMalformedListsSayingWhatIsExpected(final String text)
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> IngressLines.parse(text));

        assertTrue(ex.getMessage().contains("expected e.g. A=233.54.12.111:26477,B="), ex.getMessage());
    }

    @Test
    void shouldRefuseMoreEntriesThanTheNativeTableHolds()
    {
        final StringBuilder text = new StringBuilder("A=239.0.0.0:1");
        for (int i = 1; i <= IngressLines.MAX_ENTRIES; i++)
        {
            text.append(",B=239.0.0.").append(i).append(":1");
        }

        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> IngressLines.parse(text.toString()));
        assertTrue(ex.getMessage().contains("at most " + IngressLines.MAX_ENTRIES), ex.getMessage());
    }

    @Test
    void shouldNameTheLinesAsFeedLinesNumbersThem()
    {
        assertEquals("A", IngressLines.name(FeedLines.A));
        assertEquals("B", IngressLines.name(FeedLines.B));
        assertEquals("RECOVERY", IngressLines.name(FeedLines.RECOVERY));
        assertEquals(3, IngressLines.lineCount());
    }
}
