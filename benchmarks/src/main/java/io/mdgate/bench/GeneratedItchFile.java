package io.mdgate.bench;

import io.mdgate.core.capture.ItchFileWriter;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A simulated ITCH 5.0 session in Nasdaq's daily-file framing, generated once per seed and size into a cache
 * directory and memory-mapped for the benchmarks, so every run reads the same bytes from memory, not the disk.
 */
final class GeneratedItchFile
{
    /** Where generated files are kept between runs; override with -Dmdgate.bench.data=DIR. */
    static final Path DATA_DIR = Path.of(System.getProperty("mdgate.bench.data", "target/bench-data"));

    private final UnsafeBuffer buffer;
    private final long messages;

    private GeneratedItchFile(final UnsafeBuffer buffer, final long messages)
    {
        this.buffer = buffer;
        this.messages = messages;
    }

    /**
     * @param messages    how many messages the session holds (start and end of day included).
     * @param instruments how many instruments the simulator trades.
     * @param seed        the simulator's seed.
     * @return the file, mapped read-only.
     */
    static GeneratedItchFile load(final long messages, final int instruments, final long seed) throws IOException
    {
        final Path file = DATA_DIR.resolve("itch-" + messages + "-i" + instruments + "-s" + seed + ".itch");
        if (!Files.exists(file))
        {
            generate(file, messages, instruments, seed);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            mapped.load();
            return new GeneratedItchFile(new UnsafeBuffer(mapped), messages);
        }
    }

    private static void generate(final Path file, final long messages, final int instruments, final long seed)
        throws IOException
    {
        Files.createDirectories(file.getParent());
        final Path partial = file.resolveSibling(file.getFileName() + ".partial");
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(seed).instruments(instruments).messages(messages).conclude());
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        try (ItchFileWriter writer = new ItchFileWriter(partial))
        {
            int length;
            while ((length = generator.next(scratch, 0)) > 0)
            {
                writer.write(scratch, 0, length);
            }
        }
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    long messages()
    {
        return messages;
    }
}
