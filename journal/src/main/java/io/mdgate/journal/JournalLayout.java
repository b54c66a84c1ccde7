package io.mdgate.journal;

import java.nio.file.Path;

/**
 * Where things are in a journal directory (docs/JOURNAL.md draws it):
 * <pre>
 *   DIR/
 *     mdgate-journal.properties   format, tick schema and roll cycle, written once when the journal is created
 *     ticks/                      Chronicle Queue of 64-byte ticks: one cycle file per period, metadata.cq4t
 *     packets/                    Chronicle Queue of raw MoldUDP64 packets ({@link PacketRecordDescriptor})
 * </pre>
 * Stateless; safe from any thread.
 */
public final class JournalLayout
{
    /** The manifest file naming the format; its presence marks a directory as an mdgate journal. */
    public static final String MANIFEST = "mdgate-journal.properties";
    /** Sub-directory holding the tick queue. */
    public static final String TICKS = "ticks";
    /** Sub-directory holding the raw packet queue. */
    public static final String PACKETS = "packets";
    /** Suffix of a cycle file. */
    public static final String CYCLE_FILE_SUFFIX = ".cq4";

    private JournalLayout()
    {
    }

    public static Path manifest(final Path journal)
    {
        return journal.resolve(MANIFEST);
    }

    public static Path ticks(final Path journal)
    {
        return journal.resolve(TICKS);
    }

    public static Path packets(final Path journal)
    {
        return journal.resolve(PACKETS);
    }
}
