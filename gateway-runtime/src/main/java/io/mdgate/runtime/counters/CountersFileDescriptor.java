package io.mdgate.runtime.counters;

import org.agrona.concurrent.status.CountersReader;

/**
 * Layout of the counters file. All integers little-endian (the host's order); every section starts on a 128-byte
 * boundary.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     magic 'MDGC' (written last)               |  0
 *  +---------------------------------------------------------------+
 *  |                     version                                   |  4
 *  +---------------------------------------------------------------+
 *  |                     metadata length                           |  8
 *  +---------------------------------------------------------------+
 *  |                     values length                             | 12
 *  +---------------------------------------------------------------+
 *  |                     error log length                          | 16
 *  +---------------------------------------------------------------+
 *  |                     reserved                                  | 20
 *  +---------------------------------------------------------------+
 *  |                     pid of the gateway (64 bits)              | 24
 *  +---------------------------------------------------------------+
 *  |                     start time, ms since the epoch (64 bits)  | 32
 *  +---------------------------------------------------------------+
 *  |                     heartbeat, ms since the epoch (64 bits)   | 40
 *  +---------------------------------------------------------------+
 *  |                     stop time, ms since the epoch, 0 = runs   | 48
 *  +---------------------------------------------------------------+
 *  |                     gateway name (64 bytes, ASCII, NUL-padded)| 64
 *  +---------------------------------------------------------------+
 *  |  metadata: Agrona CountersManager metadata records            | 128
 *  +---------------------------------------------------------------+
 *  |  values: one 128-byte counter record per counter              |
 *  +---------------------------------------------------------------+
 *  |  error log: Agrona DistinctErrorLog records                   |
 *  +---------------------------------------------------------------+
 * </pre>
 * The writer fills the header, then publishes the magic with a release store: a reader that sees the magic sees the
 * lengths. The heartbeat is refreshed every second by the housekeeping agent; the stop time is written on a clean
 * shutdown, so a reader tells a running gateway (fresh heartbeat), a stopped one (stop time) and a dead one (stale
 * heartbeat, no stop time) apart.
 */
public final class CountersFileDescriptor
{
    /** 'MDGC' read as a little-endian int. */
    public static final int MAGIC = 'M' | 'D' << 8 | 'G' << 16 | 'C' << 24;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int METADATA_LENGTH_OFFSET = 8;
    public static final int VALUES_LENGTH_OFFSET = 12;
    public static final int ERROR_LOG_LENGTH_OFFSET = 16;
    public static final int PID_OFFSET = 24;
    public static final int START_TIME_OFFSET = 32;
    public static final int HEARTBEAT_OFFSET = 40;
    public static final int STOP_TIME_OFFSET = 48;
    public static final int NAME_OFFSET = 64;
    public static final int NAME_LENGTH = 64;
    public static final int HEADER_LENGTH = 128;

    /** Alignment of the sections. */
    public static final int SECTION_ALIGNMENT = 128;

    /** Counters a file holds by default. */
    public static final int DEFAULT_MAX_COUNTERS = 1024;
    /** Bytes of the distinct-error log by default. */
    public static final int DEFAULT_ERROR_LOG_LENGTH = 1 << 20;

    private CountersFileDescriptor()
    {
    }

    /** @return bytes of the metadata section for {@code maxCounters} counters. */
    public static int metadataLength(final int maxCounters)
    {
        return maxCounters * CountersReader.METADATA_LENGTH;
    }

    /** @return bytes of the values section for {@code maxCounters} counters. */
    public static int valuesLength(final int maxCounters)
    {
        return maxCounters * CountersReader.COUNTER_LENGTH;
    }

    /** @return the file length for the given sections. */
    public static long fileLength(final int metadataLength, final int valuesLength, final int errorLogLength)
    {
        return (long)HEADER_LENGTH + metadataLength + valuesLength + errorLogLength;
    }
}
