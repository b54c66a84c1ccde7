package io.mdgate.app.journal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.JsonOutput;
import io.mdgate.journal.CycleSummary;
import io.mdgate.journal.JournalDamagedException;
import io.mdgate.journal.JournalException;
import io.mdgate.journal.JournalInfo;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code mdgate journal info DIR}: what a journal holds: roll cycle, each cycle file of both queues with its record
 * count, first and last sequence (ticks) and time, and file size; totals; the size of the directory. Opening checks
 * every cycle's first and last record; {@code --verify} also reads every tick and checks each one.
 * <p>
 * Exit codes: 0 listed (and verified), 1 the journal is damaged, 2 bad arguments (a missing directory, or one that
 * is not a journal). Runs on the calling thread.
 */
@Command(
    name = "info",
    description = "Show a journal's cycles, first/last sequence and time, counts and size on disk.",
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = { "0:listed", "1:the journal is damaged", "2:bad arguments" })
public final class JournalInfoCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = { "-h", "--help" }, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(index = "0", paramLabel = "DIR", description = "The journal directory.")
    private Path directory;

    @Option(names = "--json", description = "Print one JSON object with stable keys.")
    private boolean json;

    @Option(names = "--verify", description = "Also read every tick and check it (length, contiguous sequence).")
    private boolean verify;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try (JournalReader reader = open())
        {
            final JournalInfo info = reader.info();
            long verified = -1;
            if (verify)
            {
                try (TickReplay replay = reader.newTickReplay())
                {
                    verified = replay.replay(Long.MIN_VALUE, Long.MAX_VALUE, (buffer, offset) -> { });
                }
            }
            out.println(json ? json(info, verified) : text(info, verified));
            out.flush();
            return 0;
        }
        catch (final JournalException ex)
        {
            err.println("mdgate journal info: " + ex.getMessage());
            err.flush();
            return 1;
        }
    }

    private JournalReader open()
    {
        try
        {
            return JournalReader.open(directory);
        }
        catch (final JournalDamagedException ex)
        {
            throw ex;
        }
        catch (final JournalException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    static String text(final JournalInfo info, final long verified)
    {
        final StringBuilder text = new StringBuilder(1024);
        text.append("journal        ").append(info.directory()).append('\n')
            .append("roll cycle     ").append(info.rollCycle().name().toLowerCase(Locale.ROOT)).append('\n')
            .append(String.format(Locale.ROOT, "ticks          %,d", info.ticks()));
        if (info.ticks() > 0)
        {
            text.append(String.format(Locale.ROOT, "  sequence %d..%d  exchange time %s..%s", info.firstSequence(),
                info.lastSequence(), TimeArgument.format(info.firstTime()), TimeArgument.format(info.lastTime())));
        }
        text.append('\n').append(String.format(Locale.ROOT, "packets        %,d", info.packets()));
        if (info.packets() > 0)
        {
            text.append(String.format(Locale.ROOT, "  receive time %s..%s", TimeArgument.format(info.firstPacketTime()),
                TimeArgument.format(info.lastPacketTime())));
        }
        text.append('\n').append(String.format(Locale.ROOT, "size           %,d bytes of files (%,d bytes of tick " +
            "records; cycle files are sparse and pre-allocated)", info.fileBytes(), info.tickDataBytes())).append('\n');
        if (verified >= 0)
        {
            text.append(String.format(Locale.ROOT, "verified       %,d ticks read and checked", verified)).append('\n');
        }
        cycles(text, "tick cycles", info.tickCycles(), true);
        cycles(text, "packet cycles", info.packetCycles(), false);
        return text.toString().stripTrailing();
    }

    private static void cycles(
        final StringBuilder text, final String title, final List<CycleSummary> cycles, final boolean ticks)
    {
        text.append(String.format(Locale.ROOT, "%-15s%d", title, cycles.size())).append('\n');
        for (final CycleSummary cycle : cycles)
        {
            text.append(String.format(Locale.ROOT, "  %-24s %,14d records", cycle.file().getFileName(),
                cycle.records()));
            if (cycle.records() > 0)
            {
                if (ticks)
                {
                    text.append(String.format(Locale.ROOT, "  sequence %d..%d", cycle.firstSequence(),
                        cycle.lastSequence()));
                }
                text.append("  ").append(TimeArgument.format(cycle.firstTime())).append("..")
                    .append(TimeArgument.format(cycle.lastTime()));
            }
            text.append(String.format(Locale.ROOT, "  %,d bytes", cycle.fileBytes())).append('\n');
        }
    }

    static String json(final JournalInfo info, final long verified)
    {
        final boolean ticks = info.ticks() > 0;
        final boolean packets = info.packets() > 0;
        final ObjectNode root = JsonOutput.object()
            .put("journal", info.directory().toString())
            .put("rollCycle", info.rollCycle().name())
            .put("ticks", info.ticks())
            .put("firstSequence", JsonOutput.orNull(ticks, info.firstSequence()))
            .put("lastSequence", JsonOutput.orNull(ticks, info.lastSequence()))
            .put("firstTime", JsonOutput.orNull(ticks, info.firstTime()))
            .put("lastTime", JsonOutput.orNull(ticks, info.lastTime()))
            .put("packets", info.packets())
            .put("firstPacketTime", JsonOutput.orNull(packets, info.firstPacketTime()))
            .put("lastPacketTime", JsonOutput.orNull(packets, info.lastPacketTime()))
            .put("fileBytes", info.fileBytes())
            .put("tickRecordBytes", info.tickDataBytes())
            .put("verifiedTicks", JsonOutput.orNull(verified >= 0, verified));
        cyclesJson(root.putArray("tickCycles"), info.tickCycles(), true);
        cyclesJson(root.putArray("packetCycles"), info.packetCycles(), false);
        return JsonOutput.line(root);
    }

    private static void cyclesJson(final ArrayNode array, final List<CycleSummary> cycles, final boolean ticks)
    {
        for (final CycleSummary cycle : cycles)
        {
            final boolean any = cycle.records() > 0;
            final ObjectNode json = array.addObject()
                .put("file", cycle.file().getFileName().toString())
                .put("cycle", cycle.cycle())
                .put("records", cycle.records());
            if (ticks)
            {
                json.put("firstSequence", JsonOutput.orNull(any, cycle.firstSequence()))
                    .put("lastSequence", JsonOutput.orNull(any, cycle.lastSequence()));
            }
            json.put("firstTime", JsonOutput.orNull(any, cycle.firstTime()))
                .put("lastTime", JsonOutput.orNull(any, cycle.lastTime()))
                .put("fileBytes", cycle.fileBytes());
        }
    }
}
