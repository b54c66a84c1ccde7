package io.mdgate.core.capture;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;

import static io.mdgate.core.capture.CaptureFixtures.dailyFile;
import static io.mdgate.core.capture.CaptureFixtures.itch;
import static io.mdgate.core.capture.CaptureFixtures.zeroPrefixedFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ItchFileFormatTest
{
    private static ItchFileFormat detect(final byte[] bytes)
    {
        return ItchFileFormat.detect(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    @Test
    void shouldRecogniseADailyFileByItsLengthPrefixes()
    {
        assertEquals(ItchFileFormat.DAILY, detect(dailyFile(itch('S', 1), itch('R', 2), itch('A', 3))));
    }

    @Test
    void shouldRecogniseAZeroPrefixedFileByItsTypeLengths()
    {
        assertEquals(ItchFileFormat.ZERO_PREFIXED, detect(zeroPrefixedFile(itch('S', 1), itch('A', 2), itch('P', 3))));
    }

    @Test
    void shouldRecogniseAnItchFileWhoseSampleEndsInsideARecord()
    {
        final byte[] file = dailyFile(itch('S', 1), itch('R', 2));
        assertEquals(ItchFileFormat.DAILY, detect(CaptureFixtures.cut(file, 10)));
    }

    @ParameterizedTest
    @ValueSource(ints = { 0xA1B2C3D4, 0xD4C3B2A1, 0xA1B23C4D, 0x4D3CB2A1 })
    void shouldRecogniseEveryClassicPcapMagic(final int magic)
    {
        final byte[] header = new byte[PcapReader.FILE_HEADER_LENGTH];
        new UnsafeBuffer(header).putInt(0, magic, ByteOrder.BIG_ENDIAN);
        assertEquals(ItchFileFormat.PCAP, detect(header));
    }

    @Test
    void shouldRecognisePcapNgInBothByteOrders()
    {
        assertEquals(ItchFileFormat.PCAPNG, detect(new CaptureFixtures.PcapNg(ByteOrder.LITTLE_ENDIAN).section().toBytes()));
        assertEquals(ItchFileFormat.PCAPNG, detect(new CaptureFixtures.PcapNg(ByteOrder.BIG_ENDIAN).section().toBytes()));
    }

    @Test
    void shouldRecogniseNothingInAnEmptyFile()
    {
        assertNull(detect(new byte[0]));
    }

    @Test
    void shouldRecogniseNothingInTextOrRawMoldUdp64Packets()
    {
        assertNull(detect("hello, this is not market data\n".getBytes()));
        assertNull(detect(CaptureFixtures.moldPacket("", 1, itch('S', 1))));
    }

    @Test
    void shouldStillRecogniseADailyFileWithOneDamagedRecordNearTheStart()
    {
        final byte[] damaged = itch('A', 2);
        damaged[0] = '%';
        assertEquals(ItchFileFormat.DAILY, detect(dailyFile(itch('S', 1), damaged, itch('A', 3), itch('D', 4))));
    }

    @Test
    void shouldRefuseADailyFileWhosePrefixDisagreesWithTheType()
    {
        final byte[] file = dailyFile(itch('S', 1), itch('A', 2));
        file[0] = 0;
        file[1] = 13;
        assertNull(detect(file));
    }

    @Test
    void shouldNameEveryFormatWhenListingWhatIsAccepted()
    {
        final String accepted = ItchFileFormat.acceptedFormats();
        for (final ItchFileFormat format : ItchFileFormat.values())
        {
            assertTrue(accepted.contains(format.description()), accepted);
        }
        assertTrue(accepted.contains("gzip"), accepted);
    }
}
