package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.TransportException;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Creating, mapping and removing the {@code shm} transport's files: owner and group may read and write, others
 * nothing; the group is set when configured. Mapped files are pre-faulted, so the hot path never takes a page fault
 * on first touch. Set-up code only (syscalls, allocation).
 */
final class ShmFiles
{
    static final Set<PosixFilePermission> OWNER_GROUP_RW = PosixFilePermissions.fromString("rw-rw----");
    private static final int PAGE = 4096;
    /** Where the page-touching reads go, so that they are not optimised away. */
    @SuppressWarnings("unused")
    private static volatile long touched;

    private ShmFiles()
    {
    }

    /**
     * Creates a new file of {@code length} bytes, owner/group read-write, and maps it.
     *
     * @throws TransportException when it exists or cannot be created.
     */
    static MappedByteBuffer createAndMap(final Path file, final long length, final String group)
    {
        try
        {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_GROUP_RW));
            restrict(file, group);
            final MappedByteBuffer mapped;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                channel.truncate(length);
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            }
            prefault(mapped);
            return mapped;
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new TransportException(file + " already exists: another process uses this shm instance name, or " +
                "one crashed; choose another instance name or remove the file", ex);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            delete(file);
            throw new TransportException("cannot create " + file + ": " + ex.getMessage() +
                " (the shm directory must exist, be writable and support POSIX permissions)", ex);
        }
    }

    /**
     * Maps an existing file read-write.
     *
     * @throws TransportException when it does not exist, cannot be opened or is shorter than {@code minLength}.
     */
    static MappedByteBuffer mapExisting(final Path file, final long minLength)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long size = channel.size();
            if (size < minLength)
            {
                throw new TransportException(file + " holds " + size + " bytes, expected at least " + minLength);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
        catch (final IOException ex)
        {
            throw new TransportException("cannot open " + file + ": " + ex +
                " (is the publisher running with the same shm directory and instance, and is this user in its group?)",
                ex);
        }
    }

    /**
     * Maps an existing file read-only and touches each page by reading it, so its reader never writes into memory
     * another process owns.
     *
     * @throws TransportException when it does not exist, cannot be opened or is shorter than {@code minLength}.
     */
    static MappedByteBuffer mapReadOnly(final Path file, final long minLength)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size < minLength)
            {
                throw new TransportException(file + " holds " + size + " bytes, expected at least " + minLength);
            }
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            long sum = 0;
            for (int i = 0; i < buffer.capacity(); i += PAGE)
            {
                sum += buffer.getByte(i);
            }
            touched = sum;
            return mapped;
        }
        catch (final IOException ex)
        {
            throw new TransportException("cannot open " + file + ": " + ex +
                " (is the publisher running with the same shm directory and instance, and is this user in its group?)",
                ex);
        }
    }

    /** Sets owner/group read-write (whatever the umask did) and the group when one is configured. */
    static void restrict(final Path file, final String group) throws IOException
    {
        Files.setPosixFilePermissions(file, OWNER_GROUP_RW);
        if (null != group && !group.isEmpty())
        {
            final GroupPrincipal principal =
                file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(group);
            Files.getFileAttributeView(file, PosixFileAttributeView.class).setGroup(principal);
        }
    }

    static void prefault(final MappedByteBuffer mapped)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
        final int capacity = buffer.capacity();
        for (int i = 0; i < capacity; i += PAGE)
        {
            buffer.putByte(i, buffer.getByte(i));
        }
    }

    static void unmap(final MappedByteBuffer mapped)
    {
        if (null != mapped)
        {
            IoUtil.unmap(mapped);
        }
    }

    /** Removes a file, ignoring one that is already gone. */
    static void delete(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignore)
        {
            // Best effort at clean-up: a file we cannot remove is left for the operator, not a failure.
        }
    }
}
