package io.mdgate.consumerc;

import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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
 * The poll path allocates nothing once connected: src/test/c/poll-allocation.c, compiled here, defines malloc and
 * its kin so that it sees every allocation the library makes, and counts them while it polls 20,000 ticks (and the
 * heartbeats and control messages of that time) after a warm-up, on the ring, the shared log and the stream.
 */
class PollAllocationTest
{
    private static final Pattern RESULT = Pattern.compile("ALLOCATIONS (\\d+) DELIVERED (\\d+)");
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
    }

    private Path compile() throws Exception
    {
        final Path source = Path.of(System.getProperty("user.dir"), "src", "test", "c", "poll-allocation.c");
        final Path binary = work.resolve("poll-allocation");
        final Path lib = NativeBuild.nativeRoot().resolve("lib");
        final Process cc = new ProcessBuilder("cc", "-std=c11", "-D_GNU_SOURCE", "-O2", "-Wall", "-Wextra", "-Werror",
            "-I", NativeBuild.include().toString(), "-o", binary.toString(), source.toString(), "-L", lib.toString(),
            "-lmdgate-consumer", "-Wl,-rpath," + lib).redirectErrorStream(true).start();
        final String output = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, cc.exitValue(), output);
        return binary;
    }

    @Test
    void shouldNotAllocateWhilePollingTheRingTheSharedLogOrTheStream() throws Exception
    {
        final Path program = compile();
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("ring", "log", "stream"),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30))
                .sharedLogSlots(PublisherContext.DEFAULT_SHARED_LOG_SLOTS));
        final long warm = 5_000;
        final long last = 25_000;
        for (final String[] consumer : List.of(new String[] {"ring", "1,2,3"}, new String[] {"log", "all"},
            new String[] {"stream", "stream:1,2,3"}))
        {
            final NativeProcess process = new NativeProcess(consumer[0], NativeBuild.RELEASE, List.of(
                program.toString(), harness.shm().instance(), consumer[0], consumer[0] + PublisherHarness.TOKEN_SUFFIX,
                consumer[1], Long.toString(warm), Long.toString(last)));
            processes.add(process);
        }
        for (final NativeProcess process : processes)
        {
            process.awaitLine(false, "READY"::equals, 60, "READY");
        }
        CConsumerScenarios.publish(harness, 1, last, last); // 50,000 ticks/s: heartbeats go both ways meanwhile
        for (final NativeProcess process : processes)
        {
            assertEquals(0, process.awaitExit(60), process.err().toString());
            final Matcher result = RESULT.matcher(String.join("\n", process.out()));
            assertTrue(result.find(), process.out().toString());
            assertTrue(Long.parseLong(result.group(2)) > 5_000, "ticks were polled in the window: " + result.group());
            assertEquals("0", result.group(1), "allocations while polling: " + result.group());
        }
    }
}
