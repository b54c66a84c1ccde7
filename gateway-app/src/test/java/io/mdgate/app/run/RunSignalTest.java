package io.mdgate.app.run;

import io.mdgate.app.Main;
import io.mdgate.app.feed.LoopbackMulticast;
import io.mdgate.runtime.LoopbackGatewayConfig;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileException;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate run} in a child JVM, as the launcher starts it, stopped by a signal sent to its PID the way
 * {@code systemctl stop} (SIGTERM) and Ctrl-C (SIGINT) do: it must stop cleanly and exit 0.
 */
public class RunSignalTest
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

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = { "TERM", "INT" })
    @Timeout(120)
    void shouldStopCleanlyAndExitZeroOnASignal(final String signal) throws Exception
    {
        final NetworkInterface lo = NetworkInterface.getByName("lo");
        final String prefix = "239.255." + (1 + ProcessHandle.current().pid() % 250) + ".";
        final String problem = null == lo ? "no loopback interface named lo" :
            LoopbackMulticast.problem(lo, prefix + 240);
        if (null != problem)
        {
            System.out.println("SKIPPED RunSignalTest: " + problem);
        }
        Assumptions.assumeTrue(null == problem, problem);
        final String ignored = inheritedIgnore(signal);
        if (null != ignored)
        {
            System.out.println("SKIPPED RunSignalTest SIG" + signal + ": " + ignored);
        }
        Assumptions.assumeTrue(null == ignored, ignored);
        Files.createDirectories(dir.resolve("shm"));
        final Path config = dir.resolve("gw.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "signal-" + ProcessHandle.current().pid(),
            prefix + 241 + ":" + LoopbackMulticast.freePort(), prefix + 242 + ":" + LoopbackMulticast.freePort(),
            LoopbackMulticast.freePort(), LoopbackGatewayConfig.twoCores()));
        final Path output = dir.resolve("output.txt");

        child = new ProcessBuilder(command("run", "--config", config.toString(), "--no-pin"))
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        awaitRunning(dir.resolve("counters"), output);
        final Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(child.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal + " " + child.pid());

        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "mdgate run did not stop: " + read(output));
        final String text = read(output);
        System.out.println("SIG" + signal + ": exit " + child.exitValue() + "; " + text.lines()
            .filter(line -> line.startsWith("mdgate run: stopped")).findFirst().orElse("(no summary line)"));
        assertEquals(0, child.exitValue(), text);
        assertTrue(text.contains("mdgate run: stopped"), text);
        try (CountersFile file = CountersFile.open(dir.resolve("counters")))
        {
            assertEquals(CountersSnapshot.State.STOPPED, file.snapshot().state());
        }
    }

    /**
     * A process started with a signal ignored passes that on to its children, and the JVM then leaves the signal
     * ignored (as {@code nohup} wants): a shell without job control starts background jobs with SIGINT ignored.
     *
     * @return why the child would ignore the signal, or null when it will not.
     */
    private static String inheritedIgnore(final String signal) throws java.io.IOException
    {
        final int number = "INT".equals(signal) ? 2 : 15;
        for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
        {
            if (line.startsWith("SigIgn:"))
            {
                final long mask = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                return 0 == (mask & (1L << (number - 1))) ? null : "SIG" + signal + " is ignored by this test " +
                    "process (inherited from its parent, e.g. a background job of a shell without job control), so " +
                    "the child would ignore it too";
            }
        }
        return null;
    }

    /** @return the launcher's command line: this JVM's flags and class path, {@link Main}, the arguments. */
    public static List<String> command(final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (flag.startsWith("--add-") || flag.startsWith("-Dchronicle") || flag.startsWith("-Dagrona"))
            {
                command.add(flag);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return command;
    }

    private void awaitRunning(final Path counters, final Path output) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline)
        {
            assertTrue(child.isAlive(), () -> "mdgate run ended before it ran: " + read(output));
            try (CountersFile file = CountersFile.open(counters))
            {
                final CountersSnapshot snapshot = file.snapshot();
                if (snapshot.has("gateway.uptime_s") && snapshot.value("egress.consumers", -1) >= 0 &&
                    read(output).contains("running on"))
                {
                    return;
                }
            }
            catch (final CountersFileException notYet)
            {
                // Still starting.
            }
            Thread.sleep(50);
        }
        throw new AssertionError("mdgate run did not start within 60 s: " + read(output));
    }

    private static String read(final Path output)
    {
        try
        {
            return Files.readString(output, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(cannot read " + output + ": " + ex + ")";
        }
    }
}
