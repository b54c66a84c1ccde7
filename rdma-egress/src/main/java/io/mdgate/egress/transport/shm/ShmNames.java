package io.mdgate.egress.transport.shm;

import java.nio.file.Path;

/**
 * Where an {@code shm} instance keeps its files: {@code <directory>/<instance>-control.sock} (control socket),
 * {@code <instance>-stream-<id>} (broadcast logs) and {@code <instance>-region-<address as 16 hex digits>}
 * (registered regions), the last two on a hugetlbfs mount when the publisher put them there (named in
 * {@code <instance>-hugepages}, see {@link ShmPlacement}). Immutable.
 */
final class ShmNames
{
    private final Path directory;
    private final String instance;

    ShmNames(final Path directory, final String instance)
    {
        this.directory = directory;
        this.instance = instance;
    }

    Path directory()
    {
        return directory;
    }

    String instance()
    {
        return instance;
    }

    Path controlSocket()
    {
        return directory.resolve(instance + "-control.sock");
    }

    Path streamFile(final int streamId)
    {
        return directory.resolve(instance + "-stream-" + streamId);
    }

    Path sharedLogFile(final int streamId)
    {
        return directory.resolve(instance + "-ticks-" + streamId);
    }

    Path regionFile(final long address)
    {
        return directory.resolve(String.format("%s-region-%016x", instance, address));
    }

    /** The file the publisher writes when its files are on hugepages, naming the hugetlbfs directory they are in. */
    Path hugepagePointer()
    {
        return directory.resolve(instance + "-hugepages");
    }

    /** @return the prefix every file of this instance starts with (for clean-up). */
    String prefix()
    {
        return instance + "-";
    }
}
