package io.mdgate.consumerc;

import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.MultiProcessDay;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.transport.shm.HugepageMode;
import io.mdgate.egress.transport.shm.Hugetlbfs;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * C consumers against a Java publisher whose files are on a hugetlbfs mount the test reserves and mounts (root):
 * the library finds the shared log, the broadcast log and the publisher's regions where the publisher names them, and
 * each consumer gets exactly its ticks once.
 */
@Tag("hugepages")
class CConsumerHugepageTest
{
    private final List<NativeProcess> processes = new ArrayList<>();
    private PublisherHarness harness;
    private Hugetlbfs huge;

    @AfterEach
    void tearDown()
    {
        try
        {
            processes.forEach(NativeProcess::close);
            if (null != harness)
            {
                harness.close();
            }
        }
        finally
        {
            if (null != huge)
            {
                huge.close();
            }
        }
    }

    private NativeProcess consumer(final String name, final String... options) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(NativeBuild.RELEASE.tool("mdgate-consume-c").toString(),
            "--instance", harness.shm().instance(), "--dir", harness.shm().directory().toString(),
            "--consumer", name, "--token", name + PublisherHarness.TOKEN_SUFFIX, "--format", "seq"));
        command.addAll(List.of(options));
        final NativeProcess process = new NativeProcess(name, NativeBuild.RELEASE, command);
        processes.add(process);
        return process;
    }

    @Test
    @Timeout(180)
    void shouldDeliverEveryTickOnceToCConsumersOfTheSharedLogRingAndStreamOnHugepages() throws Exception
    {
        huge = Hugetlbfs.mount(256, "");
        final ShmContext shm = ShmInstance.context(ShmInstance.unique())
            .hugepages(HugepageMode.REQUIRED).hugepageDirectory(huge.directory());
        harness = new PublisherHarness(shm, List.of("all", "some", "stream"),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30))
                .sharedLogSlots(PublisherContext.DEFAULT_SHARED_LOG_SLOTS));
        final long last = 20_000;
        final NativeProcess all = consumer("all", "--all", "--until", Long.toString(last));
        final NativeProcess some = consumer("some", "--instruments", "1,2,3", "--until", Long.toString(last));
        final NativeProcess stream = consumer("stream", "--instruments", "4,7", "--path", "stream",
            "--until", Long.toString(last));
        for (final NativeProcess process : processes)
        {
            process.awaitReady(60);
        }

        CConsumerScenarios.publish(harness, 1, last, last);

        for (final NativeProcess process : processes)
        {
            assertEquals(0, process.awaitExit(60), process.err().toString());
        }
        assertEquals(MultiProcessDay.expected(1, last, last, null), CConsumerScenarios.received(all));
        assertEquals(MultiProcessDay.expected(1, last, last, Set.of(1, 2, 3)), CConsumerScenarios.received(some));
        assertEquals(MultiProcessDay.expected(1, last, last, Set.of(4, 7)), CConsumerScenarios.received(stream));
        for (final NativeProcess process : processes)
        {
            assertEquals(0, CConsumerScenarios.summary(process).get("duplicates"), process.err().toString());
            assertEquals(0, CConsumerScenarios.summary(process).get("unrecovered"), process.err().toString());
        }
        try (Stream<Path> files = Files.list(huge.directory()))
        {
            final List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertTrue(names.stream().anyMatch(n -> n.startsWith(shm.instance() + "-ticks-")), names.toString());
            assertTrue(names.stream().anyMatch(n -> n.startsWith(shm.instance() + "-stream-")), names.toString());
        }
        assertTrue(all.err().stream().anyMatch(line -> line.endsWith("shared log yes")),
            "the consumer of all read the shared log: " + all.err());
        assertEquals(0, harness.transport().hugepageFallbacks());
    }
}
