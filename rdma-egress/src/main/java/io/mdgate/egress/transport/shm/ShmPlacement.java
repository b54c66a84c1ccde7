package io.mdgate.egress.transport.shm;

import io.mdgate.egress.EventLog;
import io.mdgate.egress.transport.TransportException;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where the {@code shm} transport's files are: created on a hugetlbfs mount of 2 MiB pages when one was chosen
 * (lengths rounded up to 2 MiB), in the transport's directory otherwise, or when creating on hugepages fails (no
 * pages left), counted and warned. The control socket always stays in the directory, and so does the pointer file
 * {@code <instance>-hugepages} the publisher writes there naming its hugepage directory, so that any peer (the Java
 * SDK or the C library, with hugepages on or off) finds a file by its name: its own hugepage directory, the
 * publisher's, then the transport's directory. Set-up code; one thread.
 */
final class ShmPlacement
{
    static final long HUGE_PAGE = 2L << 20;
    private static final String FIX = "reserve and mount them with deploy/tune-host.sh --hugepages N --apply, or " +
        "set hugepages = \"off\"";

    private final ShmNames names;
    private final Path huge;
    private final AtomicCounter fallbackCounter;
    private final EventLog log;
    private long fallbacks;
    private boolean warned;

    private ShmPlacement(final ShmNames names, final Path huge, final AtomicCounter fallbackCounter, final EventLog log)
    {
        this.names = names;
        this.huge = huge;
        this.fallbackCounter = fallbackCounter;
        this.log = log;
    }

    /**
     * @throws IllegalArgumentException when hugepages are required and there are none, in one line saying why.
     */
    static ShmPlacement of(final ShmNames names, final ShmContext context)
    {
        final ShmPlacement placement;
        if (context.hugepages() == HugepageMode.OFF)
        {
            placement = new ShmPlacement(names, null, context.hugepageFallbackCounter(), context.eventLog());
        }
        else
        {
            final HugetlbfsMounts.Choice choice = new HugetlbfsMounts(context.mountsFile(), context.freePagesFile())
                .find(context.hugepageDirectory());
            if (null == choice.directory() && context.hugepages() == HugepageMode.REQUIRED)
            {
                throw new IllegalArgumentException("hugepages = \"required\" but " + choice.problem() + ": " + FIX);
            }
            placement = new ShmPlacement(names, choice.directory(), context.hugepageFallbackCounter(),
                context.eventLog());
            if (null == choice.directory())
            {
                placement.fallBack(choice.problem());
            }
        }
        return placement;
    }

    ShmNames names()
    {
        return names;
    }

    /** @return the hugetlbfs directory new files go to, or null for regular pages. */
    Path hugeDirectory()
    {
        return huge;
    }

    /** @return times files went on regular pages although hugepages were asked for. */
    long fallbacks()
    {
        return fallbacks;
    }

    /** A file created and mapped, and where it is (for removing it). */
    record Created(Path file, MappedByteBuffer mapped)
    {
    }

    /**
     * Creates and maps {@code <instance>-<suffix>} of at least {@code length} bytes, on hugepages when it can.
     *
     * @throws TransportException when it cannot be created anywhere.
     */
    Created create(final Path file, final long length, final String group)
    {
        if (null != huge)
        {
            final Path hugeFile = huge.resolve(file.getFileName());
            try
            {
                return new Created(hugeFile, ShmFiles.createAndMap(hugeFile, roundUp(length), group));
            }
            catch (final TransportException ex)
            {
                if (ex.getCause() instanceof FileAlreadyExistsException)
                {
                    throw ex;
                }
                fallBack("creating " + hugeFile + " failed (" + ex.getMessage() + ")");
            }
        }
        return new Created(file, ShmFiles.createAndMap(file, length, group));
    }

    /** Removes a file of this name wherever it may be, so no peer finds a stale one. */
    void deleteEverywhere(final Path file)
    {
        ShmFiles.delete(file);
        if (null != huge)
        {
            ShmFiles.delete(huge.resolve(file.getFileName()));
        }
        final Path announced = announced();
        if (null != announced)
        {
            ShmFiles.delete(announced.resolve(file.getFileName()));
        }
    }

    /** @return where a peer's file of this name is: own hugepage directory, the publisher's, else {@code file}. */
    Path find(final Path file)
    {
        if (null != huge && Files.exists(huge.resolve(file.getFileName())))
        {
            return huge.resolve(file.getFileName());
        }
        final Path announced = announced();
        if (null != announced && Files.exists(announced.resolve(file.getFileName())))
        {
            return announced.resolve(file.getFileName());
        }
        return file;
    }

    /** Called by the publisher's side: names its hugepage directory for peers, or removes a stale pointer. */
    void announce(final String group)
    {
        final Path pointer = names.hugepagePointer();
        ShmFiles.delete(pointer);
        if (null != huge)
        {
            try
            {
                Files.createFile(pointer, PosixFilePermissions.asFileAttribute(ShmFiles.OWNER_GROUP_RW));
                ShmFiles.restrict(pointer, group);
                Files.writeString(pointer, huge.toAbsolutePath() + "\n", StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new TransportException("cannot write " + pointer + ": " + ex.getMessage(), ex);
            }
        }
    }

    void withdraw()
    {
        if (null != huge)
        {
            ShmFiles.delete(names.hugepagePointer());
        }
    }

    private Path announced()
    {
        try
        {
            final String text = Files.readString(names.hugepagePointer(), StandardCharsets.UTF_8).trim();
            return text.isEmpty() ? null : Path.of(text);
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    private void fallBack(final String why)
    {
        fallbacks++;
        if (null != fallbackCounter)
        {
            fallbackCounter.increment();
        }
        if (!warned)
        {
            warned = true;
            log.log("shm: hugepages asked for but " + why + "; files go on 4 KiB pages in " + names.directory() +
                " (counted in egress.hugepage_fallbacks): " + FIX);
        }
    }

    static long roundUp(final long length)
    {
        return (length + HUGE_PAGE - 1) & -HUGE_PAGE;
    }
}
