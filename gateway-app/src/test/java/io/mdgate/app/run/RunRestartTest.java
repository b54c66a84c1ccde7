package io.mdgate.app.run;

import io.mdgate.app.Main;
import io.mdgate.app.feed.LoopbackMulticast;
import io.mdgate.app.sim.SimCommand;
import io.mdgate.runtime.LoopbackGatewayConfig;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileException;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway SIGKILLed mid-run, then started again from the same configuration, as {@code Restart=on-failure} does:
 * the killed run's counters, distinct errors and latency logs stay readable through {@code stat}, {@code errors} and
 * {@code report --run previous} while the next run goes on, and no more than {@code keep_runs} runs are kept.
 */
class RunRestartTest
{
    @TempDir
    Path dir;

    private Process child;

    @AfterEach
    void tearDown() throws InterruptedException
    {
        if (null != child && child.isAlive())
        {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(180)
    void shouldKeepAKilledRunsCountersErrorsAndLatencyLogsReadableAfterTheRestart() throws Exception
    {
        final String prefix = assumeLoopbackMulticast("RunRestartTest", 243);
        final String groupA = prefix + 244 + ":" + LoopbackMulticast.freePort();
        final String groupB = prefix + 245 + ":" + LoopbackMulticast.freePort();
        Files.createDirectories(dir.resolve("shm"));
        final Path config = dir.resolve("gw.toml");
        // A free-space threshold no filesystem meets: every run records the warning as a distinct error.
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "restart-" + ProcessHandle.current().pid(), groupA,
            groupB, LoopbackMulticast.freePort(), LoopbackGatewayConfig.oneCore())
            .replace("ring_bytes = 8388608\n", "ring_bytes = 8388608\nkeep_runs = 2\n")
            .replace("[journal]\nenabled = true\n", "[journal]\nenabled = true\nmin_free_mb = 1099511627776\n"));
        final Path counters = dir.resolve("counters");

        child = new ProcessBuilder(RunSignalTest.command("run", "--config", config.toString(), "--no-pin"))
            .redirectErrorStream(true).redirectOutput(dir.resolve("run1.txt").toFile()).start();
        await(counters, s -> s.pid() == child.pid() && s.value("journal.free_space_low", 0) > 0);
        final StringWriter simOut = new StringWriter();
        assertEquals(0, new CommandLine(new SimCommand()).setOut(new PrintWriter(simOut))
            .setErr(new PrintWriter(simOut)).execute("--messages", "2000", "--seed", "3", "--instruments", "5",
                "--rate", "20000", "--send", "lo", "--group-a", groupA, "--group-b", groupB, "--max-idle-ms", "5",
                "--linger-ms", "200"), simOut.toString());
        final CountersSnapshot killed = await(counters, s -> s.value("feed.end_of_session", 0) == 1 &&
            s.value("latency.ingress_to_session.samples", 0) > 0);
        final long killedPid = child.pid();
        assertEquals(0, new ProcessBuilder("kill", "-KILL", String.valueOf(killedPid)).inheritIO().start().waitFor());
        assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the SIGKILLed gateway ended");

        final StringWriter runErr = new StringWriter();
        final RunCommand second = new RunCommand();
        final CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> new CommandLine(second)
            .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(runErr))
            .execute("--config", config.toString(), "--no-pin"));
        try
        {
            await(counters, s -> s.pid() == ProcessHandle.current().pid() && s.has("gateway.uptime_s"));
            final String previous = cli("stat", "--config", config.toString(), "--run", "previous", "--json", "--once");
            System.out.println("stat --run previous: " + previous.substring(0, Math.min(200, previous.length())));
            assertTrue(previous.contains("\"pid\":" + killedPid + ",") && previous.contains("\"stopEpochMillis\":0,"),
                previous);
            assertTrue(previous.contains("\"session.ticks\":" + killed.value("session.ticks") + ","), previous);
            assertTrue(killed.value("session.ticks") > 0, "the killed run had ticks");
            final String current = cli("stat", "--config", config.toString(), "--json", "--once");
            assertTrue(current.contains("\"pid\":" + ProcessHandle.current().pid() + ","), current);
            assertTrue(current.contains("\"session.ticks\":0,"), current);

            final String errors = cli("errors", "--counters", counters.toString(), "--run", "-1");
            System.out.println("errors --run -1: " + errors.lines().findFirst().orElse(""));
            assertTrue(errors.contains("pid " + killedPid) && !errors.lines().findFirst().orElse("").contains("stopped at") &&
                errors.contains("min_free_mb"), errors);

            final String report = cli("report", dir.resolve("hlog").toString(), "--run", "previous", "--no-plot",
                "--out", dir.resolve("report").toString());
            System.out.println("report --run previous:\n" + report);
            final String stageLine = report.lines().filter(l -> l.startsWith("ingress_to_session")).findFirst()
                .orElseThrow(() -> new AssertionError("no ingress_to_session row: " + report));
            assertEquals(killed.value("latency.ingress_to_session.samples"),
                Long.parseLong(stageLine.trim().split("\\s+")[1]), stageLine);
        }
        finally
        {
            second.stop();
            assertEquals(0, running.get(60, TimeUnit.SECONDS), runErr.toString());
        }

        runAndStop(config, counters);
        runAndStop(config, counters);
        assertTrue(Files.exists(dir.resolve("counters.2")), "two previous runs kept");
        assertFalse(Files.exists(dir.resolve("counters.3")), "keep_runs = 2 bounds the runs kept");
        try (Stream<Path> logs = Files.list(dir.resolve("hlog")))
        {
            final List<String> names = logs.map(p -> p.getFileName().toString()).sorted().toList();
            assertTrue(names.stream().anyMatch(n -> n.endsWith(".hlog.2")), names.toString());
            assertFalse(names.stream().anyMatch(n -> n.endsWith(".hlog.3")), names.toString());
        }
        final StringWriter refusal = new StringWriter();
        assertEquals(2, Main.commandLine().setOut(new PrintWriter(new StringWriter()))
            .setErr(new PrintWriter(refusal)).execute("stat", "--counters", counters.toString(), "--run", "-3",
                "--once"));
        final String firstLine = refusal.toString().lines().findFirst().orElse("");
        System.out.println("stat --run -3: " + firstLine);
        assertTrue(firstLine.contains("--run -3: no such run is kept") && firstLine.contains("-1, -2"), refusal.toString());
    }

    private void runAndStop(final Path config, final Path counters) throws Exception
    {
        final long before = System.currentTimeMillis();
        final StringWriter runErr = new StringWriter();
        final RunCommand run = new RunCommand();
        final CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> new CommandLine(run)
            .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(runErr))
            .execute("--config", config.toString(), "--no-pin"));
        await(counters, s -> s.startEpochMillis() >= before && s.has("gateway.uptime_s"));
        run.stop();
        assertEquals(0, running.get(60, TimeUnit.SECONDS), runErr.toString());
    }

    /**
     * @return the prefix {@code 239.255.X.} of this JVM's groups, once a join of group {@code prefix + host} on
     *     {@code lo} works; otherwise the test is skipped saying why.
     */
    static String assumeLoopbackMulticast(final String test, final int host) throws Exception
    {
        final NetworkInterface lo = NetworkInterface.getByName("lo");
        final String prefix = "239.255." + (1 + ProcessHandle.current().pid() % 250) + ".";
        final String problem = null == lo ? "no loopback interface named lo" :
            LoopbackMulticast.problem(lo, prefix + host);
        if (null != problem)
        {
            System.out.println("SKIPPED " + test + ": " + problem);
        }
        Assumptions.assumeTrue(null == problem, problem);
        return prefix;
    }

    static String cli(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int rc = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute(args);
        assertEquals(0, rc, String.join(" ", args) + ": " + err);
        return out.toString();
    }

    static CountersSnapshot await(final Path counters, final Predicate<CountersSnapshot> condition)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        CountersSnapshot last = null;
        while (System.nanoTime() < deadline)
        {
            try (CountersFile file = CountersFile.open(counters))
            {
                last = file.snapshot();
                if (condition.test(last))
                {
                    return last;
                }
            }
            catch (final CountersFileException notYet)
            {
                // Still starting.
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the counters never got there: " + (last == null ? "no file" : last.values()));
    }
}
