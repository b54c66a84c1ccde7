package io.mdgate.consumerc;

import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The C consumer and the Java consumer side by side on one publisher (this JVM, shm): both subscribed alike, each in
 * a process of its own, fed the same ticks at a paced rate. Per consumer: the rate it delivered at (ticks over the
 * time from its first to its last delivery) and the one-way latency from the tick's receive timestamp to the poll
 * that delivered it, p50 / p99 / p99.9 / max, in a table. Not a unit test: a main of the test classes.
 * <p>
 * {@code java -cp <test class path> io.mdgate.consumerc.ConsumerBenchmark [ticks] [rate,rate...]}, with
 * {@code -Dmdgate.consumer.native=consumer-c/target/native}; docs/BENCHMARKS.md has the command and the figures.
 */
public final class ConsumerBenchmark
{
    private static final Pattern C_LATENCY = Pattern.compile(
        "latency us p50 ([\\d.]+) p99 ([\\d.]+) p99.9 ([\\d.]+) max ([\\d.]+) \\((\\d+) timed\\), " +
        "first to last delivery ([\\d.]+) s");
    private static final Pattern C_DELIVERED = Pattern.compile("delivered (\\d+) ticks");
    private static final Pattern JAVA_RESULT = Pattern.compile(
        "RESULT delivered=(\\d+) seconds=([\\d.]+) p50=(\\d+) p99=(\\d+) p999=(\\d+) max=(\\d+)");

    private ConsumerBenchmark()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final long ticks = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        final String[] rates = (args.length > 1 ? args[1] : "100000,500000").split(",");
        final List<String> rows = new ArrayList<>();
        for (final String rate : rates)
        {
            for (final String subscription : List.of("1,2,3,4,5", "all"))
            {
                rows.addAll(run(ticks, Long.parseLong(rate), subscription));
            }
        }
        System.out.println();
        System.out.println("| offered ticks/s | subscription (path) | consumer | delivered | rate ticks/s | " +
            "p50 us | p99 us | p99.9 us | max us |");
        System.out.println("|---:|---|---|---:|---:|---:|---:|---:|---:|");
        rows.forEach(System.out::println);
    }

    private static List<String> run(final long ticks, final long rate, final String subscription) throws Exception
    {
        final PublisherHarness harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()),
            List.of("c", "java"), context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30))
                .sharedLogSlots(PublisherContext.DEFAULT_SHARED_LOG_SLOTS));
        Process c = null;
        Process java = null;
        try
        {
            final String instance = harness.shm().instance();
            final List<String> cCommand = new ArrayList<>(List.of(
                NativeBuild.RELEASE.tool("mdgate-consume-c").toString(),
                "--instance", instance, "--consumer", "c", "--token", "c" + PublisherHarness.TOKEN_SUFFIX, "--format",
                "none", "--ring-slots", "16384", "--until", Long.toString(ticks)));
            cCommand.addAll("all".equals(subscription) ? List.of("--all") : List.of("--instruments", subscription));
            c = new ProcessBuilder(cCommand).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            final List<String> javaCommand = new ArrayList<>();
            javaCommand.add(ProcessHandle.current().info().command().orElse("java"));
            javaCommand.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            javaCommand.addAll(List.of("-cp", System.getProperty("java.class.path"),
                BenchmarkJavaConsumer.class.getName(), instance, "java", "java" + PublisherHarness.TOKEN_SUFFIX,
                subscription, Long.toString(ticks)));
            java = new ProcessBuilder(javaCommand).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            final BufferedReader javaOut = new BufferedReader(new InputStreamReader(java.getInputStream(),
                StandardCharsets.US_ASCII));
            final BufferedReader cErr = new BufferedReader(new InputStreamReader(c.getErrorStream(),
                StandardCharsets.US_ASCII));
            awaitLine(cErr, ": ready: ");
            awaitLine(javaOut, "READY");
            publish(harness, ticks, rate);
            final String javaResult = awaitLine(javaOut, "RESULT");
            final List<String> cLines = new ArrayList<>();
            for (String line; null != (line = cErr.readLine());)
            {
                cLines.add(line);
            }
            c.waitFor(60, TimeUnit.SECONDS);
            java.waitFor(60, TimeUnit.SECONDS);
            final String path =
                "all".equals(subscription) ? "every instrument (shared log)" : "ids " + subscription + " (ring)";
            return List.of(cRow(rate, path, cLines), javaRow(rate, path, javaResult));
        }
        finally
        {
            if (null != c)
            {
                c.destroyForcibly();
            }
            if (null != java)
            {
                java.destroyForcibly();
            }
            harness.close();
        }
    }

    private static void publish(final PublisherHarness harness, final long ticks, final long rate)
    {
        final MonotonicEpochClock clock = new MonotonicEpochClock();
        final long start = System.nanoTime();
        for (long sequence = 1; sequence <= ticks; sequence++)
        {
            harness.publish(Ticks.add(sequence, (int)(sequence % 10) + 1, clock.nanoTime()));
            if (sequence % 64 == 0)
            {
                final long wait = start + sequence * 1_000_000_000L / rate - System.nanoTime();
                if (wait > 0)
                {
                    LockSupport.parkNanos(wait);
                }
            }
        }
        // the last sequence reaches every subscription: instrument 10 would not, so end with instrument 1
        harness.publish(Ticks.add(ticks + 1, 1, clock.nanoTime()));
    }

    private static String awaitLine(final BufferedReader reader, final String mark) throws Exception
    {
        for (String line; null != (line = reader.readLine());)
        {
            if (line.contains(mark))
            {
                return line;
            }
        }
        throw new IllegalStateException("the consumer ended before printing " + mark);
    }

    private static String cRow(final long rate, final String path, final List<String> lines)
    {
        final String all = String.join("\n", lines);
        final Matcher latency = C_LATENCY.matcher(all);
        final Matcher delivered = C_DELIVERED.matcher(all);
        if (!latency.find() || !delivered.find())
        {
            throw new IllegalStateException("no summary from mdgate-consume-c: " + all);
        }
        final long count = Long.parseLong(delivered.group(1));
        return String.format(Locale.ROOT, "| %,d | %s | C | %,d | %,.0f | %s | %s | %s | %s |", rate, path, count,
            count / Double.parseDouble(latency.group(6)), latency.group(1), latency.group(2), latency.group(3),
            latency.group(4));
    }

    private static String javaRow(final long rate, final String path, final String result)
    {
        final Matcher matcher = JAVA_RESULT.matcher(result);
        if (!matcher.find())
        {
            throw new IllegalStateException("no RESULT from the Java consumer: " + result);
        }
        final long count = Long.parseLong(matcher.group(1));
        return String.format(Locale.ROOT, "| %,d | %s | Java | %,d | %,.0f | %.2f | %.2f | %.2f | %.2f |", rate, path,
            count, count / Double.parseDouble(matcher.group(2)), Long.parseLong(matcher.group(3)) / 1e3,
            Long.parseLong(matcher.group(4)) / 1e3, Long.parseLong(matcher.group(5)) / 1e3,
            Long.parseLong(matcher.group(6)) / 1e3);
    }
}
