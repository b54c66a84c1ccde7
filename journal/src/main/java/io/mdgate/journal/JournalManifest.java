package io.mdgate.journal;

import io.mdgate.core.tick.sbe.TickEncoder;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The journal's manifest ({@link JournalLayout#MANIFEST}): format version, tick schema and length, roll cycle. It is
 * written once, atomically, when the journal is created, and checked at every open so that a journal is never read
 * with another layout or extended with another roll cycle. Not thread-safe; start-up only.
 */
final class JournalManifest
{
    static final int FORMAT_VERSION = 1;
    /**
     * Oldest tick schema version this build reads: version 2 only added the SESSION event type and version 3 the
     * LEVEL event type, so the ticks of a version 1 or 2 journal read the same. New journals are written with {@link TickEncoder#SCHEMA_VERSION}.
     */
    static final int OLDEST_SCHEMA_VERSION = 1;

    private static final String FORMAT = "format";
    private static final String SCHEMA_ID = "tickSchemaId";
    private static final String SCHEMA_VERSION = "tickSchemaVersion";
    private static final String TICK_LENGTH = "tickLength";
    private static final String ROLL_CYCLE = "rollCycle";

    private final JournalRollCycle rollCycle;
    private final int schemaVersion;

    /** A manifest for a journal this build writes: the current tick schema version. */
    JournalManifest(final JournalRollCycle rollCycle)
    {
        this(rollCycle, TickEncoder.SCHEMA_VERSION);
    }

    private JournalManifest(final JournalRollCycle rollCycle, final int schemaVersion)
    {
        this.rollCycle = rollCycle;
        this.schemaVersion = schemaVersion;
    }

    /** @return the tick schema version the manifest names: older than this build's when an older one wrote it. */
    int schemaVersion()
    {
        return schemaVersion;
    }

    JournalRollCycle rollCycle()
    {
        return rollCycle;
    }

    /**
     * @param journal the journal directory.
     * @return its manifest, checked against this build's format and tick schema.
     * @throws JournalException when there is no manifest or it does not match.
     */
    static JournalManifest read(final Path journal)
    {
        final Path file = JournalLayout.manifest(journal);
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            properties.load(reader);
        }
        catch (final NoSuchFileException ex)
        {
            throw new JournalException(journal + " is not an mdgate journal: it has no " + JournalLayout.MANIFEST +
                "; give the directory a journal was recorded into");
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
        expect(file, properties, FORMAT, FORMAT_VERSION);
        expect(file, properties, SCHEMA_ID, TickEncoder.SCHEMA_ID);
        expectBetween(file, properties, SCHEMA_VERSION, OLDEST_SCHEMA_VERSION, TickEncoder.SCHEMA_VERSION);
        expect(file, properties, TICK_LENGTH, TickEncoder.BLOCK_LENGTH);
        final String rollCycle = properties.getProperty(ROLL_CYCLE);
        try
        {
            return new JournalManifest(JournalRollCycle.valueOf(rollCycle),
                Integer.parseInt(properties.getProperty(SCHEMA_VERSION)));
        }
        catch (final IllegalArgumentException | NullPointerException ex)
        {
            throw new JournalException(file + ": rollCycle '" + rollCycle + "' is not one of " +
                JournalRollCycle.names() + "; the manifest is damaged, restore it from a copy");
        }
    }

    /** Writes the manifest through a temporary file and a rename, so a crash never leaves half of one. */
    void write(final Path journal)
    {
        final Path file = JournalLayout.manifest(journal);
        final Path temporary = journal.resolve(JournalLayout.MANIFEST + ".tmp");
        final Properties properties = new Properties();
        properties.setProperty(FORMAT, Integer.toString(FORMAT_VERSION));
        properties.setProperty(SCHEMA_ID, Integer.toString(TickEncoder.SCHEMA_ID));
        properties.setProperty(SCHEMA_VERSION, Integer.toString(TickEncoder.SCHEMA_VERSION));
        properties.setProperty(TICK_LENGTH, Integer.toString(TickEncoder.BLOCK_LENGTH));
        properties.setProperty(ROLL_CYCLE, rollCycle.name());
        try
        {
            try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8))
            {
                properties.store(writer, "mdgate journal: ticks/ holds 64-byte ticks, packets/ raw MoldUDP64 " +
                    "packets (docs/JOURNAL.md)");
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
    }

    private static void expectBetween(
        final Path file, final Properties properties, final String key, final int oldest, final int newest)
    {
        final String value = properties.getProperty(key);
        for (int version = oldest; version <= newest; version++)
        {
            if (Integer.toString(version).equals(value))
            {
                return;
            }
        }
        throw new JournalException(file + ": " + key + " is " + value + " where this mdgate reads " + oldest +
            " to " + newest + "; read the journal with the mdgate version that recorded it");
    }

    private static void expect(final Path file, final Properties properties, final String key, final int expected)
    {
        final String value = properties.getProperty(key);
        if (!Integer.toString(expected).equals(value))
        {
            throw new JournalException(file + ": " + key + " is " + value + " where this mdgate reads " + expected +
                "; read the journal with the mdgate version that recorded it");
        }
    }
}
