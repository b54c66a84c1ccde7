package io.mdgate.core.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import static io.mdgate.core.capture.CaptureFixtures.ETHERTYPE_IPV4;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_A;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_B;
import static io.mdgate.core.capture.CaptureFixtures.PORT;
import static io.mdgate.core.capture.CaptureFixtures.PROTOCOL_TCP;
import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.SOURCE;
import static io.mdgate.core.capture.CaptureFixtures.TPID_VLAN;
import static io.mdgate.core.capture.CaptureFixtures.cut;
import static io.mdgate.core.capture.CaptureFixtures.dailyFile;
import static io.mdgate.core.capture.CaptureFixtures.ethernet;
import static io.mdgate.core.capture.CaptureFixtures.gzip;
import static io.mdgate.core.capture.CaptureFixtures.ipv4;
import static io.mdgate.core.capture.CaptureFixtures.itch;
import static io.mdgate.core.capture.CaptureFixtures.moldPacket;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.capture.CaptureFixtures.udp;
import static io.mdgate.core.capture.CaptureFixtures.udpFrame;
import static io.mdgate.core.capture.CaptureFixtures.write;
import static io.mdgate.core.capture.CaptureFixtures.zeroPrefixedFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ItchFileDecoderTest
{
    @TempDir
    Path dir;

    private final RecordedMessages delivered = new RecordedMessages();

    private DecodeSummary decode(final Path file, final ItchFileDecoder.Context context) throws IOException
    {
        return new ItchFileDecoder(context.messageHandler(delivered)).decode(file);
    }

    private DecodeSummary decode(final Path file) throws IOException
    {
        return decode(file, new ItchFileDecoder.Context());
    }

    /** Line A loses sequences 4-5, line B is a packet late and carries them; both carry everything else. */
    private static byte[] twoLineCapture()
    {
        final CaptureFixtures.Pcap pcap = new CaptureFixtures.Pcap();
        byte[] late = null;
        for (long seq = 1; seq <= 10; seq += 2)
        {
            final byte[] packet = moldPacketOfAdds(SESSION, seq, 2);
            if (seq != 5)
            {
                pcap.udp(GROUP_A, packet);
            }
            if (late != null)
            {
                pcap.udp(GROUP_B, late);
            }
            late = packet;
        }
        return pcap.udp(GROUP_B, late).toBytes();
    }

    @Test
    void shouldDecodeADailyFileWithCountsPerTypeAndMalformedRecords() throws IOException
    {
        final byte[] odd = itch('D', 3);
        final byte[] unknown = new byte[] { '%', 0, 0 };
        final Path file = write(dir, "day.itch", cut(dailyFile(itch('S', 1), itch('A', 2), odd, unknown, itch('A', 5), itch('P', 6)), 4));

        final DecodeSummary summary = decode(file);

        assertEquals(ItchFileFormat.DAILY, summary.format());
        assertEquals(4, summary.messages());
        assertEquals(2, summary.count('A'));
        assertEquals(1, summary.count('S'));
        assertEquals(1, summary.count('D'));
        assertEquals(0, summary.count('P'));
        assertEquals(1, summary.unknownType());
        assertEquals(1, summary.truncatedRecords());
        assertEquals(2, summary.malformed());
        assertEquals(1, summary.firstSequence());
        assertEquals(5, summary.lastSequence());
        assertEquals(List.of(1L, 2L, 3L, 5L), delivered.sequences());
    }

    @Test
    void shouldDecodeAGzipZeroPrefixedFileWhateverItsName() throws IOException
    {
        final Path file = write(dir, "plain.txt", gzip(zeroPrefixedFile(itch('S', 1), itch('R', 2), itch('E', 3))));

        final DecodeSummary summary = decode(file);

        assertEquals(ItchFileFormat.ZERO_PREFIXED, summary.format());
        assertTrue(summary.compressed());
        assertEquals(3, summary.messages());
        assertEquals(1, summary.count('E'));
        assertEquals(0, summary.malformed());
    }

    @Test
    void shouldArbitrateBothLinesOfACaptureIntoOneStream() throws IOException
    {
        final DecodeSummary summary = decode(write(dir, "ab.pcap", twoLineCapture()));

        assertEquals(ItchFileFormat.PCAP, summary.format());
        assertEquals(10, summary.messages());
        assertEquals(10, summary.count('A'));
        assertEquals(sequences(1, 10), delivered.sequences());
        assertEquals(0, summary.gaps());
        assertEquals(8, summary.duplicates());
        assertEquals(4, summary.duplicatePackets());
        assertEquals(9, summary.packets());
        assertEquals("233.54.12.111:26477", summary.lineDestination(0));
        assertEquals("233.54.13.111:26477", summary.lineDestination(1));
        assertEquals(4, summary.linePackets(0));
        assertEquals(5, summary.linePackets(1));
        assertEquals(SESSION, summary.session());
        assertEquals(1, summary.firstSequence());
        assertEquals(10, summary.lastSequence());
    }

    @Test
    void shouldShowEveryDatagramOfALineWithItsCaptureTimeBeforeTheMessagesItReleases() throws IOException
    {
        final byte[] capture = new CaptureFixtures.Pcap()
            .record(1_000, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 1, 2)))
            .record(2_000, udpFrame(GROUP_B, PORT, moldPacketOfAdds(SESSION, 1, 2)))
            .record(3_000, udpFrame(GROUP_B, PORT + 1, moldPacketOfAdds(SESSION, 3, 1)))
            .record(4_000, udpFrame(GROUP_B, PORT, moldPacketOfAdds(SESSION, 3, 1)))
            .toBytes();
        final List<String> seen = new java.util.ArrayList<>();
        final ItchFileDecoder.Context context = new ItchFileDecoder.Context()
            .packetHandler((line, buffer, offset, length, time) ->
                seen.add("packet line " + line + " at " + time + " of " + length + " bytes, " + delivered.sequences().size() +
                    " messages before"));

        decode(write(dir, "tap.pcap", capture), context);

        assertEquals(List.of(
            "packet line 0 at 1000 of 96 bytes, 0 messages before",
            "packet line 1 at 2000 of 96 bytes, 2 messages before",
            "packet line 1 at 4000 of 58 bytes, 2 messages before"), seen);
        assertEquals(sequences(1, 3), delivered.sequences());
    }

    @Test
    void shouldReportTheHoleNeitherLineFilledAsAGap() throws IOException
    {
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 6, 1))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 6, 1))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "gap.pcap", capture));

        assertEquals(1, summary.gaps());
        assertEquals(3, summary.missingMessages());
        assertEquals(1, summary.gapRanges());
        assertEquals(3, summary.gapFirst(0));
        assertEquals(5, summary.gapLast(0));
        assertEquals(3, summary.duplicates());
    }

    @Test
    void shouldTakeTheLinesGivenAndCountDatagramsToOtherDestinations() throws IOException
    {
        final int groupC = 0xE9360E6F;
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(groupC, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 3, 2))
            .toBytes();
        final ItchFileDecoder.Context context = new ItchFileDecoder.Context()
            .lines(new UdpEndpoint(GROUP_A, PORT), new UdpEndpoint(GROUP_B, PORT));

        final DecodeSummary summary = decode(write(dir, "lines.pcap", capture), context);

        assertEquals(4, summary.messages());
        assertEquals(1, summary.otherDestinations());
        assertEquals("233.54.12.111:26477", summary.lineDestination(0));
        assertEquals(1, summary.linePackets(0));
        assertEquals(1, summary.linePackets(1));
    }

    @Test
    void shouldNotLetTrafficThatIsNotMoldUdp64BecomeALine() throws IOException
    {
        final int dns = 0x08080808;
        final byte[] capture = new CaptureFixtures.Pcap()
            .record(1, ethernet(ETHERTYPE_IPV4, ipv4(SOURCE, dns, 17, 0, udp(5353, 53, new byte[] { 1, 2, 3 }))))
            .record(2, ethernet(ETHERTYPE_IPV4, ipv4(SOURCE, GROUP_A, PROTOCOL_TCP, 0, new byte[20])))
            .record(3, ethernet(ETHERTYPE_IPV4, ipv4(SOURCE, GROUP_A, 17, 0x2000, udp(1, PORT, new byte[30]))))
            .record(4, ethernet(ETHERTYPE_IPV4, ipv4(SOURCE, GROUP_A, 17, 0,
                udp(1, PORT, moldPacketOfAdds(SESSION, 1, 1))), TPID_VLAN))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "mixed.pcap", capture));

        assertEquals(1, summary.messages());
        assertEquals(1, summary.notMoldUdp64());
        assertEquals(1, summary.notUdp());
        assertEquals(1, summary.fragments());
        assertEquals(4, summary.frames());
        assertEquals("233.54.12.111:26477", summary.lineDestination(0));
        assertEquals(0, summary.malformed());
    }

    @Test
    void shouldCountMalformedPacketsAndMessagesInACapture() throws IOException
    {
        final byte[] wrongLength = new byte[30];
        wrongLength[0] = 'A';
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, moldPacket(SESSION, 1, itch('S', 1), wrongLength, itch('A', 3)))
            .udp(GROUP_A, cut(moldPacketOfAdds(SESSION, 4, 2), 3))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 6, 1))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "bad.pcap", capture));

        assertEquals(3, summary.messages());
        assertEquals(1, summary.lengthMismatch());
        assertEquals(1, summary.moldBlockOverrun());
        assertEquals(2, summary.malformed());
        assertEquals(1, summary.gaps());
        assertEquals(2, summary.missingMessages());
    }

    @Test
    void shouldReadAGzipPcapNgCapture() throws IOException
    {
        final byte[] capture = new CaptureFixtures.PcapNg(ByteOrder.BIG_ENDIAN)
            .section()
            .interfaceDescription(1, 0, 9)
            .enhancedPacket(0, 5, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 7, 3)))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "capture.bin", gzip(capture)));

        assertEquals(ItchFileFormat.PCAPNG, summary.format());
        assertTrue(summary.compressed());
        assertEquals(3, summary.messages());
        assertEquals(7, summary.firstSequence());
        assertEquals(9, summary.lastSequence());
    }

    @Test
    void shouldCountATruncatedLastCaptureRecord() throws IOException
    {
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 3, 2))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "cut.pcap", cut(capture, 30)));

        assertEquals(2, summary.messages());
        assertEquals(1, summary.truncatedRecords());
        assertEquals(1, summary.malformed());
    }

    @Test
    void shouldReadTheFormatItIsToldEvenWhenDetectionWouldDisagree() throws IOException
    {
        final Path file = write(dir, "forced.itch", dailyFile(itch('S', 1), itch('A', 2)));

        final DecodeSummary summary = decode(file, new ItchFileDecoder.Context().format(ItchFileFormat.ZERO_PREFIXED));

        assertEquals(ItchFileFormat.ZERO_PREFIXED, summary.format());
        assertEquals(2, summary.messages());
    }

    @Test
    void shouldRefuseAFileInNoFormatNamingItAndWhatIsAccepted()
    {
        final Path file = write(dir, "notes.txt", "just some text, not market data".getBytes());

        final CaptureFormatException ex = assertThrows(CaptureFormatException.class, () -> decode(file));

        assertTrue(ex.getMessage().contains(file.toString()), ex.getMessage());
        assertTrue(ex.getMessage().contains(ItchFileFormat.acceptedFormats()), ex.getMessage());
    }

    @Test
    void shouldRefuseAnEmptyFileSayingItIsEmpty()
    {
        final CaptureFormatException ex = assertThrows(CaptureFormatException.class,
            () -> decode(write(dir, "empty.pcap", new byte[0])));
        assertTrue(ex.getMessage().contains("empty"), ex.getMessage());
    }

    @Test
    void shouldRefuseLineAddressesForAFileThatIsNotACapture()
    {
        final Path file = write(dir, "day.itch", dailyFile(itch('S', 1)));
        final ItchFileDecoder.Context context = new ItchFileDecoder.Context()
            .lines(new UdpEndpoint(GROUP_A, PORT), new UdpEndpoint(GROUP_B, PORT));
        assertThrows(IllegalArgumentException.class, () -> decode(file, context));
    }

    @Test
    void shouldTakeTheRealSessionWhenTheFirstPacketCarriesDamagedSessionBytes() throws IOException
    {
        final byte[] damaged = moldPacketOfAdds(SESSION, 1, 2);
        damaged[3] = 0x01;
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, damaged)
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 3, 3))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 3, 3))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "damaged-session.pcap", capture));

        assertEquals(SESSION, summary.session());
        assertEquals(sequences(1, 5), delivered.sequences());
        assertEquals(5, summary.messages());
        assertEquals(1, summary.malformed());
        assertEquals(1, summary.moldMalformedOther());
        assertEquals(0, summary.gaps());
        assertEquals(0, summary.sessionChanges());
        assertEquals(3, summary.linePackets(0));
    }

    @Test
    void shouldCountATruncatedFirstPacketOfALineAsMalformedOnThatLineAndDecodeTheRest() throws IOException
    {
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, cut(moldPacketOfAdds(SESSION, 1, 2), 7))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 3, 1))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 3, 1))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "truncated-first.pcap", capture));

        assertEquals(SESSION, summary.session());
        assertEquals(sequences(1, 3), delivered.sequences());
        assertEquals(1, summary.moldBlockOverrun());
        assertEquals(1, summary.malformed());
        assertEquals(0, summary.notMoldUdp64(), "the damaged packet went to line A, as it would live");
        assertEquals("233.54.12.111:26477", summary.lineDestination(1),
            "the damaged packet's destination is a line, second in the order of first valid packets");
        assertEquals(2, summary.linePackets(1));
        assertEquals(0, summary.gaps());
    }

    @Test
    void shouldCountSequenceZeroPacketsAsMalformedAndNeverDecodeThem() throws IOException
    {
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 2))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 0, 3))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 0, 1))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 3, 1))
            .toBytes();

        final DecodeSummary summary = decode(write(dir, "sequence-zero.pcap", capture));

        assertEquals(sequences(1, 3), delivered.sequences());
        assertEquals(3, summary.messages());
        assertEquals(2, summary.unsequencedPackets());
        assertEquals(2, summary.moldMalformedOther());
        assertEquals(2, summary.malformed());
    }

    @Test
    void shouldDeclareAHoleLostOnceTheGapWaitHasPassedInCaptureTimeSoALateCopyIsADuplicate() throws IOException
    {
        final long t0 = 1_700_000_000_000_000_000L;
        final byte[] capture = new CaptureFixtures.Pcap()
            .record(t0, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 1, 2)))
            .record(t0 + 1_000, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 5, 1)))
            .record(t0 + 1_000 + 2_500_000, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 6, 1)))
            .record(t0 + 1_000 + 3_000_000, udpFrame(GROUP_B, PORT, moldPacketOfAdds(SESSION, 3, 2)))
            .record(t0 + 1_000 + 3_100_000, udpFrame(GROUP_B, PORT, moldPacketOfAdds(SESSION, 7, 1)))
            .record(t0 + 1_000 + 3_200_000, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 9, 1)))
            .record(t0 + 1_000 + 3_300_000, udpFrame(GROUP_B, PORT, moldPacketOfAdds(SESSION, 8, 1)))
            .toBytes();
        final List<String> gaps = new java.util.ArrayList<>();
        final ItchFileDecoder.Context context = new ItchFileDecoder.Context()
            .gapHandler((first, count) -> gaps.add(first + "+" + count + " after " + delivered.sequences().size()));

        final DecodeSummary summary = decode(write(dir, "late.pcap", capture), context);

        assertEquals(List.of(1L, 2L, 5L, 6L, 7L, 8L, 9L), delivered.sequences());
        assertEquals(List.of("3+2 after 2"), gaps, "the gap wait of 2 ms ran out before line B's copy came");
        assertEquals(1, summary.gaps());
        assertEquals(3, summary.gapFirst(0));
        assertEquals(4, summary.gapLast(0));
        assertEquals(2, summary.duplicates(), "line B's late copy of 3-4");
        assertEquals(2, summary.heldPackets(), "5 after the gap, 9 after 8");
    }

    @Test
    void shouldWaitForTheOtherLineAsLongAsItIsToldInCaptureTime() throws IOException
    {
        final long t0 = 1_700_000_000_000_000_000L;
        final byte[] capture = new CaptureFixtures.Pcap()
            .record(t0, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 1, 2)))
            .record(t0 + 1_000, udpFrame(GROUP_A, PORT, moldPacketOfAdds(SESSION, 5, 1)))
            .record(t0 + 3_000_000, udpFrame(GROUP_B, PORT, moldPacketOfAdds(SESSION, 3, 2)))
            .toBytes();

        final DecodeSummary summary =
            decode(write(dir, "slow-b.pcap", capture), new ItchFileDecoder.Context().gapWaitNanos(5_000_000L));

        assertEquals(sequences(1, 5), delivered.sequences());
        assertEquals(0, summary.gaps());
    }

    @Test
    void shouldDeclareEverythingBeforeTheFirstPacketOneGapWhenToldTheSessionStartsAtOne() throws IOException
    {
        final byte[] capture = new CaptureFixtures.Pcap().udp(GROUP_A, moldPacketOfAdds(SESSION, 7, 2)).toBytes();

        final DecodeSummary summary =
            decode(write(dir, "late-join.pcap", capture), new ItchFileDecoder.Context().firstSequence(1));

        assertEquals(List.of(7L, 8L), delivered.sequences());
        assertEquals(1, summary.gaps());
        assertEquals(1, summary.gapFirst(0));
        assertEquals(6, summary.gapLast(0));
    }

    @Test
    void shouldRefuseSettingsThatCannotWork()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new ItchFileDecoder(new ItchFileDecoder.Context().holdPackets(0)));
        assertThrows(IllegalArgumentException.class,
            () -> new ItchFileDecoder(new ItchFileDecoder.Context().gapWaitNanos(-1)));
        assertThrows(IllegalArgumentException.class,
            () -> new ItchFileDecoder(new ItchFileDecoder.Context().firstSequence(-1)));
        assertThrows(IllegalArgumentException.class,
            () -> new ItchFileDecoder(new ItchFileDecoder.Context().lines(new UdpEndpoint(GROUP_A, PORT), null)));
        assertThrows(IllegalArgumentException.class, () -> new ItchFileDecoder(new ItchFileDecoder.Context()
            .lines(new UdpEndpoint(GROUP_A, PORT), new UdpEndpoint(GROUP_A, PORT))));
    }

    private static List<Long> sequences(final long from, final long toInclusive)
    {
        return LongStream.rangeClosed(from, toInclusive).boxed().toList();
    }
}
