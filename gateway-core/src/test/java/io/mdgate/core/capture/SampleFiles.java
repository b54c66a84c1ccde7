package io.mdgate.core.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Finds the optional real exchange samples at {@code ../shared/samples} relative to the project root. A test that
 * needs one calls {@link #require(String, String)}, which prints why and skips the test when it is absent: the
 * samples are never copied into the repository.
 */
public final class SampleFiles
{
    private SampleFiles()
    {
    }

    /** @return the samples directory, or null when it is not beside the project root. */
    public static Path directory()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null)
        {
            if (Files.isDirectory(dir.resolve("gateway-core")) && Files.isRegularFile(dir.resolve("pom.xml")))
            {
                final Path samples = dir.resolve("../shared/samples").normalize();
                return Files.isDirectory(samples) ? samples : null;
            }
            dir = dir.getParent();
        }
        return null;
    }

    /**
     * @param test     name printed with the reason when skipping.
     * @param relative path under the samples directory.
     * @return the sample; the calling test is skipped when it is absent.
     */
    public static Path require(final String test, final String relative)
    {
        final Path dir = directory();
        final Path sample = dir == null ? null : dir.resolve(relative);
        final boolean present = sample != null && Files.exists(sample);
        if (!present)
        {
            System.out.println("SKIPPED " + test + ": ../shared/samples/" + relative +
                " is not beside the project root (samples are optional and never copied into the repository)");
        }
        assumeTrue(present, "../shared/samples/" + relative + " is absent");
        return sample;
    }

    /** @return every {@code .pcap} file under a sample directory, sorted; the test is skipped when it is absent. */
    public static List<Path> pcapsUnder(final String test, final String relative)
    {
        final Path dir = require(test, relative);
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(p -> p.toString().endsWith(".pcap")).sorted().collect(Collectors.toList());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
