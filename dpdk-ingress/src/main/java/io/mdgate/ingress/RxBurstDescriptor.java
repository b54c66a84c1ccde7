package io.mdgate.ingress;

/**
 * Layout of the hand-over region one {@link DpdkIngress} owns and the native receive path fills on each burst
 * ({@code mdg_rx} in {@code src/main/c/mdgate_rx.c}): a descriptor per packet handed over, then the UDP payloads
 * copied back to back, each starting on an 8-byte boundary. Offsets in a descriptor are from the region's start;
 * values are in the platform's byte order.
 * <pre>
 *   0                                  512 (PAYLOAD_AREA_OFFSET)                               capacity
 *   +----------------------------------+-----------+---+-----------+---+----------- ... ------+
 *   | MAX_PACKETS descriptors x 16     | payload 0 |pad| payload 1 |pad| ...                  |
 *   +----------------------------------+-----------+---+-----------+---+----------- ... ------+
 *
 *   descriptor i, at i * LENGTH:
 *   0                               8                 12          14          16
 *   +-------------------------------+-----------------+-----------+-----------+
 *   | receive timestamp, ns (i64)   | payload offset  | length    | line      |
 *   |                               | (i32)           | (u16)     | (u16)     |
 *   +-------------------------------+-----------------+-----------+-----------+
 * </pre>
 * Copying the payloads (instead of handing Java views of mbufs) lets every mbuf go back to its pool inside the
 * same native call, so one JNI crossing per burst does all the work and Java never has to free anything.
 * Constants only; thread-safe.
 */
public final class RxBurstDescriptor
{
    /** Most packets handed over per burst: {@code MDG_BURST}. */
    public static final int MAX_PACKETS = 32;
    /** Bytes per descriptor: {@code MDG_DESCRIPTOR_LENGTH}. */
    public static final int LENGTH = 16;
    public static final int TIMESTAMP_OFFSET = 0;
    public static final int PAYLOAD_OFFSET_OFFSET = 8;
    public static final int PAYLOAD_LENGTH_OFFSET = 12;
    public static final int LINE_OFFSET = 14;
    /** Where the payloads start: {@code MDG_PAYLOAD_AREA_OFFSET}. */
    public static final int PAYLOAD_AREA_OFFSET = MAX_PACKETS * LENGTH;
    /** Payloads start on multiples of this. */
    public static final int PAYLOAD_ALIGNMENT = 8;

    private RxBurstDescriptor()
    {
    }

    /** @param index of the packet in the burst. @return where its descriptor starts. */
    public static int descriptorOffset(final int index)
    {
        return index * LENGTH;
    }
}
