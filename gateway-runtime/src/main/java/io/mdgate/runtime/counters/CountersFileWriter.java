package io.mdgate.runtime.counters;

import io.mdgate.core.counters.CounterAllocator;
import io.mdgate.core.counters.CounterType;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static io.mdgate.runtime.counters.CountersFileDescriptor.*;

/**
 * The gateway's side of the counters file ({@link CountersFileDescriptor}): creates it, allocates labelled counters
 * in it (it is the {@link CounterAllocator} the runtime gives each module's context, so the modules' own counters
 * live here), records distinct errors in it, and stamps the heartbeat and the stop time.
 * <p>
 * Threading: create, allocate counters and close on the start-up thread; each {@link AtomicCounter} is then updated
 * by one agent thread; {@link #heartbeat(long)} by the housekeeping thread; {@link #errorLog()} is thread-safe
 * (Agrona's {@link DistinctErrorLog}).
 */
public final class CountersFileWriter implements CounterAllocator, AutoCloseable
{
    private final Path path;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer header;
    private final CountersManager countersManager;
    private final DistinctErrorLog errorLog;
    private final EpochClock clock;
    private final Set<String> labels = new HashSet<>();
    private boolean closed;

    private CountersFileWriter(final Path path, final MappedByteBuffer mapped, final int maxCounters,
        final int errorLogLength, final EpochClock clock)
    {
        this.path = path;
        this.mapped = mapped;
        this.clock = clock;
        final int metadataLength = metadataLength(maxCounters);
        final int valuesLength = valuesLength(maxCounters);
        header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final AtomicBuffer metadata = new UnsafeBuffer(mapped, HEADER_LENGTH, metadataLength);
        final AtomicBuffer values = new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength, valuesLength);
        final AtomicBuffer errors = new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength + valuesLength,
            errorLogLength);
        countersManager = new CountersManager(metadata, values, StandardCharsets.US_ASCII);
        errorLog = new DistinctErrorLog(errors, clock);
    }

    /**
     * Creates the counters file, replacing a file left by a gateway that is no longer running.
     *
     * @param path           the file; its directory is created when absent.
     * @param gatewayName    written into the header (ASCII, at most 64 characters).
     * @param maxCounters    counters the file holds.
     * @param errorLogLength bytes of the distinct-error log, a multiple of 128.
     * @return the writer.
     * @throws IllegalStateException when a running process still owns the file, or it cannot be created.
     */
    public static CountersFileWriter create(
        final Path path, final String gatewayName, final int maxCounters, final int errorLogLength)
    {
        return create(path, gatewayName, maxCounters, errorLogLength, SystemEpochClock.INSTANCE);
    }

    /** As {@link #create(Path, String, int, int)} with the clock that stamps times and errors. */
    public static CountersFileWriter create(final Path path, final String gatewayName, final int maxCounters,
        final int errorLogLength, final EpochClock clock)
    {
        return create(path, gatewayName, maxCounters, errorLogLength, clock, 0);
    }

    /**
     * As {@link #create(Path, String, int, int)}, keeping the files of the previous {@code keepRuns} runs beside it
     * ({@link RunFiles}) instead of deleting the last one.
     */
    public static CountersFileWriter create(final Path path, final String gatewayName, final int maxCounters,
        final int errorLogLength, final EpochClock clock, final int keepRuns)
    {
        if (maxCounters < 1 || errorLogLength < SECTION_ALIGNMENT || errorLogLength % SECTION_ALIGNMENT != 0)
        {
            throw new IllegalArgumentException("maxCounters must be 1 or more and the error log length a positive " +
                "multiple of " + SECTION_ALIGNMENT + ", were " + maxCounters + " and " + errorLogLength);
        }
        if (gatewayName.length() > NAME_LENGTH || !StandardCharsets.US_ASCII.newEncoder().canEncode(gatewayName))
        {
            throw new IllegalArgumentException("gateway name must be ASCII of at most " + NAME_LENGTH +
                " characters: " + gatewayName);
        }
        refuseWhenOwned(path);
        try
        {
            final Path parent = path.toAbsolutePath().getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot create the counters file " + path + ": " + ex.getMessage(), ex);
        }
        RunFiles.rotate(path, keepRuns);
        final long length = fileLength(metadataLength(maxCounters), valuesLength(maxCounters), errorLogLength);
        final MappedByteBuffer mapped;
        try
        {
            mapped = IoUtil.mapNewFile(path.toFile(), length, true);
        }
        catch (final IllegalStateException | UncheckedIOException ex)
        {
            throw new IllegalStateException("cannot create the counters file " + path + ": " + ex.getMessage(), ex);
        }
        final CountersFileWriter writer = new CountersFileWriter(path, mapped, maxCounters, errorLogLength, clock);
        writer.writeHeader(gatewayName, maxCounters, errorLogLength);
        return writer;
    }

    private static void refuseWhenOwned(final Path path)
    {
        if (!Files.exists(path))
        {
            return;
        }
        try (CountersFile existing = CountersFile.open(path))
        {
            final long pid = existing.pid();
            if (existing.stopEpochMillis() == 0 && pid != ProcessHandle.current().pid() &&
                ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
            {
                throw new IllegalStateException("the counters file " + path + " belongs to running process " + pid +
                    " (gateway '" + existing.gatewayName() + "'); stop it first, or give this gateway another " +
                    "[gateway] name or counters_file");
            }
        }
        catch (final CountersFileException ex)
        {
            // Not a counters file we can read (half-written, old version): replaced.
        }
    }

    private void writeHeader(final String gatewayName, final int maxCounters, final int errorLogLength)
    {
        header.putInt(VERSION_OFFSET, VERSION);
        header.putInt(METADATA_LENGTH_OFFSET, metadataLength(maxCounters));
        header.putInt(VALUES_LENGTH_OFFSET, valuesLength(maxCounters));
        header.putInt(ERROR_LOG_LENGTH_OFFSET, errorLogLength);
        header.putLong(PID_OFFSET, ProcessHandle.current().pid());
        final long now = clock.time();
        header.putLong(START_TIME_OFFSET, now);
        header.putLong(HEARTBEAT_OFFSET, now);
        header.putLong(STOP_TIME_OFFSET, 0);
        header.putStringWithoutLengthAscii(NAME_OFFSET, gatewayName);
        header.putIntRelease(MAGIC_OFFSET, MAGIC);
    }

    /**
     * Allocates a counter.
     *
     * @param label  its dotted label, unique in the file (e.g. {@code feed.A.packets}).
     * @param typeId one of {@link CounterType}.
     * @return the counter, 0 at first.
     * @throws IllegalArgumentException when the label is taken.
     * @throws IllegalStateException    when the file is full.
     */
    @Override
    public AtomicCounter newCounter(final String label, final int typeId)
    {
        if (!labels.add(label))
        {
            throw new IllegalArgumentException("counter label already allocated: " + label);
        }
        return countersManager.newCounter(label, typeId);
    }

    /** @return the distinct-error log in the file (thread-safe). */
    public DistinctErrorLog errorLog()
    {
        return errorLog;
    }

    /** @param epochMillis stamps the heartbeat, which tells readers the gateway is alive. */
    public void heartbeat(final long epochMillis)
    {
        header.putLongRelease(HEARTBEAT_OFFSET, epochMillis);
    }

    public Path path()
    {
        return path;
    }

    /** Stamps the stop time (a clean stop) and unmaps the file, which stays for readers. Idempotent. */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            header.putLongRelease(STOP_TIME_OFFSET, Math.max(1, clock.time()));
            mapped.force();
            IoUtil.unmap(mapped);
        }
    }
}
