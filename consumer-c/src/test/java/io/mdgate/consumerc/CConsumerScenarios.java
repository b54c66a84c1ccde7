package io.mdgate.consumerc;

import io.mdgate.egress.TickArchive;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.MultiProcessDay;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmContext;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/**
 * C consumer processes ({@code mdgate-consume-c}, started and stopped by pid) against a Java publisher in this JVM
 * over shm, fed the ticks of {@link MultiProcessDay} as the Java consumer processes of rdma-egress are. Each
 * scenario runs against the release build and the sanitizer build (subclasses);
 * any sanitizer report fails the test.
 */
abstract class CConsumerScenarios
{
    private static final int RATE = 50_000;
    private static final Pattern SUMMARY_FIELD =
        Pattern.compile("([a-z ]+?) (\\d+)(?:/(\\d+))?(?: ticks)?(?=,| \\(|$)");

    private final List<NativeProcess> processes = new ArrayList<>();
    private PublisherHarness harness;

    abstract NativeBuild build();

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

    private void startPublisher(final int sharedLogSlots, final String... consumers)
    {
        startPublisher(ShmInstance.context(ShmInstance.unique()), sharedLogSlots, consumers);
    }

    private void startPublisher(final ShmContext shm, final int sharedLogSlots, final String... consumers)
    {
        harness = new PublisherHarness(shm, List.of(consumers),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)).sharedLogSlots(sharedLogSlots));
    }

    NativeProcess consumerWithToken(final String name, final String token, final String... options) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(build().tool("mdgate-consume-c").toString(),
            "--instance", harness.shm().instance(), "--dir", harness.shm().directory().toString(),
            "--consumer", name, "--token", token, "--format", "seq"));
        command.addAll(Arrays.asList(options));
        final NativeProcess process = new NativeProcess(name, build(), command);
        processes.add(process);
        return process;
    }

    private NativeProcess consumer(final String name, final String... options) throws IOException
    {
        return consumerWithToken(name, name + PublisherHarness.TOKEN_SUFFIX, options);
    }

    /** Publishes {@code from..to} at about {@link #RATE} ticks per second; {@code finalSequence} is market-wide. */
    static void publish(final PublisherHarness harness, final long from, final long to, final long finalSequence)
    {
        MultiProcessDay.publish(harness, from, to, finalSequence, RATE);
    }

    private void publish(final long from, final long to, final long finalSequence)
    {
        publish(harness, from, to, finalSequence);
    }

    private static List<Long> expected(final long from, final long to, final long finalSequence,
        final Set<Integer> instruments)
    {
        return MultiProcessDay.expected(from, to, finalSequence, instruments);
    }

    static List<Long> received(final NativeProcess process)
    {
        return process.out().stream().filter(line -> !line.isEmpty()).map(Long::parseLong).collect(Collectors.toList());
    }

    /** @return the fields of the summary line on standard error ("gaps" -> 0, "recoveries" -> completed, ...). */
    static Map<String, Long> summary(final NativeProcess process)
    {
        final String line = process.err().stream().filter(l -> l.startsWith("mdgate-consume-c: delivered ")).findFirst()
            .orElseThrow(() -> new AssertionError("no summary line; stderr: " + process.err()));
        final Map<String, Long> fields = new HashMap<>();
        final Matcher matcher = SUMMARY_FIELD.matcher(line.substring("mdgate-consume-c: ".length()));
        while (matcher.find())
        {
            fields.put(matcher.group(1).trim(), Long.parseLong(matcher.group(2)));
            if (null != matcher.group(3))
            {
                fields.put(matcher.group(1).trim() + "/", Long.parseLong(matcher.group(3))); // "recoveries/": requested
            }
        }
        return fields;
    }

    private static boolean deliveredAtLeast(final NativeProcess process, final long sequence)
    {
        final List<String> lines = process.out();
        return !lines.isEmpty() && !lines.get(lines.size() - 1).isEmpty() &&
            Long.parseLong(lines.get(lines.size() - 1)) >= sequence;
    }

    private static void awaitDelivered(final NativeProcess process, final long sequence) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!deliveredAtLeast(process, sequence))
        {
            assertTrue(process.isAlive(), "the consumer exited early: " + process.err());
            assertTrue(System.nanoTime() < deadline,
                "sequence " + sequence + " not delivered in 60 s: " + process.err());
            Thread.sleep(10);
        }
    }

    @Test
    void shouldDeliverToCConsumersWithDifferentSubscriptionsExactlyTheirTicksInOrder() throws Exception
    {
        startPublisher(PublisherContext.DEFAULT_SHARED_LOG_SLOTS, "all", "some", "symbols");
        final long last = 30_000;
        final NativeProcess all = consumer("all", "--all", "--until", Long.toString(last));
        final NativeProcess some = consumer("some", "--instruments", "1,2,3", "--until", Long.toString(last));
        final NativeProcess symbols = consumer("symbols", "--symbols", "MSFT,AAPL", "--path", "stream",
            "--until", Long.toString(last));
        for (final NativeProcess process : processes)
        {
            process.awaitReady(60);
        }

        publish(1, last, last);

        for (final NativeProcess process : processes)
        {
            assertEquals(0, process.awaitExit(60), process.err().toString());
        }
        assertEquals(expected(1, last, last, null), received(all));
        assertEquals(expected(1, last, last, Set.of(1, 2, 3)), received(some));
        assertEquals(expected(1, last, last, Set.of(4, 7)), received(symbols));
        for (final NativeProcess process : processes)
        {
            assertEquals(0, summary(process).get("unrecovered"), process.err().toString());
            assertEquals(0, summary(process).get("duplicates"), process.err().toString());
        }
        assertTrue(harness.publisher().counters().sharedLogTicks() >= last, "the consumer of all read the shared log");
    }

    @Test
    void shouldPrintEachTicksSymbolAndForgetThemAtASessionTickAsTheJavaConsumerDoes() throws Exception
    {
        startPublisher(PublisherContext.DEFAULT_SHARED_LOG_SLOTS, "named");
        final NativeProcess named = consumer("named", "--all", "--format", "json", "--until", "6");
        named.awaitReady(60);

        harness.publish(Ticks.instrument(1, 7, "MSFT"));
        harness.publish(Ticks.add(2, 7, 0));
        harness.publish(Ticks.session(3, 2));
        harness.publish(Ticks.add(4, 7, 0));
        harness.publish(Ticks.instrument(5, 7, "IBM"));
        harness.publish(Ticks.add(6, 7, 0));

        assertEquals(0, named.awaitExit(60), named.err().toString());
        final List<String> symbols = named.out().stream().filter(line -> !line.isEmpty())
            .map(line -> line.replaceAll(".*\"symbol\":(null|\"([^\"]*)\"),.*", "$2")).collect(Collectors.toList());
        assertEquals(List.of("MSFT", "MSFT", "", "", "IBM", "IBM"), symbols,
            "the new session (tick 3) reuses locate 7: " + named.out());
    }

    @Test
    void shouldNameTheSymbolsOfInstrumentsNamedBeforeALateLiveCConsumerJoinedFromTheDirectory() throws Exception
    {
        startPublisher(PublisherContext.DEFAULT_SHARED_LOG_SLOTS, "late", "blind");
        long sequence = 0;
        for (int instrument = 1; instrument <= 5; instrument++)
        {
            harness.publish(Ticks.instrument(++sequence, instrument, "S" + instrument));
            harness.publish(Ticks.add(++sequence, instrument, 0));
        }
        final long beforeJoin = sequence;
        harness.awaitDrained();
        final NativeProcess late = consumer("late", "--all", "--format", "json", "--until", "30");
        final NativeProcess blind = consumer("blind", "--all", "--format", "json", "--until", "30", "--no-directory");
        late.awaitReady(60);
        blind.awaitReady(60);

        while (sequence < 30)
        {
            harness.publish(Ticks.add(++sequence, (int)(sequence % 5) + 1, 0));
        }

        assertEquals(0, late.awaitExit(60), late.err().toString());
        assertEquals(0, blind.awaitExit(60), blind.err().toString());
        final List<String> lines = late.out().stream().filter(line -> !line.isEmpty()).collect(Collectors.toList());
        final long first = Long.parseLong(lines.get(0).replaceAll("^\\{\"gatewaySequence\":(\\d+),.*", "$1"));
        assertTrue(first > beforeJoin, "joined live, at " + first + ": " + lines);
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            assertTrue(line.startsWith("{\"gatewaySequence\":" + (first + i) + ","), "every sequence once: " + lines);
            final String instrument = line.replaceAll(".*\"instrument\":(\\d+),.*", "$1");
            assertTrue(line.contains("\"symbol\":\"S" + instrument + "\""), "named by the directory: " + line);
        }
        assertEquals(30, first + lines.size() - 1);
        assertTrue(late.err().stream().anyMatch(line -> line.contains("directory in (5 symbols)")), late.err().toString());
        assertTrue(blind.out().stream().filter(line -> !line.isEmpty()).allMatch(line -> line.contains("\"symbol\":null")),
            "the same late join without the directory names nothing: " + blind.out());
    }

    @Test
    void shouldRecoverWhatAKilledAndRestartedCConsumerMissed() throws Exception
    {
        killAndRestart(Set.of(1, 2, 3, 4, 5), "--instruments", "1,2,3,4,5");
    }

    @Test
    void shouldRecoverWhatAKilledAndRestartedCConsumerOfTheSharedLogMissed() throws Exception
    {
        killAndRestart(null, "--all");
        assertTrue(harness.publisher().counters().sharedLogTicks() > 0, "it read the shared log");
    }

    /** Kills a consumer of {@code instruments} (null: all) with SIGKILL mid-stream and restarts it from its last. */
    private void killAndRestart(final Set<Integer> instruments, final String... subscription) throws Exception
    {
        startPublisher(PublisherContext.DEFAULT_SHARED_LOG_SLOTS, "phoenix");
        final long last = 25_000;
        final List<String> options = new ArrayList<>(List.of(subscription));
        options.addAll(List.of("--until", Long.toString(last)));
        final NativeProcess first = consumer("phoenix", options.toArray(new String[0]));
        first.awaitReady(60);
        publish(1, 10_000, last);
        awaitDelivered(first, 9_000);
        first.killHard();
        final List<Long> beforeKill = received(first);
        publish(10_001, 20_000, last);

        final long resumeFrom = beforeKill.get(beforeKill.size() - 1) + 1;
        options.addAll(List.of("--resume-from", Long.toString(resumeFrom)));
        final NativeProcess second = consumer("phoenix", options.toArray(new String[0]));
        second.awaitReady(60);
        publish(20_001, last, last);
        assertEquals(0, second.awaitExit(60), second.err().toString());

        final List<Long> all = new ArrayList<>(beforeKill);
        all.addAll(received(second));
        assertEquals(expected(1, last, last, instruments), all);
        assertTrue(summary(second).get("recovered") > 0, "the restarted consumer recovered what it missed");
        assertEquals(0, summary(second).get("unrecovered"));
    }

    @Test
    void shouldResyncALappedCConsumerRingAndLoseNothing() throws Exception
    {
        startPublisher(0, "fast", "slow"); // no shared log: both consumers of every instrument read their rings
        pauseTheSlowConsumerUntilLapped(true);
    }

    @Test
    void shouldRecoverALappedCConsumerOfTheSharedLogAndLoseNothing() throws Exception
    {
        startPublisher(1024, "fast", "slow");
        pauseTheSlowConsumerUntilLapped(false);
    }

    @Test
    void shouldRecoverWhatAStoppedCConsumerOfTheStreamLost() throws Exception
    {
        // a broadcast log of 64 datagrams: the stopped consumer loses most of what is sent meanwhile
        startPublisher(ShmInstance.context(ShmInstance.unique()).streamSlots(64), 0, "fast", "slow");
        pauseTheSlowConsumerUntilLapped(false, "--path", "stream");
        final Map<String, Long> stats = summary(processes.get(1));
        assertTrue(stats.get("gaps") >= 1, "the stream's gap was seen: " + stats);
    }

    private void pauseTheSlowConsumerUntilLapped(final boolean rings) throws Exception
    {
        pauseTheSlowConsumerUntilLapped(rings, "--ring-slots", "256");
    }

    private void pauseTheSlowConsumerUntilLapped(final boolean rings, final String... slowPath) throws Exception
    {
        final long last = 30_000;
        final NativeProcess fast = consumer("fast", "--all", "--ring-slots", "16384", "--until", Long.toString(last));
        final List<String> slowOptions = new ArrayList<>(List.of("--all", "--until", Long.toString(last)));
        slowOptions.addAll(List.of(slowPath));
        final NativeProcess slow = consumer("slow", slowOptions.toArray(new String[0]));
        final boolean stream = slowOptions.contains("stream");
        fast.awaitReady(60);
        slow.awaitReady(60);

        publish(1, 5000, last);
        awaitDelivered(slow, 5000);
        slow.signal("STOP");
        awaitStopped(slow);
        final int linesAtStop = slow.out().size();
        publish(5001, 25_000, last);
        awaitDelivered(fast, 25_000);
        assertEquals(linesAtStop, slow.out().size(), "the stopped consumer received nothing while stopped");
        slow.signal("CONT");
        publish(25_001, last, last);

        assertEquals(0, fast.awaitExit(60), fast.err().toString());
        assertEquals(0, slow.awaitExit(60), slow.err().toString());
        assertEquals(expected(1, last, last, null), received(fast));
        assertEquals(expected(1, last, last, null), received(slow));
        final Map<String, Long> stats = summary(slow);
        assertTrue(stream || stats.get("laps") >= 1, "the slow consumer was lapped: " + stats);
        assertTrue(stats.get("recovered") > 0, "and recovered from the recovery source: " + stats);
        assertEquals(0, stats.get("unrecovered"));
        if (stream)
        {
            assertEquals(0, harness.publisher().counters().laps(), "the stream laps nobody at the publisher");
        }
        else if (rings)
        {
            assertTrue(harness.publisher().counters().laps() >= 1, "the publisher stopped the slow ring");
        }
        else
        {
            assertEquals(last, harness.publisher().counters().sharedLogTicks(), "each tick written once for both");
        }
    }

    private static void awaitStopped(final NativeProcess process) throws Exception
    {
        final Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true)
        {
            final String text = Files.readString(stat);
            if (text.substring(text.lastIndexOf(')') + 2).charAt(0) == 'T')
            {
                break;
            }
            assertTrue(System.nanoTime() < deadline, "the consumer did not stop within 10 s of SIGSTOP");
            Thread.sleep(5);
        }
        int lines = process.out().size();
        while (true)
        {
            Thread.sleep(300);
            if (process.out().size() == lines)
            {
                return;
            }
            lines = process.out().size();
        }
    }

    @Test
    void shouldReconnectToARestartedPublisherAndDeliverEverySequenceOnceOnTheRingTheSharedLogAndTheStream()
        throws Exception
    {
        final ShmContext shm = ShmInstance.context(ShmInstance.unique());
        final long beforeKill = 10_000;
        final long last = 20_000;
        restartPublisher(shm, 1, new TickArchive(1 << 20), "ring", "log", "stream");
        final NativeProcess ring = consumer("ring", "--instruments", "1,2,3", "--until", Long.toString(last));
        final NativeProcess log = consumer("log", "--all", "--until", Long.toString(last));
        // By id: the restarted publisher knows a symbol only once an INSTRUMENT tick names it again.
        final NativeProcess stream = consumer("stream", "--instruments", "4,7", "--path", "stream", "--until",
            Long.toString(last));
        for (final NativeProcess process : processes)
        {
            process.awaitReady(60);
        }
        publish(1, beforeKill, last);
        awaitDelivered(ring, last(expected(1, beforeKill, last, Set.of(1, 2, 3))));
        awaitDelivered(log, beforeKill);
        awaitDelivered(stream, last(expected(1, beforeKill, last, Set.of(4, 7))));

        final PublisherHarness first = harness;
        harness.close(); // its control socket goes with it: the consumers' attempts are refused until it is back
        harness = null;
        for (final NativeProcess process : processes)
        {
            process.awaitLine(true, line -> line.contains("could not reconnect"), 30, "a failed attempt");
        }
        restartPublisher(shm, beforeKill + 1, first.archive(), "ring", "log", "stream");
        publish(beforeKill + 1, last, last);

        for (final NativeProcess process : processes)
        {
            assertEquals(0, process.awaitExit(60), process.err().toString());
        }
        assertDelivered(expected(1, last, last, Set.of(1, 2, 3)), ring);
        assertDelivered(expected(1, last, last, null), log);
        assertDelivered(expected(1, last, last, Set.of(4, 7)), stream);
        for (final NativeProcess process : processes)
        {
            final Map<String, Long> stats = summary(process);
            assertEquals(1, stats.get("reconnects"), process.err().toString());
            assertTrue(stats.get("failed reconnects") >= 1, process.err().toString());
            assertEquals(stats.get("failed reconnects") + 1, stats.get("reconnects/"), "attempts: " + stats);
            assertEquals(0, stats.get("duplicates"), process.err().toString());
            assertEquals(0, stats.get("unrecovered"), process.err().toString());
            assertEquals(1, process.err().stream().filter(line -> line.contains("could not reconnect")).count(),
                "said once for one reason: " + process.err());
        }
        assertEquals("yes", log.err().stream().filter(l -> l.startsWith("mdgate-consume-c: delivered "))
            .map(l -> l.replaceAll(".*shared log ", "")).findFirst().orElseThrow(), "back on the shared log");
    }

    @Test
    void shouldTryLessAndLessOftenWhileThePublisherStaysAwayAndSaySoInTheCounters() throws Exception
    {
        startPublisher(PublisherContext.DEFAULT_SHARED_LOG_SLOTS, "left");
        final NativeProcess left = consumer("left", "--all");
        left.awaitReady(60);
        publish(1, 100, 100);
        awaitDelivered(left, 100);

        harness.close();
        harness = null;
        left.awaitLine(true, line -> line.contains("lost its connection"), 30, "the loss");
        Thread.sleep(5_000); // attempts 0.5, 1.5 and 3.5 s after the loss (ten at a fixed 500 ms), the next at 7.5 s
        assertTrue(left.isAlive(), "keeps trying, as mdgate consume does: " + left.err());
        left.signal("TERM");

        assertEquals(0, left.awaitExit(30), left.err().toString());
        final Map<String, Long> stats = summary(left);
        final long attempts = stats.get("reconnects/");
        assertTrue(attempts >= 2 && attempts <= 4, "attempts in 5 s: " + stats);
        assertEquals(attempts, stats.get("failed reconnects"), "every one failed: " + stats);
        assertEquals(0, stats.get("reconnects"), stats.toString());
        assertEquals(1, left.err().stream().filter(line -> line.contains("could not reconnect (1 attempt(s) since " +
            "the last report)")).count(), "said once for one reason: " + left.err());
    }

    /** Compares what a consumer delivered with what it should have, saying where they part rather than both lists. */
    private void assertDelivered(final List<Long> expected, final NativeProcess process)
    {
        final List<Long> received = received(process);
        int same = 0;
        while (same < expected.size() && same < received.size() && expected.get(same).equals(received.get(same)))
        {
            same++;
        }
        if (same < expected.size() || same < received.size())
        {
            fail("the first " + same + " of " + expected.size() + " sequences as expected, then " +
                (same < received.size() ? received.subList(same, Math.min(received.size(), same + 5)) : "nothing") +
                " instead of " + (same < expected.size() ? expected.subList(same, Math.min(expected.size(), same + 5)) :
                "nothing") + "; " + received.size() + " delivered; stderr " + process.err() + "; publisher " +
                (null == harness ? "closed" : harness.events()));
        }
    }

    private static long last(final List<Long> sequences)
    {
        return sequences.get(sequences.size() - 1);
    }

    /**
     * A publisher on {@code shm} (perhaps where one was closed) whose first live sequence is {@code firstSequence},
     * recovering from {@code journal} (what the closed one published, and what this one adds).
     */
    private void restartPublisher(final ShmContext shm, final long firstSequence, final TickArchive journal,
        final String... consumers)
    {
        harness = new PublisherHarness(shm, List.of(consumers), context -> context
            .heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)).firstSequence(firstSequence), journal);
    }

    @Test
    void shouldRefuseACConsumerWithAWrongTokenSayingWhy() throws Exception
    {
        startPublisher(PublisherContext.DEFAULT_SHARED_LOG_SLOTS, "honest");
        final NativeProcess intruder = consumerWithToken("honest", "guessed", "--all", "--until", "1");

        assertEquals(1, intruder.awaitExit(60));
        final String first = intruder.err().get(0);
        assertTrue(first.startsWith("mdgate-consume-c: the publisher refused consumer 'honest'"), first);
        assertTrue(first.contains("authentication failed (unknown consumer or wrong token) (reason " +
            ControlMessageDescriptor.REJECT_AUTHENTICATION + ")"), first);
        assertTrue(first.contains("check --consumer and --token"), first);
        assertEquals(1, harness.publisher().counters().authenticationFailures());
        assertEquals(0, harness.publisher().activeConsumers());
    }
}
