package io.mdgate.app.sim;

import io.mdgate.app.StdioArguments;
import io.mdgate.app.StdoutStream;
import io.mdgate.app.journal.ProgressBar;
import io.mdgate.core.capture.ItchFileWriter;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * One simulator run on the caller's thread: generate the session, frame it into MoldUDP64 packets (in two
 * sessions with a session change: the first ends with its end-of-session packet, the day continues in the second
 * from sequence 1), pass each packet through line A's and line B's faults, add the injected stray and far-ahead
 * packets, delay line B when it lags, keep each session's messages for the re-request server and poll it, then
 * linger answering re-requests if asked to. With the ITCH output the bare messages go straight
 * to a daily file instead. Not thread-safe; run once.
 */
public final class SimulationRun
{
    private static final int POLL_EVERY_MESSAGES = 256;
    /** Messages between two looks at the clock for the progress line. */
    private static final int PROGRESS_EVERY_MESSAGES = 1024;
    private static final long AVERAGE_STORED_BYTES = 40;
    private static final long LINE_SEED_A = 0x5EED_A11AL;
    private static final long LINE_SEED_B = 0x5EED_B11BL;
    private static final long INJECT_SEED = 0x5EED_1D1EL;
    /** Room for line B's lagged packets: 10 ms of a million messages per second, one per packet, fits easily. */
    private static final int LAG_RING_BYTES = 16 << 20;

    private final SimulatorSettings settings;
    private final OutputStream stdout;
    private final ProgressBar progress;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
    private RetransmitServer server;
    private long messagesFramed;
    private volatile int retransmitPort = -1;
    private BooleanSupplier lingering = () -> true;

    public SimulationRun(final SimulatorSettings settings)
    {
        this(settings, System.out, ProgressBar.disabled());
    }

    /**
     * @param settings the run's settings.
     * @param stdout   where a file named {@code -} goes: the process's stdout (another stream in tests).
     * @param progress shows the messages generated so far; {@link ProgressBar#disabled()} for none.
     */
    public SimulationRun(final SimulatorSettings settings, final OutputStream stdout, final ProgressBar progress)
    {
        this.settings = settings;
        this.stdout = stdout;
        this.progress = progress;
    }

    /**
     * @param lingering asked while lingering; false ends the linger early (a stop signal), so that a run with a
     *                  long linger can be ended once its receiver has what it asked for. Set before {@link #run()}.
     * @return this run.
     */
    public SimulationRun lingerWhile(final BooleanSupplier lingering)
    {
        this.lingering = lingering;
        return this;
    }

    /** @return the port the re-request server listens on once it started, -1 before or without one. */
    public int retransmitPort()
    {
        return retransmitPort;
    }

    /**
     * Runs the whole session (both sessions, with a session change).
     *
     * @return what was done.
     */
    public SimSummary run()
    {
        try
        {
            return generate();
        }
        finally
        {
            progress.finish();
        }
    }

    private SimSummary generate()
    {
        final long started = System.nanoTime();
        final ItchSessionGenerator generator = new ItchSessionGenerator(settings.simulation());
        if (settings.output() == SimulatorSettings.Output.ITCH)
        {
            return writeDailyFile(generator, started);
        }
        final long total = settings.simulation().messages();
        final byte[][] sessions = settings.changesSession() ?
            new byte[][] { MoldUdp64Session.of(settings.session()), MoldUdp64Session.of(settings.secondSession()) } :
            new byte[][] { MoldUdp64Session.of(settings.session()) };
        final long[] sessionMessages = settings.changesSession() ?
            new long[] { settings.sessionChangeAt(), total - settings.sessionChangeAt() } : new long[] { total };
        final RetransmitStore[] stores = new RetransmitStore[sessions.length];
        if (settings.servesRetransmits())
        {
            for (int i = 0; i < sessions.length; i++)
            {
                stores[i] = newStore(sessionMessages[i]);
            }
            server = new RetransmitServer(
                new InetSocketAddress(settings.retransmitAddress(), settings.retransmitPort()), sessions[0], stores[0],
                settings.answerLimit(), settings.maxPayload());
            for (int i = 1; i < sessions.length; i++)
            {
                server.addSession(sessions[i], stores[i]);
            }
            retransmitPort = server.port();
        }
        try (PacketOutput base = newOutput())
        {
            final LaggedLineOutput lagged = settings.lagBNanos() > 0 ?
                new LaggedLineOutput(base, settings.lagBNanos(), LAG_RING_BYTES) : null;
            final PacketOutput output = null != lagged ? lagged : base;
            final LineFaults lineA = new LineFaults(PacketOutput.LINE_A, settings.faultsA(),
                settings.simulation().seed() ^ LINE_SEED_A, settings.maxPayload(), output);
            final LineFaults lineB = new LineFaults(PacketOutput.LINE_B, settings.faultsB(),
                settings.simulation().seed() ^ LINE_SEED_B, settings.maxPayload(), output);
            final PacketInjector injector = new PacketInjector(settings.injected(), total,
                settings.simulation().seed() ^ INJECT_SEED, settings.maxPayload(), output);
            final MoldUdp64Framer[] framers = new MoldUdp64Framer[sessions.length];
            for (int i = 0; i < sessions.length; i++)
            {
                framers[i] = new MoldUdp64Framer(sessions[i], settings.maxPayload(), settings.messagesPerPacket(),
                    settings.packetWindowNanos(), settings.heartbeatNanos(),
                    (timestamp, buffer, offset, length) ->
                        toLines(lineA, lineB, injector, timestamp, buffer, offset, length));
            }

            long firstTimestamp = -1;
            long lastTimestamp = 0;
            int current = 0;
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                firstTimestamp = firstTimestamp < 0 ? generator.timestamp() : firstTimestamp;
                if (current + 1 < sessions.length && generator.messagesGenerated() > sessionMessages[current])
                {
                    framers[current++].finish(lastTimestamp);
                }
                lastTimestamp = generator.timestamp();
                showProgress(generator.messagesGenerated(), total);
                final long sequence = framers[current].onMessage(lastTimestamp, message, 0, length);
                if (null != server)
                {
                    stores[current].append(sequence, message, 0, length);
                    if ((sequence % POLL_EVERY_MESSAGES) == 0)
                    {
                        server.poll();
                    }
                }
            }
            final MoldUdp64Framer last = framers[current];
            last.finish(generator.timestamp());
            if (null != lagged)
            {
                lagged.drain();
            }
            linger(last, lagged, generator.timestamp());
            final long sendFailures = base instanceof MulticastPacketOutput live ? live.sendFailures() : 0;
            final List<SimSummary.SessionReport> reports = new ArrayList<>();
            long dataPackets = 0;
            long heartbeats = 0;
            long endOfSession = 0;
            for (int i = 0; i < sessions.length; i++)
            {
                final String name = i == 0 ? settings.session() : settings.secondSession();
                reports.add(new SimSummary.SessionReport(name, framers[i].nextSequence() - 1));
                dataPackets += framers[i].dataPackets();
                heartbeats += framers[i].heartbeats();
                endOfSession += framers[i].endOfSessionPackets();
            }
            return new SimSummary(settings.simulation().seed(), settings.simulation().instruments(),
                generator.messagesGenerated(), counts(generator), reports, firstTimestamp, generator.timestamp(),
                dataPackets, heartbeats, endOfSession,
                SimSummary.LineReport.of(lineA, injector, PacketOutput.LINE_A),
                SimSummary.LineReport.of(lineB, injector, PacketOutput.LINE_B), settings.lagBNanos(),
                output.describe(), sendFailures,
                null == server ? null : SimSummary.RetransmitReport.of(settings.retransmitAddress(), server),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
        finally
        {
            if (null != server)
            {
                server.close();
            }
        }
    }

    private void showProgress(final long generated, final long total)
    {
        if (generated % PROGRESS_EVERY_MESSAGES == 0)
        {
            progress.update(generated, generated, total);
        }
    }

    private void toLines(
        final LineFaults lineA,
        final LineFaults lineB,
        final PacketInjector injector,
        final long timestamp,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        final int count = buffer.getShort(offset + 18, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        if (count == MoldUdp64PacketDecoder.END_OF_SESSION_COUNT)
        {
            lineA.offerUnfaulted(timestamp, buffer, offset, length);
            lineB.offerUnfaulted(timestamp, buffer, offset, length);
        }
        else
        {
            lineA.offer(timestamp, buffer, offset, length);
            lineB.offer(timestamp, buffer, offset, length);
            if (count > 0)
            {
                messagesFramed += count;
                injector.afterDataPacket(timestamp, buffer, offset, length, messagesFramed);
            }
        }
    }

    private RetransmitStore newStore(final long messages)
    {
        final int window = (int)Math.min(settings.retransmitWindow(), messages);
        final long bytes = Math.min(Integer.MAX_VALUE - 8, Math.max(64, window * AVERAGE_STORED_BYTES));
        return new RetransmitStore(MoldUdp64Framer.FIRST_SEQUENCE, window, (int)bytes);
    }

    private PacketOutput newOutput()
    {
        switch (settings.output())
        {
            case PCAP:
                return toStdout() ?
                    new PcapPacketOutput(new StdoutStream(stdout), settings.simulation().midnightEpochNanos(),
                        settings.source(), settings.groupA(), settings.groupB()) :
                    new PcapPacketOutput(settings.file(), settings.simulation().midnightEpochNanos(),
                        settings.source(), settings.groupA(), settings.groupB());
            case SEND:
                return new MulticastPacketOutput(settings.interfaceName(), settings.groupA(), settings.groupB(),
                    settings.ttl(), settings.maxIdleNanos(), settings.pacing(), null == server ? () -> 0 : server::poll);
            default:
                return new DiscardPacketOutput();
        }
    }

    /**
     * Answers re-requests for the linger time, repeating the end-of-session packet on both lines every heartbeat
     * interval meanwhile, so that a receiver that lost the tail of the session learns of it and can ask for it. Ends
     * early when {@link #lingerWhile} says so.
     */
    private void linger(final MoldUdp64Framer framer, final LaggedLineOutput lagged, final long endTimestamp)
    {
        if (null == server)
        {
            return;
        }
        final long start = System.nanoTime();
        final long deadline = start + settings.lingerNanos();
        long nextEnd = start + settings.heartbeatNanos();
        long now;
        while ((now = System.nanoTime()) - deadline < 0 && lingering.getAsBoolean())
        {
            if (now - nextEnd >= 0)
            {
                framer.repeatEndOfSession(endTimestamp + (now - start));
                if (null != lagged)
                {
                    lagged.drain();
                }
                nextEnd += settings.heartbeatNanos();
            }
            if (server.poll() == 0)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    private SimSummary writeDailyFile(final ItchSessionGenerator generator, final long started)
    {
        long firstTimestamp = -1;
        final long total = settings.simulation().messages();
        try (ItchFileWriter writer = toStdout() ? new ItchFileWriter(new StdoutStream(stdout), "ITCH file on stdout") :
            new ItchFileWriter(settings.file()))
        {
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                firstTimestamp = firstTimestamp < 0 ? generator.timestamp() : firstTimestamp;
                writer.write(message, 0, length);
                showProgress(generator.messagesGenerated(), total);
            }
        }
        final SimSummary.LineReport noLine = new SimSummary.LineReport(0, 0, 0, 0, 0, 0, 0);
        return new SimSummary(settings.simulation().seed(), settings.simulation().instruments(),
            generator.messagesGenerated(), counts(generator),
            List.of(new SimSummary.SessionReport(settings.session(), generator.messagesGenerated())),
            firstTimestamp, generator.timestamp(), 0, 0, 0, noLine, noLine, 0,
            "Nasdaq daily file " + (toStdout() ? "on stdout" : settings.file()) + " (bare messages, no MoldUDP64)", 0,
            null,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** @return whether the file output is {@code -}, stdout. */
    private boolean toStdout()
    {
        return StdioArguments.isDash(settings.file());
    }

    private static long[] counts(final ItchSessionGenerator generator)
    {
        final long[] counts = new long[256];
        for (final byte type : ItchMessageType.ALL)
        {
            counts[type & 0xFF] = generator.count(type);
        }
        return counts;
    }
}
