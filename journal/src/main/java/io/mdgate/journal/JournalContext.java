package io.mdgate.journal;

import io.mdgate.core.counters.CounterAllocator;
import org.agrona.BitUtil;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.status.AtomicLongPosition;
import org.agrona.concurrent.status.Position;

import java.nio.file.Path;

/**
 * Settings of a {@link TickJournal}, with defaults, validated once by {@link #conclude()} when the journal opens.
 * docs/CONFIGURATION.md lists them.
 * <p>
 * Threading: configure on one thread before opening the journal; not for use afterwards.
 */
public final class JournalContext
{
    public static final JournalRollCycle DEFAULT_ROLL_CYCLE = JournalRollCycle.HOURLY;
    /** Keep every cycle. */
    public static final int RETAIN_ALL = 0;
    public static final int DEFAULT_RING_CAPACITY = 8 << 20;
    /** Smallest ring that can carry the largest packet (a ring message is at most an eighth of the ring). */
    public static final int MIN_RING_CAPACITY = 1 << 20;
    public static final int MAX_RING_CAPACITY = 1 << 30;
    public static final int DEFAULT_DRAIN_LIMIT = 1024;
    public static final int MAX_DRAIN_LIMIT = 1 << 20;

    private Path directory;
    private JournalRollCycle rollCycle = DEFAULT_ROLL_CYCLE;
    private int retainCycles = RETAIN_ALL;
    private JournalCycleClock cycleClock = JournalCycleClock.WALL_CLOCK;
    private EpochClock epochClock = SystemEpochClock.INSTANCE;
    private int ringCapacity = DEFAULT_RING_CAPACITY;
    private int drainLimit = DEFAULT_DRAIN_LIMIT;
    private boolean recordPackets = true;
    private Position journaledPosition;
    private CounterAllocator counters;
    private CycleFileSpace.Opener fileBlocks = FileBlocks::open;
    private java.util.function.ToLongFunction<Path> freeBytes = JournalSpace::freeBytes;

    /** @return how the journal allocates its cycle files' blocks ahead of the appenders. */
    CycleFileSpace.Opener fileBlocks()
    {
        return fileBlocks;
    }

    /** @param opener how cycle files' blocks are allocated (tests stand in for a full filesystem). */
    JournalContext fileBlocks(final CycleFileSpace.Opener opener)
    {
        this.fileBlocks = opener;
        return this;
    }

    /** @return the free bytes of the filesystem holding a directory. */
    java.util.function.ToLongFunction<Path> freeBytes()
    {
        return freeBytes;
    }

    /** @param freeBytes the free bytes of the filesystem holding a directory (tests). */
    JournalContext freeBytes(final java.util.function.ToLongFunction<Path> freeBytes)
    {
        this.freeBytes = freeBytes;
        return this;
    }

    public Path directory()
    {
        return directory;
    }

    /** @param directory the journal directory; created with its layout ({@link JournalLayout}) when absent. */
    public JournalContext directory(final Path directory)
    {
        this.directory = directory;
        return this;
    }

    public JournalRollCycle rollCycle()
    {
        return rollCycle;
    }

    /**
     * @param rollCycle period of one cycle file (default {@link #DEFAULT_ROLL_CYCLE}); fixed when the journal is
     *                  created: reopening with another one is refused.
     */
    public JournalContext rollCycle(final JournalRollCycle rollCycle)
    {
        this.rollCycle = rollCycle;
        return this;
    }

    public int retainCycles()
    {
        return retainCycles;
    }

    /**
     * @param cycles how many of the newest cycle files to keep in each queue when a new cycle starts (and at open);
     *               older ones are deleted. {@link #RETAIN_ALL} (the default) keeps every one.
     */
    public JournalContext retainCycles(final int cycles)
    {
        this.retainCycles = cycles;
        return this;
    }

    public JournalCycleClock cycleClock()
    {
        return cycleClock;
    }

    /** @param cycleClock which time chooses a record's cycle (default {@link JournalCycleClock#WALL_CLOCK}). */
    public JournalContext cycleClock(final JournalCycleClock cycleClock)
    {
        this.cycleClock = cycleClock;
        return this;
    }

    public EpochClock epochClock()
    {
        return epochClock;
    }

    /** @param epochClock the wall clock for {@link JournalCycleClock#WALL_CLOCK} (default the system's). */
    public JournalContext epochClock(final EpochClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }

    public int ringCapacity()
    {
        return ringCapacity;
    }

    /**
     * @param bytes capacity of the ring between the core and the journal agent, a power of two between
     *              {@link #MIN_RING_CAPACITY} and {@link #MAX_RING_CAPACITY} (default 8 MiB: about 116,000 ticks).
     */
    public JournalContext ringCapacity(final int bytes)
    {
        this.ringCapacity = bytes;
        return this;
    }

    public int drainLimit()
    {
        return drainLimit;
    }

    /** @param records most records the agent appends in one duty cycle (default {@link #DEFAULT_DRAIN_LIMIT}). */
    public JournalContext drainLimit(final int records)
    {
        this.drainLimit = records;
        return this;
    }

    public boolean recordPackets()
    {
        return recordPackets;
    }

    /** @param recordPackets whether raw packets are journaled too (default true); when false they are ignored. */
    public JournalContext recordPackets(final boolean recordPackets)
    {
        this.recordPackets = recordPackets;
        return this;
    }

    public Position journaledPosition()
    {
        return journaledPosition;
    }

    /**
     * @param position where the agent publishes the gateway sequence of the last tick appended (e.g. a counter in
     *                 the status file); default a private one, readable through
     *                 {@link TickJournal#journaledSequence()}.
     */
    public JournalContext journaledPosition(final Position position)
    {
        this.journaledPosition = position;
        return this;
    }

    public CounterAllocator counters()
    {
        return counters;
    }

    /**
     * @param counters where the journal allocates its counters ({@link JournalCounterDescriptor}, labelled
     *                 {@code journal.*}) when it opens: the gateway's counters file, so other processes read them
     *                 live; null (the default) for counters of its own, made at each open, that nobody outside
     *                 sees. An allocator takes a label once: give it to one open journal.
     */
    public JournalContext counters(final CounterAllocator counters)
    {
        this.counters = counters;
        return this;
    }

    /**
     * Checks every setting; called by {@link TickJournal#open(JournalContext)}.
     *
     * @return this.
     * @throws IllegalArgumentException naming the setting that is wrong and what it must be.
     */
    public JournalContext conclude()
    {
        if (directory == null)
        {
            throw new IllegalArgumentException("journal directory is not set");
        }
        if (rollCycle == null || cycleClock == null || epochClock == null)
        {
            throw new IllegalArgumentException("rollCycle, cycleClock and epochClock must be set");
        }
        if (retainCycles < 0)
        {
            throw new IllegalArgumentException("retainCycles must be 0 (keep all) or more, was " + retainCycles);
        }
        if (ringCapacity < MIN_RING_CAPACITY || ringCapacity > MAX_RING_CAPACITY ||
            !BitUtil.isPowerOfTwo(ringCapacity))
        {
            throw new IllegalArgumentException("ringCapacity must be a power of two between " + MIN_RING_CAPACITY +
                " and " + MAX_RING_CAPACITY + " bytes, was " + ringCapacity);
        }
        if (drainLimit < 1 || drainLimit > MAX_DRAIN_LIMIT)
        {
            throw new IllegalArgumentException("drainLimit must be between 1 and " + MAX_DRAIN_LIMIT + ", was " +
                drainLimit);
        }
        if (journaledPosition == null)
        {
            journaledPosition = new AtomicLongPosition();
        }
        return this;
    }

    @Override
    public String toString()
    {
        return "JournalContext{directory=" + directory + ", rollCycle=" + rollCycle + ", retainCycles=" +
            retainCycles + ", cycleClock=" + cycleClock + ", ringCapacity=" + ringCapacity + ", drainLimit=" +
            drainLimit + ", recordPackets=" + recordPackets + '}';
    }
}
