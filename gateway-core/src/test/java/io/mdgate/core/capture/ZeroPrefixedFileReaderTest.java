package io.mdgate.core.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.concat;
import static io.mdgate.core.capture.CaptureFixtures.cut;
import static io.mdgate.core.capture.CaptureFixtures.itch;
import static io.mdgate.core.capture.CaptureFixtures.zeroPrefixedFile;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ZeroPrefixedFileReaderTest
{
    @TempDir
    Path dir;

    private final ZeroPrefixedFileReader reader = new ZeroPrefixedFileReader();
    private final RecordedMessages recorded = new RecordedMessages();

    private long read(final byte[] content) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "zero.itch", content)))
        {
            return reader.read(input, recorded);
        }
    }

    @Test
    void shouldFrameEachMessageByTheLengthOfItsType() throws IOException
    {
        assertEquals(4, read(zeroPrefixedFile(itch('S', 1), itch('A', 2), itch('P', 3), itch('D', 4))));
        assertEquals(List.of(1, 2, 3, 4), recorded.tags());
        assertEquals(List.of(1L, 2L, 3L, 4L), recorded.sequences());
        assertEquals(List.of(12, 36, 44, 19), recorded.messages().stream().map(RecordedMessages.Message::length).toList());
    }

    @Test
    void shouldCountATruncatedLastRecord() throws IOException
    {
        assertEquals(1, read(cut(zeroPrefixedFile(itch('S', 1), itch('A', 2)), 1)));
        assertEquals(1, reader.truncatedRecords());
    }

    @Test
    void shouldCountAnUnknownTypeAndFindTheFramingAgain() throws IOException
    {
        final byte[] garbage = { 0, 0, '!', 9, 9, 9, 9 };
        final byte[] content = concat(
            zeroPrefixedFile(itch('S', 1)), garbage, zeroPrefixedFile(itch('A', 2), itch('E', 3), itch('X', 4)));
        assertEquals(4, read(content));
        assertEquals(List.of(1, 2, 3, 4), recorded.tags());
        assertEquals(1, reader.unknownTypeRecords());
        assertEquals(garbage.length, reader.skippedBytes());
        assertEquals(0, reader.truncatedRecords());
    }

    @Test
    void shouldSkipGarbageAtTheEndThatStartsNoRecord() throws IOException
    {
        assertEquals(1, read(concat(zeroPrefixedFile(itch('S', 1)), new byte[] { 0, 0, '#', 1 })));
        assertEquals(1, reader.unknownTypeRecords());
        assertEquals(4, reader.skippedBytes());
    }
}
