package io.mdgate.egress.transport.verbs;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The memory under a registered region: pre-faulted anonymous 2 MiB pages when asked for and the host has them
 * free, else page-aligned direct memory. Registered memory is pinned, so either way its pages stay where the device
 * reads and writes them; hugepages need 512 times fewer translation entries in the device's and the CPU's tables
 * for a large ring. Set-up code, one thread.
 */
final class RegionMemory
{
    static final int HUGEPAGE = 2 << 20;
    private static final int PAGE = 4096;

    private final ByteBuffer direct; // keeps regular memory alive as long as the region
    private final UnsafeBuffer buffer;
    private final long mappedLength;
    private final boolean huge;
    private boolean released;

    private RegionMemory(final ByteBuffer direct, final UnsafeBuffer buffer, final long mappedLength,
        final boolean huge)
    {
        this.direct = direct;
        this.buffer = buffer;
        this.mappedLength = mappedLength;
        this.huge = huge;
    }

    /** @return {@code length} usable bytes of regular pages, page-aligned. */
    static RegionMemory regular(final int length)
    {
        final int aligned = align(length, PAGE);
        final ByteBuffer memory = BufferUtil.allocateDirectAligned(aligned, PAGE);
        return new RegionMemory(memory, new UnsafeBuffer(memory, 0, length), aligned, false);
    }

    /**
     * @return {@code length} usable bytes on 2 MiB pages, or null when the host has not enough of them free (the
     *         reason is then in {@link VerbsNative#lastError()}).
     */
    static RegionMemory huge(final int length)
    {
        final long aligned = align(length, HUGEPAGE);
        final long address = VerbsNative.mapHuge0(aligned);
        if (address < 0)
        {
            return null;
        }
        return new RegionMemory(null, new UnsafeBuffer(address, length), aligned, true);
    }

    private static int align(final int length, final int to)
    {
        return (int)(((long)length + to - 1) / to * to);
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    long address()
    {
        return buffer.addressOffset();
    }

    /** @return the bytes registered: the usable length rounded up to whole pages. */
    long mappedLength()
    {
        return mappedLength;
    }

    boolean isHuge()
    {
        return huge;
    }

    /** Unmaps hugepage memory (after its registration is gone); regular memory goes with its buffer. Idempotent. */
    void release()
    {
        if (!released)
        {
            released = true;
            if (huge)
            {
                VerbsNative.unmap0(buffer.addressOffset(), mappedLength);
            }
        }
    }
}
