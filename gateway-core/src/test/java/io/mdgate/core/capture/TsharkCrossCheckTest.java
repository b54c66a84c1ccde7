package io.mdgate.core.capture;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Cross-checks the capture path against Wireshark's own MoldUDP64 dissector: for every sequenced Nasdaq sample
 * capture, the sequence and length of every message must be what tshark finds. Skipped, with the reason printed,
 * when tshark or the samples are absent.
 */
@Tag("slow")
class TsharkCrossCheckTest
{
    private static final List<String> SEQUENCED = List.of(
        "omi/Nasdaq/Nasdaq.Equities.TotalView.Itch.v5.0",
        "omi/Nasdaq/Bx.Equities.TotalView.Itch.v5.0");

    private static Path tshark()
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
        {
            final Path candidate = Path.of(dir, "tshark");
            if (Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /** Runs tshark and returns "sequence:length" per message, in capture order. */
    private static List<String> tsharkMessages(final Path tshark, final Path pcap, final int port)
        throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(tshark.toString(), "-r", pcap.toString(),
            "-d", "udp.port==" + port + ",moldudp64", "-T", "fields",
            "-e", "moldudp64.msgseq", "-e", "moldudp64.msglen")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        final String output;
        try (InputStream in = process.getInputStream())
        {
            output = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            process.destroyForcibly();
            throw new IOException("tshark failed on " + pcap);
        }
        final List<String> messages = new ArrayList<>();
        for (final String line : output.split("\n"))
        {
            final String[] fields = line.split("\t", -1);
            if (fields.length < 2 || fields[0].isBlank())
            {
                continue;
            }
            final String[] sequences = fields[0].split(",");
            final String[] lengths = fields[1].split(",");
            for (int i = 0; i < sequences.length; i++)
            {
                messages.add(sequences[i].trim() + ":" + lengths[i].trim());
            }
        }
        return messages;
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldFindTheSameMessageSequencesAndLengthsAsWireshark() throws Exception
    {
        final Path tshark = tshark();
        if (tshark == null)
        {
            System.out.println("SKIPPED TsharkCrossCheckTest: tshark is not on the PATH (deploy/setup.sh installs it)");
        }
        assumeTrue(tshark != null, "tshark is not installed");

        int files = 0;
        for (final String dir : SEQUENCED)
        {
            for (final Path pcap : SampleFiles.pcapsUnder("TsharkCrossCheckTest", dir))
            {
                final RecordedMessages ours = new RecordedMessages();
                final RecordedPorts ports = new RecordedPorts();
                final DecodeSummary summary = new ItchFileDecoder(new ItchFileDecoder.Context()
                    .messageHandler(ours)).decode(pcap);
                readPorts(pcap, ports);

                final List<String> expected = tsharkMessages(tshark, pcap, ports.single());
                final List<String> actual = ours.messages().stream()
                    .map(m -> m.sequence() + ":" + m.length()).toList();
                assertFalse(expected.isEmpty(), "tshark found no MoldUDP64 message in " + pcap);
                assertEquals(expected, actual, pcap.toString());
                assertEquals(0, summary.malformed(), pcap.toString());
                System.out.println("tshark agrees on " + pcap.getFileName() + ": " + actual.size() + " messages");
                files++;
            }
        }
        assertFalse(files == 0, "no sequenced sample capture found");
    }

    private static void readPorts(final Path pcap, final RecordedPorts ports) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(pcap))
        {
            new PcapReader().read(input, new UdpFrameDissector(), ports);
        }
    }

    /** Collects the destination port of a capture that uses exactly one. */
    private static final class RecordedPorts implements UdpDatagramHandler
    {
        private int port = -1;

        @Override
        public void onDatagram(
            final long timestampNanos,
            final int sourceAddress,
            final int sourcePort,
            final int destinationAddress,
            final int destinationPort,
            final org.agrona.DirectBuffer buffer,
            final int offset,
            final int length)
        {
            if (port >= 0 && port != destinationPort)
            {
                throw new IllegalStateException("capture uses ports " + port + " and " + destinationPort);
            }
            port = destinationPort;
        }

        int single()
        {
            return port;
        }
    }
}
