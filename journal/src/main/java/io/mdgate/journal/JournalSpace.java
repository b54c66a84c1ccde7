package io.mdgate.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The journal's view of its filesystem's free space: a {@code statvfs} of a directory, asked at start, before a
 * new cycle file and when an append is refused, never per record. Stateless; any thread.
 */
final class JournalSpace
{
    /** Free space below which the journal refuses to start: a new cycle file and one reserve. */
    static final long START_FREE_BYTES = CycleFileSpace.NEW_FILE_BYTES + CycleFileSpace.CHUNK_BYTES;

    private JournalSpace()
    {
    }

    /** @return the bytes this user may still write on the filesystem holding the directory, -1 when unknown. */
    static long freeBytes(final Path directory)
    {
        try
        {
            return Files.getFileStore(directory).getUsableSpace();
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }
}
