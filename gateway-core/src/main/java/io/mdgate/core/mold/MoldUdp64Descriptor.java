package io.mdgate.core.mold;

/**
 * Offsets and sizes of the MoldUDP64 wire format (MoldUDP64 Protocol Specification 1.00). All integers are
 * unsigned big-endian.
 * <p>
 * Downstream packet (multicast, and the unicast answer to a re-request):
 * <pre>
 *   0                           10                            18             20
 *   +---------------------------+-----------------------------+--------------+
 *   |  session (10, ASCII)      | sequence number (u64): the  | message count|
 *   |                           | sequence of the first block | (u16)        |
 *   +---------------------------+-----------------------------+--------------+
 *   | block length (u16) | message (block length bytes)  |  ... repeated count times
 *   +--------------------+-------------------------------+
 *
 *   message count 0      : heartbeat, sequence number = next expected sequence, no blocks
 *   message count 0xFFFF : end of session, sequence number = next expected sequence, no blocks
 *   otherwise            : block i carries the message with sequence (sequence number + i)
 * </pre>
 * Re-request packet (client to the re-request server, unicast, exactly 20 bytes):
 * <pre>
 *   0                           10                            18             20
 *   +---------------------------+-----------------------------+--------------+
 *   |  session (10, ASCII)      | first sequence wanted (u64) | count (u16)  |
 *   +---------------------------+-----------------------------+--------------+
 * </pre>
 * The datagram ends exactly where the last declared block ends; nothing may follow it.
 */
public final class MoldUdp64Descriptor
{
    public static final int SESSION_OFFSET = 0;
    public static final int SESSION_LENGTH = 10;
    public static final int SEQUENCE_NUMBER_OFFSET = 10;
    public static final int MESSAGE_COUNT_OFFSET = 18;
    public static final int HEADER_LENGTH = 20;

    /** Size of the length prefix in front of every message block. */
    public static final int BLOCK_LENGTH_FIELD_LENGTH = 2;
    /** The largest message a block can carry: its length field is a u16. */
    public static final int MAX_MESSAGE_LENGTH = 0xFFFF;

    /** Message count of a heartbeat. */
    public static final int HEARTBEAT_COUNT = 0;
    /** Message count of an end-of-session packet. */
    public static final int END_OF_SESSION_COUNT = 0xFFFF;
    /** The most blocks a packet can declare: one less than the end-of-session marker. */
    public static final int MAX_MESSAGE_COUNT = END_OF_SESSION_COUNT - 1;

    public static final int REQUEST_SEQUENCE_NUMBER_OFFSET = SEQUENCE_NUMBER_OFFSET;
    public static final int REQUEST_COUNT_OFFSET = MESSAGE_COUNT_OFFSET;
    public static final int REQUEST_LENGTH = 20;

    private MoldUdp64Descriptor()
    {
    }
}
