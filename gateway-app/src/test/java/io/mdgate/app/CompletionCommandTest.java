package io.mdgate.app;

import io.mdgate.app.report.ReportCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompletionCommandTest
{
    @Test
    void shouldCompleteEveryCommandAndOptionOfTheRootItIsRegisteredUnder()
    {
        final CommandLine root = new CommandLine(new Root())
            .addSubcommand(new CompletionCommand())
            .addSubcommand(new ReportCommand());
        final StringWriter out = new StringWriter();
        root.setOut(new PrintWriter(out, true));

        final int exitCode = root.execute("completion");

        final String script = out.toString();
        assertEquals(0, exitCode);
        assertTrue(script.startsWith("#!/usr/bin/env bash"), script.substring(0, Math.min(200, script.length())));
        assertTrue(script.contains("complete -F _complete_mdgate"), "registers the function for mdgate");
        assertTrue(script.contains("\"completion\" \"report\"") || script.contains("completion report"),
            "lists the subcommands");
        assertTrue(script.contains("--no-plot"), "completes a subcommand's options");
    }

    @Test
    void shouldNameTheScriptAfterTheCommandItRunsUnderWhenAlone()
    {
        final StringWriter out = new StringWriter();
        final CommandLine alone = new CommandLine(new CompletionCommand());
        alone.setOut(new PrintWriter(out, true));

        assertEquals(0, alone.execute());
        assertTrue(out.toString().contains("complete -F _complete_completion"), out.toString());
    }

    @Command(name = "mdgate")
    static final class Root implements Runnable
    {
        @Override
        public void run()
        {
        }
    }
}
