package io.mdgate.app.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.JsonFields;
import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatAndErrorsCommandTest
{
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(final Object command, final String... args)
    {
        return new CommandLine(command).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
    }

    @Test
    void shouldPrintEveryCounterOfARunningGatewayOnce()
    {
        final Path file = dir.resolve("counters");
        try (CountersFileWriter writer = CountersFileWriter.create(file, "gw-stat", 16, 4096))
        {
            writer.newCounter("feed.A.packets", CounterType.TOTAL).set(1234);
            writer.newCounter("journal.position", CounterType.POSITION).set(99);
            assertEquals(0, execute(new StatCommand(), "--counters", file.toString(), "--once"), err.toString());
        }
        final String text = out.toString();
        assertTrue(text.contains("gateway gw-stat"), text);
        assertTrue(text.contains("running"), text);
        assertTrue(text.matches("(?s).*feed\\.A\\.packets\\s+1,234.*"), text);
        assertTrue(text.matches("(?s).*journal\\.position\\s+99.*"), text);
    }

    @Test
    void shouldPrintTheCountersAsJsonWithTheirTypesAndOnlyThoseFiltered()
    {
        final Path file = dir.resolve("counters");
        try (CountersFileWriter writer = CountersFileWriter.create(file, "gw", 16, 4096))
        {
            writer.newCounter("feed.gaps.opened", CounterType.TOTAL).set(3);
            writer.newCounter("egress.consumer.s1.lag", CounterType.LEVEL).set(7);
        }
        assertEquals(0, execute(new StatCommand(), "--counters", file.toString(), "--once", "--json",
            "--filter", "egress."), err.toString());
        final String json = out.toString().trim();
        assertTrue(json.startsWith("{\"gateway\":\"gw\""), json);
        assertTrue(json.contains("\"state\":\"stopped\""), json);
        assertTrue(json.contains("\"counters\":{\"egress.consumer.s1.lag\":7}"), json);
        assertTrue(json.contains("\"types\":{\"egress.consumer.s1.lag\":\"level\"}"), json);
        assertFalse(json.contains("feed.gaps.opened"), json);
    }

    @Test
    void shouldRefreshAndShowTheRateOfTotals()
    {
        final Path file = dir.resolve("counters");
        try (CountersFileWriter writer = CountersFileWriter.create(file, "gw", 16, 4096))
        {
            final AtomicCounter packets = writer.newCounter("feed.A.packets", CounterType.TOTAL);
            final Thread ticker = new Thread(() ->
            {
                for (int i = 0; i < 200; i++)
                {
                    packets.getAndAdd(100);
                    try
                    {
                        Thread.sleep(1);
                    }
                    catch (final InterruptedException ex)
                    {
                        return;
                    }
                }
            });
            ticker.start();
            assertEquals(0, execute(new StatCommand(), "--counters", file.toString(), "--interval-ms", "50",
                "--count", "3"), err.toString());
            ticker.interrupt();
        }
        final String text = out.toString();
        assertTrue(text.contains("\033[H\033[2J"), "refreshes in place");
        assertTrue(text.matches("(?s).*feed\\.A\\.packets\\s+[0-9,]+\\s+[0-9,]+/s.*"), text);
    }

    @Test
    void shouldGroupTheDashboardAndComputeRatesFromTwoSnapshots() throws Exception
    {
        final Path file = dir.resolve("counters");
        final CountersSnapshot first;
        final CountersSnapshot second;
        try (CountersFileWriter writer = CountersFileWriter.create(file, "gw-dash", 16, 4096);
            CountersFile reader = CountersFile.open(file))
        {
            final AtomicCounter packets = writer.newCounter("feed.A.packets", CounterType.TOTAL);
            final AtomicCounter appended = writer.newCounter("journal.appended", CounterType.TOTAL);
            final AtomicCounter lag = writer.newCounter("egress.consumer.s1.lag", CounterType.LEVEL);
            writer.newCounter("latency.session.p99_ns", CounterType.LEVEL).set(12_500);
            packets.set(1_000);
            appended.set(10);
            lag.set(3);
            first = reader.snapshot();
            Thread.sleep(200);
            packets.set(2_000);
            appended.set(510);
            lag.set(4);
            second = reader.snapshot();
        }
        final double seconds = (second.takenEpochMillis() - first.takenEpochMillis()) / 1000.0;
        assertTrue(seconds > 0, "snapshots " + first.takenEpochMillis() + " and " + second.takenEpochMillis());

        final String frame = new StatCommand().dashboard(second, first);

        assertTrue(frame.startsWith("gateway gw-dash, pid "), frame);
        assertTrue(frame.contains("\nfeed lines\n"), frame);
        assertTrue(frame.matches("(?s).*\n  A +2,000 \\(" + rate(1_000, seconds) + "/s\\)\n.*"), frame);
        assertTrue(frame.contains("\njournal\n  appended 510 (" + rate(500, seconds) + "/s)\n"), frame);
        assertTrue(frame.matches("(?s).*\nconsumers\n  consumer +lag\n  s1 +4\n.*"), frame);
        assertTrue(frame.matches("(?s).*\nlatency \\(us\\)\n  stage +p99\n  session +12\\.5\n.*"), frame);
        assertFalse(frame.contains("\033["), "a frame has no terminal codes; the refresh adds them");
    }

    private static String rate(final long delta, final double seconds)
    {
        return String.format(java.util.Locale.ROOT, "%.0f", delta / seconds);
    }

    @Test
    void shouldRefreshTheDashboardWhenAskedAndKeepToTheFilter()
    {
        final Path file = dir.resolve("counters");
        try (CountersFileWriter writer = CountersFileWriter.create(file, "gw", 16, 4096))
        {
            writer.newCounter("feed.A.packets", CounterType.TOTAL).set(7);
            writer.newCounter("journal.appended", CounterType.TOTAL).set(9);
            assertEquals(0, execute(new StatCommand(), "--counters", file.toString(), "--view", "dashboard",
                "--interval-ms", "20", "--count", "2", "--filter", "journal."), err.toString());
        }
        final String text = out.toString();
        assertEquals(2, text.split("\033\\[H\033\\[2J", -1).length - 1, text);
        assertTrue(text.contains("\njournal\n  appended 9 (0/s)\n"), text);
        assertFalse(text.contains("feed"), text);
    }

    @Test
    void shouldSayWhereItLookedWhenThereIsNoCountersFile()
    {
        final Path missing = dir.resolve("nope/counters");
        assertEquals(2, execute(new StatCommand(), "--counters", missing.toString(), "--once"), "a named file missing");
        assertTrue(err.toString().contains("no counters file at " + missing), err.toString());
    }

    @Test
    void shouldPrintEachDistinctErrorWithItsCount()
    {
        final Path file = dir.resolve("counters");
        try (CountersFileWriter writer = CountersFileWriter.create(file, "gw", 16, 64 * 1024))
        {
            final IllegalStateException failure = new IllegalStateException("ingress ingress:p0:0 failed with -5");
            writer.errorLog().record(failure);
            writer.errorLog().record(failure);
        }
        assertEquals(0, execute(new ErrorsCommand(), "--counters", file.toString()), err.toString());
        assertTrue(out.toString().contains("1 distinct error"), out.toString());
        assertTrue(out.toString().contains("2 time(s)"), out.toString());
        assertTrue(out.toString().contains("ingress ingress:p0:0 failed with -5"), out.toString());

        out.getBuffer().setLength(0);
        assertEquals(0, execute(new ErrorsCommand(), "--counters", file.toString(), "--json"), err.toString());
        assertTrue(out.toString().contains("\"observations\":2"), out.toString());
    }

    @Test
    void shouldRefuseBothACountersFileAndAConfigurationFile()
    {
        assertEquals(2, execute(new ErrorsCommand(), "--counters", "a", "--config", "b"));
        assertTrue(err.toString().contains("not both"), err.toString());
    }

    @Test
    void shouldPrintStatAndErrorsAsOneObjectALineWithTheirKeysAndAnErrorTextGivenBackExactly()
    {
        final Path file = dir.resolve("counters");
        final String awkward = "refused \"p0\" at C:\\dev\ttab\u0001 end";
        try (CountersFileWriter writer = CountersFileWriter.create(file, "gw-json", 16, 64 * 1024))
        {
            writer.newCounter("feed.gaps.opened", CounterType.TOTAL).set(3);
            writer.errorLog().record(new IllegalStateException(awkward));
        }

        assertEquals(0, execute(new StatCommand(), "--counters", file.toString(), "--once", "--json"),
            err.toString());
        final ObjectNode stat = JsonFields.oneObjectLine(out.toString());
        assertEquals(List.of("gateway", "pid", "state", "startEpochMillis", "heartbeatEpochMillis", "stopEpochMillis",
            "takenEpochMillis", "counters", "types"), JsonFields.names(stat));
        assertEquals(3, stat.get("counters").get("feed.gaps.opened").longValue());
        assertTrue(stat.get("pid").isIntegralNumber(), out.toString());

        out.getBuffer().setLength(0);
        assertEquals(0, execute(new ErrorsCommand(), "--counters", file.toString(), "--json"), err.toString());
        final ObjectNode errors = JsonFields.oneObjectLine(out.toString());
        assertEquals(List.of("gateway", "errors"), JsonFields.names(errors));
        assertEquals("gw-json", errors.get("gateway").textValue());
        final JsonNode error = errors.get("errors").get(0);
        assertEquals(List.of("observations", "firstEpochMillis", "lastEpochMillis", "text"), JsonFields.names(error));
        assertEquals(1, error.get("observations").intValue());
        assertTrue(error.get("text").textValue().startsWith(IllegalStateException.class.getName() + ": " + awkward),
            out.toString());
    }
}
