package io.mdgate.egress.transport;

/**
 * A peer's registered region, opened through a {@link ControlChannel} with its {@link RemoteKey}: the target of
 * one-sided writes (verbs: {@code IBV_WR_RDMA_WRITE} on the connection's RC queue pair, with the remote address
 * and rkey). The peer's CPU takes no part in a write.
 * <p>
 * Ordering: writes (and sends on the same control channel) posted through one connection are placed in the peer's
 * memory in posting order; the bytes <em>within</em> one write may land in any order and a reader may see a write
 * half done. Protocols on top therefore stamp and check what they write (see the protocol descriptors).
 * <p>
 * Threading: one posting thread. The source bytes of {@link #write} must stay unchanged until the write completes:
 * for the {@code shm} transport on return, for verbs when the work request's completion is polled.
 */
public interface RemoteRegion extends AutoCloseable
{
    /** @return bytes that may be written, from offset 0. */
    int length();

    /**
     * Posts a one-sided write of {@code length} bytes from a local registered region into the peer's region.
     *
     * @return {@link TransportResult#OK}, {@link TransportResult#BACK_PRESSURED}, {@link TransportResult#NOT_CONNECTED}
     *         or {@link TransportResult#OUT_OF_BOUNDS}.
     */
    int write(int remoteOffset, MemoryRegion source, int sourceOffset, int length);

    /**
     * Posts a one-sided write of one 8-byte aligned little-endian value (verbs: an inline write, no source region).
     * Lands atomically: a reader sees the old or the new value, never a mix.
     *
     * @return as {@link #write(int, MemoryRegion, int, int)}.
     */
    int writeLong(int remoteOffset, long value);

    /**
     * @return whether a write of {@code length} bytes from {@code sourceOffset} of a source of {@code sourceLength}
     *         bytes to {@code remoteOffset} of a region of {@code remoteLength} bytes stays inside both: what every
     *         implementation checks before posting, since a write the device refuses breaks the connection.
     */
    static boolean writeFits(final int remoteOffset, final int length, final int remoteLength, final int sourceOffset,
        final int sourceLength)
    {
        return remoteOffset >= 0 && length >= 0 && remoteOffset <= remoteLength - length && sourceOffset >= 0 &&
            sourceOffset <= sourceLength - length;
    }

    /** @return whether an 8-byte aligned value at {@code remoteOffset} fits a region of {@code remoteLength}. */
    static boolean longFits(final int remoteOffset, final int remoteLength)
    {
        return remoteOffset >= 0 && (remoteOffset & 7) == 0 && remoteOffset <= remoteLength - 8;
    }

    /** Stops writing into the peer's region and releases what was opened. Idempotent. */
    @Override
    void close();
}
