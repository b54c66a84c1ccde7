package io.mdgate.egress.protocol;

/**
 * Layout of a datagram of the multicast tick stream: a 64-byte header, then up to
 * {@link #maxTicks(int)} consecutive 64-byte ticks (gateway sequences {@code firstTickSequence},
 * {@code firstTickSequence + 1}, ...). Every tick the gateway publishes is in exactly one data datagram. A heartbeat
 * carries no ticks and says which tick sequence comes next, so a receiver also detects a lost last datagram.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |  version (1)  | type          |  tick length (64)             |  0   type: 1 data, 2 heartbeat
 *  +---------------+---------------+-------------------------------+
 *  |                          stream id                            |  4
 *  +---------------------------------------------------------------+
 *  |                     datagram sequence                         |  8   0, 1, 2, ... per publisher run
 *  +---------------------------------------------------------------+
 *  |                     first tick sequence                       | 16   heartbeat: the next one
 *  +---------------------------------------------------------------+
 *  |                     send timestamp (ns since epoch)           | 24
 *  +---------------------------------------------------------------+
 *  |                     publisher epoch                           | 32   changes when the publisher restarts
 *  +-------------------------------+-------------------------------+
 *  |  tick count                   |  schema id (7001)             | 40
 *  +-------------------------------+-------------------------------+
 *  |  schema version               |  (reserved)                   | 44
 *  +-------------------------------+-------------------------------+
 *  |                     (reserved, zero) to 64                    | 48
 *  +---------------------------------------------------------------+
 *  |                     tick 0 (64 bytes, SBE block)              | 64
 *  |                     tick 1 ...                                |
 * </pre>
 * Little-endian throughout.
 */
public final class StreamDatagramDescriptor
{
    public static final byte VERSION = 1;
    public static final byte TYPE_DATA = 1;
    public static final byte TYPE_HEARTBEAT = 2;

    public static final int VERSION_OFFSET = 0;
    public static final int TYPE_OFFSET = 1;
    public static final int TICK_LENGTH_OFFSET = 2;
    public static final int STREAM_ID_OFFSET = 4;
    public static final int DATAGRAM_SEQUENCE_OFFSET = 8;
    public static final int FIRST_TICK_SEQUENCE_OFFSET = 16;
    public static final int SEND_TIMESTAMP_OFFSET = 24;
    public static final int PUBLISHER_EPOCH_OFFSET = 32;
    public static final int TICK_COUNT_OFFSET = 40;
    public static final int SCHEMA_ID_OFFSET = 42;
    public static final int SCHEMA_VERSION_OFFSET = 44;
    public static final int HEADER_LENGTH = 64;

    private StreamDatagramDescriptor()
    {
    }

    /** @return how many ticks fit a datagram of at most {@code mtu} bytes. */
    public static int maxTicks(final int mtu)
    {
        return (mtu - HEADER_LENGTH) / TickLayout.LENGTH;
    }
}
