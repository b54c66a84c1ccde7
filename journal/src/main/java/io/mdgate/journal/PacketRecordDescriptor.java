package io.mdgate.journal;

/**
 * Layout of one raw packet, both as a message in the journal's ring and as a record in the packet queue
 * (little-endian):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 receive timestamp (ns since epoch)             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 line (FeedLines: A 0, B 1, RECOVERY 2)         |
 *  +---------------------------------------------------------------+
 *  |                 payload length in bytes                        |
 *  +---------------------------------------------------------------+
 *  |                 payload: the UDP payload (a MoldUDP64 packet)  ...
 *  +---------------------------------------------------------------+
 * </pre>
 * Stateless; safe from any thread.
 */
public final class PacketRecordDescriptor
{
    public static final int RECEIVE_TIMESTAMP_OFFSET = 0;
    public static final int LINE_OFFSET = 8;
    public static final int LENGTH_OFFSET = 12;
    public static final int HEADER_LENGTH = 16;
    /** Largest UDP payload over IPv4. */
    public static final int MAX_PAYLOAD_LENGTH = 65_507;
    public static final int MAX_RECORD_LENGTH = HEADER_LENGTH + MAX_PAYLOAD_LENGTH;

    private PacketRecordDescriptor()
    {
    }
}
