package io.mdgate.egress.transport.shm;

/**
 * Layout of a registered region's file under the {@code shm} transport's directory. The file's name carries the
 * region's address ({@code <instance>-region-<16 hex digits>}); its first page holds the key a peer must present,
 * and the region's bytes start at the second page, so they are page- and cache-line aligned.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                       magic "MDGREGN1"                        |  0
 *  +---------------------------------------------------------------+
 *  |                       address (identity)                      |  8
 *  +-------------------------------+-------------------------------+
 *  |            key                |          version (1)          | 16
 *  +-------------------------------+-------------------------------+
 *  |                       length (usable bytes)                   | 24
 *  +---------------------------------------------------------------+
 *  |                       owner pid                               | 32
 *  +---------------------------------------------------------------+
 *  |                       ... to the end of the page              |
 *  +---------------------------------------------------------------+
 *  |                       region bytes (length)                   | 4096
 *  +---------------------------------------------------------------+
 * </pre>
 * All fields little-endian, written once by the owner before the region is announced.
 */
public final class ShmRegionDescriptor
{
    public static final long MAGIC = 0x314E47455247444DL; // "MDGREGN1" little-endian
    public static final int VERSION = 1;
    public static final int MAGIC_OFFSET = 0;
    public static final int ADDRESS_OFFSET = 8;
    public static final int KEY_OFFSET = 16;
    public static final int VERSION_OFFSET = 20;
    public static final int LENGTH_OFFSET = 24;
    public static final int OWNER_PID_OFFSET = 32;
    public static final int HEADER_LENGTH = 4096;

    private ShmRegionDescriptor()
    {
    }
}
