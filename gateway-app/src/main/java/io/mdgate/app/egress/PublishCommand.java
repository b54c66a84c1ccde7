package io.mdgate.app.egress;

import io.mdgate.app.FailureReasons;
import io.mdgate.app.StopSignal;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.TickArchive;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.egress.publisher.PublisherCounters;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code mdgate publish}: runs the egress publisher fed by a generated ITCH 5.0 session that goes through ITCH
 * decode, order books and the normalizer in this process, on one thread, paced to {@code --rate} messages per
 * second, or by the ticks of a journal ({@code --journal DIR}, which then also answers consumers' recovery).
 * Generated ticks are kept in an in-memory archive that answers recovery. Waits
 * for {@code --wait-consumers} consumers before the session starts, lingers after it so consumers can finish, and
 * prints a summary. The consumers allowed are given by {@code --token NAME=TOKEN} or a {@code --tokens} file.
 */
@Command(
    name = "publish",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Publish ticks through the egress publisher to consumers, from a generated session or a journal.",
        "Multicast stream, per-consumer rings and top-of-book tables; recovery from the journal (--journal) or " +
            "from an in-memory archive of the generated session." })
public final class PublishCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    TransportOptions transportOptions;

    @Option(names = "--token", paramLabel = "NAME=TOKEN",
        description = "A consumer allowed to connect, with its token (repeatable).")
    Map<String, String> tokens = new LinkedHashMap<>();

    @Option(names = "--tokens", paramLabel = "FILE",
        description = "A properties file of NAME=TOKEN lines, one consumer each (keep it readable by owner only).")
    Path tokensFile;

    @Option(names = "--messages", paramLabel = "N", defaultValue = "1000000",
        description = "Messages in the generated session (default ${DEFAULT-VALUE}).")
    long messages;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--instruments", paramLabel = "K", defaultValue = "100",
        description = "Instruments, stock locates 1..K (default ${DEFAULT-VALUE}).")
    int instruments;

    @Option(names = "--rate", paramLabel = "MSG_PER_S", defaultValue = "100000",
        description = "Messages per second of wall time; 0 as fast as possible (default ${DEFAULT-VALUE}).")
    long rate;

    @Option(names = "--journal", paramLabel = "DIR",
        description = "Publish every tick of this journal (from 'mdgate record' or the gateway) instead of a " +
            "generated session, and answer recovery from it; --rate is then ticks per second.")
    Path journal;

    @Option(names = "--archive-ticks", paramLabel = "N", defaultValue = "4194304",
        description = "Most recent ticks kept for recovery, a power of two (default ${DEFAULT-VALUE}, 64 B each).")
    int archiveTicks;

    @Option(names = "--wait-consumers", paramLabel = "N", defaultValue = "0",
        description = "Wait until this many consumers are connected before the session starts (default 0).")
    int waitConsumers;

    @Option(names = "--wait-ms", paramLabel = "MS", defaultValue = "60000",
        description = "Longest wait for --wait-consumers (default ${DEFAULT-VALUE}).")
    long waitMillis;

    @Option(names = "--linger-ms", paramLabel = "MS", defaultValue = "3000",
        description = "Keep serving consumers this long after the session (default ${DEFAULT-VALUE}).")
    long lingerMillis;

    @Option(names = "--stream-id", paramLabel = "ID", defaultValue = "1001",
        description = "Multicast stream id (default ${DEFAULT-VALUE}).")
    int streamId;

    @Option(names = "--batch-us", paramLabel = "US", defaultValue = "5",
        description = "Longest a tick waits for its datagram to fill (default ${DEFAULT-VALUE}).")
    long batchMicros;

    @Option(names = "--max-consumers", paramLabel = "N", defaultValue = "16",
        description = "Consumers served at once (default ${DEFAULT-VALUE}).")
    int maxConsumers;

    @Option(names = "--max-ring-slots", paramLabel = "N", defaultValue = "16384",
        description = "Largest ring a consumer may ask for (default ${DEFAULT-VALUE}).")
    int maxRingSlots;

    @Option(names = "--depth-levels", paramLabel = "D", defaultValue = "10",
        description = "Levels per side published as LEVEL ticks and kept in the depth table per instrument, 0 to " +
            "64; 0 for none (default ${DEFAULT-VALUE}).")
    int depthLevels;

    @Option(names = "--heartbeat-timeout-ms", paramLabel = "MS", defaultValue = "5000",
        description = "A consumer silent this long is dropped (default ${DEFAULT-VALUE}).")
    long heartbeatTimeoutMillis;

    private StopSignal stop;

    @Override
    public Integer call()
    {
        final PublisherContext context = context();
        final SimulationConfig simulation = simulation();
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final EgressTransport transport = transportOptions.openOrSayWhy(spec);
        if (null == transport)
        {
            return 1;
        }
        final JournalReader reader = openJournal(err);
        if (journal != null && reader == null)
        {
            transport.close();
            return 1;
        }
        final TickArchive archive = reader == null ? new TickArchive(archiveTicks) : null;
        final TickReplay recovery = reader == null ? null : reader.newTickReplay().markReplayed(true);
        context.transport(transport).recoverySource(reader == null ? archive : recovery::replay);
        try (transport; reader; StopSignal signal = new StopSignal();
            EgressPublisher publisher = new EgressPublisher(context))
        {
            stop = signal;
            err.println("mdgate publish: serving on " + publisher.controlEndpoint() + ", stream " + streamId +
                ", " + context.tokens().size() + " consumer(s) allowed");
            err.flush();
            if (!awaitConsumers(publisher, err))
            {
                return 1;
            }
            final long start = System.nanoTime();
            final long messagesSent = reader == null ?
                run(publisher, archive, simulation) : runJournal(publisher, reader);
            final long elapsed = System.nanoTime() - start;
            linger(publisher);
            out.println(summary(publisher, messagesSent, elapsed));
            out.flush();
            return 0;
        }
        catch (final TransportException | IllegalArgumentException ex)
        {
            err.println("mdgate publish: " + ex.getMessage());
            err.flush();
            return 1;
        }
    }

    PublisherContext context()
    {
        final PublisherContext context = new PublisherContext();
        try
        {
            readTokens().forEach(context::token);
            context.streamId(streamId).maxConsumers(maxConsumers).maxRingSlots(maxRingSlots)
                .batchBudgetNanos(TimeUnit.MICROSECONDS.toNanos(batchMicros))
                .heartbeatTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(heartbeatTimeoutMillis))
                .eventLog(message -> spec.commandLine().getErr().println("mdgate publish: " + message));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        if (context.tokens().isEmpty())
        {
            throw new ParameterException(spec.commandLine(),
                "no consumer is allowed: give --token NAME=TOKEN (repeatable) or --tokens FILE");
        }
        if (rate < 0 || waitConsumers < 0 || waitMillis < 0 || lingerMillis < 0 || batchMicros < 0)
        {
            throw new ParameterException(spec.commandLine(),
                "--rate, --wait-consumers, --wait-ms, --linger-ms and --batch-us must not be negative");
        }
        if (depthLevels < 0 || depthLevels > DepthBook.MAX_DEPTH)
        {
            throw new ParameterException(spec.commandLine(),
                "--depth-levels must be 0 (no depth table) to " + DepthBook.MAX_DEPTH + ", was " + depthLevels);
        }
        context.depthLevels(depthLevels);
        if (archiveTicks < 1024 || Integer.bitCount(archiveTicks) != 1 || archiveTicks > (1 << 25))
        {
            throw new ParameterException(spec.commandLine(),
                "--archive-ticks must be a power of two from 1024 to 33554432, was " + archiveTicks);
        }
        return context;
    }

    private Map<String, String> readTokens()
    {
        final Map<String, String> all = new LinkedHashMap<>();
        if (null != tokensFile)
        {
            final Properties properties = new Properties();
            try (Reader reader = Files.newBufferedReader(tokensFile))
            {
                properties.load(reader);
            }
            catch (final IOException ex)
            {
                throw new ParameterException(spec.commandLine(), "cannot read --tokens " + tokensFile + ": " +
                    FailureReasons.describe(ex));
            }
            properties.stringPropertyNames().forEach(name -> all.put(name, properties.getProperty(name)));
        }
        all.putAll(tokens);
        return all;
    }

    private SimulationConfig simulation()
    {
        try
        {
            return new SimulationConfig().seed(seed).instruments(instruments).messages(messages)
                .messagesPerSecond(rate > 0 ? rate : SimulationConfig.DEFAULT_MESSAGES_PER_SECOND).conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    private boolean awaitConsumers(final EgressPublisher publisher, final PrintWriter err)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (stop.running() && publisher.activeConsumers() < waitConsumers)
        {
            if (System.nanoTime() > deadline)
            {
                err.println("mdgate publish: only " + publisher.activeConsumers() + " of " + waitConsumers +
                    " consumers connected within " + waitMillis + " ms");
                err.flush();
                return false;
            }
            if (publisher.doWork() == 0)
            {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
        }
        return stop.running();
    }

    /** @return messages processed. */
    private long run(final EgressPublisher publisher, final TickArchive archive, final SimulationConfig simulation)
    {
        final MonotonicEpochClock clock = new MonotonicEpochClock();
        final TickHandler tee = new TickHandler()
        {
            @Override
            public void onTick(final DirectBuffer buffer, final int offset)
            {
                archive.onTick(buffer, offset);
                publisher.onTick(buffer, offset);
            }
        };
        final MessageProcessor processor = new MessageProcessor(new Normalizer(
            new OrderBooks(new BookContext().conclude()), new ExchangeClock(simulation.sessionDate()), tee, 1)
            .depthLevels(depthLevels));
        final ItchSessionGenerator generator = new ItchSessionGenerator(simulation);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        final long start = System.nanoTime();
        long sequence = 1;
        int length;
        while (stop.running() && (length = generator.next(message, 0)) > 0)
        {
            processor.receiveTimestamp(clock.nanoTime());
            processor.onMessage(message, 0, length, sequence++);
            if ((sequence & 15) == 0)
            {
                publisher.doWork();
                pace(publisher, start, sequence - 1);
            }
        }
        publisher.flush();
        return sequence - 1;
    }

    /** @return the journal, opened for reading, or null (and why, printed) when it cannot be read or none given. */
    private JournalReader openJournal(final PrintWriter err)
    {
        if (journal == null)
        {
            return null;
        }
        try
        {
            return JournalReader.open(journal);
        }
        catch (final RuntimeException ex)
        {
            err.println("mdgate publish: cannot read journal " + journal + ": " + ex.getMessage());
            err.flush();
            return null;
        }
    }

    /** Publishes the journal's ticks in sequence order, paced to --rate ticks/s. @return ticks read. */
    private long runJournal(final EgressPublisher publisher, final JournalReader reader)
    {
        final long start = System.nanoTime();
        final long[] sent = new long[1];
        try (TickReplay source = reader.newTickReplay())
        {
            if (source.count() > 0)
            {
                source.replay(source.firstSequence(), source.lastSequence(), (buffer, offset) ->
                {
                    if (!stop.running())
                    {
                        return;
                    }
                    publisher.onTick(buffer, offset);
                    if ((++sent[0] & 15) == 0)
                    {
                        publisher.doWork();
                        pace(publisher, start, sent[0]);
                    }
                });
            }
        }
        publisher.flush();
        return sent[0];
    }

    private void pace(final EgressPublisher publisher, final long start, final long sent)
    {
        if (rate <= 0)
        {
            return;
        }
        final long due = start + sent * 1_000_000_000L / rate;
        while (stop.running() && System.nanoTime() < due)
        {
            publisher.doWork();
        }
    }

    private void linger(final EgressPublisher publisher)
    {
        final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lingerMillis);
        while (stop.running() && System.nanoTime() < end)
        {
            if (publisher.doWork() == 0)
            {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
        }
    }

    static String summary(final EgressPublisher publisher, final long messagesSent, final long elapsedNanos)
    {
        final PublisherCounters counters = publisher.counters();
        final List<String> parts = new ArrayList<>();
        parts.add(messagesSent + " messages -> " + counters.ticksPublished() + " ticks (last sequence " +
            publisher.lastPublishedSequence() + ") in " + TimeUnit.NANOSECONDS.toMillis(elapsedNanos) + " ms");
        parts.add(publisher.datagramsSent() + " datagrams, " + publisher.streamHeartbeatsSent() + " heartbeats");
        parts.add("consumers welcomed " + counters.consumersWelcomed() + ", refused " + counters.rejected() +
            " (authentication " + counters.authenticationFailures() + ")");
        parts.add("laps " + counters.laps() + ", resyncs " + counters.resyncs() + ", recovery requests " +
            counters.recoveryRequests() + ", recovered ticks " + counters.recoveredTicks() + ", missing from archive " +
            counters.ticksMissingFromSource());
        return "mdgate publish: " + String.join("; ", parts);
    }
}
