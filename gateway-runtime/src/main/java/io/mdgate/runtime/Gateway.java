package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.SysFs;
import io.mdgate.runtime.config.ThreadPinning;
import io.mdgate.runtime.counters.CountersFileDescriptor;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.runtime.counters.RunFiles;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.UdpRetransmitRequester;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.DepthImage;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.core.ticklog.TickLogReader;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.TickArchive;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.JournalSpaceException;
import io.mdgate.journal.TickJournal;
import io.mdgate.journal.ResumePoint;
import io.mdgate.journal.TickReplay;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The whole gateway in one process, assembled from its {@link GatewayConfig}: the counters file, the ingress agents
 * (one per port queue), the session, journal, egress and housekeeping agents and the rings between them, run on one
 * thread per {@code [[cores]]} entry (several agents on a core make a {@link CompositeAgent}), each thread pinned to
 * its CPU with its own idle strategy.
 * <p>
 * {@link #start()} returns once every core is pinned and every agent started (ports open, journal appenders
 * created), or fails saying which core did not start. {@link #close()} stops in pipeline order: the ports first
 * (groups left), then the session once it has taken every packet received, then the journal (which appends all it
 * was given and closes), then the egress (which says goodbye to every consumer), housekeeping last; the counters
 * file stays, stamped stopped. Threading: start and close on one thread; {@link #counters()} anywhere.
 */
public final class Gateway implements AutoCloseable
{
    /** Longest wait for the cores to start, or for the pipeline to drain at close. */
    static final long START_TIMEOUT_MILLIS = 30_000;
    /**
     * The feed session's hold: 4 MiB of packets after a gap (about a quarter of a second of a busy feed).
     */
    static final int HOLD_BYTES = 4 << 20;
    /**
     * Slots of the tick log (64 MiB): room for every tick a full hold can release (a message of 14 framed bytes or
     * more, at most three ticks each) plus a burst, with room left for the readers to lag.
     */
    static final int TICK_LOG_CAPACITY = 1 << 20;
    private static final long DRAIN_TIMEOUT_MILLIS = 5_000;
    /**
     * Ticks the egress publishes in one duty cycle: as many as the journal appends in one
     * ({@link JournalContext#DEFAULT_DRAIN_LIMIT}), so that in one duty cycle under load the egress, which may not pass
     * the journal, does not fall further behind it each cycle.
     */
    static final int EGRESS_INPUT_LIMIT = JournalContext.DEFAULT_DRAIN_LIMIT;

    private final GatewayConfig config;
    private final CountersFileWriter counters;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<IngressAgent> ingressAgents = new ArrayList<>();
    private final List<Runner> runners = new ArrayList<>();
    private final CountDownLatch started;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ManyToOneRingBuffer packetRing;
    private final TickLog tickLog;
    private final TickJournal journal;
    private final EgressPublisher publisher;
    private final SpinningCpuGuard guard;
    private final PrintStream err;
    private final StartWarnings startWarnings;
    private final GatewayErrorHandler errorHandler;
    private boolean running;
    private boolean closed;

    private record Runner(int rank, int cpu, AgentRunner runner)
    {
    }

    private Gateway(final GatewayConfig config, final CpuPinner pinner, final PrintStream err)
    {
        this.config = config;
        final GatewayConfig.Gateway settings = config.gateway();
        counters = CountersFileWriter.create(settings.countersFile(), settings.name(),
            CountersFileDescriptor.DEFAULT_MAX_COUNTERS, CountersFileDescriptor.DEFAULT_ERROR_LOG_LENGTH,
            SystemEpochClock.INSTANCE, settings.keepRuns());
        this.err = err;
        this.startWarnings = new StartWarnings(err);
        try
        {
            guard = pinner.placesOtherThreads() && ThreadPinning.isAvailable() ?
                SpinningCpuGuard.of(config, ThreadPinning.affinity(), counters) : null;
            final AtomicCounter errorCount = counters.newCounter("gateway.errors", CounterType.TOTAL);
            errorHandler = new GatewayErrorHandler(counters.errorLog(), errorCount, err);
            // One clock for every stage and for the consumers: the same tight offset from CLOCK_MONOTONIC to the wall
            // clock that the consumer SDK measures; the DPDK ingress stamps each burst with CLOCK_MONOTONIC plus it.
            final MonotonicEpochClock clock = new MonotonicEpochClock();
            final long startMillis = System.currentTimeMillis();
            final Path hlogDir = hlogDirectory(settings.hlogDir());
            final int ringBytes = settings.ringBytes();

            final MarketState marketState = new MarketState();
            final GatewayConfig.MarketHours hoursConfig = config.marketHours();
            final MarketHours marketHours = new MarketHours(hoursConfig.zone(), hoursConfig.open(),
                hoursConfig.close(), marketState);

            journal = config.journal().enabled() ? track(TickJournal.open(new JournalContext()
                .directory(config.journal().dir())
                .rollCycle(config.journal().rollCycle())
                .retainCycles(config.journal().retainCycles())
                .counters(counters)
                .ringCapacity(Math.max(JournalContext.MIN_RING_CAPACITY, ringBytes)))) : null;
            final long firstSequence = journal != null ? journal.nextGatewaySequence() : 1;
            final Optional<ResumePoint> resume = journal != null ? journal.resumePoint() : Optional.empty();
            tickLog = journal != null ? new TickLog(TICK_LOG_CAPACITY, "journal", "egress") :
                new TickLog(TICK_LOG_CAPACITY, "egress");
            final TickLogReader egressReader = tickLog.reader(tickLog.readerCount() - 1);
            if (journal != null)
            {
                egressReader.follow(tickLog.reader(0));
            }

            final Map<String, Agent> agents = new LinkedHashMap<>();
            final List<StageLatency> latencies = new ArrayList<>();
            addIngressAgents(agents, errorHandler, clock);
            packetRing = ingressAgents.stream().anyMatch(a -> !onSessionCore(a.roleName())) ?
                new ManyToOneRingBuffer(new UnsafeBuffer(
                BufferUtil.allocateDirectAligned(ringBytes + RingBufferDescriptor.TRAILER_LENGTH, 64))) : null;

            final StageLatency ingressToSession = latency("ingress_to_session", hlogDir, startMillis, latencies);
            final FeedSession.Context sessionContext = sessionContext(config.feed(), clock, err);
            resume.ifPresent(p -> sessionContext.resume(p.sessionName(), p.sessionNumber(), p.nextExchangeSequence()));
            final SessionAgent session = new SessionAgent(packetRing, 1024, sessionContext,
                new OrderBooks(bookContext(config.book()).conclude()),
                new ExchangeClock(LocalDate.now(hoursConfig.zone())), firstSequence, tickLog,
                journal != null ? journal.publisher() : null, marketState, clock, ingressToSession, counters);
            session.normalizer().depthLevels(config.book().depthLevels());
            agents.put("session", session);
            for (final IngressAgent ingress : ingressAgents)
            {
                ingress.input(onSessionCore(ingress.roleName()) ? session :
                    PacketRingWriter.of(packetRing, ingress));
            }
            if (journal != null)
            {
                agents.put("journal", new JournalStage(journal, tickLog.reader(0),
                    latency("ingress_to_journal", hlogDir, startMillis, latencies), clock));
            }

            final EgressTransport transport = track(EgressTransports.open(config.egress(),
                counters.newCounter("egress.hugepage_fallbacks", CounterType.TOTAL), startWarnings));
            final TickArchive archive = journal == null ? new TickArchive(1 << 20) : null;
            final TickReplay[] replay = new TickReplay[1];
            final PublisherContext publisherContext = new PublisherContext()
                .transport(transport)
                .depthLevels(config.book().depthLevels())
                .orderSnapshots(config.egress().orderSnapshots())
                .snapshotBooks(bookContext(config.book()))
                .snapshotTicks(config.egress().snapshotTicks())
                .snapshotRecordsPerCycle(config.egress().snapshotRecordsPerCycle())
                .counters(counters)
                .firstSequence(firstSequence)
                .eventLog(message -> err.println("mdgate run: egress: " + message))
                .recoverySource(archive != null ? archive :
                    (from, to, handler) -> replay[0] == null ? 0 : replay[0].replay(from, to, handler));
            config.egress().consumers().forEach(c -> publisherContext.token(c.name(), c.token()));
            publisher = new EgressPublisher(publisherContext);
            resume.ifPresent(p -> restore(session.normalizer(), publisher, p, config.book().depthLevels(), err));
            final List<String> consumerNames = config.egress().consumers().stream()
                .map(GatewayConfig.Consumer::name).toList();
            agents.put("egress", new EgressStage(publisher, egressReader, EGRESS_INPUT_LIMIT,
                archive, latency("ingress_to_egress", hlogDir, startMillis, latencies), clock, consumerNames,
                () ->
                {
                    if (journal != null)
                    {
                        replay[0] = journal.newTickReplay().markReplayed(true);
                    }
                },
                () -> CloseHelper.quietClose(replay[0]),
                counters));
            // The periodic sweep lists /proc/self/task and allocates: not on a spinning core's duty cycle.
            final boolean housekeepingSpins = null != guard &&
                guard.spinning().contains(cpuOf(GatewayConfig.AgentRef.of(GatewayConfig.AgentKind.HOUSEKEEPING)));
            final FreeSpaceCheck freeSpace = journal != null && config.journal().minFreeMb() > 0 ?
                new FreeSpaceCheck(config.journal().dir(), config.journal().minFreeMb(), counters, err) : null;
            agents.put("housekeeping", new HousekeepingAgent(counters, latencies, marketHours,
                SystemEpochClock.INSTANCE, housekeepingSpins ? null : guard, freeSpace));

            started = new CountDownLatch(config.cores().size());
            for (final GatewayConfig.Core core : config.cores())
            {
                runners.add(runner(core, agents, marketHours, pinner, errorHandler, errorCount));
            }
            runners.sort(Comparator.comparingInt(Runner::rank));
        }
        catch (final RuntimeException | Error ex)
        {
            // Kept in the run's error log too: `mdgate errors` says why the last start was refused.
            counters.errorLog().record(ex);
            closeResources();
            counters.close();
            throw ex;
        }
    }

    /**
     * Builds the gateway: opens the counters file, the journal, the egress transport and the ports' ingress objects
     * (the ports themselves open at {@link #start()}, on their cores).
     *
     * @param config the configuration; its core map must already be validated.
     * @param pinner pins each core's thread.
     * @param err    where errors are said as they happen.
     * @return the gateway, not yet started.
     * @throws IllegalStateException when something cannot be opened, saying what and why.
     */
    public static Gateway create(final GatewayConfig config, final CpuPinner pinner, final PrintStream err)
    {
        return new Gateway(config, pinner, err);
    }

    /**
     * Starts every core and waits until each is pinned and its agents started.
     *
     * @throws IllegalStateException when a core did not start (the gateway is then closed), saying why.
     */
    public void start()
    {
        for (final Runner runner : runners)
        {
            AgentRunner.startOnThread(runner.runner(), r ->
            {
                final Thread thread = new Thread(r, "mdgate-core-" + runner.cpu());
                thread.setDaemon(false);
                return thread;
            });
        }
        running = true;
        try
        {
            if (!started.await(START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS))
            {
                failure.compareAndSet(null, new IllegalStateException("the cores did not all start within " +
                    START_TIMEOUT_MILLIS + " ms"));
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, new IllegalStateException("interrupted while starting"));
        }
        final Throwable problem = failure.get();
        if (problem != null)
        {
            close();
            throw problem instanceof IllegalStateException ise ? ise :
                new IllegalStateException(Causes.reason(problem), problem);
        }
        errorHandler.started();
        startWarnings.started();
        keepSpinningCpus();
    }

    /** Moves the process's other threads off the spinning cores' CPUs, and says what it did. */
    private void keepSpinningCpus()
    {
        if (null == guard)
        {
            return;
        }
        final String kept = "CPU" + (guard.spinning().size() == 1 ? " " : "s ") + SysFs.formatCpuList(guard.spinning());
        if (guard.elsewhere().isEmpty())
        {
            err.println("mdgate run: cores spin on every CPU this process may use (" + kept + "), so the JVM's " +
                "other threads share them; leave one CPU to housekeeping for steadier latency");
            return;
        }
        final int moved = guard.sweep();
        err.println("mdgate run: " + kept + " kept for the spinning cores: moved " + moved + " other thread" +
            (moved == 1 ? "" : "s") + " of this process to CPU" + (guard.elsewhere().size() == 1 ? " " : "s ") +
            SysFs.formatCpuList(guard.elsewhere()));
    }

    /** @return whether a core's thread stopped on its own (an agent failed at start or its runner ended). */
    public boolean hasFailed()
    {
        if (failure.get() != null)
        {
            return true;
        }
        for (final Runner runner : runners)
        {
            if (runner.runner().isClosed())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return why the journal stopped appending, when its filesystem had no room (at start, while running or while
     * draining at close), else null. Every tick up to its {@code lastSequence()} is journaled, and none after it was
     * published. Any thread.
     */
    public JournalSpaceException journalNoSpace()
    {
        return journal == null ? null : journal.agent().noSpace();
    }

    /** @return where the consumers connect. */
    public String egressEndpoint()
    {
        return publisher.controlEndpoint();
    }

    /** @return the counters file's path. */
    public Path countersFile()
    {
        return counters.path();
    }

    /** @return the journal, or null when it is off. */
    TickJournal journal()
    {
        return journal;
    }

    GatewayConfig config()
    {
        return config;
    }

    /** Stops in pipeline order (see the class comment). Idempotent. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (running)
        {
            ingressAgents.forEach(IngressAgent::stopReceiving);
            awaitTrue(() -> ingressAgents.stream().allMatch(IngressAgent::isStopped) || hasFailed());
            awaitTrue(() -> packetRing == null || packetRing.size() == 0 || hasFailed());
        }
        for (final Runner runner : runners)
        {
            CloseHelper.quietClose(runner.runner());
        }
        CloseHelper.quietClose(guard);
        closeResources();
        counters.close();
    }

    private static void awaitTrue(final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_TIMEOUT_MILLIS);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline)
        {
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void closeResources()
    {
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(resources.get(i));
        }
        resources.clear();
    }

    private <T extends AutoCloseable> T track(final T resource)
    {
        resources.add(resource);
        return resource;
    }

    private void addIngressAgents(final Map<String, Agent> agents, final GatewayErrorHandler errorHandler,
        final MonotonicEpochClock clock)
    {
        for (final GatewayConfig.AgentRef ref : config.requiredAgents())
        {
            if (ref.kind() != GatewayConfig.AgentKind.INGRESS)
            {
                continue;
            }
            final GatewayConfig.Port port = config.port(ref.port()).orElseThrow();
            final int cpu = cpuOf(ref);
            final IngressAgent agent = new IngressAgent(ref.toString(),
                Ingresses.create(config, port, ref.queue(), cpu, clock), errorHandler, counters);
            ingressAgents.add(agent);
            agents.put(ref.toString(), agent);
        }
    }

    /** @return whether the named agent runs on the session's thread, and so hands its packets to it directly. */
    private boolean onSessionCore(final String agentName)
    {
        for (final GatewayConfig.Core core : config.cores())
        {
            final List<String> names = core.agents().stream().map(GatewayConfig.AgentRef::toString).toList();
            if (names.contains(agentName))
            {
                return core.agents().stream().anyMatch(a -> a.kind() == GatewayConfig.AgentKind.SESSION);
            }
        }
        return false;
    }

    private int cpuOf(final GatewayConfig.AgentRef ref)
    {
        for (final GatewayConfig.Core core : config.cores())
        {
            if (core.agents().contains(ref))
            {
                return core.cpu();
            }
        }
        throw new IllegalStateException("agent " + ref + " is on no core; add it to a [[cores]] entry's agents");
    }

    private Runner runner(final GatewayConfig.Core core, final Map<String, Agent> agents,
        final MarketHours marketHours, final CpuPinner pinner, final GatewayErrorHandler errorHandler,
        final AtomicCounter errorCount)
    {
        final List<Agent> onCore = new ArrayList<>();
        int rank = Integer.MAX_VALUE;
        final List<GatewayConfig.AgentRef> inOrder = new ArrayList<>(core.agents());
        inOrder.sort(Comparator.comparingInt(r -> r.kind().ordinal()));
        for (final GatewayConfig.AgentRef ref : inOrder)
        {
            final Agent agent = agents.remove(ref.toString());
            if (agent == null)
            {
                throw new IllegalStateException("core " + core.cpu() + " names agent " + ref + ", which this " +
                    "configuration does not have or another core already runs");
            }
            onCore.add(agent);
            rank = Math.min(rank, rank(ref.kind()));
        }
        final Agent agent = onCore.size() == 1 ? onCore.get(0) : new CompositeAgent(onCore);
        final CoreAgent coreAgent = new CoreAgent(core.cpu(), agent, pinner, started, failure,
            counters.newCounter("gateway.core." + core.cpu() + ".pinned", CounterType.STATE), guard);
        return new Runner(rank, core.cpu(), new AgentRunner(
            IdleStrategies.of(core.idle(), marketHours, config.marketHours().outsidePark()),
            errorHandler, errorCount, coreAgent));
    }

    /** Closing order: a core closes with the earliest stage it runs. */
    private static int rank(final GatewayConfig.AgentKind kind)
    {
        return switch (kind)
        {
            case INGRESS, SESSION -> 0;
            case JOURNAL -> 1;
            case EGRESS -> 2;
            case HOUSEKEEPING -> 3;
        };
    }

    private StageLatency latency(final String stage, final Path hlogDir, final long startMillis,
        final List<StageLatency> latencies)
    {
        final Path hlogFile = hlogDir == null ? null : hlogDir.resolve(config.gateway().name() + "-" + stage + ".hlog");
        if (hlogFile != null)
        {
            // The counters file was free to take, so no running gateway writes this log: the last run's is kept.
            RunFiles.rotate(hlogFile, config.gateway().keepRuns());
        }
        final StageLatency latency = new StageLatency(stage, counters, hlogFile, startMillis);
        latencies.add(latency);
        resources.add(latency);
        return latency;
    }

    private static Path hlogDirectory(final Path dir)
    {
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot create the latency log directory [gateway] hlog_dir = " + dir +
                " (" + ex + "); create it writable by this user, or set hlog_dir to a writable directory");
        }
        if (!Files.isWritable(dir))
        {
            throw new IllegalStateException("[gateway] hlog_dir = " + dir + " is not writable by this user; " +
                "make it writable, or set hlog_dir to a writable directory");
        }
        return dir;
    }

    /**
     * Rebuilds the books of the session the journal ends in, so the ticks after a restart are those an uninterrupted
     * gateway would have made, and the egress's records (top of book, depth, order mirror) in the same pass, so the
     * tables and snapshots consumers get after the restart hold every instrument, not only those that traded since;
     * says so on stderr. The depth records are set from the rebuilt books (top {@code depthLevels} per side), not
     * from the journaled LEVEL ticks, which a run with another D may have written.
     */
    private void restore(final Normalizer normalizer, final EgressPublisher publisher, final ResumePoint point,
        final int depthLevels, final PrintStream err)
    {
        final long start = System.nanoTime();
        // The books leave out the ticks of a message a crash left partial: it is normalized again from the feed.
        final BookRestore restore = new BookRestore(normalizer).upTo(point.lastWholeMessageSequence());
        journal.replaySession(point, (buffer, offset) ->
        {
            restore.onTick(buffer, offset);
            if (buffer.getByte(offset + TickEncoder.eventTypeEncodingOffset()) != EventType.LEVEL.value())
            {
                publisher.restoreTick(buffer, offset);
            }
        });
        normalizer.resume(point.sessionNumber(), point.lastExchangeTimestamp(), point.partialTicks(),
            point.nextExchangeSequence());
        final long levels = new DepthImage().write(normalizer.books(), depthLevels, point.sessionNumber(),
            point.lastGatewaySequence(), point.lastExchangeTimestamp(), publisher::restoreTick);
        final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        err.println("mdgate run: resuming session " + FeedEventLog.name(new UnsafeBuffer(point.sessionName()), 0) +
            " (number " + point.sessionNumber() + ") at exchange sequence " + point.nextExchangeSequence() +
            " and gateway sequence " + point.nextGatewaySequence() + "; books and egress records rebuilt from " +
            restore.ticks() + " journaled ticks in " + millis + " ms" + (point.partialTicks() == 0 ? "" : "; the " +
            "journal ends inside that message (" + point.partialTicks() + " of its ticks written before the stop), " +
            "which is normalized again and completed") + (depthLevels == 0 ? "" : ", " + levels +
            " depth levels") + (restore.topOfBookMismatches() == 0 ? "" : ", " + restore.topOfBookMismatches() +
            " top-of-book ticks disagreed with the rebuilt book") + (restore.depthMismatches() == 0 ? "" : ", " +
            restore.depthMismatches() + " LEVEL ticks differ from the rebuilt book (a run with another " +
            "[book] depth_levels? consumers that keep depth from LEVEL ticks need a snapshot)"));
    }

    private FeedSession.Context sessionContext(final GatewayConfig.Feed feed, final EpochNanoClock clock,
        final PrintStream err)
    {
        // From sequence 1: a gateway started before the session misses nothing even when both lines lose its first
        // packet; one started late re-requests what it missed, or declares it lost as one GAP tick.
        final FeedSession.Context context = new FeedSession.Context()
            .firstSequence(1)
            .session(feed.session())
            .listener(new FeedEventLog(err))
            .holdBytes(HOLD_BYTES)
            .gapWaitNanos(TimeUnit.MILLISECONDS.toNanos(feed.gapWaitMs()))
            .staleLineNanos(TimeUnit.MILLISECONDS.toNanos(feed.staleAfterMs()))
            .retryIntervalNanos(TimeUnit.MILLISECONDS.toNanos(feed.retryIntervalMs()));
        feed.retransmit().ifPresent(address -> context.requester(track(new UdpRetransmitRequester(address,
            new InetSocketAddress(0), UdpRetransmitRequester.DEFAULT_RECEIVE_BUFFER_BYTES, clock))));
        return context;
    }


    private static BookContext bookContext(final GatewayConfig.Book book)
    {
        return new BookContext().maxOrders(book.maxOrders()).maxLevels(book.maxLevels())
            .referenceWindow(book.referenceWindow());
    }
}
