package io.mdgate.core.capture;

import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ItchFileWriterTest
{
    @TempDir
    Path dir;

    private static long writeSession(final Path file)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(5).instruments(30).messages(100_000));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        try (ItchFileWriter writer = new ItchFileWriter(file))
        {
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                writer.write(message, 0, length);
            }
            assertEquals(100_000, writer.messagesWritten());
            return writer.bytesWritten();
        }
    }

    private static void assertFramesDecode(final byte[] bytes, final long expectedBytes)
    {
        assertEquals(expectedBytes, bytes.length);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final ItchMessageHandler ignore = new ItchMessageHandler()
        {
        };
        int at = 0;
        while (at < bytes.length)
        {
            final int length = ByteBuffer.wrap(bytes, at, 2).getShort() & 0xFFFF;
            assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, at + 2, length, ignore));
            at += 2 + length;
        }
        assertEquals(bytes.length, at);
        assertEquals(100_000, decoder.decodedCount());
    }

    @Test
    void shouldFrameEveryMessageWithItsBigEndianLength() throws Exception
    {
        final Path file = dir.resolve("s.itch");
        final long bytes = writeSession(file);
        assertFramesDecode(Files.readAllBytes(file), bytes);
    }

    @Test
    void shouldCompressWhenTheNameEndsInGz() throws Exception
    {
        final Path file = dir.resolve("s.itch.gz");
        final long bytes = writeSession(file);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file)))
        {
            assertFramesDecode(in.readAllBytes(), bytes);
        }
    }

    @Test
    void shouldRefuseAnEmptyMessage()
    {
        try (ItchFileWriter writer = new ItchFileWriter(dir.resolve("e.itch")))
        {
            assertThrows(IllegalArgumentException.class, () -> writer.write(new UnsafeBuffer(new byte[4]), 0, 0));
            assertEquals(0, writer.messagesWritten());
        }
    }
}
