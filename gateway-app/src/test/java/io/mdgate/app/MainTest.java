package io.mdgate.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest
{
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldListEveryRegisteredCommandWithItsSentenceInHelp()
    {
        final CommandLine commandLine = Main.commandLine();

        assertEquals(0, execute(commandLine, "--help"));

        final String help = out.toString();
        final String unwrapped = help.replaceAll("\\s+", " ");
        assertTrue(help.startsWith("Usage: mdgate"), help);
        assertTrue(help.contains("Commands:"), help);
        assertFalse(commandLine.getSubcommands().isEmpty());
        for (final Map.Entry<String, CommandLine> command : commandLine.getSubcommands().entrySet())
        {
            final String sentence = summary(command.getValue());
            assertFalse(sentence.isBlank(), command.getKey() + " has no description");
            assertTrue(help.contains("  " + command.getKey() + " "), help);
            assertTrue(unwrapped.contains(sentence), help);
        }
        assertEquals("", err.toString());
    }

    @Test
    void shouldRefuseAnUnknownOptionWithAPointerToTheHelpAndExitCode2()
    {
        assertEquals(2, execute(Main.commandLine(), "--bogus"));

        assertUsageError("mdgate: Unknown option: '--bogus'", "Run 'mdgate --help'");
    }

    @Test
    void shouldRefuseAnUnknownCommandAndSuggestTheNearestOne()
    {
        assertEquals(2, execute(Main.commandLine(), "hepl"));

        assertUsageError("mdgate: Unmatched argument at index 0: 'hepl'", "Run 'mdgate --help'");
        final String suggestion = err.toString().lines().filter(l -> l.startsWith("Did you mean:")).findFirst()
            .orElse("");
        assertTrue(suggestion.contains("mdgate help"), err.toString());
    }

    @Test
    void shouldRefuseToRunWithoutACommand()
    {
        assertEquals(2, execute(Main.commandLine()));

        assertUsageError("mdgate: Missing command", "Run 'mdgate --help'");
    }

    @Test
    void shouldRefuseAMissingParameterOfACommandAddedLater()
    {
        final CommandLine commandLine = Main.commandLine().addSubcommand(new ProbeCommand());

        assertEquals(2, execute(commandLine, "probe"));

        assertUsageError("mdgate probe: Missing required parameter: '<file>'", "Run 'mdgate probe --help'");
    }

    @Test
    void shouldRefuseABadValueOfACommandAddedLater()
    {
        final CommandLine commandLine = Main.commandLine().addSubcommand(new ProbeCommand());

        assertEquals(2, execute(commandLine, "probe", "--count", "many", "x.pcap"));

        assertUsageError("mdgate probe: Invalid value for option '--count': 'many' is not an int", "Run 'mdgate probe --help'");
    }

    @Test
    void shouldTreatAParameterExceptionFromTheCommandItselfAsAUsageError()
    {
        final CommandLine commandLine = Main.commandLine().addSubcommand(new ProbeCommand());

        assertEquals(2, execute(commandLine, "probe", "--count", "-1", "x.pcap"));

        assertUsageError("mdgate probe: --count must be 1 or more, was -1", "Run 'mdgate probe --help'");
    }

    @Test
    void shouldRunACommandAddedLaterWithValidArguments()
    {
        final CommandLine commandLine = Main.commandLine().addSubcommand(new ProbeCommand());

        assertEquals(0, execute(commandLine, "probe", "--count", "3", "x.pcap"));

        assertEquals("x.pcap 3" + System.lineSeparator(), out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void shouldGiveTheSameExitCodeAsPicocliDoesForACommandTestedOnItsOwn()
    {
        final CommandLine alone = new CommandLine(new ProbeCommand());

        assertEquals(CommandLine.ExitCode.USAGE, execute(alone, "--bogus", "x.pcap"));
        assertEquals(2, CommandLine.ExitCode.USAGE);
        assertTrue(err.toString().startsWith("Unknown option: '--bogus'"), err.toString());
    }

    @Test
    void shouldPrintTheVersionsOfMdgateJavaAndDpdk()
    {
        assertEquals(0, execute(Main.commandLine(), "--version"));

        final String[] lines = out.toString().split(System.lineSeparator());
        assertEquals("mdgate " + MdgateVersion.projectVersion(), lines[0]);
        assertFalse(MdgateVersion.projectVersion().contains("${"), MdgateVersion.projectVersion());
        assertTrue(lines[1].startsWith("Java " + System.getProperty("java.version")), lines[1]);
        assertTrue(lines[2].startsWith("DPDK "), lines[2]);
    }

    // What picocli lists for a command: its header if it has one, else the first line of its description.
    private static String summary(final CommandLine command)
    {
        final CommandSpec spec = command.getCommandSpec();
        final String[] header = spec.usageMessage().header();
        final String[] description = spec.usageMessage().description();
        final String first = header.length > 0 ? header[0] : description.length > 0 ? description[0] : "";
        return first.replace("%n", "").trim();
    }

    private int execute(final CommandLine commandLine, final String... args)
    {
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private void assertUsageError(final String firstLine, final String helpPointer)
    {
        final String text = err.toString();
        assertTrue(text.startsWith(firstLine), text);
        assertTrue(text.lines().reduce((a, b) -> b).orElse("").startsWith(helpPointer), text);
        assertFalse(text.contains("Usage:"), "no usage screen burying the error: " + text);
        assertEquals("", out.toString());
    }

    @Command(name = "probe", description = "A command registered after the command line was built.")
    static final class ProbeCommand implements Callable<Integer>
    {
        @Spec
        private CommandSpec spec;

        @Option(names = "--count", description = "How many.")
        private int count = 1;

        @Parameters(paramLabel = "<file>", description = "A file.")
        private Path file;

        @Override
        public Integer call()
        {
            if (count < 1)
            {
                throw new ParameterException(spec.commandLine(), "--count must be 1 or more, was " + count);
            }
            spec.commandLine().getOut().println(file + " " + count);
            return 0;
        }
    }
}
