package io.mdgate.runtime.counters;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.ErrorLogReader;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.mdgate.runtime.counters.CountersFileDescriptor.*;

/**
 * A reader of a gateway's counters file ({@link CountersFileDescriptor}), from any process, while the gateway runs
 * or after it stopped or died: {@link #snapshot()} reads every counter, {@link #errors()} the distinct-error log.
 * The file is mapped read-only; reading never disturbs the gateway.
 * <pre>
 *   try (CountersFile file = CountersFile.open(Path.of("/dev/shm/mdgate-a/counters")))
 *   {
 *       final CountersSnapshot snapshot = file.snapshot();
 *       final long packets = snapshot.value("feed.A.packets");
 *   }
 * </pre>
 * Threading: one instance per reading thread.
 */
public final class CountersFile implements AutoCloseable
{
    private final Path path;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer header;
    private final CountersReader counters;
    private final UnsafeBuffer errorLog;
    private final String gatewayName;
    private boolean closed;

    private CountersFile(final Path path, final MappedByteBuffer mapped)
    {
        this.path = path;
        this.mapped = mapped;
        header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final int metadataLength = header.getInt(METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(VALUES_LENGTH_OFFSET);
        final int errorLogLength = header.getInt(ERROR_LOG_LENGTH_OFFSET);
        counters = new CountersReader(new UnsafeBuffer(mapped, HEADER_LENGTH, metadataLength),
            new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength, valuesLength), StandardCharsets.US_ASCII);
        errorLog = new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength + valuesLength, errorLogLength);
        final byte[] name = new byte[NAME_LENGTH];
        header.getBytes(NAME_OFFSET, name);
        int length = 0;
        while (length < name.length && name[length] != 0)
        {
            length++;
        }
        gatewayName = new String(name, 0, length, StandardCharsets.US_ASCII);
    }

    /**
     * Maps a counters file for reading.
     *
     * @param path the gateway's {@code [gateway] counters_file}.
     * @return the reader; close it when done.
     * @throws CountersFileException when the file is absent, not (yet) a counters file, another version, or
     *                               shorter than its header says.
     */
    public static CountersFile open(final Path path)
    {
        final long size;
        try
        {
            size = Files.size(path);
        }
        catch (final IOException ex)
        {
            throw new CountersFileException("no counters file at " + path + " (is the gateway started, and is this " +
                "its [gateway] counters_file?)");
        }
        if (size < HEADER_LENGTH)
        {
            throw new CountersFileException(path + " is not a counters file yet (" + size + " bytes)");
        }
        final MappedByteBuffer mapped;
        try
        {
            mapped = IoUtil.mapExistingFile(path.toFile(), FileChannel.MapMode.READ_ONLY, "counters file");
        }
        catch (final IllegalStateException | UncheckedIOException ex)
        {
            throw new CountersFileException("cannot map " + path + ": " + ex.getMessage());
        }
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final String problem = check(header, size);
        if (problem != null)
        {
            IoUtil.unmap(mapped);
            throw new CountersFileException(path + " " + problem);
        }
        return new CountersFile(path, mapped);
    }

    private static String check(final UnsafeBuffer header, final long size)
    {
        if (header.getIntVolatile(MAGIC_OFFSET) != MAGIC)
        {
            return "is not a counters file (or is still being created)";
        }
        if (header.getInt(VERSION_OFFSET) != VERSION)
        {
            return "has layout version " + header.getInt(VERSION_OFFSET) + "; this mdgate reads version " + VERSION;
        }
        final int metadataLength = header.getInt(METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(VALUES_LENGTH_OFFSET);
        final int errorLogLength = header.getInt(ERROR_LOG_LENGTH_OFFSET);
        if (metadataLength < 0 || valuesLength < 0 || errorLogLength < 0 ||
            fileLength(metadataLength, valuesLength, errorLogLength) > size)
        {
            return "is truncated: its header describes " + fileLength(metadataLength, valuesLength, errorLogLength) +
                " bytes, the file has " + size;
        }
        return null;
    }

    /** @return every counter's label, type and value now, with the gateway's state. */
    public CountersSnapshot snapshot()
    {
        final List<CountersSnapshot.Counter> list = new ArrayList<>();
        counters.forEach((counterId, label) -> list.add(new CountersSnapshot.Counter(counterId,
            counters.getCounterTypeId(counterId), label, counters.getCounterValue(counterId))));
        return new CountersSnapshot(gatewayName, pid(), startEpochMillis(), heartbeatEpochMillis(),
            stopEpochMillis(), System.currentTimeMillis(), list);
    }

    /** @return the distinct errors recorded, oldest first observation first. */
    public List<ErrorRecord> errors()
    {
        final List<ErrorRecord> list = new ArrayList<>();
        ErrorLogReader.read(errorLog, (observations, first, last, text) ->
            list.add(new ErrorRecord(observations, first, last, text)));
        list.sort(Comparator.comparingLong(ErrorRecord::firstEpochMillis));
        return list;
    }

    public String gatewayName()
    {
        return gatewayName;
    }

    public long pid()
    {
        return header.getLong(PID_OFFSET);
    }

    public long startEpochMillis()
    {
        return header.getLong(START_TIME_OFFSET);
    }

    public long heartbeatEpochMillis()
    {
        return header.getLongVolatile(HEARTBEAT_OFFSET);
    }

    /** @return when the gateway stopped cleanly, ms since the epoch; 0 while it runs (or when it died). */
    public long stopEpochMillis()
    {
        return header.getLongVolatile(STOP_TIME_OFFSET);
    }

    public Path path()
    {
        return path;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            IoUtil.unmap(mapped);
        }
    }
}
