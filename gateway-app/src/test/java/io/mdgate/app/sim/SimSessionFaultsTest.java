package io.mdgate.app.sim;

import io.mdgate.core.capture.WrittenPcap;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64RequestFlyweight;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.mdgate.app.sim.SimCommandTest.jsonNumber;
import static io.mdgate.app.sim.SimCommandTest.jsonObject;
import static io.mdgate.app.sim.SimCommandTest.sim;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's session-level faults, read back from the pcap it writes: a session change mid-run, line B
 * lagging line A, stray packets with one bit of the session name flipped, and far-ahead packets.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimSessionFaultsTest
{
    private static final int GROUP_A = 0xE936_0C6F;
    private static final int GROUP_B = 0xE931_C46F;
    private static final long FAR = 1L << 40;

    @TempDir
    Path dir;

    /** One datagram of the pcap, its MoldUDP64 header read. */
    record Packet(int index, int line, long timestamp, String session, long sequence, int count, byte[] bytes)
    {
        boolean isEndOfSession()
        {
            return count == MoldUdp64PacketDecoder.END_OF_SESSION_COUNT;
        }

        boolean isData()
        {
            return count > 0 && !isEndOfSession();
        }
    }

    private static List<Packet> packets(final Path file) throws Exception
    {
        final List<Packet> packets = new ArrayList<>();
        final WrittenPcap pcap = WrittenPcap.read(file);
        for (final WrittenPcap.Datagram datagram : pcap.datagrams)
        {
            final ByteBuffer bytes = ByteBuffer.wrap(datagram.payload()).order(ByteOrder.BIG_ENDIAN);
            packets.add(new Packet(packets.size(), datagram.dstIp() == GROUP_A ? 0 : datagram.dstIp() == GROUP_B ? 1 : -1,
                datagram.timestampNanos(), new String(datagram.payload(), 0, 10, StandardCharsets.US_ASCII),
                bytes.getLong(10), bytes.getShort(18) & 0xFFFF, datagram.payload()));
        }
        return packets;
    }

    private static List<byte[]> generated(final long seed, final int instruments, final long messages)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(seed).instruments(instruments).messages(messages));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final List<byte[]> all = new ArrayList<>();
        int length;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            final byte[] copy = new byte[length];
            buffer.getBytes(0, copy);
            all.add(copy);
        }
        return all;
    }

    @Test
    void shouldEndTheFirstSessionAndContinueTheDayInTheSecondFromSequenceOneOnBothLines() throws Exception
    {
        final Path file = dir.resolve("change.pcap");
        final SimCommandTest.Result result = sim("--messages", "20000", "--seed", "5", "--instruments", "20",
            "--session", "FIRST00001", "--session-change-at", "8000", "--second-session", "SECOND0002",
            "--pcap", file.toString(), "--json");
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(result.out().contains("\"sessions\":[{\"session\":\"FIRST00001\",\"messages\":8000}," +
            "{\"session\":\"SECOND0002\",\"messages\":12000}]"), result.out());
        assertEquals(8000, jsonNumber(result.out(), "lastSequence"), "the first session's last sequence");

        final List<byte[]> day = generated(5, 20, 20_000);
        for (int line = 0; line < 2; line++)
        {
            final int l = line;
            final List<Packet> onLine = packets(file).stream().filter(p -> p.line() == l).toList();
            final List<byte[]> messages = new ArrayList<>();
            final List<String> order = new ArrayList<>();
            long expected = 1;
            String session = "FIRST00001";
            for (final Packet packet : onLine)
            {
                assertEquals(session, packet.session(), "packet " + packet.index());
                if (packet.isEndOfSession())
                {
                    assertEquals(expected, packet.sequence(), "end of session names one past the last");
                    order.add(packet.session() + " end " + packet.sequence());
                    session = "SECOND0002";
                    expected = 1;
                    continue;
                }
                assertEquals(expected, packet.sequence(), "sequences continue within a session");
                final int[] offset = { 20 };
                for (int i = 0; i < packet.count(); i++)
                {
                    final int length = ((packet.bytes()[offset[0]] & 0xFF) << 8) | (packet.bytes()[offset[0] + 1] & 0xFF);
                    messages.add(Arrays.copyOfRange(packet.bytes(), offset[0] + 2, offset[0] + 2 + length));
                    offset[0] += 2 + length;
                }
                expected += packet.count();
            }
            assertEquals(List.of("FIRST00001 end 8001", "SECOND0002 end 12001"), order, "line " + line);
            assertEquals(20_000, messages.size());
            for (int i = 0; i < day.size(); i++)
            {
                assertArrayEquals(day.get(i), messages.get(i), "message " + (i + 1) + " of the day");
            }
        }
    }

    @Test
    void shouldSendLineBTheLagLaterSoItSendsTheOldSessionsTailAfterLineAStartedTheNewOne() throws Exception
    {
        final Path file = dir.resolve("lag.pcap");
        final SimCommandTest.Result result = sim("--messages", "20000", "--seed", "6", "--instruments", "20",
            "--rate", "20000", "--session-change-at", "10000", "--lag-b-ms", "10", "--pcap", file.toString(), "--json");
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(result.out().contains("\"lagBMillis\":10.0"), result.out());

        final List<Packet> all = packets(file);
        final Map<String, Packet> firstOnA = new HashMap<>();
        for (final Packet packet : all)
        {
            if (packet.line() == 0)
            {
                firstOnA.putIfAbsent(packet.session() + packet.sequence() + "/" + packet.count(), packet);
            }
        }
        int matched = 0;
        for (final Packet packet : all)
        {
            if (packet.line() == 1 && packet.isData())
            {
                final Packet onA = firstOnA.get(packet.session() + packet.sequence() + "/" + packet.count());
                assertEquals(onA.timestamp() + 10_000_000, packet.timestamp(), "B is 10 ms behind A");
                assertTrue(packet.index() > onA.index(), "B's copy comes after A's");
                matched++;
            }
        }
        assertEquals(jsonNumber(jsonObject(result.out(), "framed"), "data"), matched);
        final Packet firstNewOnA = all.stream().filter(p -> p.line() == 0 && p.session().equals("SIM0000002"))
            .findFirst().orElseThrow();
        final List<Packet> oldTailOnB = all.stream().filter(p -> p.line() == 1 && p.session().equals("SIM0000001") &&
            p.index() > firstNewOnA.index()).toList();
        assertTrue(oldTailOnB.size() > 10, "B still sends the old session's tail when A is in the new one: " +
            oldTailOnB.size() + " packets");
        assertTrue(oldTailOnB.get(oldTailOnB.size() - 1).isEndOfSession(), "B's tail ends with its end of session");
        long previous = Long.MIN_VALUE;
        for (final Packet packet : all)
        {
            assertTrue(packet.timestamp() >= previous, "one stream in time order, packet " + packet.index());
            previous = packet.timestamp();
        }
    }

    @Test
    void shouldSendCountedStrayCopiesWithOneBitOfTheSessionNameFlippedOnAlternateLines() throws Exception
    {
        final Path file = dir.resolve("stray.pcap");
        final SimCommandTest.Result result = sim("--messages", "20000", "--seed", "7", "--instruments", "20",
            "--stray", "10", "--pcap", file.toString(), "--json");
        assertEquals(0, result.exitCode(), result.err());

        final List<Packet> all = packets(file);
        final byte[] real = "SIM0000001".getBytes(StandardCharsets.US_ASCII);
        final List<Packet> strays = all.stream().filter(p -> !p.session().equals("SIM0000001")).toList();
        assertEquals(10, strays.size());
        for (final Packet stray : strays)
        {
            int bits = 0;
            for (int i = 0; i < 10; i++)
            {
                bits += Integer.bitCount((stray.bytes()[i] ^ real[i]) & 0xFF);
                assertTrue(stray.bytes()[i] >= 0x20 && stray.bytes()[i] < 0x7F, "printable: " + stray.session());
            }
            assertEquals(1, bits, "one bit flipped: " + stray.session());
            final Packet copied = all.get(stray.index() - 1);
            assertEquals("SIM0000001", copied.session(), "a copy of the packet just sent");
            assertArrayEquals(Arrays.copyOfRange(copied.bytes(), 10, copied.bytes().length),
                Arrays.copyOfRange(stray.bytes(), 10, stray.bytes().length));
            assertTrue(stray.isData());
        }
        assertEquals(5, strays.stream().filter(p -> p.line() == 0).count(), "alternate lines");
        final long spread = strays.get(9).sequence() - strays.get(0).sequence();
        assertTrue(spread > 20_000 * 7 / 10, "spread over the run: " + spread);
        assertEquals(5, jsonNumber(jsonObject(jsonObject(result.out(), "faults"), "A"), "stray"));
        assertEquals(5, jsonNumber(jsonObject(jsonObject(result.out(), "faults"), "B"), "stray"));
        assertEquals(all.stream().filter(p -> p.line() == 0).count(),
            jsonNumber(jsonObject(result.out(), "packets"), "A"), "injected packets are counted as sent");
    }

    @Test
    void shouldSendFarAheadCopiesWhoseSequenceIsShiftedByTheFarAheadSequence() throws Exception
    {
        final Path file = dir.resolve("far.pcap");
        final SimCommandTest.Result result = sim("--messages", "20000", "--seed", "8", "--instruments", "20",
            "--far-ahead", "3", "--far-ahead-rate", "0.01", "--pcap", file.toString(), "--json");
        assertEquals(0, result.exitCode(), result.err());

        final List<Packet> all = packets(file);
        final List<Packet> far = all.stream().filter(p -> p.sequence() >= FAR).toList();
        final long counted = jsonNumber(jsonObject(jsonObject(result.out(), "faults"), "A"), "farAhead") +
            jsonNumber(jsonObject(jsonObject(result.out(), "faults"), "B"), "farAhead");
        assertEquals(far.size(), counted);
        assertTrue(far.size() > 3 + 5, "three by count and some by a 1% rate: " + far.size());
        for (final Packet packet : far)
        {
            final Packet copied = all.get(packet.index() - 1);
            assertEquals(copied.sequence() + FAR - 1, packet.sequence());
            assertArrayEquals(Arrays.copyOfRange(copied.bytes(), 18, copied.bytes().length),
                Arrays.copyOfRange(packet.bytes(), 18, packet.bytes().length), "otherwise a copy");
            assertEquals("SIM0000001", packet.session());
        }
        final SimCommandTest.Result again = sim("--messages", "20000", "--seed", "8", "--instruments", "20",
            "--far-ahead", "3", "--far-ahead-rate", "0.01", "--json");
        assertEquals(jsonObject(result.out(), "faults"), jsonObject(again.out(), "faults"), "the same seed, the same");
    }

    @Test
    void shouldAnswerReRequestsForBothSessionsAfterASessionChange() throws Exception
    {
        final int port;
        try (DatagramChannel probe = DatagramChannel.open())
        {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            port = ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
        final CompletableFuture<SimCommandTest.Result> run = CompletableFuture.supplyAsync(() -> sim("--messages",
            "20000", "--seed", "9", "--instruments", "10", "--session-change-at", "12000",
            "--serve-retransmits", String.valueOf(port), "--linger-ms", "3000", "--json"));
        final List<byte[]> day = generated(9, 10, 20_000);
        final Map<String, byte[]> answers = new HashMap<>();
        try (DatagramChannel client = DatagramChannel.open())
        {
            client.bind(new InetSocketAddress("127.0.0.1", 0));
            client.configureBlocking(false);
            final ByteBuffer received = ByteBuffer.allocate(2_048);
            for (int attempt = 0; attempt < 200 && answers.size() < 2 && !run.isDone(); attempt++)
            {
                for (final String session : List.of("SIM0000001", "SIM0000002"))
                {
                    if (!answers.containsKey(session))
                    {
                        final UnsafeBuffer request = new UnsafeBuffer(new byte[MoldUdp64RequestFlyweight.LENGTH]);
                        new MoldUdp64RequestFlyweight().wrap(request, 0).session(MoldUdp64Session.of(session))
                            .sequenceNumber(7_000).requestedCount(3);
                        client.send(ByteBuffer.wrap(request.byteArray()), new InetSocketAddress("127.0.0.1", port));
                    }
                }
                Thread.sleep(20);
                while (null != client.receive(received.clear()))
                {
                    final byte[] answer = Arrays.copyOf(received.array(), received.position());
                    answers.put(new String(answer, 0, 10, StandardCharsets.US_ASCII), answer);
                }
            }
        }
        final SimCommandTest.Result result = run.get(60, TimeUnit.SECONDS);
        assertEquals(0, result.exitCode(), result.err());
        assertEquals(2, answers.size(), "both sessions answered: " + answers.keySet());
        final RecordedPackets.Decoded first = RecordedPackets.decode(List.of(answers.get("SIM0000001")));
        final RecordedPackets.Decoded second = RecordedPackets.decode(List.of(answers.get("SIM0000002")));
        assertEquals(List.of(7_000L, 7_001L, 7_002L), first.sequences);
        assertEquals(List.of(7_000L, 7_001L, 7_002L), second.sequences);
        assertArrayEquals(day.get(6_999), first.messages.get(0), "the first session's message 7000");
        assertArrayEquals(day.get(12_000 + 6_999), second.messages.get(0), "the second session's message 7000");
    }

    @Test
    void shouldRefuseSessionFaultArgumentsThatCannotApply()
    {
        for (final String[] args : List.of(
            new String[] { "--messages", "1000", "--session-change-at", "1000" },
            new String[] { "--messages", "1000", "--session-change-at", "-1" },
            new String[] { "--messages", "1000", "--session-change-at", "10", "--second-session", "SIM0000001" },
            new String[] { "--messages", "1000", "--lag-b-ms", "-1" },
            new String[] { "--messages", "1000", "--stray", "-2" },
            new String[] { "--messages", "1000", "--far-ahead-rate", "1.5" },
            new String[] { "--messages", "1000", "--far-ahead-sequence", "1" },
            new String[] { "--messages", "1000", "--stray", "1", "--itch", dir.resolve("x.itch").toString() }))
        {
            final SimCommandTest.Result result = sim(args);
            assertEquals(2, result.exitCode(), String.join(" ", args) + ": " + result.err());
            assertTrue(result.err().lines().findFirst().orElse("").length() > 10, result.err());
        }
    }
}
