package io.mdgate.app.journal;

import io.mdgate.app.sim.SimCommand;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Small simulated days for the command tests: a capture from the simulator, recorded into a journal.
 */
final class SimulatedJournal
{
    private SimulatedJournal()
    {
    }

    /** @return a pcap of a simulated day of the given messages, on the given date. */
    static Path capture(final Path dir, final String name, final int messages, final String date)
    {
        final Path capture = dir.resolve(name);
        final CommandRun sim = CommandRun.run(new SimCommand(), "--messages", Integer.toString(messages),
            "--date", date, "--pcap", capture.toString());
        assertEquals(0, sim.exitCode(), sim::toString);
        return capture;
    }

    /** @return a journal holding a recorded simulated day of the given messages on 2025-01-02. */
    static Path journal(final Path dir, final int messages)
    {
        final Path journal = dir.resolve("journal");
        final CommandRun record = CommandRun.run(new RecordCommand(),
            capture(dir, "day.pcap", messages, "2025-01-02").toString(), "--journal", journal.toString());
        assertEquals(0, record.exitCode(), record::toString);
        return journal;
    }
}
