package io.mdgate.consumerc;

import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The library's reconnect back-off, timed: src/test/c/reconnect-backoff.c, compiled here against the release and the
 * sanitizer build, consumes every instrument with reconnect intervals of 20 ms doubling up to 160 ms and prints when
 * each attempt was made after its publisher went away; the publisher comes back on the same instance after eight
 * attempts, carrying on from the next sequence, and the consumer delivers every sequence once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReconnectBackoffTest
{
    private static final String NAME = "patient";
    private static final long INTERVAL_MS = 20;
    private static final long MAX_INTERVAL_MS = 160;
    private static final int ATTEMPTS_WHILE_AWAY = 8;
    private static final long BEFORE = 1000;
    private static final long LAST = 2000;
    /** A loaded host may poll late; never early. */
    private static final long LATE_MS = 100;
    private static final Pattern DONE = Pattern.compile("DONE delivered (\\d+) last (\\d+) out_of_order (\\d+) " +
        "attempts (\\d+) failures (\\d+) reconnects (\\d+) disconnects (\\d+)");

    private final ShmContext shm = ShmInstance.context(ShmInstance.unique());
    private final List<NativeProcess> processes = new ArrayList<>();
    private PublisherHarness harness;

    @TempDir
    Path work;

    @AfterEach
    void tearDown()
    {
        processes.forEach(NativeProcess::close);
        if (null != harness)
        {
            harness.close();
        }
        for (final NativeProcess process : processes)
        {
            assertNull(process.sanitizerReport(), "a sanitizer report");
        }
    }

    @Test
    void shouldSpaceReconnectAttemptsTwiceAsFarApartUpToTheLongestIntervalAndThenDeliverEverySequenceOnce()
        throws Exception
    {
        attemptAndComeBack(NativeBuild.RELEASE);
    }

    @Test
    void shouldBackOffAndDeliverEverySequenceOnceWithTheSanitizerBuild() throws Exception
    {
        attemptAndComeBack(NativeBuild.SANITIZE);
    }

    @Test
    void shouldRefuseALongestIntervalShorterThanTheFirst() throws Exception
    {
        harness = publisher(1);
        final NativeProcess consumer = new NativeProcess(NAME, NativeBuild.RELEASE, List.of(
            compile(NativeBuild.RELEASE).toString(), shm.instance(), NAME, NAME + PublisherHarness.TOKEN_SUFFIX, "50",
            "20", "1"));
        processes.add(consumer);
        assertEquals(1, consumer.awaitExit(30));
        assertTrue(consumer.err().stream().anyMatch(line -> line.contains(
            "reconnect_max_interval_ns must be at least reconnect_interval_ns (50000000), was 20000000")),
            consumer.err().toString());
        assertEquals(0, harness.publisher().activeConsumers(), "never connected");
    }

    private void attemptAndComeBack(final NativeBuild build) throws Exception
    {
        harness = publisher(1);
        final NativeProcess consumer = new NativeProcess(NAME, build, List.of(compile(build).toString(),
            shm.instance(), NAME, NAME + PublisherHarness.TOKEN_SUFFIX, Long.toString(INTERVAL_MS),
            Long.toString(MAX_INTERVAL_MS), Long.toString(LAST)));
        processes.add(consumer);
        consumer.awaitLine(false, "READY"::equals, 60, "READY");
        publish(1, BEFORE);
        harness.awaitDrained();
        Thread.sleep(200); // the consumer polls what was published before the publisher goes
        harness.close();
        harness = null;
        consumer.awaitLine(false, "LOST"::equals, 30, "the loss noticed");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (attempts(consumer.out()).size() < ATTEMPTS_WHILE_AWAY)
        {
            assertTrue(consumer.isAlive() && System.nanoTime() < deadline, ATTEMPTS_WHILE_AWAY + " attempts in 30 s: " +
                consumer.out() + consumer.err());
            Thread.sleep(5);
        }

        harness = publisher(BEFORE + 1);
        publish(BEFORE + 1, LAST);
        assertEquals(0, consumer.awaitExit(60), consumer.err().toString());

        final List<long[]> attempts = attempts(consumer.out());
        long previous = 0;
        for (int i = 0; i < ATTEMPTS_WHILE_AWAY; i++)
        {
            final long expectedMicros = TimeUnit.MILLISECONDS.toMicros(Math.min(INTERVAL_MS << i, MAX_INTERVAL_MS));
            final long waited = attempts.get(i)[1] - previous;
            assertTrue(waited >= expectedMicros, "attempt " + (i + 1) + " after " + waited + " us, not " +
                "before " + expectedMicros + " us: " + show(attempts));
            assertTrue(waited <= expectedMicros + TimeUnit.MILLISECONDS.toMicros(LATE_MS), "attempt " + (i + 1) +
                " after " + waited + " us, capped at " + expectedMicros + " us: " + show(attempts));
            previous = attempts.get(i)[0];
        }
        final Matcher done = DONE.matcher(String.join("\n", consumer.out()));
        assertTrue(done.find(), consumer.out().toString());
        assertEquals(LAST, Long.parseLong(done.group(1)), "every sequence delivered: " + done.group());
        assertEquals(LAST, Long.parseLong(done.group(2)), done.group());
        assertEquals(0, Long.parseLong(done.group(3)), "in order, each once: " + done.group());
        final long attempted = Long.parseLong(done.group(4));
        assertEquals(attempts.size(), attempted, done.group());
        assertEquals(attempted - 1, Long.parseLong(done.group(5)), "all but the last failed: " + done.group());
        assertEquals(1, Long.parseLong(done.group(6)), done.group());
        assertEquals(1, Long.parseLong(done.group(7)), done.group());
        assertEquals(1, consumer.out().stream().filter("RECONNECTED"::equals).count());
        assertEquals(1, consumer.err().stream().filter(line -> line.contains("could not reconnect")).count(),
            "one report for one reason, not one per attempt: " + consumer.err());
    }

    private PublisherHarness publisher(final long firstSequence)
    {
        return new PublisherHarness(shm, List.of(NAME), context -> context
            .heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)).firstSequence(firstSequence));
    }

    private void publish(final long from, final long to)
    {
        for (long sequence = from; sequence <= to; sequence++)
        {
            harness.publish(Ticks.add(sequence, (int)(sequence % 10) + 1, 0));
        }
    }

    /**
     * @return per attempt, the start and the end of the poll that made it, in microseconds after the start of the poll
     * that noticed the loss: the library times each wait from the start of the poll that began it.
     */
    private static List<long[]> attempts(final List<String> lines)
    {
        return lines.stream().filter(line -> line.startsWith("ATTEMPT ")).map(line ->
        {
            final String[] times = line.substring(8).split(" ");
            return new long[] {Long.parseLong(times[0]), Long.parseLong(times[1])};
        }).toList();
    }

    private static String show(final List<long[]> attempts)
    {
        return attempts.stream().map(times -> times[0] + ".." + times[1]).toList().toString();
    }

    private Path compile(final NativeBuild build) throws Exception
    {
        final Path source = Path.of(System.getProperty("user.dir"), "src", "test", "c", "reconnect-backoff.c");
        final Path binary = work.resolve("reconnect-backoff");
        final Path lib = build.root().resolve("lib");
        final List<String> command = new ArrayList<>(List.of("cc", "-std=c11", "-D_GNU_SOURCE", "-O2", "-Wall",
            "-Wextra", "-Werror", "-I", NativeBuild.include().toString(), "-o", binary.toString(), source.toString(),
            "-L", lib.toString(), "-lmdgate-consumer", "-Wl,-rpath," + lib));
        if (build.sanitized())
        {
            command.addAll(1, List.of("-fsanitize=address,undefined", "-fno-omit-frame-pointer"));
        }
        final Process cc = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, cc.exitValue(), output);
        return binary;
    }
}
