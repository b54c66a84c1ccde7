package io.mdgate.egress.transport;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Memory registered with a transport (a verbs memory region): the only memory one-sided writes and sends may take
 * their bytes from, and, with {@link RegionAccess#REMOTE_WRITE}, memory a peer may write into. Registered once at
 * start-up (pinned, pre-faulted); never resized.
 * <p>
 * Threading: the buffer may be read and written by any thread under the caller's own ordering rules; peers'
 * one-sided writes land in it asynchronously. {@link #close()} on the owning thread after all use.
 */
public interface MemoryRegion extends AutoCloseable
{
    /** @return the region's bytes, {@link #length()} long, starting at index 0. */
    AtomicBuffer buffer();

    /** @return usable bytes. */
    int length();

    RegionAccess access();

    /**
     * @return what a peer needs to write into this region; null for a {@link RegionAccess#LOCAL} region.
     */
    RemoteKey remoteKey();

    /** Deregisters the region; peers can no longer open it. Idempotent. */
    @Override
    void close();
}
