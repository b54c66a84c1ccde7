package io.mdgate.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exit-code rule of docs/OPERATIONS.md for every command, as a careless operator meets it: a file that is not
 * there, a directory given for a file, an output that cannot be written, a bad number, an unknown option. Each
 * case checks the exit code and the first line of stderr, which must say what is wrong and what to do, and that
 * no Java stack trace and no usage screen reach the operator.
 */
@Timeout(60)
class CliFailureTest
{
    /** Commands with no named input: the unknown-option case covers them. */
    private static final Set<String> NO_NAMED_INPUT = Set.of("completion");

    /** What a command requires before picocli looks at an unknown option (it reports a missing one first). */
    private static final Map<String, List<String>> REQUIRED = Map.of(
        "consume", List.of("--consumer", "c", "--token", "t"),
        "decode", List.of("x.pcap"),
        "journal", List.of("info", "j"),
        "map", List.of("--config", "c.toml"),
        "record", List.of("x.pcap", "--journal", "j"),
        "replay", List.of("--journal", "j"),
        "report", List.of("x.hlog"),
        "run", List.of("--config", "c.toml"));

    @TempDir
    static Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    static Stream<Arguments> wrongInputs() throws IOException
    {
        final Path missing = dir.resolve("missing");
        final Path binary = dir.resolve("binary.toml");
        Files.write(binary, new byte[] { (byte)0xff, (byte)0xfe, 0, 1, (byte)0xc3, 0x28 });
        final Path existing = dir.resolve("existing.pcap");
        Files.writeString(existing, "not a journal");
        final Path journal = dir.resolve("journal");
        Files.createDirectories(journal);
        final Path hlog = Files.writeString(dir.resolve("stage.hlog"), "#[StartTime: 0]\n");
        final String m = missing.toString();
        final String noDir = missing.resolve("x.out").toString();
        final String file = existing.toString();
        return Stream.of(
            Arguments.of("sim", List.of("sim", "--pcap", noDir), 2,
                "mdgate sim: --pcap " + noDir + " cannot be created: " + m + " does not exist"),
            Arguments.of("sim", List.of("sim", "--pcap", dir.toString()), 2,
                "mdgate sim: --pcap " + dir + " is a directory; give a file"),
            Arguments.of("decode", List.of("decode", m), 2,
                "mdgate decode: cannot read " + m + ": no such file; give the path of a capture or ITCH file"),
            Arguments.of("decode", List.of("decode", dir.toString()), 2,
                "mdgate decode: cannot read " + dir + ": it is a directory"),
            // An interface is the host's, not a file: the host refuses at start (1).
            Arguments.of("ingress", List.of("ingress", "--ingress", "socket", "--interface", "mdg-nosuch0"), 1,
                "mdgate ingress: network interface 'mdg-nosuch0' does not exist; interfaces up on this host: "),
            Arguments.of("record", List.of("record", m, "--journal", journal.resolve("r").toString()), 2,
                "mdgate record: cannot read " + m + ": no such file; give the path of a capture or ITCH file"),
            Arguments.of("record", List.of("record", dir.toString(), "--journal", journal.resolve("r").toString()), 2,
                "mdgate record: cannot read " + dir + ": it is a directory"),
            Arguments.of("record", List.of("record", file, "--journal", file), 2,
                "mdgate record: --journal: " + file + " is a file, not a journal directory; give a new or empty"),
            Arguments.of("replay", List.of("replay", "--journal", m), 2,
                "mdgate replay: --journal: no journal at " + m + ": no such directory"),
            Arguments.of("replay", List.of("replay", "--journal", journal.toString(), "--out", noDir), 2,
                "mdgate replay: --out " + noDir + " cannot be created: " + m + " does not exist"),
            Arguments.of("journal", List.of("journal", "info", m), 2,
                "mdgate journal info: no journal at " + m + ": no such directory"),
            Arguments.of("publish", List.of("publish", "--tokens", m), 2,
                "mdgate publish: cannot read --tokens " + m + ": " + m + ": no such file or directory"),
            Arguments.of("consume", List.of("consume", "--all", "--consumer", "c", "--token", "t", "--shm-dir", m,
                "--connect-timeout-ms", "100"), 2, "mdgate consume: "),
            Arguments.of("run", List.of("run", "--config", m), 2,
                "mdgate run: refusing to start: " + m + ": no such file; give the path of a configuration file"),
            Arguments.of("run", List.of("run", "--config", binary.toString()), 2,
                "mdgate run: refusing to start: " + binary + ": is not a text file (not UTF-8)"),
            Arguments.of("run", List.of("run", "--config", dir.toString()), 2,
                "mdgate run: refusing to start: " + dir + ": is a directory"),
            Arguments.of("stat", List.of("stat", "--counters", m), 2, "mdgate stat: no counters file at " + m),
            Arguments.of("stat", List.of("stat", "--counters", dir.toString()), 2,
                "mdgate stat: " + dir + " is a directory; give the path of a file"),
            Arguments.of("errors", List.of("errors", "--counters", m), 2, "mdgate errors: no counters file at " + m),
            Arguments.of("errors", List.of("errors", "--counters", dir.toString()), 2,
                "mdgate errors: " + dir + " is a directory; give the path of a file"),
            Arguments.of("demo", List.of("demo", "--dir", file), 2,
                "mdgate demo: --dir " + file + " is a file; give a directory"),
            Arguments.of("report", List.of("report", m + ".hlog"), 2,
                "mdgate report: " + m + ".hlog does not exist"),
            Arguments.of("report", List.of("report", "--out", "/proc/mdgate-report", hlog.toString()), 2,
                "mdgate report: --out /proc/mdgate-report"),
            Arguments.of("map", List.of("map", "-c", m), 2, "mdgate map: " + m + ": no such file"),
            Arguments.of("cores", List.of("cores", "-c", m), 2, "mdgate cores: " + m + ": no such file"),
            Arguments.of("ports", List.of("ports", "-c", m), 2, "mdgate ports: " + m + ": no such file"),
            Arguments.of("doctor", List.of("doctor", "-c", m), 2, "mdgate doctor: " + m + ": no such file"),
            // Not an address of this host (TEST-NET-3): nothing is sent, the bind is refused (1).
            Arguments.of("clock", List.of("clock", "--serve", "203.0.113.7:7480"), 1,
                "mdgate clock: cannot answer on 203.0.113.7:7480 ("),
            Arguments.of("clock", List.of("clock", "--peer", "127.0.0.1"), 2,
                "mdgate clock: --peer: '127.0.0.1' is not IP:PORT with a port from 1 to 65535, e.g. 10.0.0.1:7480"),
            Arguments.of("help", List.of("help", "nosuch"), 2, "mdgate: Unknown subcommand 'nosuch'."));
    }

    static Stream<Arguments> badNumbers()
    {
        return Stream.of(
            Arguments.of(List.of("sim", "--messages", "many"), "mdgate sim: Invalid value for option '--messages'"),
            Arguments.of(List.of("stat", "--interval-ms", "-5"), "mdgate stat: --interval-ms"),
            Arguments.of(List.of("replay", "--journal", "j", "--from-seq", "x"),
                "mdgate replay: Invalid value for option '--from-seq'"),
            Arguments.of(List.of("publish", "--messages", "1e6"), "mdgate publish: Invalid value for option " +
                "'--messages'"),
            Arguments.of(List.of("run", "--config", "c.toml", "--duration", "-1"), "mdgate run: --duration"),
            Arguments.of(List.of("clock", "--peer", "127.0.0.1:7480", "--probes", "0"),
                "mdgate clock: --probes must be 1 to 100000, was 0"),
            Arguments.of(List.of("consume", "--consumer", "c", "--token", "t", "--all", "--clock-offset-ns",
                "86400000000001"), "mdgate consume: --clock-offset-ns must be within a day either way"));
    }

    static Stream<String> commands()
    {
        return new TreeSet<>(Main.commandLine().getSubcommands().keySet()).stream();
    }

    /** Every command but picocli's {@code help}, which takes any word for a command name (its case is above). */
    static Stream<String> commandsWithOptions()
    {
        return commands().filter(c -> !"help".equals(c));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("wrongInputs")
    void shouldSayWhatIsWrongWithANamedPathOnTheFirstLineAndExitWithTheRulesCode(
        final String command, final List<String> args, final int exitCode, final String firstLine)
    {
        final int exit = execute(args);

        assertFirstLine(firstLine, exit, exitCode);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNumbers")
    void shouldRefuseABadNumberWithOneLineAndExitCode2(final List<String> args, final String firstLine)
    {
        final int exit = execute(args);

        assertFirstLine(firstLine, exit, 2);
    }

    @ParameterizedTest(name = "{0} --bogus")
    @MethodSource("commandsWithOptions")
    void shouldRefuseAnUnknownOptionOfEveryCommandWithTwoLinesAndExitCode2(final String command)
    {
        final List<String> args = new ArrayList<>(List.of(command));
        args.addAll(REQUIRED.getOrDefault(command, List.of()));
        args.add("--bogus");
        final String name = "journal".equals(command) ? "mdgate journal info" : "mdgate " + command;

        final int exit = execute(args);

        assertFirstLine(name + ": Unknown option: '--bogus'", exit, 2);
        final List<String> lines = err.toString().lines().toList();
        assertEquals("Run '" + name + " --help' for its options and arguments.", lines.get(lines.size() - 1),
            err.toString());
        assertTrue(lines.size() <= 3, "the error, perhaps a suggestion, the pointer to --help: " + err);
    }

    @Test
    void shouldCoverEveryCommandWithAWrongInputCase() throws IOException
    {
        final Set<String> covered = new TreeSet<>();
        wrongInputs().forEach(a -> covered.add((String)a.get()[0]));
        final List<String> uncovered = new ArrayList<>();
        commands().filter(c -> !covered.contains(c) && !NO_NAMED_INPUT.contains(c)).forEach(uncovered::add);

        assertEquals(List.of(), uncovered, "commands without a wrong-input case");
    }

    private int execute(final List<String> args)
    {
        final CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args.toArray(String[]::new));
    }

    private void assertFirstLine(final String expected, final int exit, final int exitCode)
    {
        final String text = err.toString();
        final String first = text.lines().findFirst().orElse("");
        assertTrue(first.startsWith(expected), "first line of stderr:\n" + text);
        assertEquals(exitCode, exit, text);
        assertFalse(text.contains("\tat "), "a stack trace: " + text);
        assertFalse(text.contains("Exception"), "a Java exception's name: " + text);
        assertFalse(text.contains("Usage:"), "the usage buries the error: " + text);
    }
}
