package io.mdgate.egress;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.HugepageMode;
import io.mdgate.egress.transport.shm.Hugetlbfs;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The shm egress on a hugetlbfs mount of 2 MiB pages the test reserves and mounts (root): the publisher's files are
 * on it, consumers with hugepages off and on find them and get every sequence once, and a mount too small for a file
 * puts that file on regular pages, counted and warned.
 */
@Tag("hugepages")
class HugepageEgressTest
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();
    private static final long TWO_MIB = 2L << 20;
    private static final long LAST = 5000;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private PublisherHarness harness;
    private Hugetlbfs huge;

    @AfterEach
    void tearDown() throws Exception
    {
        try
        {
            for (int i = closeables.size() - 1; i >= 0; i--)
            {
                closeables.get(i).close();
            }
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

    @Test
    @Timeout(120)
    void shouldPutThePublishersFilesOnHugepagesAndDeliverEverySequenceOnceToConsumersWithHugepagesOffAndOn()
        throws Exception
    {
        huge = Hugetlbfs.mount(256, "");
        final long freeBefore = Hugetlbfs.freePages();
        final ShmContext shm = ShmInstance.context(ShmInstance.unique())
            .hugepages(HugepageMode.REQUIRED).hugepageDirectory(huge.directory());
        harness = new PublisherHarness(shm, List.of("plain", "paged"), context -> { });
        final EgressConsumer plain = consumer("plain", ShmInstance.context(shm.instance()));
        final EgressConsumer paged = consumer("paged", ShmInstance.context(shm.instance())
            .hugepages(HugepageMode.AUTO).hugepageDirectory(huge.directory()));
        plain.subscribeAll();
        paged.subscribe(1);
        awaitSubscribed(plain);
        awaitSubscribed(paged);

        for (long sequence = 1; sequence <= LAST; sequence++)
        {
            harness.publish(Ticks.add(sequence, (int)(sequence % 10) + 1, CLOCK.nanoTime()));
        }

        assertEquals(range(1, LAST, false), collect(plain, LAST));
        assertEquals(range(1, LAST, true), collect(paged, LAST));
        final List<Path> onMount = files(huge.directory(), shm.instance());
        assertTrue(onMount.stream().anyMatch(f -> f.getFileName().toString().contains("-stream-")), onMount.toString());
        assertTrue(onMount.stream().anyMatch(f -> f.getFileName().toString().contains("-ticks-")), onMount.toString());
        assertTrue(onMount.stream().filter(f -> f.getFileName().toString().contains("-region-")).count() >= 2,
            "the publisher's table and the paged consumer's ring: " + onMount);
        for (final Path file : onMount)
        {
            assertTrue(Hugetlbfs.onHugetlbfs(file), file + " is not on hugetlbfs");
            assertEquals(0, Files.size(file) % TWO_MIB, file + " is not a whole number of 2 MiB pages");
        }
        assertTrue(Hugetlbfs.freePages() < freeBefore, "no hugepage was taken");
        final List<Path> regular = files(shm.directory(), shm.instance());
        assertTrue(regular.stream().noneMatch(f -> f.getFileName().toString().matches(".*-(stream|ticks)-.*")),
            regular.toString());
        assertEquals(huge.directory().toAbsolutePath().toString(),
            Files.readString(shm.directory().resolve(shm.instance() + "-hugepages")).trim());
        assertEquals(0, harness.transport().hugepageFallbacks());
        assertEquals(huge.directory(), harness.transport().hugepageDirectory());
    }

    @Test
    @Timeout(120)
    void shouldPutAFileTheMountCannotHoldOnRegularPagesCountedAndWarnedAndStillDeliver() throws Exception
    {
        huge = Hugetlbfs.mount(8, "size=4M");
        final List<String> warnings = new CopyOnWriteArrayList<>();
        final ShmContext shm = ShmInstance.context(ShmInstance.unique())
            .hugepages(HugepageMode.AUTO).hugepageDirectory(huge.directory()).eventLog(warnings::add);
        harness = new PublisherHarness(shm, List.of("reader"), context -> { });
        final EgressConsumer reader = consumer("reader", ShmInstance.context(shm.instance()));
        reader.subscribeAll();
        awaitSubscribed(reader);
        for (long sequence = 1; sequence <= LAST; sequence++)
        {
            harness.publish(Ticks.add(sequence, (int)(sequence % 10) + 1, CLOCK.nanoTime()));
        }

        assertEquals(range(1, LAST, false), collect(reader, LAST));
        assertTrue(harness.transport().hugepageFallbacks() >= 1, "no fallback counted");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("deploy/tune-host.sh --hugepages N --apply"), warnings.get(0));
        assertTrue(files(shm.directory(), shm.instance()).stream()
            .anyMatch(f -> f.getFileName().toString().matches(".*-(stream|ticks)-.*")),
            "a 4 MiB mount cannot hold the stream or the log, so one of them is in " + shm.directory() + ": " +
            files(shm.directory(), shm.instance()));
    }

    private EgressConsumer consumer(final String name, final ShmContext shm)
    {
        final ShmTransport transport = new ShmTransport(shm);
        closeables.add(transport);
        final EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name(name)
            .token(name + PublisherHarness.TOKEN_SUFFIX).controlPollNanos(0));
        closeables.add(0, consumer);
        return consumer;
    }

    private static void awaitSubscribed(final EgressConsumer consumer)
    {
        Await.until("subscription answers", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
    }

    private static List<Long> collect(final EgressConsumer consumer, final long untilSequence)
    {
        final List<Long> into = new ArrayList<>();
        Await.until("sequence " + untilSequence, 20, () ->
        {
            consumer.poll((buffer, offset) -> into.add(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN)), 256);
            return consumer.lastDeliveredSequence() >= untilSequence;
        });
        return into;
    }

    /** @return from..to, or only those on instrument 1 (sequence mod 10 == 0). */
    private static List<Long> range(final long from, final long to, final boolean instrumentOne)
    {
        final List<Long> expected = new ArrayList<>();
        for (long sequence = from; sequence <= to; sequence++)
        {
            if (!instrumentOne || sequence % 10 == 0)
            {
                expected.add(sequence);
            }
        }
        return expected;
    }

    private static List<Path> files(final Path directory, final String instance) throws IOException
    {
        try (Stream<Path> list = Files.list(directory))
        {
            return list.filter(f -> f.getFileName().toString().startsWith(instance + "-")).toList();
        }
    }
}
