package io.mdgate.bench.journal;

import io.mdgate.core.ticklog.TickLog;
import io.mdgate.journal.JournalAgent;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.JournalCycleClock;
import io.mdgate.journal.JournalPublisher;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickJournal;
import io.mdgate.journal.TickReplay;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The journal's benchmark harness, one run, every comparison side by side:
 * <ol>
 *   <li>append: rate and per-append latency (min, p50, p99, p99.9, p99.99, max; every sample in HdrHistogram) of a
 *   bare Chronicle Queue appender writing the 64-byte ticks, and of the journal writing the same ticks the way the
 *   gateway does (into the tick log, then the journal agent's duty cycle appending from its reader, on one thread as
 *   run-to-completion runs it), and their ratio; then the journal's rate with its agent on its own thread reading
 *   the log (the pipeline);</li>
 *   <li>replay: ticks per second reading a sequence range back through {@code TickReplay} (each tick copied and
 *   checked), beside a bare tailer copying the same records;</li>
 *   <li>seek: opening a journal of {@code --seek-ticks} ticks (a trading day cycled hourly by exchange time) and the
 *   time to find a start point by sequence and by time, over random targets.</li>
 * </ol>
 * Usage: {@code java <jvm flags> -cp benchmarks.jar io.mdgate.bench.journal.JournalBenchmark [--dir DIR]
 * [--ticks N] [--rounds N] [--seek-ticks N] [--seeks N] [--parts append,seek]}. Files go under DIR (default
 * /tmp/mdgate-journal-bench) and are deleted at the end; the seek journal needs about 70 bytes a tick: the harness
 * checks the free space first and, when short, says so and uses the largest journal that fits.
 */
public final class JournalBenchmark
{
    private static final PrintStream OUT = System.out;
    /**
     * Ticks per duty cycle in the batched comparison: a MoldUDP64 packet of five messages makes about fifteen ticks,
     * and the run-to-completion duty cycle appends a packet's ticks together.
     */
    private static final int BATCH = 16;

    private Path dir = Path.of("/tmp/mdgate-journal-bench");
    private long ticks = 10_000_000;
    private long seekTicks = 100_000_000;
    private int seeks = 10_000;
    private int rounds = 3;
    private String parts = "append,seek";
    private int roundsRun;

    private JournalBenchmark()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final JournalBenchmark benchmark = new JournalBenchmark();
        benchmark.parse(args);
        benchmark.run();
    }

    private void parse(final String[] args)
    {
        for (int i = 0; i < args.length; i += 2)
        {
            final String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i])
            {
                case "--dir" -> dir = Path.of(value);
                case "--ticks" -> ticks = Long.parseLong(value);
                case "--seek-ticks" -> seekTicks = Long.parseLong(value);
                case "--seeks" -> seeks = Integer.parseInt(value);
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--parts" -> parts = value;
                default -> throw new IllegalArgumentException("unknown option " + args[i] +
                    "; options: --dir DIR --ticks N --rounds N --seek-ticks N --seeks N --parts append,seek");
            }
        }
    }

    private void run() throws IOException
    {
        deleteTree(dir);
        Files.createDirectories(dir);
        OUT.printf(Locale.ROOT, "journal benchmark: %d cores, %s, java %s, files in %s%n",
            Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
            System.getProperty("java.version"), dir);
        if (Runtime.getRuntime().availableProcessors() < 4)
        {
            OUT.println("WARNING: fewer than 4 cores: the two-thread rate and every tail below share the CPU with " +
                "the JIT, GC and anything else running; read them as orders of magnitude");
        }
        try
        {
            if (parts.contains("append"))
            {
                appendComparison(ticks, rounds, 1);
                appendComparison(ticks, rounds, BATCH);
                twoThreadRate(ticks);
                replayComparison(ticks);
            }
            if (parts.contains("seek"))
            {
                seek();
            }
        }
        finally
        {
            deleteTree(dir);
        }
    }

    /**
     * Alternates bare and journal rounds on fresh files, taking turns at going first, so that neither always runs first
     * on a cold disk or a quiet machine, nor always second into the other's write-back; the histograms gather every measured round, the rates are per round and compared by their medians.
     * The last round's files stay for the replay comparison.
     */
    private void appendComparison(final long count, final int rounds, final int batch) throws IOException
    {
        final Histogram bare = Percentiles.histogram();
        final Histogram journal = Percentiles.histogram();
        final long[] bareNanos = new long[rounds];
        final long[] journalNanos = new long[rounds];
        appendRound(Math.min(count, 2_000_000), "warm-up", Percentiles.histogram(), Percentiles.histogram(), batch);
        for (int round = 0; round < rounds; round++)
        {
            final long[] nanos = appendRound(count, round == rounds - 1 && batch == 1 ? "measured" : "round" + round,
                bare, journal, batch);
            bareNanos[round] = nanos[0];
            journalNanos[round] = nanos[1];
        }
        OUT.println();
        OUT.println("== append, one thread, " + String.format(Locale.ROOT, "%,d", count) + " ticks of 64 bytes, " +
            rounds + " alternating rounds, " + (batch == 1 ? "one tick per duty cycle (latency: one append" :
            batch + " ticks per duty cycle (latency: appending " + batch + " ticks") +
            ", including two System.nanoTime calls)");
        OUT.println(Percentiles.header());
        OUT.println(Percentiles.row("bare Chronicle appender", bare));
        OUT.println(Percentiles.row("journal (tick log + agent duty cycle)", journal));
        OUT.printf(Locale.ROOT, "%-44s %12s %8s %8.2f %8.2f %9.2f %9.2f %11.2f%n", "ratio journal / bare", "", "",
            ratio(journal, bare, 50), ratio(journal, bare, 99), ratio(journal, bare, 99.9), ratio(journal, bare, 99.99),
            (double)journal.getMaxValue() / bare.getMaxValue());
        for (int round = 0; round < rounds; round++)
        {
            OUT.println(Percentiles.rate("rate, bare Chronicle appender, round " + (round + 1), count,
                bareNanos[round]));
            OUT.println(Percentiles.rate("rate, journal (one thread), round " + (round + 1), count,
                journalNanos[round]));
        }
        OUT.printf(Locale.ROOT, "%-44s %14.2f%n", "median rate ratio journal / bare",
            (double)median(bareNanos) / median(journalNanos));
    }

    /** @return nanoseconds of the bare loop and of the journal loop. */
    private long[] appendRound(final long count, final String round, final Histogram bare, final Histogram journal,
        final int batch) throws IOException
    {
        final BenchTicks source = new BenchTicks(count);
        final long[] nanos = new long[2];
        final Path bareDir = dir.resolve(round + "-bare");
        final Path journalDir = dir.resolve(round + "-journal");
        // Whichever writes second meets the first one's dirty pages being written back: take turns.
        if (0 == (roundsRun++ & 1))
        {
            nanos[0] = bareRound(bareDir, source, count, bare, batch);
            nanos[1] = journalRound(journalDir, source, count, journal, batch);
        }
        else
        {
            nanos[1] = journalRound(journalDir, source, count, journal, batch);
            nanos[0] = bareRound(bareDir, source, count, bare, batch);
        }
        if (!"measured".equals(round))
        {
            deleteTree(bareDir);
            deleteTree(journalDir);
        }
        return nanos;
    }

    private static long bareRound(final Path dir, final BenchTicks source, final long count, final Histogram h,
        final int batch)
    {
        try (BareQueue queue = new BareQueue(dir))
        {
            return timeBare(queue, source, count, h, batch);
        }
    }

    private static long journalRound(final Path dir, final BenchTicks source, final long count, final Histogram h,
        final int batch)
    {
        try (TickJournal tickJournal = TickJournal.open(new JournalContext().directory(dir)))
        {
            return timeJournal(tickJournal, source, count, h, batch);
        }
    }

    private static long median(final long[] values)
    {
        final long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** @return nanoseconds for the whole loop; each batch's append time goes into the histogram. */
    private static long timeBare(final BareQueue queue, final BenchTicks source, final long count, final Histogram h,
        final int batch)
    {
        final long start = System.nanoTime();
        for (long sequence = 1; sequence <= count; sequence += batch)
        {
            final long last = Math.min(count, sequence + batch - 1);
            final long before = System.nanoTime();
            for (long s = sequence; s <= last; s++)
            {
                queue.append(source.tick(s));
            }
            h.recordValue(System.nanoTime() - before);
        }
        return System.nanoTime() - start;
    }

    private static long timeJournal(
        final TickJournal journal, final BenchTicks source, final long count, final Histogram h, final int batch)
    {
        final TickLog log = new TickLog(1 << 16, "journal");
        final JournalAgent agent = journal.agent().tickSource(log.reader(0), null);
        agent.onStart();
        final long start = System.nanoTime();
        for (long sequence = 1; sequence <= count; sequence += batch)
        {
            final long last = Math.min(count, sequence + batch - 1);
            final long before = System.nanoTime();
            for (long s = sequence; s <= last; s++)
            {
                log.onTick(source.tick(s), 0);
            }
            agent.doWork();
            h.recordValue(System.nanoTime() - before);
        }
        final long nanos = System.nanoTime() - start;
        agent.onClose();
        check(journal.journaledSequence() == count, "the journal holds " + journal.journaledSequence());
        return nanos;
    }

    private void twoThreadRate(final long count) throws IOException
    {
        final BenchTicks source = new BenchTicks(count);
        try (TickJournal journal = TickJournal.open(new JournalContext().directory(dir.resolve("two-threads"))))
        {
            final TickLog log = new TickLog(1 << 20, "journal");
            final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace, null,
                journal.agent().tickSource(log.reader(0), null));
            AgentRunner.startOnThread(runner);
            final JournalPublisher publisher = journal.publisher();
            long waits = 0;
            final long start = System.nanoTime();
            for (long sequence = 1; sequence <= count; sequence++)
            {
                while (!log.hasRoom(1))
                {
                    waits++;
                    Thread.onSpinWait();
                }
                log.onTick(source.tick(sequence), 0);
            }
            while (journal.journaledSequence() < count)
            {
                Thread.onSpinWait();
            }
            final long nanos = System.nanoTime() - start;
            runner.close();
            OUT.println(Percentiles.rate("rate, journal (agent on its own thread)", count, nanos));
            OUT.printf(Locale.ROOT, "%-44s %,14d%n", "  writer found the tick log full", waits + publisher.backPressured());
        }
    }

    private void replayComparison(final long count) throws IOException
    {
        OUT.println();
        OUT.println("== replay by sequence range, " + String.format(Locale.ROOT, "%,d", count) + " ticks");
        final long[] sum = new long[1];
        try (JournalReader reader = JournalReader.open(dir.resolve("measured-journal"));
            TickReplay replay = reader.newTickReplay())
        {
            for (int round = 0; round < 3; round++)
            {
                final long start = System.nanoTime();
                final long delivered = replay.replay(1, count, (buffer, offset) -> sum[0] += buffer.getLong(offset));
                final long nanos = System.nanoTime() - start;
                check(delivered == count, "replayed " + delivered);
                OUT.println(Percentiles.rate("journal replay 1.." + count + " (round " + (round + 1) + ")", count,
                    nanos));
            }
            final long from = count / 2;
            final long start = System.nanoTime();
            final long delivered =
                replay.replay(from, from + 999_999, (buffer, offset) -> sum[0] += buffer.getLong(offset));
            OUT.println(Percentiles.rate("journal replay of 1M from the middle (seek+read)", delivered,
                System.nanoTime() - start));
        }
        try (BareQueue queue = new BareQueue(dir.resolve("measured-bare")))
        {
            for (int round = 0; round < 3; round++)
            {
                final long start = System.nanoTime();
                sum[0] += queue.readAll();
                OUT.println(Percentiles.rate("bare tailer read (round " + (round + 1) + ")", count,
                    System.nanoTime() - start));
            }
        }
        OUT.println("  (checksum " + sum[0] + ")");
    }

    private void seek() throws IOException
    {
        final long fits = ticksThatFit();
        final long count = Math.min(seekTicks, fits);
        OUT.println();
        if (count < seekTicks)
        {
            OUT.printf(Locale.ROOT, "NOTE: a %,d-tick journal needs about %,d bytes and %s has %,d free; measuring " +
                "the largest that fits: %,d ticks%n", seekTicks, seekTicks * 70, dir, usable(), count);
        }
        OUT.println("== seek in a " + String.format(Locale.ROOT, "%,d", count) + "-tick journal (a trading day, " +
            "hourly cycles by exchange time)");
        final Path seekDir = dir.resolve("seek");
        final BenchTicks source = new BenchTicks(count);
        final long writeStart = System.nanoTime();
        try (TickJournal journal = TickJournal.open(new JournalContext().directory(seekDir)
            .cycleClock(JournalCycleClock.RECORD_TIME)))
        {
            final JournalPublisher publisher = journal.publisher();
            final JournalAgent agent = journal.agent();
            agent.onStart();
            for (long sequence = 1; sequence <= count; sequence++)
            {
                publisher.onTick(source.tick(sequence), 0);
                if ((sequence & 1023) == 0)
                {
                    while (agent.doWork() > 0)
                    {
                        Thread.onSpinWait();
                    }
                }
            }
            agent.onClose();
        }
        OUT.println(Percentiles.rate("written (publish 1024, drain)", count, System.nanoTime() - writeStart));

        final long openStart = System.nanoTime();
        try (JournalReader reader = JournalReader.open(seekDir); TickReplay replay = reader.newTickReplay())
        {
            final long openNanos = System.nanoTime() - openStart;
            final int cycles = reader.info().tickCycles().size();
            OUT.printf(Locale.ROOT, "open (manifest, truncation check, first/last tick of %d cycles): %.3f ms, " +
                "%,d bytes of files%n", cycles, openNanos / 1e6, reader.info().fileBytes());
            measureSeeks(replay, source, count);
        }
    }

    private void measureSeeks(final TickReplay replay, final BenchTicks source, final long count)
    {
        final SplittableRandom random = new SplittableRandom(7);
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        final long firstStart = System.nanoTime();
        check(replay.read(count / 3, tick, 0), "first seek");
        OUT.printf(Locale.ROOT, "first seek after open (sequence %,d): %.1f us%n", count / 3,
            (System.nanoTime() - firstStart) / 1e3);

        final Histogram bySequence = Percentiles.histogram();
        final Histogram byTime = Percentiles.histogram();
        final Histogram startOfReplay = Percentiles.histogram();
        final long[] delivered = new long[1];
        for (int i = 0; i < seeks; i++)
        {
            final long sequence = 1 + random.nextLong(count);
            long before = System.nanoTime();
            check(replay.read(sequence, tick, 0), "seek " + sequence);
            bySequence.recordValue(System.nanoTime() - before);

            final long time = source.timeOf(1 + random.nextLong(count)) + 1;
            before = System.nanoTime();
            final long found = replay.sequenceAtOrAfter(time);
            byTime.recordValue(System.nanoTime() - before);
            check(found != TickReplay.NO_SEQUENCE, "seek by time " + time);

            before = System.nanoTime();
            replay.replay(sequence, sequence, (buffer, offset) -> delivered[0]++);
            startOfReplay.recordValue(System.nanoTime() - before);
        }
        OUT.println(Percentiles.header());
        OUT.println(Percentiles.row("find a tick by sequence (binary search)", bySequence));
        OUT.println(Percentiles.row("find the first tick at/after a time", byTime));
        OUT.println(Percentiles.row("replay(seq, seq): seek + deliver first tick", startOfReplay));
        check(delivered[0] == seeks, "delivered " + delivered[0]);
    }

    private long ticksThatFit() throws IOException
    {
        final long spare = 2L << 30;
        return Math.max(1_000_000, (usable() - spare) / 70);
    }

    private long usable() throws IOException
    {
        final FileStore store = Files.getFileStore(dir);
        return store.getUsableSpace();
    }

    private static double ratio(final Histogram a, final Histogram b, final double percentile)
    {
        return (double)a.getValueAtPercentile(percentile) / Math.max(1, b.getValueAtPercentile(percentile));
    }

    private static void check(final boolean condition, final String what)
    {
        if (!condition)
        {
            throw new IllegalStateException("benchmark self-check failed: " + what);
        }
    }

    private static void deleteTree(final Path root) throws IOException
    {
        if (!Files.exists(root))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
    }
}
