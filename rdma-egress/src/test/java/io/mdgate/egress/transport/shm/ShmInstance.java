package io.mdgate.egress.transport.shm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A per-test shm instance name, unique to this JVM and test, and removal of every file with its prefix, so tests
 * running side by side never collide and leave nothing behind even when they fail.
 */
public final class ShmInstance
{
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private ShmInstance()
    {
    }

    /** @return e.g. {@code mdgt-12345-7}. */
    public static String unique()
    {
        return "mdgt-" + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet();
    }

    public static ShmContext context(final String instance)
    {
        return new ShmContext().instance(instance);
    }

    /** Removes every file of the instance from the shm directory. */
    public static void removeFiles(final ShmContext context)
    {
        try (DirectoryStream<Path> files =
            Files.newDirectoryStream(context.directory(), context.filePrefix() + "*"))
        {
            for (final Path file : files)
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot clean up " + context.filePrefix() + "* files", ex);
        }
    }

    /** @return how many files of the instance exist. */
    public static int countFiles(final ShmContext context)
    {
        int count = 0;
        try (DirectoryStream<Path> files =
            Files.newDirectoryStream(context.directory(), context.filePrefix() + "*"))
        {
            for (final Path ignored : files)
            {
                count++;
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        return count;
    }
}
