package io.mdgate.egress.protocol;

/**
 * Control messages between a consumer and the publisher, carried whole by the control channel. Every message starts
 * with the same 8-byte header; offsets below are from the start of the message, little-endian.
 * <pre>
 *  header    0 type u16 | 2 protocol version u16 | 4 (reserved)
 *
 *  HELLO (1)        consumer -> publisher, first message
 *            8 ring slots i32 | 12 table slots i32 | 16 region address i64 | 24 region key i32
 *           28 depth levels i32 (levels per side of each depth table slot of the region, 0: no depth table)
 *           32 region length i64 | 40 name length u8, name (ASCII, 32) | 73 token length u8, token (64)
 *  WELCOME (2)      publisher -> consumer, authenticated
 *            8 publisher epoch i64 | 16 position address i64 | 24 position key i32 | 28 stream id i32
 *           32 position length i64 | 40 next gateway sequence i64 | 48 heartbeat interval ns i64
 *           56 heartbeat timeout ns i64 | 64 mtu i32 | 68 shared log slots i32 (0: none)
 *           72 depth levels i32: the depth D the publisher keeps (0: none), the depth table holds min(its own, D)
 *           76 (reserved): 80 bytes; a WELCOME of 72 bytes (before depth) means D = 0
 *  REJECT (3)       publisher -> consumer, then the publisher closes
 *            8 reason i32 | 12 text length u16 | 14 text (ASCII)
 *  SUBSCRIBE (4), UNSUBSCRIBE (5)  consumer -> publisher
 *  SUBSCRIPTION (6) publisher -> consumer, the answer (also later, when a symbol becomes known)
 *            8 instrument id i32 (-1: by symbol, -2: all) | 12 table slot i32 (-1: none) | 16 symbol i64
 *           24 status i32 | 28 flags i32
 *           SUBSCRIBE all with flag SHARED_LOG: deliver through the shared tick log instead of the ring; its
 *           SUBSCRIPTION answer keeps the flag when granted, carries at 16 the log position to read from (the
 *           ring got every tick before it) and adds 32 the gateway sequence of the tick there, i64 (40 bytes)
 *           40 view u8 (SubscriptionView: 0 ALL, 1 TOP, 2 DEPTH, 3 ORDERS) | 41 (reserved, 7): 48 bytes. A message
 *           of 32 or 40 bytes (before views) means ALL. A view no code names is refused: SUBSCRIPTION status
 *           INVALID, counted. The answer repeats the view granted; one without it came from a publisher that
 *           does not filter by view.
 *  HEARTBEAT (7)    both ways
 *            8 timestamp ns i64 | 16 sequence i64 (publisher: last published; consumer: last delivered)
 *  RECOVER (8)      consumer -> publisher: ticks from..to over the control channel
 *  RECOVERY_END (10) publisher -> consumer: from, to, count = ticks the source no longer had, status,
 *                   flags VIA_RING when it ends the catch-up a RESYNC started
 *  RESYNC (11)      consumer -> publisher: replay from..(live) through the ring, then continue live
 *  RESYNCED (12)    publisher -> consumer: position = ring position the replay starts at, from
 *  LAPPED (13)      publisher -> consumer: position = ring position where writing stopped
 *            8 from i64 | 16 to i64 | 24 position i64 | 32 count i64 | 40 status i32 | 44 flags i32
 *  RECOVERY_DATA (9) publisher -> consumer
 *            8 tick count i32 | 64 ticks, 64 bytes each
 *  BYE (14)         either way, before closing
 *  SNAPSHOT (15)    consumer -> publisher: the current state of its subscribed instruments, as their views define it
 *            8 flags i32 (PER_INSTRUMENT, with DIRECTORY for the directory alone) | 12 instrument count i32 (0: every
 *                   subscribed instrument, or with DIRECTORY every known one; else at most 256)
 *           16 instrument ids, i32 each (instruments not subscribed are left out): 16 + 4 x count bytes
 *  SNAPSHOT_DATA (16) publisher -> consumer: snapshot ticks, laid out as RECOVERY_DATA; each carries the
 *                   gateway sequence S(i) of its instrument's part and the tick flag {@code snapshot}
 *  SNAPSHOT_END (17) publisher -> consumer, as RECOVERY_END: from = the sequence live delivery continues after,
 *                   to = the last part's S(i) (from <= S(i) <= to), count = ticks sent, status COMPLETE or REFUSED
 *                   (malformed, no PER_INSTRUMENT flag, or a part larger than the publisher's snapshot buffer),
 *                   flags PER_INSTRUMENT, ORDERS_OMITTED when a view took orders the publisher does not keep,
 *                   SESSION_CUT when a SESSION tick ended it early, DIRECTORY when it answers a directory request
 * </pre>
 */
public final class ControlMessageDescriptor
{
    public static final short PROTOCOL_VERSION = 1;

    public static final short HELLO = 1;
    public static final short WELCOME = 2;
    public static final short REJECT = 3;
    public static final short SUBSCRIBE = 4;
    public static final short UNSUBSCRIBE = 5;
    public static final short SUBSCRIPTION = 6;
    public static final short HEARTBEAT = 7;
    public static final short RECOVER = 8;
    public static final short RECOVERY_DATA = 9;
    public static final short RECOVERY_END = 10;
    public static final short RESYNC = 11;
    public static final short RESYNCED = 12;
    public static final short LAPPED = 13;
    public static final short BYE = 14;
    public static final short SNAPSHOT = 15;
    public static final short SNAPSHOT_DATA = 16;
    public static final short SNAPSHOT_END = 17;

    /** Most instruments one SNAPSHOT request lists. */
    public static final int MAX_SNAPSHOT_INSTRUMENTS = 256;
    /** SNAPSHOT_END flag: a view took order events but the publisher keeps no order books (orderSnapshots off). */
    public static final int ORDERS_OMITTED = 8;
    /**
     * SNAPSHOT flag, and SNAPSHOT_END flag in the answer: each instrument's part is at that instrument's own
     * sequence, carried by its ticks (between SNAPSHOT_END's from and to); the consumer delivers live ticks after
     * from, each instrument's only after its own part's sequence. The only kind of snapshot this publisher builds: a
     * request without the flag (an older consumer's, which expects one sequence for all) is refused.
     */
    public static final int PER_INSTRUMENT = 1;
    /**
     * SNAPSHOT_END flag: a SESSION tick (at a sequence after to) ended the snapshot before every instrument had its
     * part; the others have none, and their live ticks after from are delivered (the new session rebuilds them).
     */
    public static final int SESSION_CUT = 16;
    /**
     * SNAPSHOT flag (with PER_INSTRUMENT), and SNAPSHOT_END flag in the answer: the directory alone, the last
     * {@code INSTRUMENT} tick of every instrument the current session named (or of the listed ones), whatever the
     * consumer subscribed, each at the sequence it was taken at. Book state is not sent, so live delivery goes on
     * where it was: the directory only names symbols. An older publisher refuses the flag as malformed.
     */
    public static final int DIRECTORY = 32;

    public static final int TYPE_OFFSET = 0;
    public static final int VERSION_OFFSET = 2;
    public static final int HEADER_LENGTH = 8;

    /** REJECT reasons. */
    public static final int REJECT_AUTHENTICATION = 1;
    public static final int REJECT_VERSION = 2;
    public static final int REJECT_REGION = 3;
    public static final int REJECT_CAPACITY = 4;
    public static final int REJECT_INVALID = 5;

    /** SUBSCRIPTION statuses. */
    public static final int SUBSCRIBED = 0;
    public static final int PENDING = 1;
    public static final int UNSUBSCRIBED = 2;
    public static final int INVALID = 3;

    /** RECOVERY_END statuses. */
    public static final int RECOVERY_COMPLETE = 0;
    public static final int RECOVERY_PARTIAL = 1;
    public static final int RECOVERY_REFUSED = 2;

    /** RECOVER flag: send only the ticks of the consumer's subscriptions. */
    public static final int FILTERED = 1;
    /** RECOVERY_END flag: the recovery was a ring catch-up after RESYNC, not a RECOVER request. */
    public static final int VIA_RING = 2;

    /** SUBSCRIBE / SUBSCRIPTION flag: every instrument, through the shared tick log rather than the ring. */
    public static final int SHARED_LOG = 4;

    /** Instrument id of a subscription by symbol. */
    public static final int BY_SYMBOL = -1;
    /** Instrument id of a subscription to every instrument. */
    public static final int ALL_INSTRUMENTS = -2;

    private ControlMessageDescriptor()
    {
    }

    /** @return a reason's name, for messages. */
    public static String rejectReason(final int reason)
    {
        switch (reason)
        {
            case REJECT_AUTHENTICATION:
                return "authentication failed (unknown consumer or wrong token)";
            case REJECT_VERSION:
                return "unsupported protocol version";
            case REJECT_REGION:
                return "the consumer's region could not be opened or has the wrong size";
            case REJECT_CAPACITY:
                return "the publisher serves its maximum number of consumers";
            default:
                return "invalid request";
        }
    }
}
