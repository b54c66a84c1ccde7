package io.mdgate.app.journal;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressBarTest
{
    private final StringWriter drawn = new StringWriter();

    @Test
    void shouldShowTheCountAndRateWithoutAPercentageWhenNothingSaysHowMuchIsLeft()
    {
        final ProgressBar bar = ProgressBar.on(new PrintWriter(drawn), "messages", 0, 1);

        assertEquals("1,500,000 messages  1.50M messages/s  0:01", bar.line(1_500_000, 0, 0, 1_000_000_000L));
    }

    @Test
    void shouldTakeThePercentageAndTimeLeftFromTheShareOfTheFileRead()
    {
        final ProgressBar bar = ProgressBar.on(new PrintWriter(drawn), "messages", 0, 1);

        final String line = bar.line(300_000, 25, 100, 1_000_000_000L);

        assertEquals("[########......................]  25%  300,000 messages  300.0k messages/s  ETA 0:03", line);
    }

    @Test
    void shouldRedrawInPlaceOnItsStreamAndClearTheLineWhenFinished() throws InterruptedException
    {
        final ProgressBar bar = ProgressBar.on(new PrintWriter(drawn), "messages", 10, 1);
        Thread.sleep(2);

        bar.update(5);
        final String line = drawn.toString();
        bar.finish();

        assertTrue(line.startsWith("\r[###############...............]  50%  5/10 messages"), line);
        assertEquals(line + "\r" + " ".repeat(line.length() - 1) + "\r", drawn.toString());
    }
}
