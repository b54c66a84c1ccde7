package io.mdgate.core.capture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: runs Wireshark's {@code tshark} on a capture, when it is installed, to check files against a
 * dissector nobody on this project wrote.
 */
public final class Tshark
{
    private static final String[] LOCATIONS = { "/usr/bin/tshark", "/usr/local/bin/tshark" };

    private Tshark()
    {
    }

    /** @return the tshark executable, or null when it is not installed. */
    public static Path find()
    {
        for (final String location : LOCATIONS)
        {
            final Path path = Path.of(location);
            if (Files.isExecutable(path))
            {
                return path;
            }
        }
        return null;
    }

    /**
     * Runs tshark with the arguments given after {@code -r file} and returns its standard output lines.
     *
     * @throws IOException when tshark fails or takes more than two minutes.
     */
    public static List<String> run(final Path file, final String... arguments) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(find().toString());
        command.add("-r");
        command.add(file.toString());
        command.addAll(List.of(arguments));
        final Path output = Files.createTempFile("tshark", ".out");
        try
        {
            final Process process = new ProcessBuilder(command)
                .redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
            if (!process.waitFor(2, TimeUnit.MINUTES))
            {
                process.destroyForcibly();
                throw new IOException("tshark took more than two minutes: " + command);
            }
            if (process.exitValue() != 0)
            {
                throw new IOException("tshark exited with " + process.exitValue() + ": " + command);
            }
            return Files.readAllLines(output, StandardCharsets.UTF_8);
        }
        finally
        {
            Files.deleteIfExists(output);
        }
    }

    /**
     * @return the frames (numbers) tshark finds malformed, with a warning or error, or with a bad IPv4 or UDP
     *         checksum, when the given UDP port is dissected as MoldUDP64.
     */
    public static List<String> problems(final Path file, final int moldPort) throws IOException, InterruptedException
    {
        return run(file, "-d", "udp.port==" + moldPort + ",moldudp64",
            "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
            "-Y", "_ws.malformed || _ws.expert.severity >= \"Warning\" || ip.checksum.status == \"Bad\" || " +
            "udp.checksum.status == \"Bad\"",
            "-T", "fields", "-e", "frame.number");
    }
}
