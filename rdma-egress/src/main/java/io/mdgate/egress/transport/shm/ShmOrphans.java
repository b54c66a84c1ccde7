package io.mdgate.egress.transport.shm;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Removes the region files of an instance whose owner process no longer exists (a consumer killed before it could
 * remove its region), so a host that restarts consumers does not fill its tmpfs. Run once per transport, at the
 * first shared registration. Set-up code.
 */
final class ShmOrphans
{
    private ShmOrphans()
    {
    }

    /** @return files removed. */
    static int remove(final ShmNames names, final Path directory)
    {
        int removed = 0;
        try (DirectoryStream<Path> files =
            Files.newDirectoryStream(directory, names.instance() + "-region-*"))
        {
            for (final Path file : files)
            {
                final long owner = ownerPid(file);
                if (owner > 0 && ProcessHandle.of(owner).isEmpty())
                {
                    ShmFiles.delete(file);
                    removed++;
                }
            }
        }
        catch (final IOException ignore)
        {
            // Best effort: an unreadable directory just leaves the files for the operator.
        }
        return removed;
    }

    private static long ownerPid(final Path file)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer header = ByteBuffer.allocate(ShmRegionDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(header, 0);
            final UnsafeBuffer view = new UnsafeBuffer(header.array());
            if (view.getLong(ShmRegionDescriptor.MAGIC_OFFSET) != ShmRegionDescriptor.MAGIC)
            {
                return -1;
            }
            return view.getLong(ShmRegionDescriptor.OWNER_PID_OFFSET);
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }
}
