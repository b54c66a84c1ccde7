package io.mdgate.app.run;

import io.mdgate.app.run.counters.CounterType;
import io.mdgate.app.run.counters.CountersFileWriter;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64Descriptor;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.TickRing;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

/**
 * The session stage: drains the packet ring the ingress agents fill, runs each packet through the
 * {@link FeedSession} (A/B arbitration, gaps, re-requests, whose timers it runs every duty cycle), ITCH decode,
 * order books and the normalizer ({@link MessageProcessor}), and hands every tick to the journal and to the egress
 * ring. Both wait when their ring is full (counted), so the journal holds every tick and the egress publishes every
 * one: a ring consumer cannot see a hole in a filtered subscription, so a tick dropped here would be lost to it
 * without notice. The wait backs up into the packet ring, where the ingress drops (counted) and the session recovers
 * those packets like line loss. The journal and the egress must therefore run on other threads than the session
 * (the core map checks it). Raw packets go to the journal too. System events set the
 * {@link MarketState}.
 * <p>
 * Measures {@code ingress_to_session} (packet receive time to the session taking it) and stamps each tick's
 * sequence in {@link TickStamps} for the later stages. Publishes its counters every millisecond.
 * <p>
 * Threading: every method on the agent's thread; the session, processor and normalizer are confined to it.
 */
final class SessionAgent implements Agent, TickHandler
{
    private static final long PUBLISH_INTERVAL_NANOS = 1_000_000L;

    private final RingBuffer packetRing;
    private final int drainLimit;
    private final FeedSession session;
    private final MessageProcessor processor;
    private final byte[] acceptedSession;
    private final TickHandler journal;
    private final PacketHandler journalPackets;
    private final TickRing egressRing;
    private final TickStamps stamps;
    private final MarketState marketState;
    private final EpochNanoClock clock;
    private final StageLatency latency;
    private final FeedCountersPublisher feedCounters;
    private final AtomicCounter ticks;
    private final AtomicCounter lastSequence;
    private final AtomicCounter egressBackPressured;
    private final AtomicCounter malformedMessages;
    private final AtomicCounter refusedSession;
    private final MessageHandler packetHandler = this::onPacket;
    private long nowEpochNanos;
    private long lastPublishNanos;
    private long ticksSeen;
    private long lastStamped;
    private long refused;
    private long egressWaits;

    /**
     * @param sessionContext  the feed session's settings; its outputs are set here.
     * @param books           the order books.
     * @param exchangeClock   turns ITCH times into epoch times.
     * @param firstSequence   the gateway sequence of the first tick (one after the journal's last).
     * @param acceptedSession the MoldUDP64 session to accept (10 bytes), or null for the first one seen.
     * @param journal         the journal's tick handler, or null when the journal is off.
     * @param journalPackets  the journal's packet handler, or null.
     */
    SessionAgent(final RingBuffer packetRing, final int drainLimit, final FeedSession.Context sessionContext,
        final OrderBooks books, final ExchangeClock exchangeClock, final long firstSequence,
        final byte[] acceptedSession, final TickHandler journal, final PacketHandler journalPackets,
        final TickRing egressRing, final TickStamps stamps, final MarketState marketState,
        final EpochNanoClock clock, final StageLatency latency, final CountersFileWriter counters)
    {
        this.packetRing = packetRing;
        this.drainLimit = drainLimit;
        this.acceptedSession = acceptedSession;
        this.journal = journal;
        this.journalPackets = journalPackets;
        this.egressRing = egressRing;
        this.stamps = stamps;
        this.marketState = marketState;
        this.clock = clock;
        this.latency = latency;
        processor = new MessageProcessor(new Normalizer(books, exchangeClock, this, firstSequence));
        session = new FeedSession(sessionContext
            .messageHandler(processor)
            .gapHandler(processor)
            .packetContextHandler(processor));
        processor.packetDecoder(session.decoder());
        feedCounters = new FeedCountersPublisher(session, counters);
        ticks = counters.newCounter("session.ticks", CounterType.TOTAL);
        lastSequence = counters.newCounter("session.last_sequence", CounterType.POSITION);
        egressBackPressured = counters.newCounter("egress.ring.back_pressured", CounterType.TOTAL);
        malformedMessages = counters.newCounter("session.malformed_messages", CounterType.TOTAL);
        refusedSession = counters.newCounter("feed.refused_session_packets", CounterType.TOTAL);
    }

    /** @return the feed session; read it only on the agent's thread, or after the agent closed. */
    FeedSession session()
    {
        return session;
    }

    @Override
    public void onStart()
    {
        session.doWork(System.nanoTime());
        lastPublishNanos = System.nanoTime();
    }

    @Override
    public int doWork()
    {
        final long now = System.nanoTime();
        nowEpochNanos = clock.nanoTime();
        int work = session.doWork(now);
        work += packetRing.read(packetHandler, drainLimit);
        if (now - lastPublishNanos >= PUBLISH_INTERVAL_NANOS)
        {
            lastPublishNanos = now;
            publishCounters();
        }
        return work;
    }

    private void onPacket(final int typeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final int line = PacketRingDescriptor.line(typeId);
        final long receiveTimestamp = buffer.getLong(index + PacketRingDescriptor.RECEIVE_TIMESTAMP_OFFSET,
            ByteOrder.LITTLE_ENDIAN);
        final int payload = index + PacketRingDescriptor.PAYLOAD_OFFSET;
        final int payloadLength = length - PacketRingDescriptor.PAYLOAD_OFFSET;
        latency.record(nowEpochNanos - receiveTimestamp);
        if (acceptedSession != null && !isAcceptedSession(buffer, payload, payloadLength))
        {
            refused++;
            return;
        }
        if (journalPackets != null)
        {
            journalPackets.onPacket(line, buffer, payload, payloadLength, receiveTimestamp);
        }
        session.onPacket(line, buffer, payload, payloadLength, receiveTimestamp);
    }

    private boolean isAcceptedSession(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MoldUdp64Descriptor.HEADER_LENGTH)
        {
            return true;
        }
        for (int i = 0; i < acceptedSession.length; i++)
        {
            if (buffer.getByte(offset + i) != acceptedSession[i])
            {
                return false;
            }
        }
        return true;
    }

    /** Every tick the normalizer makes: stamped, journaled, offered to the egress. */
    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        stamps.stamp(sequence, nowEpochNanos);
        lastStamped = sequence;
        ticksSeen++;
        if (buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET) == (byte)EventType.SYSTEM_EVENT.value())
        {
            marketState.onSystemEvent((char)buffer.getLong(offset + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET,
                ByteOrder.LITTLE_ENDIAN));
        }
        if (journal != null)
        {
            journal.onTick(buffer, offset);
        }
        if (!egressRing.offer(buffer, offset))
        {
            waitForEgress(buffer, offset);
        }
    }

    private void waitForEgress(final DirectBuffer buffer, final int offset)
    {
        egressWaits++;
        do
        {
            Thread.onSpinWait();
        }
        while (!egressRing.offer(buffer, offset));
    }

    private void publishCounters()
    {
        feedCounters.publish();
        ticks.setRelease(ticksSeen);
        lastSequence.setRelease(lastStamped);
        egressBackPressured.setRelease(egressWaits);
        malformedMessages.setRelease(processor.malformedCount());
        refusedSession.setRelease(refused);
    }

    @Override
    public void onClose()
    {
        publishCounters();
    }

    @Override
    public String roleName()
    {
        return "session";
    }
}
