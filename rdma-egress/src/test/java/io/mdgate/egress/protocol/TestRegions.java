package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteKey;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Private, page-aligned memory standing in for a registered region in protocol tests.
 */
final class TestRegions
{
    private TestRegions()
    {
    }

    static MemoryRegion local(final int length)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned((length + 4095) & ~4095, 4096),
            0, length);
        return new MemoryRegion()
        {
            @Override
            public AtomicBuffer buffer()
            {
                return buffer;
            }

            @Override
            public int length()
            {
                return length;
            }

            @Override
            public RegionAccess access()
            {
                return RegionAccess.LOCAL;
            }

            @Override
            public RemoteKey remoteKey()
            {
                return null;
            }

            @Override
            public void close()
            {
            }
        };
    }
}
