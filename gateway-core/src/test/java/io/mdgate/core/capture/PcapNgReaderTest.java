package io.mdgate.core.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.GROUP_A;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_B;
import static io.mdgate.core.capture.CaptureFixtures.PORT;
import static io.mdgate.core.capture.CaptureFixtures.cut;
import static io.mdgate.core.capture.CaptureFixtures.udpFrame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PcapNgReaderTest
{
    @TempDir
    Path dir;

    private final PcapNgReader reader = new PcapNgReader();
    private final UdpFrameDissector dissector = new UdpFrameDissector();
    private final RecordedDatagrams recorded = new RecordedDatagrams();

    private long read(final byte[] content) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "c.pcapng", content)))
        {
            return reader.read(input, dissector, recorded);
        }
    }

    private static ByteOrder order(final String name)
    {
        return "BIG_ENDIAN".equals(name) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    @ParameterizedTest
    @ValueSource(strings = { "BIG_ENDIAN", "LITTLE_ENDIAN" })
    void shouldReadEnhancedAndSimplePacketsInEitherByteOrder(final String order) throws IOException
    {
        final byte[] content = new CaptureFixtures.PcapNg(order(order))
            .section()
            .interfaceDescription(1, 65535, -1)
            .enhancedPacket(0, 1_700_000_000_123_456L, udpFrame(GROUP_A, PORT, new byte[] { 1, 2, 3 }))
            .simplePacket(udpFrame(GROUP_B, PORT, new byte[] { 4, 5 }))
            .toBytes();

        assertEquals(2, read(content));
        assertEquals(List.of(1_700_000_000_123_456_000L, 0L), recorded.timestamps());
        assertArrayEquals(new byte[] { 1, 2, 3 }, recorded.datagrams().get(0).payload());
        assertArrayEquals(new byte[] { 4, 5 }, recorded.datagrams().get(1).payload());
        assertEquals(new UdpEndpoint(GROUP_B, PORT), recorded.datagrams().get(1).destination());
    }

    @Test
    void shouldApplyEachInterfacesTimestampResolution() throws IOException
    {
        final byte[] content = new CaptureFixtures.PcapNg(ByteOrder.LITTLE_ENDIAN)
            .section()
            .interfaceDescription(1, 0, 9)
            .interfaceDescription(1, 0, 0x80 | 10)
            .enhancedPacket(0, 1_700_000_000_123_456_789L, udpFrame(GROUP_A, PORT, new byte[1]))
            .enhancedPacket(1, 3 * 1024 + 512, udpFrame(GROUP_A, PORT, new byte[1]))
            .toBytes();

        assertEquals(2, read(content));
        assertEquals(List.of(1_700_000_000_123_456_789L, 3_500_000_000L), recorded.timestamps());
    }

    @Test
    void shouldSkipBlocksItDoesNotNeedAndFollowANewSectionsByteOrder() throws IOException
    {
        final byte[] first = new CaptureFixtures.PcapNg(ByteOrder.LITTLE_ENDIAN)
            .section()
            .interfaceDescription(1, 0, -1)
            .block(4, new byte[] { 1, 0, 5, 0, 'h', 'o', 's', 't', '!', 0, 0, 0 })
            .block(5, new byte[20])
            .enhancedPacket(0, 1, udpFrame(GROUP_A, PORT, new byte[] { 7 }))
            .toBytes();
        final byte[] second = new CaptureFixtures.PcapNg(ByteOrder.BIG_ENDIAN)
            .section()
            .interfaceDescription(1, 0, -1)
            .enhancedPacket(0, 2, udpFrame(GROUP_B, PORT, new byte[] { 8 }))
            .toBytes();

        assertEquals(2, read(CaptureFixtures.concat(first, second)));
        assertEquals(2, reader.sections());
        assertArrayEquals(new byte[] { 8 }, recorded.datagrams().get(1).payload());
        assertEquals(0, reader.malformedBlocks());
    }

    @Test
    void shouldCountAPacketForAnUndescribedInterfaceAsMalformed() throws IOException
    {
        final byte[] content = new CaptureFixtures.PcapNg(ByteOrder.LITTLE_ENDIAN)
            .section()
            .interfaceDescription(1, 0, -1)
            .enhancedPacket(3, 1, udpFrame(GROUP_A, PORT, new byte[1]))
            .enhancedPacket(0, 1, udpFrame(GROUP_A, PORT, new byte[1]))
            .toBytes();
        assertEquals(1, read(content));
        assertEquals(1, reader.malformedBlocks());
    }

    @Test
    void shouldCountALastBlockCutShortAsTruncated() throws IOException
    {
        final byte[] content = new CaptureFixtures.PcapNg(ByteOrder.LITTLE_ENDIAN)
            .section()
            .interfaceDescription(1, 0, -1)
            .enhancedPacket(0, 1, udpFrame(GROUP_A, PORT, new byte[10]))
            .enhancedPacket(0, 2, udpFrame(GROUP_A, PORT, new byte[10]))
            .toBytes();
        assertEquals(1, read(cut(content, 6)));
        assertEquals(1, reader.truncatedRecords());
    }

    @Test
    void shouldStopAtABlockLengthThatLosesTheFraming() throws IOException
    {
        final byte[] content = new CaptureFixtures.PcapNg(ByteOrder.LITTLE_ENDIAN)
            .section()
            .interfaceDescription(1, 0, -1)
            .block(6, new byte[] { 1, 2, 3 })
            .toBytes();
        final int badBlock = content.length - 16;
        content[badBlock + 4] = 13;
        assertEquals(0, read(content));
        assertEquals(1, reader.malformedBlocks());
    }

    @Test
    void shouldRefuseAFileThatDoesNotStartWithASection()
    {
        final Path file = CaptureFixtures.write(dir, "x.pcapng", new byte[32]);
        assertThrows(CaptureFormatException.class, () ->
        {
            try (CaptureInput input = CaptureInput.open(file))
            {
                reader.read(input, dissector, recorded);
            }
        });
    }
}
