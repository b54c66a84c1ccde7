package io.mdgate.runtime;

/**
 * A packet's record in the ring from the ingress agents to the session agent. The ring's message type id is the
 * feed line plus one (Agrona reserves type ids below 1); the record is:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |            receive timestamp, ns since the epoch (64 bits)    |  0
 *  +---------------------------------------------------------------+
 *  |            UDP payload: the MoldUDP64 packet as received ...  |  8
 *  +---------------------------------------------------------------+
 * </pre>
 */
final class PacketRingDescriptor
{
    static final int RECEIVE_TIMESTAMP_OFFSET = 0;
    static final int PAYLOAD_OFFSET = 8;

    private PacketRingDescriptor()
    {
    }

    static int typeId(final int line)
    {
        return line + 1;
    }

    static int line(final int typeId)
    {
        return typeId - 1;
    }
}
