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
 * The manifest's tick schema version: journals written before the SESSION event type (version 1) still open, new
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
    void shouldWriteTheCurrentTickSchemaVersionTwo() throws Exception
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 10);
        assertEquals(2, TickEncoder.SCHEMA_VERSION);
        assertTrue(Files.readString(dir.resolve(JournalLayout.MANIFEST)).contains("tickSchemaVersion=2"));
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
        manifestWithSchemaVersion(3);

        final JournalException refused =
            assertThrows(JournalException.class, () -> TickJournal.open(JournalFixture.context(dir)));
        assertTrue(refused.getMessage().contains("tickSchemaVersion is 3 where this mdgate reads 1 to 2"),
            refused.getMessage());
    }
}
