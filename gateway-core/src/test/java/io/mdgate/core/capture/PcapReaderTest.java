package io.mdgate.core.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.ETHERTYPE_ARP;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_A;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_B;
import static io.mdgate.core.capture.CaptureFixtures.PORT;
import static io.mdgate.core.capture.CaptureFixtures.concat;
import static io.mdgate.core.capture.CaptureFixtures.cut;
import static io.mdgate.core.capture.CaptureFixtures.ethernet;
import static io.mdgate.core.capture.CaptureFixtures.udpFrame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PcapReaderTest
{
    private static final long T1 = 1_692_700_000_123_456_789L;
    private static final long T2 = 1_692_700_001_000_001_000L;

    @TempDir
    Path dir;

    private final PcapReader reader = new PcapReader();
    private final UdpFrameDissector dissector = new UdpFrameDissector();
    private final RecordedDatagrams recorded = new RecordedDatagrams();

    private long read(final byte[] content) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "c.pcap", content)))
        {
            return reader.read(input, dissector, recorded);
        }
    }

    @ParameterizedTest(name = "{0} byte order, nanosecond timestamps: {1}")
    @CsvSource({ "BIG_ENDIAN, true", "BIG_ENDIAN, false", "LITTLE_ENDIAN, true", "LITTLE_ENDIAN, false" })
    void shouldReadRecordsInEitherByteOrderWithEitherTimestampResolution(final String order, final boolean nanos)
        throws IOException
    {
        final ByteOrder byteOrder = "BIG_ENDIAN".equals(order) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final byte[] content = new CaptureFixtures.Pcap(byteOrder, nanos, 1)
            .record(T1, udpFrame(GROUP_A, PORT, new byte[] { 1, 2, 3 }))
            .record(T2, udpFrame(GROUP_B, PORT + 1, new byte[] { 4 }))
            .toBytes();

        assertEquals(2, read(content));
        assertEquals(byteOrder, reader.byteOrder());
        assertEquals(nanos, reader.nanosecond());
        assertEquals(1, reader.linkType());
        final long t1 = nanos ? T1 : T1 / 1000 * 1000;
        assertEquals(List.of(t1, T2), recorded.timestamps());
        assertEquals(new UdpEndpoint(GROUP_A, PORT), recorded.datagrams().get(0).destination());
        assertEquals(new UdpEndpoint(GROUP_B, PORT + 1), recorded.datagrams().get(1).destination());
        assertArrayEquals(new byte[] { 1, 2, 3 }, recorded.datagrams().get(0).payload());
    }

    @Test
    void shouldCountARecordCutInsideItsFrameAsTruncated() throws IOException
    {
        final byte[] content = new CaptureFixtures.Pcap()
            .record(T1, udpFrame(GROUP_A, PORT, new byte[20]))
            .record(T2, udpFrame(GROUP_A, PORT, new byte[20]))
            .toBytes();
        assertEquals(1, read(cut(content, 7)));
        assertEquals(1, reader.truncatedRecords());
        assertEquals(1, recorded.datagrams().size());
    }

    @Test
    void shouldCountARecordCutInsideItsHeaderAsTruncated() throws IOException
    {
        final byte[] content = new CaptureFixtures.Pcap().record(T1, udpFrame(GROUP_A, PORT, new byte[20])).toBytes();
        assertEquals(1, read(concat(content, new byte[9])));
        assertEquals(1, reader.truncatedRecords());
    }

    @Test
    void shouldHandFramesThatAreNotUdpToTheDissectorToCount() throws IOException
    {
        final byte[] content = new CaptureFixtures.Pcap()
            .record(T1, ethernet(ETHERTYPE_ARP, new byte[28]))
            .record(T2, udpFrame(GROUP_A, PORT, new byte[3]))
            .toBytes();
        assertEquals(2, read(content));
        assertEquals(1, dissector.notIpv4());
        assertEquals(1, recorded.datagrams().size());
    }

    @Test
    void shouldSkipARecordLargerThanTheWindowAndCarryOn() throws IOException
    {
        final byte[] huge = new byte[CaptureInput.MIN_CAPACITY + 100];
        final byte[] content = new CaptureFixtures.Pcap()
            .record(T1, huge)
            .record(T2, udpFrame(GROUP_A, PORT, new byte[] { 9 }))
            .toBytes();
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "big.pcap", content), CaptureInput.MIN_CAPACITY))
        {
            assertEquals(1, reader.read(input, dissector, recorded));
        }
        assertEquals(1, reader.oversizedRecords());
        assertArrayEquals(new byte[] { 9 }, recorded.datagrams().get(0).payload());
    }

    @Test
    void shouldRefuseAFileThatIsNotAPcapNamingIt()
    {
        final Path file = CaptureFixtures.write(dir, "not.pcap", new byte[64]);
        final CaptureFormatException ex = assertThrows(CaptureFormatException.class, () ->
        {
            try (CaptureInput input = CaptureInput.open(file))
            {
                reader.read(input, dissector, recorded);
            }
        });
        assertTrue(ex.getMessage().contains(file.toString()), ex.getMessage());
        assertTrue(ex.getMessage().contains("a1b2c3d4"), ex.getMessage());
    }
}
