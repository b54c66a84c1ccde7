package io.mdgate.journal;

import io.mdgate.core.tick.sbe.TickEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manifest's tick schema version: journals written before the SESSION (version 1) or LEVEL (version 2) event
 * type still open, new
 * ones are written with the current version, and a version this build does not know is refused.
 */
@Timeout(30)
class JournalManifestTest
{
    @TempDir
    Path dir;

    private Path manifestWithSchemaVersion(final int version) throws Exception
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 10);
        final Path manifest = dir.resolve(JournalLayout.MANIFEST);
        final String text = Files.readString(manifest);
        Files.writeString(manifest, text.replace("tickSchemaVersion=" + TickEncoder.SCHEMA_VERSION,
            "tickSchemaVersion=" + version));
        return manifest;
    }

    @Test
    void shouldWriteTheCurrentTickSchemaVersionThree() throws Exception
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 10);
        assertEquals(3, TickEncoder.SCHEMA_VERSION);
        assertTrue(Files.readString(dir.resolve(JournalLayout.MANIFEST)).contains("tickSchemaVersion=3"));
    }

    @Test
    void shouldOpenAJournalWrittenWithTickSchemaVersionTwoAndMarkItThreeWhenWritingToIt() throws Exception
    {
        final Path manifest = manifestWithSchemaVersion(2);

        try (JournalReader reader = JournalReader.open(dir))
        {
            assertEquals(10, reader.info().ticks());
        }
        assertTrue(Files.readString(manifest).contains("tickSchemaVersion=2"), "a reader leaves it as it is");
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            assertEquals(11, journal.nextGatewaySequence());
        }
        assertTrue(Files.readString(manifest).contains("tickSchemaVersion=3"), "a writer may add LEVEL ticks");
    }

    @Test
    void shouldOpenAJournalWrittenWithTickSchemaVersionOne() throws Exception
    {
        manifestWithSchemaVersion(1);

        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            assertEquals(11, journal.nextGatewaySequence());
        }
        try (JournalReader reader = JournalReader.open(dir))
        {
            assertEquals(10, reader.info().ticks());
        }
    }

    @Test
    void shouldRefuseATickSchemaVersionThisBuildDoesNotKnow() throws Exception
    {
        manifestWithSchemaVersion(4);

        final JournalException refused =
            assertThrows(JournalException.class, () -> TickJournal.open(JournalFixture.context(dir)));
        assertTrue(refused.getMessage().contains("tickSchemaVersion is 4 where this mdgate reads 1 to 3"),
            refused.getMessage());
    }
}
