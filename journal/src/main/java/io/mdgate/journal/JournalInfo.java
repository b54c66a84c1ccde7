package io.mdgate.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a journal holds: its cycles per queue with their counts, first and last keys and file sizes, and the size of
 * the whole directory. Immutable.
 *
 * @param directory     the journal directory.
 * @param rollCycle     its roll cycle.
 * @param tickCycles    the tick queue's cycles, oldest first.
 * @param packetCycles  the packet queue's cycles, oldest first.
 */
public record JournalInfo(
    Path directory,
    JournalRollCycle rollCycle,
    List<CycleSummary> tickCycles,
    List<CycleSummary> packetCycles)
{
    public JournalInfo
    {
        tickCycles = List.copyOf(tickCycles);
        packetCycles = List.copyOf(packetCycles);
    }

    /** @return ticks in the journal. */
    public long ticks()
    {
        return tickCycles.stream().mapToLong(CycleSummary::records).sum();
    }

    /** @return packets in the journal. */
    public long packets()
    {
        return packetCycles.stream().mapToLong(CycleSummary::records).sum();
    }

    /** @return the first tick's gateway sequence, or {@link TickReplay#NO_SEQUENCE}. */
    public long firstSequence()
    {
        return firstNonEmpty(tickCycles) == null ? TickReplay.NO_SEQUENCE : firstNonEmpty(tickCycles).firstSequence();
    }

    /** @return the last tick's gateway sequence, or {@link TickReplay#NO_SEQUENCE}. */
    public long lastSequence()
    {
        return lastNonEmpty(tickCycles) == null ? TickReplay.NO_SEQUENCE : lastNonEmpty(tickCycles).lastSequence();
    }

    /** @return the first tick's exchange time (ns since the epoch), or 0 without ticks. */
    public long firstTime()
    {
        return firstNonEmpty(tickCycles) == null ? 0 : firstNonEmpty(tickCycles).firstTime();
    }

    /** @return the last tick's exchange time (ns since the epoch), or 0 without ticks. */
    public long lastTime()
    {
        return lastNonEmpty(tickCycles) == null ? 0 : lastNonEmpty(tickCycles).lastTime();
    }

    /** @return the first packet's receive time, or 0 without packets. */
    public long firstPacketTime()
    {
        return firstNonEmpty(packetCycles) == null ? 0 : firstNonEmpty(packetCycles).firstTime();
    }

    /** @return the last packet's receive time, or 0 without packets. */
    public long lastPacketTime()
    {
        return lastNonEmpty(packetCycles) == null ? 0 : lastNonEmpty(packetCycles).lastTime();
    }

    /** @return bytes of the records themselves: 64 per tick plus Chronicle's 4-byte header per record. */
    public long tickDataBytes()
    {
        return ticks() * (TickReplay.TICK_LENGTH + 4L);
    }

    /**
     * @return the summed length of every file in the journal directory. Cycle files are pre-allocated in blocks and
     * sparse, so this is an upper bound of the disk space used.
     */
    public long fileBytes()
    {
        try (Stream<Path> files = Files.walk(directory))
        {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot list " + directory + ": " + ex.getMessage(), ex);
        }
    }

    private static CycleSummary firstNonEmpty(final List<CycleSummary> cycles)
    {
        for (final CycleSummary cycle : cycles)
        {
            if (cycle.records() > 0)
            {
                return cycle;
            }
        }
        return null;
    }

    private static CycleSummary lastNonEmpty(final List<CycleSummary> cycles)
    {
        for (int i = cycles.size() - 1; i >= 0; i--)
        {
            if (cycles.get(i).records() > 0)
            {
                return cycles.get(i);
            }
        }
        return null;
    }
}
