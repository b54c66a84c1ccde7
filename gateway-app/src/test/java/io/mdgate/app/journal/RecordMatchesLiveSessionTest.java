package io.mdgate.app.journal;

import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.capture.ReadJson;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code record} journals from a capture is what the gateway's session stage makes from the same packets: a
 * FeedSession, MessageProcessor and Normalizer wired and fed as the session agent does (the packets in capture
 * order, each with its capture time as receive time, the session's duty cycle run before each, settings as
 * {@code mdgate run} sets them by default, no re-request server). Both lines of the capture lose packets, some of
 * them on both, and packets are reordered, duplicated and damaged.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RecordMatchesLiveSessionTest
{
    private static final int LINE_A_GROUP = 0xE9360C6F;
    private static final int LINE_B_GROUP = 0xE931C46F;
    private static final int PORT = 26477;
    private static final long GAP_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    @TempDir
    Path dir;

    @Test
    void shouldJournalTheSameTicksAsTheLiveSessionStageMakesFromTheSamePackets() throws IOException
    {
        final Path capture = dir.resolve("lossy.pcap");
        final CommandRun sim = CommandRun.run(new SimCommand(), "--messages", "30000", "--seed", "11",
            "--loss-a", "0.03", "--loss-b", "0.03", "--loss-burst", "3", "--reorder", "0.03", "--duplicate", "0.03",
            "--corrupt", "0.01", "--pcap", capture.toString());
        assertEquals(0, sim.exitCode(), sim::toString);

        final Path journal = dir.resolve("journal");
        final CommandRun record = CommandRun.run(new RecordCommand(), capture.toString(), "--journal",
            journal.toString(), "--json");
        assertEquals(0, record.exitCode(), record::toString);
        final Map<String, Object> summary = ReadJson.parseObject(record.out().trim());

        final LiveStage live = new LiveStage();
        live.feed(capture);

        assertTrue(live.session.messagesLost() > 0, "some packets were lost on both lines");
        assertTrue(live.ticksOf(EventType.GAP) > 0, "a gap became a GAP tick");
        assertTrue(live.session.gapsFilledByOtherLine(FeedLines.A) + live.session.gapsFilledByOtherLine(FeedLines.B) > 0,
            "the other line filled some gaps");
        assertTrue(live.session.duplicates(FeedLines.A) + live.session.duplicates(FeedLines.B) > 0, "duplicates");
        assertTrue(live.session.malformed(FeedLines.A) + live.session.malformed(FeedLines.B) > 0, "damaged packets");
        assertEquals(live.session.messagesLost(), ((Number)summary.get("missingMessages")).longValue());

        final List<byte[]> journaled = journaledTicks(journal);
        assertEquals(live.ticks.size(), journaled.size(), "ticks journaled");
        for (int i = 0; i < journaled.size(); i++)
        {
            assertArrayEquals(withoutReceiveTime(live.ticks.get(i)), withoutReceiveTime(journaled.get(i)),
                "tick " + i + " (gateway sequence " + gatewaySequence(live.ticks.get(i)) + ")");
            assertEquals(i + 1, gatewaySequence(journaled.get(i)));
        }
    }

    /** The session stage of {@code mdgate run} with its default feed settings, fed packet by packet. */
    private static final class LiveStage
    {
        final List<byte[]> ticks = new ArrayList<>();
        final MessageProcessor processor;
        final FeedSession session;

        LiveStage()
        {
            processor = new MessageProcessor(new Normalizer(new OrderBooks(new BookContext().conclude()),
                new ExchangeClock(LocalDate.of(2025, 1, 2)), (buffer, offset) ->
                {
                    final byte[] tick = new byte[TickLayout.LENGTH];
                    buffer.getBytes(offset, tick);
                    ticks.add(tick);
                }, 1));
            session = new FeedSession(new FeedSession.Context()
                .firstSequence(1)
                .gapWaitNanos(GAP_WAIT_NANOS)
                .staleLineNanos(TimeUnit.MILLISECONDS.toNanos(2000))
                .messageHandler(processor)
                .gapHandler(processor)
                .packetContextHandler(processor));
            processor.packetDecoder(session.decoder());
        }

        /** Reads the simulator's pcap (nanosecond, little-endian, Ethernet/IPv4/UDP) by its published layout. */
        void feed(final Path pcap) throws IOException
        {
            final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(pcap)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(0xA1B23C4D, file.getInt(0), "a nanosecond pcap");
            final UnsafeBuffer buffer = new UnsafeBuffer(file.array());
            long last = 0;
            int at = 24;
            while (at + 16 <= file.limit())
            {
                final long time = (file.getInt(at) & 0xFFFF_FFFFL) * 1_000_000_000L + (file.getInt(at + 4) & 0xFFFF_FFFFL);
                final int captured = file.getInt(at + 8);
                final int frame = at + 16;
                at = frame + captured;
                final int ip = frame + 14;
                final int udp = ip + (file.get(ip) & 0x0F) * 4;
                final int group = file.order(ByteOrder.BIG_ENDIAN).getInt(ip + 16);
                final int port = file.getShort(udp + 2) & 0xFFFF;
                final int payloadLength = (file.getShort(udp + 4) & 0xFFFF) - 8;
                file.order(ByteOrder.LITTLE_ENDIAN);
                final int line = port != PORT ? -1 : group == LINE_A_GROUP ? FeedLines.A :
                    group == LINE_B_GROUP ? FeedLines.B : -1;
                if (line >= 0)
                {
                    last = Math.max(last, time);
                    session.doWork(last);
                    session.onPacket(line, buffer, udp + 8, payloadLength, time);
                }
            }
            session.doWork(last + GAP_WAIT_NANOS);
        }

        long ticksOf(final EventType type)
        {
            return ticks.stream().filter(t -> t[TickLayout.EVENT_TYPE_OFFSET] == (byte)type.value()).count();
        }
    }

    private static List<byte[]> journaledTicks(final Path journal)
    {
        final List<byte[]> ticks = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(journal); TickReplay replay = reader.newTickReplay())
        {
            replay.replay(replay.firstSequence(), replay.lastSequence(), (buffer, offset) ->
            {
                final byte[] tick = new byte[TickLayout.LENGTH];
                buffer.getBytes(offset, tick);
                ticks.add(tick);
            });
        }
        return ticks;
    }

    private static byte[] withoutReceiveTime(final byte[] tick)
    {
        final byte[] copy = tick.clone();
        Arrays.fill(copy, TickLayout.RECEIVE_TIMESTAMP_OFFSET, TickLayout.RECEIVE_TIMESTAMP_OFFSET + 8, (byte)0);
        return copy;
    }

    private static long gatewaySequence(final byte[] tick)
    {
        return ByteBuffer.wrap(tick).order(ByteOrder.LITTLE_ENDIAN).getLong(TickLayout.GATEWAY_SEQUENCE_OFFSET);
    }
}
