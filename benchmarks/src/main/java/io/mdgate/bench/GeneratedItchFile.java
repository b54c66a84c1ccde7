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
 * A simulated ITCH 5.0 session in Nasdaq's daily-file framing, generated once per day shape (seed, size and the
 * order-depth settings) into a cache directory and memory-mapped for the benchmarks, so every run reads the same
 * bytes from memory, not the disk. Loaded on one thread; the mapped buffer is read-only.
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
     * @param config the simulator's settings; the file's name holds every one that shapes the day.
     * @return the file, mapped read-only.
     */
    static GeneratedItchFile load(final SimulationConfig config) throws IOException
    {
        config.conclude();
        final Path file = DATA_DIR.resolve(fileName(config));
        if (!Files.exists(file))
        {
            generate(file, config);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            mapped.load();
            return new GeneratedItchFile(new UnsafeBuffer(mapped), config.messages());
        }
    }

    /** @return e.g. {@code itch-10000000-i500-s1-o100-l256-f0.0-d64.itch}: messages, instruments, seed, orders
     *          per instrument, price levels, far-order share and far-order depth. */
    static String fileName(final SimulationConfig config)
    {
        return "itch-" + config.messages() + "-i" + config.instruments() + "-s" + config.seed() +
            "-o" + config.ordersPerInstrument() + "-l" + config.priceLevels() + "-f" + config.farOrderShare() +
            "-d" + config.farOrderLevels() + ".itch";
    }

    private static void generate(final Path file, final SimulationConfig config) throws IOException
    {
        Files.createDirectories(file.getParent());
        final Path partial = file.resolveSibling(file.getFileName() + ".partial");
        final ItchSessionGenerator generator = new ItchSessionGenerator(config);
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
