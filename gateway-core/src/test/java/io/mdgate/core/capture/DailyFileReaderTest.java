package io.mdgate.core.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.concat;
import static io.mdgate.core.capture.CaptureFixtures.cut;
import static io.mdgate.core.capture.CaptureFixtures.dailyFile;
import static io.mdgate.core.capture.CaptureFixtures.itch;
import static org.junit.jupiter.api.Assertions.assertEquals;

class DailyFileReaderTest
{
    @TempDir
    Path dir;

    private final DailyFileReader reader = new DailyFileReader();
    private final RecordedMessages recorded = new RecordedMessages();

    private long read(final byte[] content) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "daily.itch", content)))
        {
            return reader.read(input, recorded);
        }
    }

    @Test
    void shouldDeliverEveryRecordWithItsPositionInTheFileAsSequence() throws IOException
    {
        assertEquals(3, read(dailyFile(itch('S', 10), itch('R', 11), itch('A', 12))));
        assertEquals(List.of(1L, 2L, 3L), recorded.sequences());
        assertEquals(List.of(10, 11, 12), recorded.tags());
        assertEquals(List.of(12, 39, 36), recorded.messages().stream().map(RecordedMessages.Message::length).toList());
        assertEquals(0, reader.truncatedRecords());
    }

    @Test
    void shouldCountALastRecordCutInsideItsMessageAsTruncated() throws IOException
    {
        assertEquals(1, read(cut(dailyFile(itch('S', 1), itch('A', 2)), 5)));
        assertEquals(1, reader.truncatedRecords());
        assertEquals(List.of(1), recorded.tags());
    }

    @Test
    void shouldCountALoneByteAfterTheLastRecordAsTruncated() throws IOException
    {
        assertEquals(1, read(concat(dailyFile(itch('S', 1)), new byte[] { 0 })));
        assertEquals(1, reader.truncatedRecords());
    }

    @Test
    void shouldPassOnARecordWhosePrefixDisagreesWithItsTypeForTheDecoderToCount() throws IOException
    {
        final byte[] odd = new byte[15];
        odd[0] = 'A';
        read(dailyFile(itch('S', 1), odd, itch('D', 3)));
        assertEquals(List.of('S', 'A', 'D'), recorded.messages().stream().map(RecordedMessages.Message::type).toList());
        assertEquals(15, recorded.messages().get(1).length());
        assertEquals(0, reader.truncatedRecords());
    }

    @Test
    void shouldReadAFileSpanningManyWindows() throws IOException
    {
        final int count = 40_000;
        final byte[][] messages = new byte[count][];
        for (int i = 0; i < count; i++)
        {
            messages[i] = itch(i % 2 == 0 ? 'P' : 'S', i & 0xFFFF);
        }
        try (CaptureInput input = CaptureInput.open(CaptureFixtures.write(dir, "big.itch", dailyFile(messages)),
            CaptureInput.MIN_CAPACITY))
        {
            assertEquals(count, reader.read(input, recorded));
        }
        for (int i = 0; i < count; i++)
        {
            assertEquals(i & 0xFFFF, recorded.messages().get(i).tag());
        }
    }
}
