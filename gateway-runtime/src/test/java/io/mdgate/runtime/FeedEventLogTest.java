package io.mdgate.runtime;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FeedEventLogTest
{
    @Test
    void shouldSayASessionChangeOnOneLineWithBothNamesEscaped()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final FeedEventLog log = new FeedEventLog(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final UnsafeBuffer previous = new UnsafeBuffer("SIM0000001".getBytes(StandardCharsets.US_ASCII));
        final UnsafeBuffer next = new UnsafeBuffer(new byte[] { 'S', 'I', 'M', '\n', 'x', 0, '0', '0', '0', '2' });

        log.onSessionChanged(2, previous, 0, next, 0, 1);

        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.split("\n", -1).length - 1, "one line: " + text);
        assertEquals("mdgate run: feed: session changed from 'SIM0000001' to 'SIM\\nx\\x000002' (number 2), from " +
            "sequence 1; books and instruments reset", text.strip());
    }
}
