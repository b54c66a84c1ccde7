package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The UDP re-request client against a small re-request server on 127.0.0.1, both driven by the test's thread.
 */
@Timeout(30)
class UdpRetransmitRequesterTest
{
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** Runs the step until the condition holds, for at most five seconds. */
    private static void until(final BooleanSupplier condition, final Runnable step)
    {
        final long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, "gave up waiting on loopback UDP");
            step.run();
            Thread.onSpinWait();
        }
    }

    private static void serve(final TinyRetransmitResponder responder)
    {
        try
        {
            responder.serve();
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    @Test
    void shouldSendAMoldUdp64RequestAndHandTheAnswerOverOnTheRecoveryLine() throws IOException
    {
        try (TinyRetransmitResponder responder = new TinyRetransmitResponder(SESSION, 100);
            UdpRetransmitRequester requester = new UdpRetransmitRequester(responder.address()))
        {
            final List<byte[]> packets = new ArrayList<>();
            final List<Long> timestamps = new ArrayList<>();
            final PacketHandler handler = (line, buffer, offset, length, timestamp) ->
            {
                assertEquals(FeedLines.RECOVERY, line);
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                packets.add(copy);
                timestamps.add(timestamp);
            };
            final long before = Instant.now().toEpochMilli();

            assertTrue(requester.request(MoldUdp64Session.of(SESSION), 1_234, 3));
            until(() -> !responder.requests().isEmpty(), () -> serve(responder));
            until(() -> !packets.isEmpty(), () -> requester.poll(handler));

            assertEquals(List.of(SESSION + " 1234+3 (20 bytes)"), responder.requests());
            assertArrayEquals(moldPacketOfAdds(SESSION, 1_234, 3), packets.get(0));
            assertArrayEquals(responder.answers().get(0), packets.get(0));
            final long stampedMillis = TimeUnit.NANOSECONDS.toMillis(timestamps.get(0));
            assertTrue(stampedMillis >= before - 50 && stampedMillis <= Instant.now().toEpochMilli() + 50,
                "receive time is ns since the epoch: " + timestamps.get(0));
            assertEquals(1, requester.requestsSent());
            assertEquals(1, requester.answersReceived());
            assertTrue(requester.localPort() > 0);
        }
    }

    @Test
    void shouldLetTheSessionRecoverWhatBothLinesLostThroughRealUdp() throws IOException
    {
        try (TinyRetransmitResponder responder = new TinyRetransmitResponder(SESSION, 4);
            UdpRetransmitRequester requester = new UdpRetransmitRequester(responder.address()))
        {
            final SessionOutput output = new SessionOutput();
            final FeedSession session = new FeedSession(new FeedSession.Context()
                .messageHandler(output)
                .gapHandler(output)
                .requester(requester)
                .maxRequestCount(8)
                .gapWaitNanos(0));
            session.doWork(System.nanoTime());
            for (long sequence = 1; sequence <= 200; sequence += 2)
            {
                if (sequence % 20 != 11)
                {
                    final byte[] packet = moldPacketOfAdds(SESSION, sequence, 2);
                    session.onPacket(FeedLines.A, new UnsafeBuffer(packet), 0, packet.length, 0);
                }
            }
            final byte[] end = moldEndOfSession(SESSION, 201);
            session.onPacket(FeedLines.B, new UnsafeBuffer(end), 0, end.length, 0);

            until(session::isEndOfSession, () ->
            {
                serve(responder);
                session.doWork(System.nanoTime());
            });

            assertEquals(LongStream.rangeClosed(1, 200).boxed().toList(), output.sequences());
            assertEquals(List.of(), output.gaps());
            assertEquals(20, session.messages(FeedLines.RECOVERY));
            assertEquals(10, session.gapsFilledByRerequest(FeedLines.A));
            assertEquals(requester.answersReceived(), session.packets(FeedLines.RECOVERY));
        }
    }

    @Test
    void shouldCountRatherThanThrowWhenNoServerListens() throws IOException
    {
        final InetSocketAddress nobody;
        try (DatagramChannel probe = DatagramChannel.open())
        {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            nobody = (InetSocketAddress)probe.getLocalAddress();
        }
        try (UdpRetransmitRequester requester = new UdpRetransmitRequester(nobody))
        {
            final PacketHandler handler = (line, buffer, offset, length, timestamp) -> { };
            until(() -> requester.receiveErrors() + requester.sendFailures() >= 2, () ->
            {
                requester.request(MoldUdp64Session.of(SESSION), 1, 1);
                assertEquals(0, requester.poll(handler));
                sleepMillis(1);
            });
            assertTrue(requester.requestsSent() >= 1);
        }
    }

    @Test
    void shouldRefuseAServerWithoutAPort()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new UdpRetransmitRequester(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
        assertTrue(refused.getMessage().contains("needs a resolved address and a port from 1 to 65535"));
    }

    private static void sleepMillis(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }
}
