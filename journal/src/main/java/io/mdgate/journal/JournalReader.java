package io.mdgate.journal;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A journal opened for reading, by the tools ({@code replay}, {@code journal info}) or by another process while the
 * gateway writes it. Opening checks the manifest and that no cycle file is truncated, and reads each cycle's first
 * and last tick to check the cycles are consistent and continuous.
 * <p>
 * The queues are mapped read-write although nothing is appended: a read-only mapping faults (an asynchronous
 * {@code InternalError} that cannot be caught reliably) when a damaged record's length points past the end of its
 * file, whereas a read-write mapping reads zeros there and the damage is reported as a
 * {@link JournalDamagedException}. Reading therefore needs write permission on the journal's files.
 * <p>
 * Threading: open and close on one thread; one {@link #newTickReplay()} / {@link #newPacketReplay()} per thread.
 */
public final class JournalReader implements AutoCloseable
{
    private final Path directory;
    private final JournalRollCycle rollCycle;
    private final SingleChronicleQueue ticks;
    private final SingleChronicleQueue packets;

    private JournalReader(
        final Path directory,
        final JournalRollCycle rollCycle,
        final SingleChronicleQueue ticks,
        final SingleChronicleQueue packets)
    {
        this.directory = directory;
        this.rollCycle = rollCycle;
        this.ticks = ticks;
        this.packets = packets;
    }

    /**
     * @param directory a journal directory.
     * @return the journal, open for reading.
     * @throws JournalException        when the directory is missing or not a journal.
     * @throws JournalDamagedException when a file is damaged.
     */
    public static JournalReader open(final Path directory)
    {
        if (!Files.isDirectory(directory))
        {
            throw new JournalException("no journal at " + directory + ": " +
                (Files.exists(directory) ? "it is not a directory" : "no such directory"));
        }
        final JournalRollCycle rollCycle = JournalManifest.read(directory).rollCycle();
        final Path tickDirectory = JournalLayout.ticks(directory);
        final Path packetDirectory = JournalLayout.packets(directory);
        ChronicleQueues.checkNotTruncated(tickDirectory, rollCycle);
        ChronicleQueues.checkNotTruncated(packetDirectory, rollCycle);
        final SingleChronicleQueue ticks = openIfAny(tickDirectory, rollCycle);
        final SingleChronicleQueue packets = openIfAny(packetDirectory, rollCycle);
        final JournalReader reader = new JournalReader(directory, rollCycle, ticks, packets);
        try (TickReplay replay = reader.newTickReplay())
        {
            replay.cycles();
        }
        catch (final RuntimeException ex)
        {
            reader.close();
            throw ex;
        }
        return reader;
    }

    public Path directory()
    {
        return directory;
    }

    public JournalRollCycle rollCycle()
    {
        return rollCycle;
    }

    /** @return a tick reader for the calling thread; close it after. */
    public TickReplay newTickReplay()
    {
        return new TickReplay(ticks);
    }

    /** @return a packet reader for the calling thread; close it after. */
    public PacketReplay newPacketReplay()
    {
        return new PacketReplay(packets);
    }

    /**
     * @return the cycles of both queues with their counts, keys and file sizes.
     * @throws JournalDamagedException when a cycle is inconsistent.
     */
    public JournalInfo info()
    {
        try (TickReplay tickReplay = newTickReplay(); PacketReplay packetReplay = newPacketReplay())
        {
            final List<CycleSummary> tickCycles = tickReplay.cycles();
            final List<CycleSummary> packetCycles = packetReplay.cycles();
            return new JournalInfo(directory, rollCycle, tickCycles, packetCycles);
        }
    }

    @Override
    public void close()
    {
        if (packets != null)
        {
            packets.close();
        }
        if (ticks != null)
        {
            ticks.close();
        }
    }

    private static SingleChronicleQueue openIfAny(final Path directory, final JournalRollCycle rollCycle)
    {
        return ChronicleQueues.hasCycleFiles(directory) ? ChronicleQueues.open(directory, rollCycle, null, false) : null;
    }
}
