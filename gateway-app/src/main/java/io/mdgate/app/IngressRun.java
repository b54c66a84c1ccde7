package io.mdgate.app;

import io.mdgate.core.feed.FeedSession;
import io.mdgate.ingress.Ingress;

/**
 * The duty cycle of {@code mdgate ingress}: reads the clock, runs the feed session's timers, polls one burst from
 * the ingress into the session; until nothing arrived for the idle time after the first packet while no gap was
 * in recovery (the source is exhausted), no first packet came within the start wait, the run's time limit passed,
 * or {@link #stop()} was called (Ctrl-C). The idle clock starts at the first packet, so a feed that starts late
 * (its sender slow to come up on a loaded host) is not mistaken for one that ended. Busy-spins on the thread that
 * calls {@link #run()}, which must be the ingress's receive thread; {@link #stop()} may be called from any thread.
 */
final class IngressRun
{
    private final Ingress ingress;
    private final FeedSession session;
    private final long idleNanos;
    private final long startWaitNanos;
    private final long maxNanos;
    private volatile boolean stopping;
    private boolean receivedAny;
    private int failure;

    /**
     * @param ingress   started by the caller.
     * @param session   fed by the ingress.
     * @param idleNanos      stop after this long without a packet, once one came and while no gap is open.
     * @param startWaitNanos stop when no first packet came in this long; 0 to wait for it until {@code maxNanos}.
     * @param maxNanos       stop after this long in any case; 0 for no limit.
     */
    IngressRun(final Ingress ingress, final FeedSession session, final long idleNanos, final long startWaitNanos,
        final long maxNanos)
    {
        this.ingress = ingress;
        this.session = session;
        this.idleNanos = idleNanos;
        this.startWaitNanos = startWaitNanos;
        this.maxNanos = maxNanos;
    }

    /** @return nanoseconds from the first poll to the last packet (or to the end, when none came). */
    long run()
    {
        final long start = System.nanoTime();
        long lastPacket = start;
        boolean started = false;
        session.doWork(start);
        while (!stopping)
        {
            final long now = System.nanoTime();
            session.doWork(now);
            final int packets = ingress.poll(session);
            if (packets > 0)
            {
                lastPacket = now;
                started = true;
            }
            else if (packets < 0)
            {
                failure = packets;
                break;
            }
            else if (maxNanos > 0 && now - start >= maxNanos)
            {
                break;
            }
            else if (started ? now - lastPacket >= idleNanos && session.openGaps() == 0 :
                startWaitNanos > 0 && now - start >= startWaitNanos)
            {
                break;
            }
        }
        receivedAny = started;
        session.doWork(System.nanoTime());
        return Math.max(1, lastPacket - start);
    }

    /** Ends {@link #run()} after its current burst. */
    void stop()
    {
        stopping = true;
    }

    /** @return whether any packet came before the run ended. */
    boolean receivedAny()
    {
        return receivedAny;
    }

    /** @return the ingress's negative poll result that ended the run, or 0. */
    int failure()
    {
        return failure;
    }
}
