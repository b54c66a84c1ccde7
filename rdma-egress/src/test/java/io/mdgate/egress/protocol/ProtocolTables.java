package io.mdgate.egress.protocol;

import static io.mdgate.egress.protocol.ControlMessageDescriptor.PROTOCOL_VERSION;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.agrona.concurrent.UnsafeBuffer;

import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.egress.transport.shm.BroadcastLogDescriptor;
import io.mdgate.egress.transport.shm.ShmRegionDescriptor;

/**
 * The generated parts of docs/PROTOCOL.md, each by its marker name: every byte table of a message or memory layout,
 * built from the offsets and lengths the Java code uses ({@link ProtocolLayout}), the code tables (message types,
 * reasons, statuses, flags, views) from their constants, and the ring slot check's constants and test vectors from
 * {@link SlotCheck}. Meanings are written here once; a code or offset the Java code adds without a row here is an
 * error. Test support.
 */
final class ProtocolTables
{
    private final Map<String, String> parts = new LinkedHashMap<>();
    private final Set<String> used = new LinkedHashSet<>();

    /** @return every generated part, by marker name, in document order. */
    static Map<String, String> generate()
    {
        final ProtocolTables tables = new ProtocolTables();
        tables.build();
        return tables.parts;
    }

    /** @return the names of the constants the byte tables read (Class.NAME). */
    static Set<String> constantsUsed()
    {
        final ProtocolTables tables = new ProtocolTables();
        tables.build();
        return tables.used;
    }

    private void build()
    {
        shm();
        control();
        regions();
        streams();
        tick();
        slotCheck();
    }

    private void add(final String name, final ProtocolLayout layout)
    {
        parts.put(name, layout.markdown());
        used.addAll(layout.used());
    }

    private void shm()
    {
        add("shm-region-header", ProtocolLayout.of("region file header page", ShmRegionDescriptor.class)
            .field("MAGIC_OFFSET", "u64", "magic " + magic(ShmRegionDescriptor.MAGIC))
            .field("ADDRESS_OFFSET", "u64", "the region's address, also in the file's name (16 hex digits)")
            .field("KEY_OFFSET", "u32", "the region's key: a peer must present it, as an rkey")
            .field("VERSION_OFFSET", "u32", "version, " + ShmRegionDescriptor.VERSION)
            .field("LENGTH_OFFSET", "u64", "usable bytes of the region, from the second page on")
            .field("OWNER_PID_OFFSET", "i64", "pid of the process that registered it (for removing orphans)")
            .length("HEADER_LENGTH", "; the region's bytes start at this offset of the file"));
        add("unix-frame", ProtocolLayout.of("Unix socket frame", shmClass("UnixControlChannel"))
            .field("0", "FRAME_HEADER_LENGTH", "u32", "length L of the message that follows (0 to the channel's " +
                "largest message)")
            .field("FRAME_HEADER_LENGTH", "L", "bytes", "one control message, starting with its 8-byte header"));
    }

    private void control()
    {
        final String header = "ControlMessageDescriptor#HEADER_LENGTH";
        add("control-header", ProtocolLayout.of("control message header", ControlMessageDescriptor.class)
            .field("TYPE_OFFSET", "u16", "message type (table below)")
            .field("VERSION_OFFSET", "u16", "protocol version, " + PROTOCOL_VERSION)
            .length("HEADER_LENGTH", "; every message starts with it"));
        parts.put("control-types", messageTypes());
        add("hello", ProtocolLayout.of("HELLO (1)", HelloFlyweight.class)
            .field("0", header, "header", "type 1, version " + PROTOCOL_VERSION)
            .field("RING_SLOTS", "i32", "ring slots N of the region: 0 (no ring) or a power of two from 16")
            .field("TABLE_SLOTS", "i32", "top-of-book (and depth) table slots T, 0 or more")
            .field("REGION_ADDRESS", "u64", "address of the consumer's registered region")
            .field("REGION_KEY", "u32", "key of the region (shm: the header page's key; verbs: rkey)")
            .field("DEPTH_LEVELS", "i32", "depth levels L per side of each depth table slot, 0 to 64 (0: no depth " +
                "table)")
            .field("REGION_LENGTH", "u64", "bytes of the region: at least what N, T and L need")
            .field("NAME", "u8", "name length, at most 32")
            .field("NAME + 1", "MAX_NAME_LENGTH", "ASCII", "consumer name, zero padded")
            .field("TOKEN", "u8", "token length, at most 64")
            .field("TOKEN + 1", "MAX_TOKEN_LENGTH", "bytes", "token, zero padded")
            .length("LENGTH", "; a shorter first message is refused"));
        add("welcome", ProtocolLayout.of("WELCOME (2)", WelcomeFlyweight.class)
            .field("0", header, "header", "type 2")
            .field("PUBLISHER_EPOCH", "i64", "publisher epoch: ns since the epoch at its start, new at each start")
            .field("POSITION_ADDRESS", "u64", "address of the position region the publisher registered for this " +
                "session")
            .field("POSITION_KEY", "u32", "key of the position region")
            .field("STREAM_ID", "i32", "stream id of the multicast stream (and of the shared tick log)")
            .field("POSITION_LENGTH", "u64", "bytes of the position region")
            .field("NEXT_SEQUENCE", "u64", "gateway sequence of the next tick the publisher publishes")
            .field("HEARTBEAT_INTERVAL", "i64", "ns between heartbeats, both ways")
            .field("HEARTBEAT_TIMEOUT", "i64", "ns of silence after which either side drops the other")
            .field("MTU", "i32", "largest stream datagram, bytes")
            .field("SHARED_LOG_SLOTS", "i32", "slots of the shared tick log, 0 when there is none for this " +
                "transport")
            .field("DEPTH_LEVELS", "i32", "depth D the publisher keeps per side (0: none); absent from a 72-byte " +
                "WELCOME")
            .length("DEPTH_LENGTH", " (" + WelcomeFlyweight.LENGTH + " from older publishers, without D)"));
        add("reject", ProtocolLayout.of("REJECT (3)", RejectFlyweight.class)
            .field("0", header, "header", "type 3")
            .field("REASON", "i32", "reason (table below)")
            .field("TEXT", "u16", "text length, at most " + RejectFlyweight.MAX_TEXT_LENGTH)
            .field("TEXT + 2", "MAX_TEXT_LENGTH", "ASCII", "what was wrong, for a person, zero padded")
            .length("LENGTH", ""));
        parts.put("reject-reasons", codes("REJECT_", Map.of(), true));
        add("subscription", ProtocolLayout.of("SUBSCRIBE (4), UNSUBSCRIBE (5), SUBSCRIPTION (6)",
            SubscriptionFlyweight.class)
            .field("0", header, "header", "type 4, 5 or 6")
            .field("INSTRUMENT_ID", "i32", "instrument id 1 to 65535; -1 by symbol; -2 every instrument")
            .field("TABLE_SLOT", "i32", "SUBSCRIPTION: the table slot given to the instrument, -1 for none; " +
                "SUBSCRIBE: -1")
            .field("SYMBOL", "u64", "by symbol: the symbol (packed as in the top-of-book slot); a SUBSCRIPTION " +
                "granting the shared log: the log position to read from")
            .field("STATUS", "i32", "SUBSCRIPTION: status (table below); 0 otherwise")
            .field("FLAGS", "i32", "flags: SHARED_LOG (4) with every instrument")
            .field("NEXT_SEQUENCE", "u64", "a SUBSCRIPTION granting the shared log: gateway sequence of the tick " +
                "at that log position; 0 otherwise")
            .field("VIEW", "u8", "view (table below); absent from 32- and 40-byte messages, which mean ALL")
            .length("VIEW_LENGTH", " (older peers: " + SubscriptionFlyweight.LENGTH + ", or " +
                SubscriptionFlyweight.LOG_ANSWER_LENGTH + " for a shared log answer)"));
        parts.put("subscription-statuses", codes("", Map.of(
            "SUBSCRIBED", "subscribed; ticks flow from the next one",
            "PENDING", "by symbol: the feed has not named the symbol yet; a second SUBSCRIPTION follows when it does",
            "UNSUBSCRIBED", "the answer to UNSUBSCRIBE",
            "INVALID", "refused: a view code no view has, an id outside 1..65535, or no room for another pending " +
                "symbol"),
            false));
        parts.put("views", views());
        add("heartbeat", ProtocolLayout.of("HEARTBEAT (7)", HeartbeatFlyweight.class)
            .field("0", header, "header", "type 7")
            .field("TIMESTAMP", "i64", "sender's time, ns since the epoch")
            .field("SEQUENCE", "u64", "publisher: last gateway sequence published; consumer: last delivered")
            .length("LENGTH", ""));
        add("range", ProtocolLayout.of("RECOVER (8), RECOVERY_END (10), RESYNC (11), RESYNCED (12), LAPPED (13), " +
            "SNAPSHOT_END (17)", SequenceRangeFlyweight.class)
            .field("0", header, "header", "type")
            .field("FROM", "u64", "first gateway sequence of the range")
            .field("TO", "u64", "last gateway sequence of the range (RESYNC: 0, up to live)")
            .field("POSITION", "i64", "ring position (RESYNCED: where the replay starts; LAPPED: where writing " +
                "stopped)")
            .field("COUNT", "i64", "RECOVERY_END: ticks the source no longer had; SNAPSHOT_END: ticks sent")
            .field("STATUS", "i32", "RECOVERY_END, SNAPSHOT_END: status (table below)")
            .field("FLAGS", "i32", "flags (table below)")
            .length("LENGTH", "; BYE (14) is the 8-byte header alone"));
        parts.put("range-codes", codes("RECOVERY_", Map.of(
            "RECOVERY_COMPLETE", "every tick of the range was sent",
            "RECOVERY_PARTIAL", "some were no longer held by the source: COUNT says how many are missing",
            "RECOVERY_REFUSED", "nothing sent: the request was malformed, or the snapshot did not fit"), false));
        parts.put("flags", codes("", Map.of(
            "FILTERED", "RECOVER: only the ticks of the consumer's subscriptions and views",
            "VIA_RING", "RECOVERY_END: it ends the ring catch-up a RESYNC started, not a RECOVER",
            "SHARED_LOG", "SUBSCRIBE / SUBSCRIPTION of every instrument: through the shared tick log",
            "ORDERS_OMITTED", "SNAPSHOT_END: a view took order events the publisher keeps no books for",
            "PER_INSTRUMENT", "SNAPSHOT (required), SNAPSHOT_END: each instrument's part at its own sequence S(i)",
            "SESSION_CUT", "SNAPSHOT_END: a SESSION tick ended the snapshot early; instruments not taken have no part",
            "DIRECTORY", "SNAPSHOT (with PER_INSTRUMENT), SNAPSHOT_END: the directory alone (*The directory*)"),
            false));
        add("recovery-data", ProtocolLayout.of("RECOVERY_DATA (9), SNAPSHOT_DATA (16)", RecoveryDataFlyweight.class)
            .field("0", header, "header", "type 9 or 16")
            .field("TICK_COUNT", "i32", "ticks n in this message")
            .field("TICKS_OFFSET", "n x TickLayout#LENGTH", "ticks", "n ticks, 64 bytes each, in sequence order"));
        add("snapshot", ProtocolLayout.of("SNAPSHOT (15)", SnapshotRequestFlyweight.class)
            .field("0", header, "header", "type 15")
            .field("FLAGS", "i32", "flags, PER_INSTRUMENT (1), with DIRECTORY (32) for the directory alone; without " +
                "PER_INSTRUMENT, or with any other, the request is refused")
            .field("COUNT", "i32", "instruments n listed, 0 to " + ControlMessageDescriptor.MAX_SNAPSHOT_INSTRUMENTS +
                " (0: every subscribed instrument; with DIRECTORY every named one)")
            .field("IDS_OFFSET", "n x 4", "i32[n]", "instrument ids, 1 to 65535; those not subscribed (DIRECTORY: not named) are left out"));
    }

    private void regions()
    {
        add("consumer-region", ProtocolLayout.of("consumer region", ConsumerRegionDescriptor.class)
            .field("MAGIC_OFFSET", "u64", "magic " + magic(ConsumerRegionDescriptor.MAGIC) + " (consumer)")
            .field("VERSION_OFFSET", "u32", "version, " + ConsumerRegionDescriptor.VERSION + " (consumer)")
            .field("RING_SLOTS_OFFSET", "i32", "ring slots N, 0 or a power of two (consumer)")
            .field("TABLE_SLOTS_OFFSET", "i32", "table slots T (consumer)")
            .field("DEPTH_LEVELS_OFFSET", "i32", "depth levels L, 0 for no depth table (consumer)")
            .field("LAP_POSITION_OFFSET", "i64", "lap notice: ring position where the gateway stopped writing, " +
                ConsumerRegionDescriptor.NOT_LAPPED + " when not lapped (gateway; the consumer sets " +
                ConsumerRegionDescriptor.NOT_LAPPED + " first)")
            .field("SLOTS_OFFSET", "N x SLOT_LENGTH", "ticks", "ring slots: slot i holds ring position p with " +
                "p mod N = i (gateway)")
            .field("SLOTS_OFFSET + N x SLOT_LENGTH", "N x STAMP_LENGTH", "stamps", "one stamp per slot, in slot " +
                "order (gateway)"));
        add("ring-stamp", ProtocolLayout.of("ring stamp", ConsumerRegionDescriptor.class)
            .field("0", "u64", "position + 1 of the tick in the slot; 0: never written")
            .field("STAMP_CHECK_OFFSET", "u64", "slot check over the position and the slot's 64 bytes")
            .length("STAMP_LENGTH", ""));
        add("position-region", ProtocolLayout.of("position region", PositionRegionDescriptor.class)
            .field("READ_POSITION_OFFSET", "i64", "next ring position the consumer will read")
            .field("DELIVERED_SEQUENCE_OFFSET", "u64", "last gateway sequence the consumer delivered")
            .length("LENGTH", "; written by the consumer only, 8-byte ordered writes"));
        add("top-of-book", ProtocolLayout.of("top-of-book slot", TopOfBookDescriptor.class)
            .field("VERSION_OFFSET", "u64", "seqlock version: odd while written, even after; 0: never written")
            .field("GATEWAY_SEQUENCE_OFFSET", "u64", "gateway sequence of the last change")
            .field("EXCHANGE_TIMESTAMP_OFFSET", "i64", "exchange time of the last change, ns since the epoch")
            .field("SYMBOL_OFFSET", "u64", "symbol: 8 ASCII characters, space padded, first character in the " +
                "most significant byte")
            .field("BID_PRICE_OFFSET", "i32", "best bid, Price(4) (x 10^-4); -2147483648 when there is none")
            .field("BID_SIZE_OFFSET", "u32", "shares at the best bid")
            .field("ASK_PRICE_OFFSET", "i32", "best offer, as the bid")
            .field("ASK_SIZE_OFFSET", "u32", "shares at the best offer")
            .field("BID_ORDERS_OFFSET", "u32", "orders at the best bid")
            .field("ASK_ORDERS_OFFSET", "u32", "orders at the best offer")
            .field("INSTRUMENT_ID_OFFSET", "u16", "instrument id")
            .field("TRADING_STATE_OFFSET", "u8", "ITCH trading state: 'H', 'P', 'Q', 'T'; 0 before any")
            .length("LENGTH", ""));
        add("depth-slot", ProtocolLayout.of("depth table slot", DepthTableDescriptor.class)
            .field("VERSION_OFFSET", "u64", "seqlock version, as in the top-of-book slot")
            .field("GATEWAY_SEQUENCE_OFFSET", "u64", "gateway sequence of the last change")
            .field("EXCHANGE_TIMESTAMP_OFFSET", "i64", "exchange time of the last change")
            .field("INSTRUMENT_ID_OFFSET", "u16", "instrument id")
            .field("BOOK_OFFSET", "DepthBook#LEVELS + DepthBook#LEVEL_STRIDE + M x DepthBook#LEVEL_STRIDE", "book",
                "a book of depth M = min(L, D) (next table), then zeros to a multiple of 64"));
        add("depth-book", ProtocolLayout.of("depth book", io.mdgate.core.depth.DepthBook.class)
            .field("COUNTS", "i32", "bid levels held, 0 to M")
            .field("COUNTS + 4", "i32", "ask levels held, 0 to M")
            .field("LEVELS + PRICE", "i32", "bid level 0 (best): price, Price(4)")
            .field("LEVELS + SHARES", "u32", "bid level 0: shares")
            .field("LEVELS + ORDERS", "u32", "bid level 0: orders")
            .field("LEVELS + SIDE_STRIDE + PRICE", "i32", "ask level 0 (best): price")
            .field("LEVELS + SIDE_STRIDE + SHARES", "u32", "ask level 0: shares")
            .field("LEVELS + SIDE_STRIDE + ORDERS", "u32", "ask level 0: orders")
            .field("LEVELS + LEVEL_STRIDE", "M x LEVEL_STRIDE", "levels", "levels 1 to M, laid out as level 0; " +
                "level M is a spare place the writer uses, never a level held"));
        add("shared-log-header", ProtocolLayout.of("shared tick log header", SharedLogDescriptor.class)
            .field("MAGIC_OFFSET", "u64", "magic " + magic(SharedLogDescriptor.MAGIC))
            .field("VERSION_OFFSET", "u32", "version, " + SharedLogDescriptor.VERSION)
            .field("STREAM_ID_OFFSET", "i32", "stream id")
            .field("SLOTS_OFFSET", "i32", "slots N, a power of two from " + SharedLogDescriptor.MIN_SLOTS)
            .field("PUBLISHER_EPOCH_OFFSET", "i64", "publisher epoch, as in WELCOME")
            .field("TAIL_OFFSET", "u64", "tail: positions written, the position of the next tick (its own cache " +
                "line)")
            .length("HEADER_LENGTH", "; slots at HEADER_LENGTH + 64 p mod N, stamps after the N slots, 8 bytes each"));
    }

    private void streams()
    {
        add("datagram", ProtocolLayout.of("stream datagram header", StreamDatagramDescriptor.class)
            .field("VERSION_OFFSET", "u8", "version, " + StreamDatagramDescriptor.VERSION)
            .field("TYPE_OFFSET", "u8", "type: " + StreamDatagramDescriptor.TYPE_DATA + " data, " +
                StreamDatagramDescriptor.TYPE_HEARTBEAT + " heartbeat")
            .field("TICK_LENGTH_OFFSET", "u16", "tick length, 64")
            .field("STREAM_ID_OFFSET", "i32", "stream id")
            .field("DATAGRAM_SEQUENCE_OFFSET", "u64", "datagram sequence: 0, 1, 2, ... per publisher run")
            .field("FIRST_TICK_SEQUENCE_OFFSET", "u64", "gateway sequence of the first tick; heartbeat: of the next " +
                "tick to come")
            .field("SEND_TIMESTAMP_OFFSET", "i64", "send time, ns since the epoch")
            .field("PUBLISHER_EPOCH_OFFSET", "i64", "publisher epoch, as in WELCOME")
            .field("TICK_COUNT_OFFSET", "u16", "ticks n in the datagram (0 in a heartbeat)")
            .field("SCHEMA_ID_OFFSET", "u16", "tick schema id, " + TickEncoder.SCHEMA_ID)
            .field("SCHEMA_VERSION_OFFSET", "u16", "tick schema version, " + TickEncoder.SCHEMA_VERSION)
            .length("HEADER_LENGTH", "; n ticks of 64 bytes follow"));
        add("broadcast-header", ProtocolLayout.of("broadcast log header", BroadcastLogDescriptor.class)
            .field("MAGIC_OFFSET", "u64", "magic " + magic(BroadcastLogDescriptor.MAGIC))
            .field("VERSION_OFFSET", "u32", "version, 1")
            .field("STREAM_ID_OFFSET", "i32", "stream id")
            .field("SLOT_COUNT_OFFSET", "i32", "slots, a power of two")
            .field("SLOT_LENGTH_OFFSET", "i32", "bytes per slot: 64 + the MTU rounded up to 64")
            .field("MTU_OFFSET", "i32", "largest datagram")
            .field("TAIL_OFFSET", "u64", "tail: datagrams written")
            .length("HEADER_LENGTH", "; slot i at HEADER_LENGTH + i x slot length"));
        add("broadcast-slot", ProtocolLayout.of("broadcast log slot", BroadcastLogDescriptor.class)
            .field("SLOT_STAMP_OFFSET", "u64", "stamp: d + 1 for datagram index d, top bit W set while it is written")
            .field("SLOT_DATAGRAM_LENGTH_OFFSET", "u32", "datagram length")
            .field("SLOT_HEADER_LENGTH", "L", "bytes", "the datagram (stream header and ticks), L its length, at " +
                "most the MTU"));
    }

    private void tick()
    {
        final String[][] fields = {
            { "gatewaySequence", "u64", "gateway sequence: gap-free across the gateway's life" },
            { "exchangeSequence", "u64", "MoldUDP64 sequence of the ITCH message" },
            { "exchangeTimestamp", "i64", "exchange time, ns since the epoch" },
            { "receiveTimestamp", "i64", "time the gateway received the packet, ns since the epoch" },
            { "orderReference", "u64", "order reference, or event data" },
            { "matchOrNewReference", "u64", "match number, new reference, order count, or event data" },
            { "price", "i32", "price mantissa, Price(4); -2147483648: none" },
            { "quantity", "u32", "shares, or event data" },
            { "instrumentId", "u16", "ITCH stock locate; 0 for market-wide events" },
            { "sessionId", "u16", "the gateway's number of the exchange session" },
            { "flags", "u16", "TickFlags bits (docs/TICK.md); bit 7 replayed, bit 10 snapshot" },
            { "eventType", "u8", "EventType (docs/TICK.md)" },
            { "side", "u8", "'B', 'S' or 'N'" },
        };
        final StringBuilder out = new StringBuilder("| offset | size | type | tick field |\n|---:|---:|---|---|\n");
        int end = 0;
        for (final String[] field : fields)
        {
            final int offset = tickEncoder(field[0] + "EncodingOffset");
            final int length = tickEncoder(field[0] + "EncodingLength");
            if (offset != end)
            {
                throw new AssertionError("tick field " + field[0] + " is at " + offset + ", not right after the " +
                    "field before it (" + end + ")");
            }
            out.append("| ").append(offset).append(" | ").append(length).append(" | ").append(field[1])
                .append(" | `").append(field[0]).append("`: ").append(field[2]).append(" |\n");
            end = offset + length;
        }
        out.append("\nTick: ").append(TickEncoder.BLOCK_LENGTH).append(" bytes, schema id ")
            .append(TickEncoder.SCHEMA_ID).append(", version ").append(TickEncoder.SCHEMA_VERSION).append(".\n");
        parts.put("tick", out.toString());
    }

    private void slotCheck()
    {
        final StringBuilder out = new StringBuilder("```\n");
        out.append(String.format(Locale.ROOT, "SEED             = 0x%016X%n", constant(SlotCheck.class, "SEED")));
        out.append(String.format(Locale.ROOT, "MULTIPLIER       = 0x%016X%n", constant(SlotCheck.class, "MULTIPLIER")));
        out.append(String.format(Locale.ROOT, "FINAL_MULTIPLIER = 0x%016X%n",
            constant(SlotCheck.class, "FINAL_MULTIPLIER")));
        out.append("\ncheck(p, slot):                        all arithmetic on unsigned 64 bits, modulo 2^64\n")
            .append("    h = (p + 1) * SEED\n")
            .append("    for i in 0 .. 7:                     w[i] = slot bytes 8i .. 8i+7, little-endian\n")
            .append("        h = rotate_left(h xor w[i], 27) * MULTIPLIER\n")
            .append("    h = h xor (h >> 31)\n")
            .append("    h = h * FINAL_MULTIPLIER\n")
            .append("    return h xor (h >> 29)\n```\n\n")
            .append("| position p | slot bytes | check |\n|---:|---|---|\n");
        final UnsafeBuffer slot = new UnsafeBuffer(new byte[ConsumerRegionDescriptor.SLOT_LENGTH]);
        for (final long position : new long[] { 0, 1, 1_000_000 })
        {
            for (final int pattern : new int[] { 0, 1 })
            {
                for (int i = 0; i < slot.capacity(); i++)
                {
                    slot.putByte(i, (byte)(pattern == 0 ? 0 : i));
                }
                out.append("| ").append(position).append(" | ").append(pattern == 0 ? "64 zeros" : "0, 1, 2, ... 63")
                    .append(" | ").append(String.format(Locale.ROOT, "0x%016X", SlotCheck.compute(position, slot, 0)))
                    .append(" |\n");
            }
        }
        parts.put("slot-check", out.toString());
    }

    private String messageTypes()
    {
        final Map<String, String[]> about = new LinkedHashMap<>();
        about.put("HELLO", new String[] { "consumer to publisher, first message", "HELLO" });
        about.put("WELCOME", new String[] { "publisher, the consumer is in", "WELCOME" });
        about.put("REJECT", new String[] { "publisher, then it closes the connection", "REJECT" });
        about.put("SUBSCRIBE", new String[] { "consumer", "subscription" });
        about.put("UNSUBSCRIBE", new String[] { "consumer", "subscription" });
        about.put("SUBSCRIPTION", new String[] { "publisher: the answer (again when a symbol becomes known)",
            "subscription" });
        about.put("HEARTBEAT", new String[] { "both ways", "HEARTBEAT" });
        about.put("RECOVER", new String[] { "consumer: ticks FROM..TO over this channel", "range" });
        about.put("RECOVERY_DATA", new String[] { "publisher: recovered ticks", "ticks" });
        about.put("RECOVERY_END", new String[] { "publisher: the recovery or ring catch-up is over", "range" });
        about.put("RESYNC", new String[] { "consumer: replay FROM.. through the ring, then live", "range" });
        about.put("RESYNCED", new String[] { "publisher: the replay starts at ring POSITION", "range" });
        about.put("LAPPED", new String[] { "publisher: the ring stopped at POSITION", "range" });
        about.put("BYE", new String[] { "either way, before closing", "header only" });
        about.put("SNAPSHOT", new String[] { "consumer: the state of its instruments", "SNAPSHOT" });
        about.put("SNAPSHOT_DATA", new String[] { "publisher: snapshot ticks", "ticks" });
        about.put("SNAPSHOT_END", new String[] { "publisher: the snapshot's sequence S", "range" });
        final StringBuilder out = new StringBuilder("| type | message | sent by | layout |\n|---:|---|---|---|\n");
        for (final Map.Entry<String, Long> code : constants(ControlMessageDescriptor.class, short.class).entrySet())
        {
            if (code.getKey().equals("PROTOCOL_VERSION"))
            {
                continue;
            }
            final String[] row = about.remove(code.getKey());
            if (null == row)
            {
                throw new AssertionError("message type " + code.getKey() + " has no row in PROTOCOL.md's table");
            }
            out.append("| ").append(code.getValue()).append(" | ").append(code.getKey()).append(" | ")
                .append(row[0]).append(" | ").append(row[1]).append(" |\n");
        }
        if (!about.isEmpty())
        {
            throw new AssertionError("no message type constant for " + about.keySet());
        }
        return out.toString();
    }

    /** A code table of ControlMessageDescriptor's int constants named in {@code meanings} or with the prefix. */
    private static String codes(final String prefix, final Map<String, String> meanings, final boolean rejectTexts)
    {
        final StringBuilder out = new StringBuilder("| value | name | meaning |\n|---:|---|---|\n");
        final Map<String, Long> all = constants(ControlMessageDescriptor.class, int.class);
        final Set<String> expected = new LinkedHashSet<>(meanings.keySet());
        final Map<Long, String> rows = new TreeMap<>();
        for (final Map.Entry<String, Long> constant : all.entrySet())
        {
            final String name = constant.getKey();
            final boolean listed = meanings.containsKey(name);
            if (!listed && (prefix.isEmpty() || !name.startsWith(prefix)))
            {
                continue;
            }
            final String meaning = rejectTexts ? ControlMessageDescriptor.rejectReason(constant.getValue().intValue()) :
                meanings.get(name);
            if (null == meaning)
            {
                throw new AssertionError(name + " has no meaning in PROTOCOL.md's table");
            }
            expected.remove(name);
            // Flags of different messages may share a value (FILTERED and PER_INSTRUMENT are both 1): one row each.
            rows.merge(constant.getValue(), "| " + constant.getValue() + " | " + name + " | " + meaning + " |\n",
                String::concat);
        }
        if (!expected.isEmpty())
        {
            throw new AssertionError("no constant for " + expected);
        }
        rows.values().forEach(out::append);
        return out.toString();
    }

    private static String views()
    {
        final StringBuilder out = new StringBuilder("| code | view | takes |\n|---:|---|---|\n");
        for (final SubscriptionView view : SubscriptionView.values())
        {
            final StringBuilder takes = new StringBuilder();
            if ((view.mask() & SubscriptionView.ORDER) != 0)
            {
                takes.append("order events, ");
            }
            if ((view.mask() & SubscriptionView.LEVEL) != 0)
            {
                takes.append("`LEVEL` ticks, ");
            }
            takes.append("every other tick of the instrument");
            out.append("| ").append(view.code()).append(" | ").append(view.name()).append(" | ").append(takes)
                .append(" |\n");
        }
        return out.toString();
    }

    /** @return the static final constants of one primitive type declared by {@code owner}, by name, in order. */
    private static Map<String, Long> constants(final Class<?> owner, final Class<?> primitive)
    {
        final Map<String, Long> constants = new LinkedHashMap<>();
        for (final Field field : owner.getDeclaredFields())
        {
            if (field.getType() == primitive && Modifier.isStatic(field.getModifiers()) &&
                Modifier.isFinal(field.getModifiers()))
            {
                constants.put(field.getName(), constant(owner, field.getName()));
            }
        }
        return constants;
    }

    private static long constant(final Class<?> owner, final String name)
    {
        return ProtocolLayout.constant(owner, name);
    }

    private static Class<?> shmClass(final String simpleName)
    {
        try
        {
            return Class.forName("io.mdgate.egress.transport.shm." + simpleName);
        }
        catch (final ClassNotFoundException ex)
        {
            throw new AssertionError("no class " + simpleName, ex);
        }
    }

    private static int tickEncoder(final String method)
    {
        try
        {
            final Method accessor = TickEncoder.class.getMethod(method);
            return (Integer)accessor.invoke(null);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError("TickEncoder has no " + method, ex);
        }
    }

    /** @return a magic number as it is read (hex) and as its bytes spell it. */
    private static String magic(final long magic)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++)
        {
            text.append((char)((magic >>> (8 * i)) & 0xFF));
        }
        return String.format(Locale.ROOT, "0x%016X (bytes \"%s\")", magic, text);
    }
}
