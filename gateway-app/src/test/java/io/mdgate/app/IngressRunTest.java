package io.mdgate.app;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When {@link IngressRun} decides a feed is over: the idle time counts from the first packet (a late sender is not
 * an ended feed), a feed that never starts ends after the start wait, and a gap in recovery keeps the run going.
 */
class IngressRunTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void shouldWaitForALateFirstPacketLongerThanTheIdleTime()
    {
        final ScriptedIngress ingress = new ScriptedIngress();
        ingress.after(300 * MS, packet(1));
        final FeedSession session = session(1_000 * MS);
        final IngressRun run = new IngressRun(ingress, session, 50 * MS, 0, 10_000 * MS);

        run.run();

        assertTrue(run.receivedAny(), "the packet sent 300 ms late was received despite a 50 ms idle time");
        assertEquals(1, session.messagesDelivered());
    }

    @Test
    void shouldEndAfterTheStartWaitWhenNoPacketComes()
    {
        final IngressRun run = new IngressRun(new ScriptedIngress(), session(1_000 * MS), 50 * MS, 200 * MS,
            10_000 * MS);
        final long start = System.nanoTime();

        run.run();

        assertFalse(run.receivedAny());
        assertTrue(System.nanoTime() - start >= 200 * MS, "waited the whole start wait");
    }

    @Test
    void shouldKeepRunningWhileAGapIsInRecoveryAfterTheIdleTime()
    {
        final ScriptedIngress ingress = new ScriptedIngress();
        ingress.after(0, packet(1));
        ingress.after(0, packet(3));
        final FeedSession session = session(400 * MS);
        final IngressRun run = new IngressRun(ingress, session, 20 * MS, 0, 10_000 * MS);

        run.run();

        assertEquals(0, session.openGaps(), "the run ended only once the gap was settled");
        assertEquals(1, session.messagesLost(), "with no re-request server the gap was declared after its wait");
        assertEquals(2, session.messagesDelivered());
    }

    private static FeedSession session(final long gapWaitNanos)
    {
        return new FeedSession(new FeedSession.Context()
            .messageHandler((buffer, offset, length, sequence) -> { })
            .gapHandler((first, count) -> { })
            .session("TEST")
            .firstSequence(1)
            .gapWaitNanos(gapWaitNanos));
    }

    /** A MoldUDP64 packet carrying one two-byte message with {@code sequence}. */
    private static byte[] packet(final long sequence)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder().wrap(buffer, 0, 64)
            .session(MoldUdp64Session.of("TEST")).sequenceNumber(sequence);
        assertTrue(encoder.tryAppend(new UnsafeBuffer(new byte[]{'X', 'Y'}), 0, 2));
        final byte[] bytes = new byte[encoder.length()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** Hands over line A packets, each once its delay from the first poll has passed. */
    private static final class ScriptedIngress implements Ingress
    {
        private final ArrayDeque<long[]> delays = new ArrayDeque<>();
        private final ArrayDeque<byte[]> packets = new ArrayDeque<>();
        private long firstPoll;

        void after(final long delayNanos, final byte[] packet)
        {
            delays.add(new long[]{delayNanos});
            packets.add(packet);
        }

        @Override
        public void start()
        {
        }

        @Override
        public int poll(final PacketHandler handler)
        {
            final long now = System.nanoTime();
            if (firstPoll == 0)
            {
                firstPoll = now;
            }
            if (delays.isEmpty() || now - firstPoll < delays.peek()[0])
            {
                return 0;
            }
            delays.poll();
            final byte[] packet = packets.poll();
            handler.onPacket(FeedLines.A, new UnsafeBuffer(packet), 0, packet.length, now);
            return 1;
        }

        @Override
        public IngressStats stats()
        {
            throw new UnsupportedOperationException("not used by IngressRun");
        }

        @Override
        public void close()
        {
        }
    }
}
