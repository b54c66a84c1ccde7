package io.mdgate.core.capture;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decodes the real exchange samples beside the project ({@code ../shared/samples}); skipped, with the reason
 * printed, when they are absent.
 */
class SampleDecodeTest
{
    private static final String RITCH = "RITCH_ex20101224.TEST_ITCH_50.gz";
    private static final String BBEKELE = "BBekele_sample_first1000.itch";
    private static final String OMI = "omi/Nasdaq";
    private static final String MULTIPLE_PACKETS = "omi/Nasdaq/Nasdaq.Equities.TotalView.Itch.v5.0/Multiple.Packets.pcap";

    private static DecodeSummary decode(final Path file) throws IOException
    {
        final DecodeSummary summary = new ItchFileDecoder(new ItchFileDecoder.Context()).decode(file);
        System.out.println(file.getFileName() + ": " + summary.toJson());
        return summary;
    }

    private static Map<Character, Long> presentCounts(final DecodeSummary summary)
    {
        final Map<Character, Long> counts = new TreeMap<>();
        for (final byte type : DecodeSummary.types())
        {
            if (summary.count(type) > 0)
            {
                counts.put((char)type, summary.count(type));
            }
        }
        return counts;
    }

    @Test
    void shouldCountTheRitchSampleExactlyAsRitchPublishesIt() throws IOException
    {
        final DecodeSummary summary = decode(SampleFiles.require("SampleDecodeTest", RITCH));

        assertEquals(ItchFileFormat.ZERO_PREFIXED, summary.format());
        assertTrue(summary.compressed());
        assertEquals(Map.of('S', 6L, 'R', 3L, 'H', 3L, 'A', 4997L, 'F', 3L, 'E', 198L, 'X', 45L, 'D', 1745L,
            'U', 12L, 'P', 5000L), presentCounts(summary));
        assertEquals(12_012, summary.messages());
        assertEquals(0, summary.malformed());
        assertEquals(1, summary.firstSequence());
        assertEquals(12_012, summary.lastSequence());
    }

    @Test
    void shouldDecodeTheBekeleDailyFileWithoutMalformedMessages() throws IOException
    {
        final DecodeSummary summary = decode(SampleFiles.require("SampleDecodeTest", BBEKELE));

        assertEquals(ItchFileFormat.DAILY, summary.format());
        assertEquals(1000, summary.messages());
        assertEquals(0, summary.malformed());
        assertEquals(Map.of('S', 1L, 'R', 993L, 'H', 3L, 'Y', 3L), presentCounts(summary));
    }

    /**
     * The captures with rewritten packaging (a {@code .20230822} set) carry a zero session and sequence 0 in every
     * packet: MoldUDP64 never assigns sequence 0, so the gateway drops them as malformed, and so does decode.
     */
    @TestFactory
    List<DynamicTest> shouldDecodeEveryNasdaqSampleCaptureAsTheGatewayWouldTakeIt()
    {
        final Path root = SampleFiles.require("SampleDecodeTest", OMI);
        final List<Path> pcaps = SampleFiles.pcapsUnder("SampleDecodeTest", OMI);
        assertFalse(pcaps.isEmpty(), "no pcap under " + root);
        return pcaps.stream().map(pcap -> DynamicTest.dynamicTest(root.relativize(pcap).toString(), () ->
        {
            final DecodeSummary summary = decode(pcap);
            assertEquals(ItchFileFormat.PCAP, summary.format());
            assertEquals(summary.frames(), summary.udpDatagrams(), summary.toText());
            assertTrue(summary.packets() > 0, summary.toText());
            if (pcap.getParent().getFileName().toString().endsWith(".20230822"))
            {
                assertEquals(0, summary.messages(), summary.toText());
                assertEquals(summary.packets(), summary.unsequencedPackets(), summary.toText());
                assertEquals(summary.packets(), summary.malformed(), summary.toText());
                assertNull(summary.session(), summary.toText());
            }
            else
            {
                assertEquals(0, summary.malformed(), summary.toText());
                assertTrue(summary.messages() > 0, summary.toText());
                assertEquals(0, summary.unsequencedPackets(), summary.toText());
                assertNotNull(summary.session());
            }
        })).toList();
    }

    @Test
    void shouldTakeTheRealSessionWhenADamagedCopyOfTheFirstPacketWithZeroSessionBytesComesFirst(
        @TempDir final Path dir) throws IOException
    {
        final byte[] capture = withDamagedFirstPacket(
            SampleFiles.require("SampleDecodeTest", MULTIPLE_PACKETS), (payload, at) -> java.util.Arrays.fill(payload, at, at + 10, (byte)0));

        final DecodeSummary summary = decode(CaptureFixtures.write(dir, "zero-session-first.pcap", capture));

        assertEquals("000010059B", summary.session());
        assertEquals(39, summary.messages());
        assertEquals(14_764_496, summary.firstSequence());
        assertEquals(19_009_154, summary.lastSequence());
        assertEquals(1, summary.malformed());
        assertEquals(1, summary.moldMalformedOther());
        assertEquals(3, summary.linePackets(0));
        assertEquals(1, summary.gaps(), "only the sequence jump the sample holds");
    }

    @Test
    void shouldCountADamagedCopyOfTheFirstPacketWhoseBlockOverrunsItAsMalformedOnTheLine(
        @TempDir final Path dir) throws IOException
    {
        final byte[] capture = withDamagedFirstPacket(SampleFiles.require("SampleDecodeTest", MULTIPLE_PACKETS),
            (payload, at) -> payload[at + MoldUdp64PacketDecoder.HEADER_LENGTH] = 0x7F);

        final DecodeSummary summary = decode(CaptureFixtures.write(dir, "overrun-first.pcap", capture));

        assertEquals("000010059B", summary.session());
        assertEquals(39, summary.messages());
        assertEquals(1, summary.moldBlockOverrun());
        assertEquals(1, summary.malformed());
        assertEquals(0, summary.notMoldUdp64());
        assertEquals(3, summary.linePackets(0));
    }

    /** A place in a frame: the frame's bytes and the offset of its MoldUDP64 payload. */
    private interface Damage
    {
        void apply(byte[] frame, int payloadAt);
    }

    /** @return the sample with a damaged copy of its first record's packet inserted before it. */
    private static byte[] withDamagedFirstPacket(final Path sample, final Damage damage) throws IOException
    {
        final byte[] bytes = java.nio.file.Files.readAllBytes(sample);
        final int recordAt = PcapReader.FILE_HEADER_LENGTH;
        final int captured = java.nio.ByteBuffer.wrap(bytes, recordAt + 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        final int recordLength = PcapReader.RECORD_HEADER_LENGTH + captured;
        final byte[] record = java.util.Arrays.copyOfRange(bytes, recordAt, recordAt + recordLength);
        final int payloadAt = indexOf(record, "000010059B".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertTrue(payloadAt > PcapReader.RECORD_HEADER_LENGTH, "the sample's first packet carries session 000010059B");
        damage.apply(record, payloadAt);
        return CaptureFixtures.concat(java.util.Arrays.copyOfRange(bytes, 0, recordAt), record,
            java.util.Arrays.copyOfRange(bytes, recordAt, bytes.length));
    }

    private static int indexOf(final byte[] haystack, final byte[] needle)
    {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++)
        {
            for (int j = 0; j < needle.length; j++)
            {
                if (haystack[i + j] != needle[j])
                {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void shouldReportTheSequenceJumpInTheMultiplePacketsSampleAsOneGap() throws IOException
    {
        final DecodeSummary summary = decode(SampleFiles.require("SampleDecodeTest", MULTIPLE_PACKETS));

        assertEquals(1, summary.gaps());
        assertEquals(1, summary.gapRanges());
        assertEquals(14_764_497, summary.gapFirst(0));
        assertEquals(19_009_116, summary.gapLast(0));
        assertEquals(19_009_117 - 14_764_497, summary.missingMessages());
        assertEquals(14_764_496, summary.firstSequence());
        assertEquals(19_009_154, summary.lastSequence());
        assertEquals(39, summary.messages());
        assertEquals("000010059B", summary.session());
        assertEquals("233.54.12.111:26477", summary.lineDestination(0));
        assertEquals(0, summary.malformed());
    }

    @Test
    void shouldRefuseRawMoldUdp64PacketsWithoutACaptureAsNoAcceptedFormat()
    {
        final Path sample = SampleFiles.require("SampleDecodeTest", "moldudp-unwrap_mold.sample.dat");
        final CaptureFormatException ex = assertThrows(CaptureFormatException.class, () -> decode(sample));
        assertTrue(ex.getMessage().contains(sample.toString()), ex.getMessage());
    }
}
