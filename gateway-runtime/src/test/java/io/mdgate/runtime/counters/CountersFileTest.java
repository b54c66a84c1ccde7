package io.mdgate.runtime.counters;

import io.mdgate.core.counters.CounterType;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CountersFileTest
{
    @TempDir
    Path dir;

    @Test
    void shouldReadEveryCounterWithItsLabelTypeAndValueWhileTheWriterRuns()
    {
        final Path path = dir.resolve("sub/counters");
        try (CountersFileWriter writer = CountersFileWriter.create(path, "gw-test", 64, 4096))
        {
            final AtomicCounter packets = writer.newCounter("feed.A.packets", CounterType.TOTAL);
            final AtomicCounter lag = writer.newCounter("egress.consumer.s1.lag", CounterType.LEVEL);
            packets.increment();
            packets.increment();
            lag.set(17);
            try (CountersFile file = CountersFile.open(path))
            {
                final CountersSnapshot snapshot = file.snapshot();
                assertEquals(2, snapshot.value("feed.A.packets"));
                assertEquals(17, snapshot.value("egress.consumer.s1.lag"));
                assertEquals(CounterType.TOTAL, snapshot.typeId("feed.A.packets"));
                assertEquals(CounterType.LEVEL, snapshot.typeId("egress.consumer.s1.lag"));
                assertEquals(List.of("feed.A.packets", "egress.consumer.s1.lag"),
                    List.copyOf(snapshot.values().keySet()));
                assertEquals("gw-test", snapshot.gatewayName());
                assertEquals(ProcessHandle.current().pid(), snapshot.pid());
                assertEquals(CountersSnapshot.State.RUNNING, snapshot.state());

                packets.increment();
                assertEquals(3, file.snapshot().value("feed.A.packets"), "values are live, not copied at open");
            }
        }
    }

    @Test
    void shouldKeepTheCountersReadableAfterTheGatewayStopped()
    {
        final Path path = dir.resolve("counters");
        try (CountersFileWriter writer = CountersFileWriter.create(path, "gw", 8, 4096))
        {
            writer.newCounter("journal.position", CounterType.POSITION).set(42);
        }
        try (CountersFile file = CountersFile.open(path))
        {
            final CountersSnapshot snapshot = file.snapshot();
            assertEquals(42, snapshot.value("journal.position"));
            assertEquals(CountersSnapshot.State.STOPPED, snapshot.state());
            assertTrue(snapshot.stopEpochMillis() > 0);
        }
    }

    @Test
    void shouldCallAGatewayWhoseHeartbeatIsStaleAndThatNeverStoppedDead()
    {
        final Path path = dir.resolve("counters");
        final long[] now = { 1_000_000L };
        final CountersFileWriter writer = CountersFileWriter.create(path, "gw", 8, 4096, () -> now[0]);
        writer.heartbeat(1_000_000L);
        try (CountersFile file = CountersFile.open(path))
        {
            assertEquals(CountersSnapshot.State.DEAD, file.snapshot().state(),
                "a heartbeat from 1970 is stale and the file has no stop time");
        }
        writer.close();
    }

    @Test
    void shouldRecordEachDistinctErrorOnceWithItsCount()
    {
        final Path path = dir.resolve("counters");
        try (CountersFileWriter writer = CountersFileWriter.create(path, "gw", 8, 64 * 1024))
        {
            final IllegalStateException error = new IllegalStateException("port p0 failed");
            writer.errorLog().record(error);
            writer.errorLog().record(error);
            writer.errorLog().record(new IllegalArgumentException("bad packet"));
            try (CountersFile file = CountersFile.open(path))
            {
                final List<ErrorRecord> errors = file.errors();
                assertEquals(2, errors.size());
                assertEquals(2, errors.get(0).observations());
                assertTrue(errors.get(0).text().contains("port p0 failed"), errors.get(0).text());
                assertTrue(errors.get(1).text().contains("bad packet"), errors.get(1).text());
            }
        }
    }

    @Test
    void shouldRefuseALabelAllocatedTwice()
    {
        try (CountersFileWriter writer = CountersFileWriter.create(dir.resolve("c"), "gw", 8, 4096))
        {
            writer.newCounter("feed.gaps.opened", CounterType.TOTAL);
            assertThrows(IllegalArgumentException.class,
                () -> writer.newCounter("feed.gaps.opened", CounterType.TOTAL));
        }
    }

    @Test
    void shouldRefuseToTakeOverTheFileOfAnotherRunningProcess() throws IOException
    {
        final Path path = dir.resolve("counters");
        CountersFileWriter.create(path, "first", 8, 4096).close();
        final long parentPid = ProcessHandle.current().parent().orElseThrow().pid();
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw"))
        {
            file.seek(CountersFileDescriptor.PID_OFFSET);
            file.writeLong(Long.reverseBytes(parentPid));
            file.seek(CountersFileDescriptor.STOP_TIME_OFFSET);
            file.writeLong(0);
        }
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> CountersFileWriter.create(path, "second", 8, 4096));
        assertTrue(ex.getMessage().contains("running process " + parentPid), ex.getMessage());
    }

    @Test
    void shouldReplaceTheFileOfAGatewayThatStopped()
    {
        final Path path = dir.resolve("counters");
        try (CountersFileWriter first = CountersFileWriter.create(path, "first", 8, 4096))
        {
            first.newCounter("old", CounterType.TOTAL).set(5);
        }
        try (CountersFileWriter second = CountersFileWriter.create(path, "second", 8, 4096);
            CountersFile file = CountersFile.open(path))
        {
            assertFalse(file.snapshot().has("old"));
            assertEquals("second", file.gatewayName());
        }
    }

    @Test
    void shouldSayWhatIsWrongWithAFileThatIsAbsentOrNotACountersFile() throws IOException
    {
        final CountersFileException absent = assertThrows(CountersFileException.class,
            () -> CountersFile.open(dir.resolve("none")));
        assertTrue(absent.getMessage().contains("no counters file"), absent.getMessage());
        final Path other = dir.resolve("other");
        Files.write(other, new byte[4096]);
        final CountersFileException notOne = assertThrows(CountersFileException.class, () -> CountersFile.open(other));
        assertTrue(notOne.getMessage().contains("is not a counters file"), notOne.getMessage());
    }
}
