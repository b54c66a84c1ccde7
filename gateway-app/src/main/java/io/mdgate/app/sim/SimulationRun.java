package io.mdgate.app.sim;

import io.mdgate.core.capture.ItchFileWriter;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One simulator run on the caller's thread: generate the session, frame it into MoldUDP64 packets, pass each
 * packet through line A's and line B's faults to the output, keep the messages for the re-request server and
 * poll it, then linger answering re-requests if asked to. With the ITCH output the bare messages go straight
 * to a daily file instead. Not thread-safe; run once.
 */
public final class SimulationRun
{
    private static final int POLL_EVERY_MESSAGES = 256;
    private static final long AVERAGE_STORED_BYTES = 40;
    private static final long LINE_SEED_A = 0x5EED_A11AL;
    private static final long LINE_SEED_B = 0x5EED_B11BL;

    private final SimulatorSettings settings;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
    private RetransmitServer server;
    private volatile int retransmitPort = -1;

    public SimulationRun(final SimulatorSettings settings)
    {
        this.settings = settings;
    }

    /** @return the port the re-request server listens on once it started, -1 before or without one. */
    public int retransmitPort()
    {
        return retransmitPort;
    }

    /**
     * Runs the whole session.
     *
     * @return what was done.
     */
    public SimSummary run()
    {
        final long started = System.nanoTime();
        final ItchSessionGenerator generator = new ItchSessionGenerator(settings.simulation());
        if (settings.output() == SimulatorSettings.Output.ITCH)
        {
            return writeDailyFile(generator, started);
        }
        final byte[] session = MoldUdp64Session.of(settings.session());
        final RetransmitStore store = settings.servesRetransmits() ? newStore() : null;
        if (null != store)
        {
            server = new RetransmitServer(
                new InetSocketAddress(settings.retransmitAddress(), settings.retransmitPort()), session, store,
                settings.answerLimit(), settings.maxPayload());
            retransmitPort = server.port();
        }
        try (PacketOutput output = newOutput())
        {
            final LineFaults lineA = new LineFaults(PacketOutput.LINE_A, settings.faultsA(),
                settings.simulation().seed() ^ LINE_SEED_A, settings.maxPayload(), output);
            final LineFaults lineB = new LineFaults(PacketOutput.LINE_B, settings.faultsB(),
                settings.simulation().seed() ^ LINE_SEED_B, settings.maxPayload(), output);
            final MoldUdp64Framer framer = new MoldUdp64Framer(session, settings.maxPayload(),
                settings.messagesPerPacket(), settings.packetWindowNanos(), settings.heartbeatNanos(),
                (timestamp, buffer, offset, length) -> toLines(lineA, lineB, timestamp, buffer, offset, length));

            long firstTimestamp = -1;
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                firstTimestamp = firstTimestamp < 0 ? generator.timestamp() : firstTimestamp;
                final long sequence = framer.onMessage(generator.timestamp(), message, 0, length);
                if (null != store)
                {
                    store.append(sequence, message, 0, length);
                    if ((sequence % POLL_EVERY_MESSAGES) == 0)
                    {
                        server.poll();
                    }
                }
            }
            framer.finish(generator.timestamp());
            linger(framer, generator.timestamp());
            final long sendFailures = output instanceof MulticastPacketOutput live ? live.sendFailures() : 0;
            return new SimSummary(settings.simulation().seed(), settings.simulation().instruments(),
                generator.messagesGenerated(), counts(generator), settings.session(), framer.nextSequence() - 1,
                firstTimestamp, generator.timestamp(), framer.dataPackets(), framer.heartbeats(),
                framer.endOfSessionPackets(), SimSummary.LineReport.of(lineA), SimSummary.LineReport.of(lineB),
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

    private static void toLines(
        final LineFaults lineA,
        final LineFaults lineB,
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
        }
    }

    private RetransmitStore newStore()
    {
        final int window = (int)Math.min(settings.retransmitWindow(), settings.simulation().messages());
        final long bytes = Math.min(Integer.MAX_VALUE - 8, Math.max(64, window * AVERAGE_STORED_BYTES));
        return new RetransmitStore(MoldUdp64Framer.FIRST_SEQUENCE, window, (int)bytes);
    }

    private PacketOutput newOutput()
    {
        switch (settings.output())
        {
            case PCAP:
                return new PcapPacketOutput(settings.file(), settings.simulation().midnightEpochNanos(),
                    settings.source(), settings.groupA(), settings.groupB());
            case SEND:
                return new MulticastPacketOutput(settings.interfaceName(), settings.groupA(), settings.groupB(),
                    settings.ttl(), settings.maxIdleNanos(), null == server ? () -> 0 : server::poll);
            default:
                return new DiscardPacketOutput();
        }
    }

    /**
     * Answers re-requests for the linger time, repeating the end-of-session packet on both lines every heartbeat
     * interval meanwhile, so that a receiver that lost the tail of the session learns of it and can ask for it.
     */
    private void linger(final MoldUdp64Framer framer, final long endTimestamp)
    {
        if (null == server)
        {
            return;
        }
        final long start = System.nanoTime();
        final long deadline = start + settings.lingerNanos();
        long nextEnd = start + settings.heartbeatNanos();
        long now;
        while ((now = System.nanoTime()) - deadline < 0)
        {
            if (now - nextEnd >= 0)
            {
                framer.repeatEndOfSession(endTimestamp + (now - start));
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
        try (ItchFileWriter writer = new ItchFileWriter(settings.file()))
        {
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                firstTimestamp = firstTimestamp < 0 ? generator.timestamp() : firstTimestamp;
                writer.write(message, 0, length);
            }
        }
        final SimSummary.LineReport noLine = new SimSummary.LineReport(0, 0, 0, 0, 0);
        return new SimSummary(settings.simulation().seed(), settings.simulation().instruments(),
            generator.messagesGenerated(), counts(generator), settings.session(), generator.messagesGenerated(),
            firstTimestamp, generator.timestamp(), 0, 0, 0, noLine, noLine,
            "Nasdaq daily file " + settings.file() + " (bare messages, no MoldUDP64)", 0, null,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
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
