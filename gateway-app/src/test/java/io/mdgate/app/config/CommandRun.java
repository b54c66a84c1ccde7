package io.mdgate.app.config;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Runs a command through picocli with captured stdout and stderr.
 *
 * @param exitCode the command's exit code.
 * @param out      what it printed to stdout.
 * @param err      what it printed to stderr.
 */
record CommandRun(int exitCode, String out, String err)
{
    static CommandRun run(final Object command, final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        final int exitCode = commandLine.execute(args);
        return new CommandRun(exitCode, out.toString(), err.toString());
    }

    @Override
    public String toString()
    {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
