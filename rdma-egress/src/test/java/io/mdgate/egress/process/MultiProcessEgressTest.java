package io.mdgate.egress.process;

import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.MultiProcessDay;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Consumers in separate JVMs over shm, the publisher in this one. The ticks: sequence 1 names instrument 7 MSFT,
 * sequence 2 names instrument 4 AAPL, the last one of a test is a market-wide event every consumer receives, and
 * every other sequence is an ADD on instrument {@code sequence mod 10 + 1}.
 */
class MultiProcessEgressTest
{
    private static final int RATE = 50_000;

    private final List<ChildJvm> children = new ArrayList<>();
    private PublisherHarness harness;
    private long lastSequence;

    @AfterEach
    void tearDown()
    {
        children.forEach(ChildJvm::close);
        if (null != harness)
        {
            harness.close();
        }
    }

    private void startPublisher(final String... consumers)
    {
        startPublisher(PublisherContext.DEFAULT_SHARED_LOG_SLOTS, consumers);
    }

    private void startPublisher(final int sharedLogSlots, final String... consumers)
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of(consumers),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)).sharedLogSlots(sharedLogSlots));
    }

    private ChildJvm consumer(final String name, final String... options) throws IOException
    {
        final List<String> args = new ArrayList<>(List.of("instance=" + harness.shm().instance(), "name=" + name,
            "token=" + name + PublisherHarness.TOKEN_SUFFIX));
        args.addAll(Arrays.asList(options));
        final ChildJvm child = new ChildJvm(name, ConsumerProcess.class, args);
        children.add(child);
        return child;
    }

    /** Publishes {@code from..to} at about {@link #RATE} ticks per second ({@link MultiProcessDay}). */
    private void publish(final long from, final long to, final long finalSequence)
    {
        MultiProcessDay.publish(harness, from, to, finalSequence, RATE);
        lastSequence = to;
    }

    private static List<Long> expected(final long from, final long to, final long finalSequence,
        final Set<Integer> instruments)
    {
        return MultiProcessDay.expected(from, to, finalSequence, instruments);
    }

    /** @return lines the child had printed once the kernel reports it stopped and its output has drained. */
    private static int awaitStopped(final ChildJvm child) throws Exception
    {
        final Path stat = Path.of("/proc", Long.toString(child.pid()), "stat");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!isStopped(Files.readString(stat)))
        {
            assertTrue(System.nanoTime() < deadline, "the consumer did not stop within 10 s of SIGSTOP");
            Thread.sleep(5);
        }
        int lines = received(child).size();
        while (true)
        {
            Thread.sleep(300);
            final int now = received(child).size();
            if (now == lines)
            {
                return lines;
            }
            lines = now;
        }
    }

    private static boolean isStopped(final String stat)
    {
        // The state follows the parenthesised command name: "pid (comm) S ...".
        final String afterName = stat.substring(stat.lastIndexOf(')') + 2);
        return afterName.charAt(0) == 'T';
    }

    private static List<Long> received(final ChildJvm child)
    {
        return child.lines().stream()
            .filter(line -> line.startsWith("T ") && line.endsWith(" E"))
            .map(line -> Long.parseLong(line.split(" ")[1]))
            .collect(Collectors.toList());
    }

    private static Map<String, Long> stats(final ChildJvm child)
    {
        final String line = child.lines().stream().filter(l -> l.startsWith("STATS ")).findFirst()
            .orElseThrow(() -> new AssertionError("no STATS line"));
        final Map<String, Long> stats = new HashMap<>();
        for (final String field : line.substring(6).split(" "))
        {
            final String[] pair = field.split("=");
            stats.put(pair[0], Long.parseLong(pair[1]));
        }
        return stats;
    }

    private static String latency(final String name, final Map<String, Long> stats)
    {
        return String.format("%s: %d ticks timed, p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us", name,
            stats.get("latencyCount"), stats.get("p50") / 1e3, stats.get("p99") / 1e3, stats.get("p999") / 1e3,
            stats.get("max") / 1e3);
    }

    private static boolean deliveredAtLeast(final String line, final long sequence)
    {
        return line.startsWith("T ") && line.endsWith(" E") && Long.parseLong(line.split(" ")[1]) >= sequence;
    }

    @Test
    void shouldDeliverToConsumerProcessesWithDifferentSubscriptionsExactlyTheirTicksInOrder() throws Exception
    {
        startPublisher("all", "some", "symbols");
        final long last = 30_000;
        final ChildJvm all = consumer("all", "subscribe=all", "until=" + last);
        final ChildJvm some = consumer("some", "subscribe=1,2,3", "until=" + last);
        final ChildJvm symbols = consumer("symbols", "path=stream", "subscribe=MSFT,AAPL", "until=" + last);
        for (final ChildJvm child : children)
        {
            child.awaitLine("READY"::equals, 60, "READY");
        }

        publish(1, last, last);

        for (final ChildJvm child : children)
        {
            child.awaitLine("DONE"::equals, 60, "DONE");
        }
        assertEquals(expected(1, last, last, null), received(all));
        assertEquals(expected(1, last, last, Set.of(1, 2, 3)), received(some));
        assertEquals(expected(1, last, last, Set.of(4, 7)), received(symbols));
        for (final ChildJvm child : children)
        {
            assertEquals(0, stats(child).get("unrecovered"));
        }
        System.out.println("Latency without a slow consumer (one host, shared CPU): " +
            latency("all (shared log)", stats(all)) + "; " + latency("some (ring)", stats(some)) + "; " +
            latency("symbols (stream)", stats(symbols)));
    }

    @Test
    void shouldResyncAConsumerPausedUntilLappedWhileTheOtherCarriesOn() throws Exception
    {
        startPublisher(0, "fast", "slow"); // no shared log: both consumers of every instrument read their rings
        pauseTheSlowConsumerUntilLapped(true);
    }

    @Test
    void shouldRecoverASharedLogConsumerPausedUntilLappedWhileTheOtherCarriesOn() throws Exception
    {
        startPublisher(1024, "fast", "slow");
        pauseTheSlowConsumerUntilLapped(false);
    }

    private void pauseTheSlowConsumerUntilLapped(final boolean rings) throws Exception
    {
        final long last = 30_000;
        final ChildJvm fast = consumer("fast", "subscribe=all", "ringSlots=16384", "until=" + last);
        final ChildJvm slow = consumer("slow", "subscribe=all", "ringSlots=256", "until=" + last);
        fast.awaitLine("READY"::equals, 60, "READY");
        slow.awaitLine("READY"::equals, 60, "READY");

        publish(1, 5000, last);
        slow.awaitLine(line -> deliveredAtLeast(line, 5000), 30, "sequence 5000");
        slow.signal("STOP");
        // SIGSTOP lands asynchronously: the consumer may take a few more ticks before the kernel stops it.
        final int slowLinesAtStop = awaitStopped(slow);
        publish(5001, 25_000, last);
        // The other consumer is not held back: it receives everything while the slow one is stopped.
        fast.awaitLine(line -> deliveredAtLeast(line, 25_000), 30, "sequence 25000 while the slow one is stopped");
        final int slowLinesWhileStopped = received(slow).size();
        slow.signal("CONT");
        publish(25_001, last, last);

        fast.awaitLine("DONE"::equals, 60, "DONE");
        slow.awaitLine("DONE"::equals, 60, "DONE");
        assertTrue(slowLinesAtStop >= 5000, "the slow consumer had sequence 5000 before it was stopped");
        assertEquals(slowLinesAtStop, slowLinesWhileStopped, "the stopped consumer received nothing while stopped");
        assertEquals(expected(1, last, last, null), received(fast));
        assertEquals(expected(1, last, last, null), received(slow));
        assertTrue(stats(slow).get("laps") >= 1, "the slow consumer was lapped: " + stats(slow));
        assertTrue(stats(slow).get("recovered") > 0, "and recovered from the recovery source");
        if (rings)
        {
            assertTrue(harness.publisher().counters().laps() >= 1, "the publisher stopped the slow ring");
            assertEquals(0, harness.publisher().counters().sharedLogTicks());
        }
        else
        {
            assertEquals(0, harness.publisher().counters().laps(), "nothing to stop: the shared log laps readers");
            assertEquals(last, harness.publisher().counters().sharedLogTicks(), "each tick written once for both");
            assertEquals(0, harness.publisher().counters().ringTicksStaged());
        }
        System.out.println("Latency with a consumer stopped and lapped beside it: " + latency("fast", stats(fast)) +
            " (laps " + stats(fast).get("laps") + ")" +
            "; slow: " + stats(slow));
    }

    @Test
    void shouldRecoverWhatAKilledAndRestartedConsumerMissed() throws Exception
    {
        startPublisher("phoenix");
        final long last = 25_000;
        final Set<Integer> instruments = Set.of(1, 2, 3, 4, 5);
        final ChildJvm first = consumer("phoenix", "subscribe=1,2,3,4,5", "until=" + last);
        first.awaitLine("READY"::equals, 60, "READY");
        publish(1, 10_000, last);
        first.awaitLine(line -> deliveredAtLeast(line, 9_000), 30, "sequence 9000");
        first.killHard();
        final List<Long> beforeKill = received(first);
        publish(10_001, 20_000, last);

        final long resumeFrom = beforeKill.get(beforeKill.size() - 1) + 1;
        final ChildJvm second = consumer("phoenix", "subscribe=1,2,3,4,5", "until=" + last,
            "resumeFrom=" + resumeFrom);
        second.awaitLine("READY"::equals, 60, "READY");
        publish(20_001, last, last);
        second.awaitLine("DONE"::equals, 60, "DONE");

        final List<Long> all = new ArrayList<>(beforeKill);
        all.addAll(received(second));
        assertEquals(expected(1, last, last, instruments), all);
        assertTrue(stats(second).get("recovered") > 0, "the restarted consumer recovered what it missed");
    }

    @Test
    void shouldRefuseAConsumerProcessWithAWrongToken() throws Exception
    {
        startPublisher("honest");
        final ChildJvm intruder = new ChildJvm("intruder", ConsumerProcess.class, List.of(
            "instance=" + harness.shm().instance(), "name=honest", "token=guessed", "until=1"));
        children.add(intruder);

        assertEquals(3, intruder.awaitExit(60));
        assertTrue(intruder.lines().contains("REJECTED " + ControlMessageDescriptor.REJECT_AUTHENTICATION),
            intruder.lines().toString());
        assertEquals(1, harness.publisher().counters().authenticationFailures());
        assertEquals(0, harness.publisher().activeConsumers());
    }
}
