package io.mdgate.core.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CaptureInputTest
{
    @TempDir
    Path dir;

    private static byte[] randomBytes(final int length)
    {
        final byte[] bytes = new byte[length];
        new Random(42).nextBytes(bytes);
        return bytes;
    }

    /** Reads the whole input in steps of uneven sizes, so the window slides and compacts many times. */
    private static byte[] readAll(final CaptureInput input) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        int step = 1;
        while (!input.isExhausted())
        {
            final int want = Math.min(step, CaptureInput.MIN_CAPACITY);
            if (!input.ensure(want))
            {
                want(input, out, input.remaining());
                break;
            }
            want(input, out, want);
            step = (step * 3 + 7) % 300_000;
        }
        return out.toByteArray();
    }

    private static void want(final CaptureInput input, final ByteArrayOutputStream out, final int length)
    {
        final byte[] chunk = new byte[length];
        input.buffer().getBytes(input.position(), chunk);
        out.writeBytes(chunk);
        input.advance(length);
    }

    @Test
    void shouldReadAFileLargerThanItsWindowThroughTheSameBuffer() throws IOException
    {
        final byte[] content = randomBytes(3 * CaptureInput.MIN_CAPACITY + 12345);
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "plain.bin", content), CaptureInput.MIN_CAPACITY))
        {
            assertFalse(input.isCompressed());
            assertArrayEquals(content, readAll(input));
            assertEquals(content.length, input.offset());
        }
    }

    @Test
    void shouldInflateAGzipFileRecognisedByItsMagicWhateverItsName() throws IOException
    {
        final byte[] content = randomBytes(2 * CaptureInput.MIN_CAPACITY + 99);
        final Path file = CaptureFixtures.write(dir, "capture.pcap", CaptureFixtures.gzip(content));
        try (CaptureInput input = CaptureInput.open(file, CaptureInput.MIN_CAPACITY))
        {
            assertTrue(input.isCompressed());
            assertArrayEquals(content, readAll(input));
            assertFalse(input.compressedStreamTruncated());
        }
    }

    @Test
    void shouldReadAStreamLargerThanItsWindowPlainOrGzipAndLeaveTheStreamOpen() throws IOException
    {
        final byte[] content = randomBytes(3 * CaptureInput.MIN_CAPACITY + 777);
        for (final boolean gzip : new boolean[] { false, true })
        {
            final boolean[] closed = { false };
            final java.io.InputStream stdin =
                new java.io.ByteArrayInputStream(gzip ? CaptureFixtures.gzip(content) : content)
                {
                    @Override
                    public void close()
                    {
                        closed[0] = true;
                    }
                };
            try (CaptureInput input = CaptureInput.open(stdin, "stdin", CaptureInput.MIN_CAPACITY))
            {
                assertEquals(gzip, input.isCompressed());
                assertEquals("stdin", input.name());
                assertEquals(null, input.file());
                assertArrayEquals(content, readAll(input));
                assertEquals(content.length, input.offset());
            }
            assertFalse(closed[0], "stdin is the caller's");
        }
    }

    @Test
    void shouldReportAGzipStreamCutShortInsteadOfThrowing() throws IOException
    {
        final byte[] content = randomBytes(200_000);
        final byte[] gzip = CaptureFixtures.gzip(content);
        final Path file = CaptureFixtures.write(dir, "cut.gz", CaptureFixtures.cut(gzip, gzip.length / 2));
        try (CaptureInput input = CaptureInput.open(file))
        {
            final byte[] read = readAll(input);
            assertTrue(input.compressedStreamTruncated());
            assertTrue(read.length < content.length);
            assertArrayEquals(Arrays.copyOf(content, read.length), read);
        }
    }

    @Test
    void shouldSayWhenTheDataEndsBeforeTheBytesWanted() throws IOException
    {
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "short.bin", new byte[10])))
        {
            assertFalse(input.ensure(11));
            assertEquals(10, input.remaining());
            assertTrue(input.ensure(10));
        }
    }

    @Test
    void shouldSkipBeyondTheWindowAndStopAtTheEndOfTheData() throws IOException
    {
        final byte[] content = randomBytes(CaptureInput.MIN_CAPACITY * 2);
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "skip.bin", content), CaptureInput.MIN_CAPACITY))
        {
            assertEquals(CaptureInput.MIN_CAPACITY + 5, input.skip(CaptureInput.MIN_CAPACITY + 5));
            assertTrue(input.ensure(1));
            assertEquals(content[CaptureInput.MIN_CAPACITY + 5], input.buffer().getByte(input.position()));
            assertEquals(CaptureInput.MIN_CAPACITY - 5, input.skip(Long.MAX_VALUE));
            assertTrue(input.isExhausted());
        }
    }

    @Test
    void shouldRefuseAWindowTooSmallForTheLargestRecord()
    {
        assertThrows(IllegalArgumentException.class,
            () -> CaptureInput.open(CaptureFixtures.write(dir, "x.bin", new byte[1]), 1024));
    }
}
