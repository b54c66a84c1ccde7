package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.feed.RetransmitRequester;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.journal.JournalPublisher;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

/**
 * The session stage: runs each packet through the {@link FeedSession} (A/B arbitration, gaps, re-requests, whose
 * timers it runs every duty cycle), ITCH decode, order books and the normalizer ({@link MessageProcessor}), which
 * write every tick once into the {@link TickLog} that the journal and the egress read. Packets come straight from
 * the ingress agents on its own thread ({@link SessionInput}: run-to-completion) and from the packet ring that
 * ingress agents on other threads fill (pipeline); raw packets are journaled on the way in.
 * <p>
 * Back-pressure: the session takes a packet only when the log has room for every tick it could produce: its own
 * messages and every message held after a gap, which one packet may release, each at most
 * {@link #MAX_TICKS_PER_MESSAGE} ticks, plus a GAP tick for every open gap and a SESSION tick (and the journal's
 * packet ring has room for the raw packet). Without room it takes nothing: ingresses on this thread leave their
 * bursts in the port, the packet ring keeps what it holds, a packet already off the wire is dropped and counted
 * ({@code session.back_pressure_drops}) and recovered like line loss, and the session's timers wait a cycle. It never
 * waits for room, so it can share a thread with the journal and the egress.
 * <p>
 * Measures {@code ingress_to_session} (packet receive time to the session taking it, on the one clock all stages
 * use). System events set the {@link MarketState}. The feed session keeps its own counters ({@code feed.*}) in the
 * counters file, given to it through its context here; the agent publishes its own every millisecond.
 * <p>
 * Threading: every method on the agent's thread; the session, processor and normalizer are confined to it.
 */
final class SessionAgent implements Agent, SessionInput, TickHandler
{
    /** Most ticks one ITCH message gives: its event and a top-of-book change on each side. */
    static final int MAX_TICKS_PER_MESSAGE = 3;
    /** Fewest framed bytes of a message that gives ticks: the 2-byte MoldUDP64 length and a 12-byte 'S' message. */
    static final int MIN_FRAMED_MESSAGE_BYTES = 14;
    private static final long PUBLISH_INTERVAL_NANOS = 1_000_000L;

    private final RingBuffer packetRing;
    private final int drainLimit;
    private final FeedSession session;
    private final MessageProcessor processor;
    private final Normalizer normalizer;
    private final TickLog log;
    private final JournalPublisher journalPackets;
    private final MarketState marketState;
    private final EpochNanoClock clock;
    private final StageLatency latency;
    private final AtomicCounter ticks;
    private final AtomicCounter lastSequence;
    private final AtomicCounter backPressured;
    private final AtomicCounter backPressureDrops;
    private final AtomicCounter malformedMessages;
    private final AtomicCounter logOverruns;
    private final AtomicCounter levelTicks;
    private final AtomicCounter partialNotCompleted;
    private final AtomicCounter bookOrders;
    private final AtomicCounter bookLevels;
    private final AtomicCounter bookDisplaced;
    private final AtomicCounter bookUnknown;
    private final AtomicCounter bookRefused;
    private final ControlledMessageHandler ringHandler = this::onRingPacket;
    private final PacketHandler recoveryInput = this::onRecoveryPacket;
    private long lastPublishNanos;
    private long ticksSeen;
    private long lastTickSequence;
    private long waits;
    private long drops;

    /**
     * @param packetRing     from ingress agents on other threads, or null when every ingress runs on this thread.
     * @param sessionContext the feed session's settings; its outputs are set here, and its re-request server's
     *                       answers pass the same room check as packets.
     * @param books          the order books.
     * @param exchangeClock  turns ITCH times into epoch times.
     * @param firstSequence  the gateway sequence of the first tick (one after the journal's last).
     * @param log            where every tick goes.
     * @param journalPackets the journal's raw packet input, or null when the journal is off.
     */
    SessionAgent(final RingBuffer packetRing, final int drainLimit, final FeedSession.Context sessionContext,
        final OrderBooks books, final ExchangeClock exchangeClock, final long firstSequence, final TickLog log,
        final JournalPublisher journalPackets, final MarketState marketState, final EpochNanoClock clock,
        final StageLatency latency, final CountersFileWriter counters)
    {
        this.packetRing = packetRing;
        this.drainLimit = drainLimit;
        this.log = log;
        this.journalPackets = journalPackets;
        this.marketState = marketState;
        this.clock = clock;
        this.latency = latency;
        normalizer = new Normalizer(books, exchangeClock, this, firstSequence);
        processor = new MessageProcessor(normalizer);
        final RetransmitRequester requester = sessionContext.requester();
        if (requester != null)
        {
            sessionContext.requester(new GatedRequester(requester));
        }
        session = new FeedSession(sessionContext
            .counters(counters)
            .messageHandler(processor)
            .gapHandler(processor)
            .packetContextHandler(processor));
        processor.packetDecoder(session.decoder());
        ticks = counters.newCounter("session.ticks", CounterType.TOTAL);
        lastSequence = counters.newCounter("session.last_sequence", CounterType.POSITION);
        backPressured = counters.newCounter("session.back_pressured", CounterType.TOTAL);
        backPressureDrops = counters.newCounter("session.back_pressure_drops", CounterType.TOTAL);
        malformedMessages = counters.newCounter("session.malformed_messages", CounterType.TOTAL);
        logOverruns = counters.newCounter("tick_log.overruns", CounterType.TOTAL);
        levelTicks = counters.newCounter("session.level_ticks", CounterType.TOTAL);
        partialNotCompleted = counters.newCounter("session.partial_messages_not_completed", CounterType.TOTAL);
        bookOrders = counters.newCounter("book.orders", CounterType.LEVEL);
        bookLevels = counters.newCounter("book.levels", CounterType.LEVEL);
        bookDisplaced = counters.newCounter("book.displaced_orders", CounterType.LEVEL);
        bookUnknown = counters.newCounter("book.unknown_orders", CounterType.TOTAL);
        bookRefused = counters.newCounter("book.refused", CounterType.TOTAL);
    }

    /** @return the normalizer, for a restore from the journal before the agent starts. */
    Normalizer normalizer()
    {
        return normalizer;
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
        int work = 0;
        if (hasRoomFor(0))
        {
            work += session.doWork(now);
        }
        else
        {
            waits++;
        }
        if (packetRing != null)
        {
            work += packetRing.controlledRead(ringHandler, drainLimit);
        }
        if (now - lastPublishNanos >= PUBLISH_INTERVAL_NANOS)
        {
            lastPublishNanos = now;
            publishCounters();
        }
        return work;
    }

    /** Ingresses on this thread: a burst is taken only when the log has room for all it may produce. */
    @Override
    public boolean readyForBurst(final int maxBytes)
    {
        if (hasRoomFor(maxBytes))
        {
            return true;
        }
        waits++;
        return false;
    }

    /** A packet from an ingress on this thread, or from the packet ring. */
    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestamp)
    {
        if (!hasRoomFor(length))
        {
            drops++;
            return;
        }
        take(line, buffer, offset, length, receiveTimestamp);
    }

    private ControlledMessageHandler.Action onRingPacket(
        final int typeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final int payloadLength = length - PacketRingDescriptor.PAYLOAD_OFFSET;
        if (!hasRoomFor(payloadLength))
        {
            waits++;
            return ControlledMessageHandler.Action.ABORT;
        }
        take(PacketRingDescriptor.line(typeId), buffer, index + PacketRingDescriptor.PAYLOAD_OFFSET, payloadLength,
            buffer.getLong(index + PacketRingDescriptor.RECEIVE_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN));
        return ControlledMessageHandler.Action.CONTINUE;
    }

    private void take(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestamp)
    {
        latency.record(clock.nanoTime() - receiveTimestamp);
        if (journalPackets != null)
        {
            journalPackets.onPacket(line, buffer, offset, length, receiveTimestamp);
        }
        session.onPacket(line, buffer, offset, length, receiveTimestamp);
    }

    /** A re-request answer, read by the session's own duty cycle: dropped and counted when there is no room. */
    private void onRecoveryPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestamp)
    {
        if (!hasRoomFor(length))
        {
            drops++;
            return;
        }
        session.onPacket(line, buffer, offset, length, receiveTimestamp);
    }

    /**
     * @param bytes UDP payload bytes about to be given to the session.
     * @return whether the log (and the journal's packet ring) can take everything that input may produce.
     */
    boolean hasRoomFor(final int bytes)
    {
        final long messages = session.heldMessages() + (bytes + MIN_FRAMED_MESSAGE_BYTES - 1) / MIN_FRAMED_MESSAGE_BYTES;
        final long ticks = Math.min(messages * MAX_TICKS_PER_MESSAGE + session.openGaps() + 2, log.capacity());
        return log.hasRoom((int)ticks) &&
            (journalPackets == null || journalPackets.hasRoomForPacket(bytes));
    }

    /** Every tick the normalizer makes: written once into the log. */
    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        lastTickSequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        ticksSeen++;
        if (buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET) == (byte)EventType.SYSTEM_EVENT.value())
        {
            marketState.onSystemEvent((char)buffer.getLong(offset + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET,
                ByteOrder.LITTLE_ENDIAN));
        }
        log.onTick(buffer, offset);
    }

    private void publishCounters()
    {
        ticks.setRelease(ticksSeen);
        lastSequence.setRelease(lastTickSequence);
        backPressured.setRelease(waits);
        backPressureDrops.setRelease(drops);
        malformedMessages.setRelease(processor.malformedCount());
        logOverruns.setRelease(log.overruns());
        levelTicks.setRelease(normalizer.levelCount());
        partialNotCompleted.setRelease(normalizer.partialMessagesNotCompleted());
        final OrderBooks books = normalizer.books();
        bookOrders.setRelease(books.orderCount());
        bookLevels.setRelease(books.levelCount());
        bookDisplaced.setRelease(books.displacedOrderCount());
        bookUnknown.setRelease(books.unknownOrderCount());
        bookRefused.setRelease(books.orderCapacityExceededCount() + books.levelCapacityExceededCount() +
            books.duplicateOrderCount() + books.instrumentOutOfRangeCount() + books.invalidInputCount());
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

    /** The re-request server as the session sees it: its answers pass the agent's room check first. */
    private final class GatedRequester implements RetransmitRequester
    {
        private final RetransmitRequester delegate;

        GatedRequester(final RetransmitRequester delegate)
        {
            this.delegate = delegate;
        }

        @Override
        public boolean request(final byte[] session, final long firstSequence, final int count)
        {
            return delegate.request(session, firstSequence, count);
        }

        @Override
        public int poll(final PacketHandler handler)
        {
            return delegate.poll(recoveryInput);
        }
    }
}
