package io.mdgate.consumerc;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.DepthTableDescriptor;
import io.mdgate.egress.protocol.HeartbeatFlyweight;
import io.mdgate.egress.protocol.HelloFlyweight;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.RejectFlyweight;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.SharedLogDescriptor;
import io.mdgate.egress.protocol.SlotCheck;
import io.mdgate.egress.protocol.SnapshotRequestFlyweight;
import io.mdgate.egress.protocol.StreamDatagramDescriptor;
import io.mdgate.egress.protocol.SubscriptionFlyweight;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.protocol.TopOfBookDescriptor;
import io.mdgate.egress.protocol.WelcomeFlyweight;
import io.mdgate.egress.transport.shm.BroadcastLogDescriptor;
import io.mdgate.egress.transport.shm.ShmRegionDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * C and Java cannot drift apart: every constant {@code include/mdgate/protocol.h} defines is printed by a small C
 * program, generated from the header's own {@code #define} lines and compiled here, and compared with the Java
 * constant it stands for (the descriptors, flyweights, {@code SlotCheck}, the generated tick codec). A constant
 * added to the header without a Java counterpart below fails the test too.
 */
class ProtocolConstantsTest
{
    private static final Pattern DEFINE = Pattern.compile("^#define (MDGATE_[A-Z0-9_]+) ");

    @TempDir
    Path work;

    @Test
    void shouldDefineEveryProtocolConstantInCAsTheJavaSideDoes() throws Exception
    {
        final Path header = NativeBuild.include().resolve("mdgate").resolve("protocol.h");
        final List<String> names = new ArrayList<>();
        for (final String line : Files.readAllLines(header, StandardCharsets.US_ASCII))
        {
            final Matcher matcher = DEFINE.matcher(line);
            if (matcher.find() && !matcher.group(1).equals("MDGATE_PROTOCOL_H"))
            {
                names.add(matcher.group(1));
            }
        }
        assertTrue(names.size() > 150, "protocol.h defines the protocol's constants: " + names.size());

        final Map<String, Long> printed = runPrinter(names);
        final Map<String, Long> java = javaConstants();
        final Map<String, String> mismatches = new TreeMap<>();
        for (final String name : names)
        {
            final Long expected = java.get(name);
            if (null == expected)
            {
                mismatches.put(name, "no Java counterpart listed in ProtocolConstantsTest");
            }
            else if (!expected.equals(printed.get(name)))
            {
                mismatches.put(name, "C " + printed.get(name) + ", Java " + expected);
            }
        }
        for (final String name : java.keySet())
        {
            if (!names.contains(name))
            {
                mismatches.put(name, "listed for Java but not defined in protocol.h");
            }
        }
        assertEquals(Map.of(), mismatches);
    }

    private Map<String, Long> runPrinter(final List<String> names) throws Exception
    {
        final StringBuilder program = new StringBuilder("#include <stdio.h>\n#include \"mdgate/protocol.h\"\n")
            .append("int main(void)\n{\n");
        for (final String name : names)
        {
            program.append("    printf(\"%s %lld\\n\", \"").append(name).append("\", (long long)(").append(name)
                .append("));\n");
        }
        program.append("    return 0;\n}\n");
        final Path source = work.resolve("protocol-constants.c");
        final Path binary = work.resolve("protocol-constants");
        Files.writeString(source, program.toString());
        run(List.of("cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", NativeBuild.include().toString(), "-o",
            binary.toString(), source.toString()));
        final Map<String, Long> values = new LinkedHashMap<>();
        for (final String line : run(List.of(binary.toString())))
        {
            final String[] parts = line.split(" ");
            values.put(parts[0], Long.parseLong(parts[1]));
        }
        return values;
    }

    private static List<String> run(final List<String> command) throws Exception
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), command + " did not finish");
        assertEquals(0, process.exitValue(), command + ": " + output);
        return Arrays.asList(output.split("\n"));
    }

    private static long field(final Class<?> type, final String name) throws ReflectiveOperationException
    {
        final Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return ((Number)field.get(null)).longValue();
    }

    /** Puts {@code prefix + name + suffix} for each name, the value of the Java field {@code name} of {@code type}. */
    private static void fields(final Map<String, Long> into, final String prefix, final String suffix,
        final Class<?> type, final String... names) throws ReflectiveOperationException
    {
        for (final String name : names)
        {
            into.put(prefix + name + suffix, field(type, name));
        }
    }

    private static Map<String, Long> javaConstants() throws ReflectiveOperationException
    {
        final Map<String, Long> c = new LinkedHashMap<>();
        c.put("MDGATE_PROTOCOL_VERSION", (long)ControlMessageDescriptor.PROTOCOL_VERSION);
        c.put("MDGATE_CONTROL_TYPE_OFFSET", (long)ControlMessageDescriptor.TYPE_OFFSET);
        c.put("MDGATE_CONTROL_VERSION_OFFSET", (long)ControlMessageDescriptor.VERSION_OFFSET);
        c.put("MDGATE_CONTROL_HEADER_LENGTH", (long)ControlMessageDescriptor.HEADER_LENGTH);
        fields(c, "MDGATE_MSG_", "", ControlMessageDescriptor.class, "HELLO", "WELCOME", "REJECT", "SUBSCRIBE",
            "UNSUBSCRIBE", "SUBSCRIPTION", "HEARTBEAT", "RECOVER", "RECOVERY_DATA", "RECOVERY_END", "RESYNC",
            "RESYNCED", "LAPPED", "BYE", "SNAPSHOT", "SNAPSHOT_DATA", "SNAPSHOT_END");
        for (final String reason : List.of("AUTHENTICATION", "VERSION", "REGION", "CAPACITY", "INVALID"))
        {
            c.put("MDGATE_REJECT_" + reason, field(ControlMessageDescriptor.class, "REJECT_" + reason));
        }
        fields(c, "MDGATE_", "", ControlMessageDescriptor.class, "SUBSCRIBED", "PENDING", "UNSUBSCRIBED", "INVALID",
            "RECOVERY_COMPLETE", "RECOVERY_PARTIAL", "RECOVERY_REFUSED", "BY_SYMBOL", "ALL_INSTRUMENTS");
        c.put("MDGATE_FLAG_FILTERED", (long)ControlMessageDescriptor.FILTERED);
        c.put("MDGATE_FLAG_VIA_RING", (long)ControlMessageDescriptor.VIA_RING);
        c.put("MDGATE_FLAG_SHARED_LOG", (long)ControlMessageDescriptor.SHARED_LOG);

        fields(c, "MDGATE_HELLO_", "_OFFSET", HelloFlyweight.class, "RING_SLOTS", "TABLE_SLOTS", "REGION_ADDRESS",
            "REGION_KEY", "DEPTH_LEVELS", "REGION_LENGTH", "NAME", "TOKEN");
        c.put("MDGATE_HELLO_MAX_NAME_LENGTH", (long)HelloFlyweight.MAX_NAME_LENGTH);
        c.put("MDGATE_HELLO_MAX_TOKEN_LENGTH", (long)HelloFlyweight.MAX_TOKEN_LENGTH);
        c.put("MDGATE_HELLO_LENGTH", (long)HelloFlyweight.LENGTH);
        fields(c, "MDGATE_WELCOME_", "_OFFSET", WelcomeFlyweight.class, "PUBLISHER_EPOCH", "POSITION_ADDRESS",
            "POSITION_KEY", "STREAM_ID", "POSITION_LENGTH", "NEXT_SEQUENCE", "HEARTBEAT_INTERVAL", "HEARTBEAT_TIMEOUT",
            "MTU", "SHARED_LOG_SLOTS", "DEPTH_LEVELS");
        c.put("MDGATE_WELCOME_LENGTH", (long)WelcomeFlyweight.LENGTH);
        c.put("MDGATE_WELCOME_DEPTH_LENGTH", (long)WelcomeFlyweight.DEPTH_LENGTH);
        c.put("MDGATE_REJECT_REASON_OFFSET", field(RejectFlyweight.class, "REASON"));
        c.put("MDGATE_REJECT_TEXT_OFFSET", field(RejectFlyweight.class, "TEXT"));
        c.put("MDGATE_REJECT_MAX_TEXT_LENGTH", (long)RejectFlyweight.MAX_TEXT_LENGTH);
        c.put("MDGATE_REJECT_LENGTH", (long)RejectFlyweight.LENGTH);
        fields(c, "MDGATE_SUBSCRIPTION_", "_OFFSET", SubscriptionFlyweight.class, "INSTRUMENT_ID", "TABLE_SLOT",
            "SYMBOL", "STATUS", "FLAGS", "NEXT_SEQUENCE", "VIEW");
        c.put("MDGATE_SUBSCRIPTION_LENGTH", (long)SubscriptionFlyweight.LENGTH);
        c.put("MDGATE_SUBSCRIPTION_LOG_ANSWER_LENGTH", (long)SubscriptionFlyweight.LOG_ANSWER_LENGTH);
        c.put("MDGATE_SUBSCRIPTION_VIEW_LENGTH", (long)SubscriptionFlyweight.VIEW_LENGTH);
        c.put("MDGATE_HEARTBEAT_TIMESTAMP_OFFSET", field(HeartbeatFlyweight.class, "TIMESTAMP"));
        c.put("MDGATE_HEARTBEAT_SEQUENCE_OFFSET", field(HeartbeatFlyweight.class, "SEQUENCE"));
        c.put("MDGATE_HEARTBEAT_LENGTH", (long)HeartbeatFlyweight.LENGTH);
        fields(c, "MDGATE_RANGE_", "_OFFSET", SequenceRangeFlyweight.class, "FROM", "TO", "POSITION", "COUNT", "STATUS",
            "FLAGS");
        c.put("MDGATE_RANGE_LENGTH", (long)SequenceRangeFlyweight.LENGTH);
        c.put("MDGATE_SNAPSHOT_FLAGS_OFFSET", field(SnapshotRequestFlyweight.class, "FLAGS"));
        c.put("MDGATE_SNAPSHOT_COUNT_OFFSET", field(SnapshotRequestFlyweight.class, "COUNT"));
        c.put("MDGATE_SNAPSHOT_IDS_OFFSET", (long)SnapshotRequestFlyweight.IDS_OFFSET);
        c.put("MDGATE_SNAPSHOT_ORDERS_OMITTED", (long)ControlMessageDescriptor.ORDERS_OMITTED);
        c.put("MDGATE_SNAPSHOT_PER_INSTRUMENT", (long)ControlMessageDescriptor.PER_INSTRUMENT);
        c.put("MDGATE_SNAPSHOT_SESSION_CUT", (long)ControlMessageDescriptor.SESSION_CUT);
        c.put("MDGATE_SNAPSHOT_DIRECTORY", (long)ControlMessageDescriptor.DIRECTORY);
        c.put("MDGATE_RECOVERY_DATA_TICK_COUNT_OFFSET", field(RecoveryDataFlyweight.class, "TICK_COUNT"));
        c.put("MDGATE_RECOVERY_DATA_TICKS_OFFSET", (long)RecoveryDataFlyweight.TICKS_OFFSET);

        for (final SubscriptionView view : SubscriptionView.values())
        {
            c.put("MDGATE_VIEW_" + view.name(), (long)view.code());
        }
        c.put("MDGATE_CLASS_OTHER", (long)SubscriptionView.OTHER);
        c.put("MDGATE_CLASS_ORDER", (long)SubscriptionView.ORDER);
        c.put("MDGATE_CLASS_LEVEL", (long)SubscriptionView.LEVEL);
        c.put("MDGATE_EVERY_CLASS", (long)SubscriptionView.EVERY_CLASS);

        c.put("MDGATE_TICK_LENGTH", (long)TickLayout.LENGTH);
        c.put("MDGATE_TICK_GATEWAY_SEQUENCE_OFFSET", (long)TickLayout.GATEWAY_SEQUENCE_OFFSET);
        c.put("MDGATE_TICK_EXCHANGE_SEQUENCE_OFFSET", (long)TickEncoder.exchangeSequenceEncodingOffset());
        c.put("MDGATE_TICK_EXCHANGE_TIMESTAMP_OFFSET", (long)TickLayout.EXCHANGE_TIMESTAMP_OFFSET);
        c.put("MDGATE_TICK_RECEIVE_TIMESTAMP_OFFSET", (long)TickLayout.RECEIVE_TIMESTAMP_OFFSET);
        c.put("MDGATE_TICK_ORDER_REFERENCE_OFFSET", (long)TickLayout.ORDER_REFERENCE_OFFSET);
        c.put("MDGATE_TICK_MATCH_OR_NEW_REFERENCE_OFFSET", (long)TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET);
        c.put("MDGATE_TICK_PRICE_OFFSET", (long)TickLayout.PRICE_OFFSET);
        c.put("MDGATE_TICK_QUANTITY_OFFSET", (long)TickLayout.QUANTITY_OFFSET);
        c.put("MDGATE_TICK_INSTRUMENT_ID_OFFSET", (long)TickLayout.INSTRUMENT_ID_OFFSET);
        c.put("MDGATE_TICK_SESSION_ID_OFFSET", (long)TickEncoder.sessionIdEncodingOffset());
        c.put("MDGATE_TICK_FLAGS_OFFSET", (long)TickLayout.FLAGS_OFFSET);
        c.put("MDGATE_TICK_EVENT_TYPE_OFFSET", (long)TickLayout.EVENT_TYPE_OFFSET);
        c.put("MDGATE_TICK_SIDE_OFFSET", (long)TickLayout.SIDE_OFFSET);
        c.put("MDGATE_TICK_REPLAYED_FLAG", (long)TickLayout.REPLAYED_FLAG);
        c.put("MDGATE_TICK_SNAPSHOT_FLAG", (long)TickLayout.SNAPSHOT_FLAG);
        c.put("MDGATE_MARKET_WIDE", (long)TickLayout.MARKET_WIDE);
        c.put("MDGATE_MAX_INSTRUMENT_ID", (long)TickLayout.MAX_INSTRUMENT_ID);
        c.put("MDGATE_PRICE_NULL", (long)TopOfBookDescriptor.NULL_PRICE);
        for (final EventType type : List.of(EventType.ADD, EventType.EXECUTE, EventType.EXECUTE_WITH_PRICE,
            EventType.CANCEL, EventType.DELETE, EventType.REPLACE, EventType.INSTRUMENT, EventType.SESSION,
            EventType.LEVEL))
        {
            c.put("MDGATE_EVENT_" + type.name(), (long)type.value());
        }
        c.put("MDGATE_EVENT_TYPE_MAX", (long)Arrays.stream(EventType.values()).filter(t -> t != EventType.NULL_VAL)
            .mapToInt(EventType::value).max().orElseThrow());

        c.put("MDGATE_REGION_MAGIC", ConsumerRegionDescriptor.MAGIC);
        c.put("MDGATE_REGION_VERSION", (long)ConsumerRegionDescriptor.VERSION);
        fields(c, "MDGATE_REGION_", "", ConsumerRegionDescriptor.class, "MAGIC_OFFSET", "VERSION_OFFSET",
            "RING_SLOTS_OFFSET", "TABLE_SLOTS_OFFSET", "DEPTH_LEVELS_OFFSET", "LAP_POSITION_OFFSET", "SLOTS_OFFSET",
            "SLOT_LENGTH", "STAMP_LENGTH", "STAMP_CHECK_OFFSET", "NOT_LAPPED", "MAX_RING_SLOTS", "MAX_TABLE_SLOTS");
        c.put("MDGATE_SLOT_CHECK_SEED", field(SlotCheck.class, "SEED"));
        c.put("MDGATE_SLOT_CHECK_MULTIPLIER", field(SlotCheck.class, "MULTIPLIER"));
        c.put("MDGATE_SLOT_CHECK_FINAL_MULTIPLIER", field(SlotCheck.class, "FINAL_MULTIPLIER"));

        fields(c, "MDGATE_TOB_", "", TopOfBookDescriptor.class, "VERSION_OFFSET", "GATEWAY_SEQUENCE_OFFSET",
            "EXCHANGE_TIMESTAMP_OFFSET", "SYMBOL_OFFSET", "BID_PRICE_OFFSET", "BID_SIZE_OFFSET", "ASK_PRICE_OFFSET",
            "ASK_SIZE_OFFSET", "BID_ORDERS_OFFSET", "ASK_ORDERS_OFFSET", "INSTRUMENT_ID_OFFSET", "TRADING_STATE_OFFSET",
            "LENGTH");
        fields(c, "MDGATE_DEPTH_", "", DepthTableDescriptor.class, "VERSION_OFFSET", "GATEWAY_SEQUENCE_OFFSET",
            "EXCHANGE_TIMESTAMP_OFFSET", "INSTRUMENT_ID_OFFSET", "BOOK_OFFSET");
        fields(c, "MDGATE_DEPTHBOOK_", "", DepthBook.class, "COUNTS", "LEVELS", "LEVEL_STRIDE", "SIDE_STRIDE", "PRICE",
            "SHARES", "ORDERS", "MAX_DEPTH");
        c.put("MDGATE_POSITION_READ_POSITION_OFFSET", (long)PositionRegionDescriptor.READ_POSITION_OFFSET);
        c.put("MDGATE_POSITION_DELIVERED_SEQUENCE_OFFSET", (long)PositionRegionDescriptor.DELIVERED_SEQUENCE_OFFSET);
        c.put("MDGATE_POSITION_LENGTH", (long)PositionRegionDescriptor.LENGTH);

        fields(c, "MDGATE_LOG_", "", SharedLogDescriptor.class, "MAGIC", "VERSION", "MAGIC_OFFSET", "VERSION_OFFSET",
            "STREAM_ID_OFFSET", "SLOTS_OFFSET", "PUBLISHER_EPOCH_OFFSET", "TAIL_OFFSET", "HEADER_LENGTH", "SLOT_LENGTH",
            "STAMP_LENGTH", "WRITING", "MIN_SLOTS", "MAX_SLOTS");
        c.put("MDGATE_DGRAM_VERSION", (long)StreamDatagramDescriptor.VERSION);
        c.put("MDGATE_DGRAM_TYPE_DATA", (long)StreamDatagramDescriptor.TYPE_DATA);
        c.put("MDGATE_DGRAM_TYPE_HEARTBEAT", (long)StreamDatagramDescriptor.TYPE_HEARTBEAT);
        fields(c, "MDGATE_DGRAM_", "", StreamDatagramDescriptor.class, "VERSION_OFFSET", "TYPE_OFFSET",
            "TICK_LENGTH_OFFSET", "STREAM_ID_OFFSET", "DATAGRAM_SEQUENCE_OFFSET", "FIRST_TICK_SEQUENCE_OFFSET",
            "SEND_TIMESTAMP_OFFSET", "PUBLISHER_EPOCH_OFFSET", "TICK_COUNT_OFFSET", "HEADER_LENGTH");
        fields(c, "MDGATE_BCAST_", "", BroadcastLogDescriptor.class, "MAGIC", "VERSION", "MAGIC_OFFSET",
            "VERSION_OFFSET", "STREAM_ID_OFFSET", "SLOT_COUNT_OFFSET", "SLOT_LENGTH_OFFSET", "MTU_OFFSET",
            "TAIL_OFFSET", "HEADER_LENGTH", "SLOT_STAMP_OFFSET", "SLOT_DATAGRAM_LENGTH_OFFSET", "SLOT_HEADER_LENGTH",
            "WRITING");
        fields(c, "MDGATE_SHM_REGION_", "", ShmRegionDescriptor.class, "MAGIC", "VERSION", "MAGIC_OFFSET",
            "ADDRESS_OFFSET", "KEY_OFFSET", "VERSION_OFFSET", "LENGTH_OFFSET", "OWNER_PID_OFFSET", "HEADER_LENGTH");
        c.put("MDGATE_SHM_FRAME_HEADER_LENGTH",
            field(Class.forName("io.mdgate.egress.transport.shm.UnixControlChannel"), "FRAME_HEADER_LENGTH"));
        return c;
    }
}
