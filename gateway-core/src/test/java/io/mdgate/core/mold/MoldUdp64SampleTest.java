package io.mdgate.core.mold;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Decodes a real capture of three MoldUDP64 packets stored back to back without any wrapper
 * ({@code ../shared/samples/moldudp-unwrap_mold.sample.dat}, relative to the project root). Its messages are not
 * Nasdaq ITCH 5.0, so only the framing is checked. The third packet's last block is cut short, which makes that
 * packet malformed as a whole.
 */
class MoldUdp64SampleTest
{
    private static final String SAMPLE = "moldudp-unwrap_mold.sample.dat";

    private static byte[] file;

    @BeforeAll
    static void loadSample() throws IOException
    {
        final Path samples = samplesDirectory();
        final Path sample = samples == null ? null : samples.resolve(SAMPLE);
        final boolean present = sample != null && Files.isRegularFile(sample);
        if (!present)
        {
            System.out.println("SKIPPED MoldUdp64SampleTest: ../shared/samples/" + SAMPLE +
                " is not beside the project root (samples are optional and never copied into the repository)");
        }
        assumeTrue(present, "../shared/samples/" + SAMPLE + " is absent");
        file = Files.readAllBytes(sample);
    }

    private static Path samplesDirectory()
    {
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.isDirectory(dir.resolve("gateway-core")) && Files.isRegularFile(dir.resolve("pom.xml")))
            {
                return dir.resolve("../shared/samples").normalize();
            }
        }
        return null;
    }

    /**
     * Finds where each packet ends by walking its block lengths, as a reader of an unwrapped stream must; a
     * packet that runs past the end of the file ends at the end of the file.
     */
    private static List<int[]> splitPackets()
    {
        final List<int[]> packets = new ArrayList<>();
        int start = 0;
        while (start < file.length)
        {
            final int count = u16(start + 18);
            int position = start + 20;
            for (int i = 0; i < count && position < file.length; i++)
            {
                position += 2 + u16(position);
            }
            final int end = Math.min(position, file.length);
            packets.add(new int[]{ start, end - start });
            start = end;
        }
        return packets;
    }

    private static int u16(final int at)
    {
        return ((file[at] & 0xFF) << 8) | (file[at + 1] & 0xFF);
    }

    @Test
    void shouldDecodeTheFirstTwoPacketsAndRefuseTheCutThirdAsAWhole()
    {
        final List<int[]> packets = splitPackets();
        assertEquals(3, packets.size());

        final UnsafeBuffer buffer = new UnsafeBuffer(file);
        final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
        final RecordingMessageHandler handler = new RecordingMessageHandler();

        assertEquals(15, decoder.decode(buffer, packets.get(0)[0], packets.get(0)[1], handler));
        assertEquals(1, decoder.sequenceNumber());
        assertArrayEquals(new byte[10], sessionOf(decoder));

        assertEquals(13, decoder.decode(buffer, packets.get(1)[0], packets.get(1)[1], handler));
        assertEquals(16, decoder.sequenceNumber());

        final int dispatchedBefore = handler.sequences.size();
        assertEquals(MoldUdp64PacketDecoder.BLOCK_OVERRUN,
            decoder.decode(buffer, packets.get(2)[0], packets.get(2)[1], handler));
        assertEquals(29, decoder.sequenceNumber(), "the header of the cut packet is still readable");
        assertEquals(dispatchedBefore, handler.sequences.size(), "nothing of the cut packet is dispatched");

        final List<Long> expected = new ArrayList<>();
        for (long sequence = 1; sequence <= 28; sequence++)
        {
            expected.add(sequence);
        }
        assertEquals(expected, handler.sequences);
        assertEquals(28, decoder.messagesDispatched());
        assertEquals(1, decoder.blockOverrunCount());
        assertEquals(3, decoder.packetCount());
    }

    @Test
    void shouldSeeTheSampleMessageLengthsAsFramed()
    {
        final List<int[]> packets = splitPackets();
        final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
        final RecordingMessageHandler handler = new RecordingMessageHandler();

        decoder.decode(new UnsafeBuffer(file), packets.get(0)[0], packets.get(0)[1], handler);

        final int[] lengths = handler.messages.stream().mapToInt(m -> m.length).toArray();
        assertArrayEquals(new int[]{ 5, 6, 5, 113, 25, 113, 25, 113, 25, 113, 25, 113, 25, 113, 25 }, lengths);
        assertTrue(handler.messages.get(3).length > 0);
    }

    @Test
    void shouldRefuseTheFirstPacketWhenTheRestOfTheFileIsTakenAsItsDatagram()
    {
        final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
        final RecordingMessageHandler handler = new RecordingMessageHandler();

        assertEquals(MoldUdp64PacketDecoder.TRAILING_BYTES,
            decoder.decode(new UnsafeBuffer(file), 0, file.length, handler));
        assertTrue(handler.sequences.isEmpty());
    }

    private static byte[] sessionOf(final MoldUdp64PacketDecoder decoder)
    {
        final byte[] session = new byte[10];
        decoder.session(session);
        return session;
    }
}
