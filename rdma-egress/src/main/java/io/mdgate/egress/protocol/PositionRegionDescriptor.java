package io.mdgate.egress.protocol;

/**
 * Layout of the small region the gateway registers per consumer session for the consumer to report back with
 * one-sided writes, so the gateway learns how far the consumer has read without a message.
 * <pre>
 *  0   +---------------------------------------------------------------+
 *      |  read position: the next ring position the consumer will read |
 *  8   +---------------------------------------------------------------+
 *      |  delivered sequence: last gateway sequence it delivered       |
 *  16  +---------------------------------------------------------------+
 *      |  (reserved) to 64                                             |
 *  64  +---------------------------------------------------------------+
 * </pre>
 */
public final class PositionRegionDescriptor
{
    public static final int READ_POSITION_OFFSET = 0;
    public static final int DELIVERED_SEQUENCE_OFFSET = 8;
    public static final int LENGTH = 64;

    private PositionRegionDescriptor()
    {
    }
}
