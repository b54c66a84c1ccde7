package io.mdgate.journal;

import io.mdgate.core.counters.PrivateCounters;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.TickEncoder;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.Position;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The gateway's journal of every tick and raw packet. Opening it checks the files (a truncated or inconsistent
 * cycle file is refused with a {@link JournalDamagedException}) and finds the last tick journaled, so the
 * normalizer can start at {@link #nextGatewaySequence()} and the gateway sequence runs on across restarts, and where
 * the feed stood ({@link #resumePoint()}), so a restarted gateway resumes its session without a duplicate.
 * <pre>
 *   core thread:  Normalizer -> publisher() --(one-to-one ring)--> agent(): JournalAgent -> tick / packet queues
 *                 ingress    -> publisher()                                 `-> journaledSequence()
 * </pre>
 * Threading: {@link #open(JournalContext)}, {@link #close()} on one (start-up) thread; {@link #publisher()} on the
 * core thread; {@link #agent()} on its own thread; {@link #journaledSequence()} from any thread; one
 * {@link #newTickReplay()} per reading thread.
 */
public final class TickJournal implements AutoCloseable
{
    private final Path directory;
    private final JournalRollCycle rollCycle;
    private final SingleChronicleQueue ticks;
    private final SingleChronicleQueue packets;
    private final long lastSequence;
    private final Optional<ResumePoint> resumePoint;
    private final Position journaled;
    private final JournalPublisher publisher;
    private final JournalAgent agent;

    private TickJournal(
        final JournalContext context,
        final SingleChronicleQueue ticks,
        final SingleChronicleQueue packets,
        final CycleTimeProvider tickTime,
        final CycleTimeProvider packetTime,
        final long lastSequence,
        final Optional<ResumePoint> resumePoint)
    {
        this.directory = context.directory();
        this.rollCycle = context.rollCycle();
        this.ticks = ticks;
        this.packets = packets;
        this.lastSequence = lastSequence;
        this.resumePoint = resumePoint;
        this.journaled = context.journaledPosition();
        journaled.setRelease(lastSequence);
        final OneToOneRingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            context.ringCapacity() + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        final AtomicCounter[] counters = JournalCounterDescriptor.newCounters(null != context.counters() ?
            context.counters() : new PrivateCounters(JournalCounterDescriptor.values().length));
        counters[JournalCounterDescriptor.POSITION.ordinal()].setRelease(lastSequence);
        final java.util.function.ToLongFunction<Path> free = context.freeBytes();
        final Path tickDirectory = JournalLayout.ticks(directory);
        final Path packetDirectory = JournalLayout.packets(directory);
        final JournalWriter writer = new JournalWriter(ticks, packets, tickTime, packetTime, lastSequence, counters,
            new CycleFileSpace(context.fileBlocks(), () -> free.applyAsLong(tickDirectory)),
            packets == null ? null : new CycleFileSpace(context.fileBlocks(), () -> free.applyAsLong(packetDirectory)));
        this.publisher = new JournalPublisher(ring, packets != null, counters);
        this.agent = new JournalAgent(writer, ring, context.drainLimit(), journaled,
            new Retention(context.retainCycles()), ticks, packets, counters, directory,
            () -> free.applyAsLong(tickDirectory));
    }

    /**
     * Opens the journal in the context's directory, creating it when absent.
     *
     * @param context the settings, validated here.
     * @return the open journal.
     * @throws JournalException        when the directory is not a journal or was made with another roll cycle.
     * @throws JournalDamagedException when a file is damaged.
     * @throws JournalSpaceException   when its filesystem has less than a new cycle file and one reserve free
     *                                 ({@code JournalSpace.START_FREE_BYTES}, 5 MiB): it would stop at once.
     */
    public static TickJournal open(final JournalContext context)
    {
        context.conclude();
        final Path directory = context.directory();
        prepare(directory, context.rollCycle());
        ChronicleQueues.checkNotTruncated(JournalLayout.ticks(directory), context.rollCycle());
        ChronicleQueues.checkNotTruncated(JournalLayout.packets(directory), context.rollCycle());

        final CycleTimeProvider tickTime = new CycleTimeProvider(context.epochClock(), context.cycleClock());
        final CycleTimeProvider packetTime = new CycleTimeProvider(context.epochClock(), context.cycleClock());
        SingleChronicleQueue ticks = null;
        SingleChronicleQueue packets = null;
        try
        {
            ticks = ChronicleQueues.open(JournalLayout.ticks(directory), context.rollCycle(), tickTime, false);
            packets = context.recordPackets() ?
                ChronicleQueues.open(JournalLayout.packets(directory), context.rollCycle(), packetTime, false) : null;
            final long lastSequence = lastTick(ticks);
            final long free = context.freeBytes().applyAsLong(JournalLayout.ticks(directory));
            if (free >= 0 && free < JournalSpace.START_FREE_BYTES)
            {
                throw new JournalSpaceException(directory, free, lastSequence);
            }
            final Optional<ResumePoint> resumePoint = resumePoint(ticks);
            tickTime.notBefore(newestCycleStart(ticks, context.rollCycle()));
            if (packets != null)
            {
                packetTime.notBefore(newestCycleStart(packets, context.rollCycle()));
            }
            return new TickJournal(context, ticks, packets, tickTime, packetTime, lastSequence, resumePoint);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(ticks);
            closeQuietly(packets);
            throw ex;
        }
    }

    public Path directory()
    {
        return directory;
    }

    public JournalRollCycle rollCycle()
    {
        return rollCycle;
    }

    /** @return the last tick journaled before this open, {@link TickReplay#NO_SEQUENCE} for an empty journal. */
    public long lastSequenceAtOpen()
    {
        return lastSequence;
    }

    /** @return the gateway sequence the normalizer must give its first tick: one after the last journaled, or 1. */
    public long nextGatewaySequence()
    {
        return lastSequence == TickReplay.NO_SEQUENCE ? 1 : lastSequence + 1;
    }

    /**
     * Where the feed stood at the last tick journaled before this open, for a restarted gateway to resume the session
     * it was in: its number and MoldUDP64 name, the next exchange sequence, the last exchange time, the next gateway
     * sequence. Computed at open from the tick queue alone (docs/JOURNAL.md, "Resuming after a restart").
     *
     * @return the resume point, or empty for an empty journal or one whose last session has no SESSION tick (ticks
     * journaled before SESSION ticks existed): then start as for a new journal.
     */
    public Optional<ResumePoint> resumePoint()
    {
        return resumePoint;
    }

    /**
     * Delivers the ticks of the resume point's session that are journaled, from its SESSION tick to the last tick
     * before this open, in order: what rebuilds the session's books after a restart (give it an
     * {@code io.mdgate.core.tick.BookRestore}). Start-up thread, before the normalizer publishes.
     *
     * @param point   the resume point, from {@link #resumePoint()}.
     * @param handler receives each tick; the bytes are valid during the call only.
     * @return ticks delivered.
     * @throws JournalDamagedException when a tick of the range is damaged or missing.
     */
    public long replaySession(final ResumePoint point, final TickHandler handler)
    {
        try (TickReplay replay = newTickReplay())
        {
            return replay.replay(point.sessionStartSequence(), point.lastGatewaySequence(), handler);
        }
    }

    /**
     * @return the gateway sequence of the last tick in the journal's files (appended and visible to readers, and
     * kept if the process dies), or {@link TickReplay#NO_SEQUENCE}. Any thread.
     */
    public long journaledSequence()
    {
        return journaled.getVolatile();
    }

    /** @return the handler the core publishes ticks and packets to. Core thread only. */
    public JournalPublisher publisher()
    {
        return publisher;
    }

    /** @return the agent that appends; run it on one thread. */
    public JournalAgent agent()
    {
        return agent;
    }

    /** @return a replay of this journal's ticks for the calling thread (e.g. consumer recovery); close it after. */
    public TickReplay newTickReplay()
    {
        return new TickReplay(ticks);
    }

    /** @return a replay of this journal's raw packets, or one that finds none when packets are not recorded. */
    public PacketReplay newPacketReplay()
    {
        return new PacketReplay(packets);
    }

    /** Closes the queues. Close the agent first (its runner), so what was published is appended. */
    @Override
    public void close()
    {
        closeQuietly(packets);
        ticks.close();
    }

    private static void prepare(final Path directory, final JournalRollCycle rollCycle)
    {
        try
        {
            if (Files.exists(JournalLayout.manifest(directory)))
            {
                final JournalManifest manifest = JournalManifest.read(directory);
                if (manifest.rollCycle() != rollCycle)
                {
                    throw new JournalException("journal " + directory + " was created with roll cycle " +
                        manifest.rollCycle() + ", not " + rollCycle + "; open it with " + manifest.rollCycle() +
                        " or record into a new directory");
                }
                if (manifest.schemaVersion() < TickEncoder.SCHEMA_VERSION)
                {
                    // this writer may append ticks the older schema lacks (SESSION, LEVEL): an older reader must refuse
                    new JournalManifest(rollCycle).write(directory);
                }
                return;
            }
            if (Files.exists(directory) && !Files.isDirectory(directory))
            {
                throw new JournalException(directory + " is a file, not a journal directory; give a new or empty " +
                    "directory");
            }
            Files.createDirectories(directory);
            try (Stream<Path> entries = Files.list(directory))
            {
                if (entries.findAny().isPresent())
                {
                    throw new JournalException(directory + " is not empty and not an mdgate journal (it has no " +
                        JournalLayout.MANIFEST + "); give a new or empty directory");
                }
            }
            Files.createDirectories(JournalLayout.ticks(directory));
            Files.createDirectories(JournalLayout.packets(directory));
            new JournalManifest(rollCycle).write(directory);
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot create the journal " + directory + ": " + reason(ex) +
                "; give a directory this user may create", ex);
        }
    }

    /** @return an I/O failure in words, the path it concerns first, without the exception's class name. */
    private static String reason(final IOException ex)
    {
        if (ex instanceof AccessDeniedException denied)
        {
            return denied.getFile() + ": permission denied";
        }
        if (ex instanceof FileAlreadyExistsException exists)
        {
            return exists.getFile() + " is a file in the way";
        }
        if (ex instanceof FileSystemException other && null != other.getReason())
        {
            return other.getFile() + ": " + other.getReason();
        }
        return null == ex.getMessage() ? ex.getClass().getSimpleName() : ex.getMessage();
    }

    private static long lastTick(final SingleChronicleQueue ticks)
    {
        try (TickReplay replay = new TickReplay(ticks))
        {
            final List<CycleSummary> cycles = replay.cycles();
            for (int i = cycles.size() - 1; i >= 0; i--)
            {
                if (cycles.get(i).records() > 0)
                {
                    return cycles.get(i).lastSequence();
                }
            }
            return TickReplay.NO_SEQUENCE;
        }
    }

    private static Optional<ResumePoint> resumePoint(final SingleChronicleQueue ticks)
    {
        try (TickReplay replay = new TickReplay(ticks))
        {
            return ResumePointFinder.find(replay);
        }
    }

    private static long newestCycleStart(final SingleChronicleQueue queue, final JournalRollCycle rollCycle)
    {
        final int[] cycles = ChronicleQueues.cycles(queue);
        return cycles.length == 0 ? 0 : cycles[cycles.length - 1] * rollCycle.lengthMillis();
    }

    private static void closeQuietly(final SingleChronicleQueue queue)
    {
        if (queue != null)
        {
            queue.close();
        }
    }
}
