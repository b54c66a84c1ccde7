package io.mdgate.journal;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Test support: the ticks a gateway journals for a feed, as the normalizer shapes them: a SESSION tick starting each
 * session (name {@code SESS000001} for session 1 and so on, exchange sequence 1), then messages of one or two ticks
 * (an order event and, for some, a TOP_OF_BOOK tick; the last flagged lastInMessage), with a GAP tick now and then,
 * and a session change every {@code sessionLength} messages. Exchange times rise with the sequence; a GAP and a
 * SESSION tick carry the time of the tick before. Everything about a message is derived from its session and
 * sequence, so a stream resumed from a {@link ResumePoint} carries on exactly where the journal stopped.
 */
final class SessionTickStream
{
    static final long DAY_NANOS = 86_400_000_000_000L;
    static final short LAST_IN_MESSAGE = TickFlagsEncoder.lastInMessage((short)0, true);

    private final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    private final TickEncoder encoder = new TickEncoder();
    private final long sessionLength;
    private final int gapEvery;
    private long gatewaySequence;
    private int session;
    private long exchangeSequence;
    private long lastTime;
    private int skip;

    /**
     * @param sessionLength messages (and lost messages) per session before the next session starts.
     * @param gapEvery      a GAP of 1..5 messages replaces every message whose sequence is a multiple of this; 0 none.
     */
    SessionTickStream(final long sessionLength, final int gapEvery)
    {
        this.sessionLength = sessionLength;
        this.gapEvery = gapEvery;
        this.gatewaySequence = 1;
    }

    /**
     * Carries on after a journal's last tick, as a restarted gateway does: a message the journal holds only the first
     * ticks of is made again from its first tick, under the same gateway sequences, and only the rest published.
     */
    SessionTickStream resume(final ResumePoint point)
    {
        gatewaySequence = point.firstRenormalizedSequence();
        skip = point.partialTicks();
        session = point.sessionNumber();
        exchangeSequence = point.nextExchangeSequence();
        lastTime = point.lastExchangeTimestamp();
        return this;
    }

    static String name(final int session)
    {
        return String.format("SESS%06d", session);
    }

    static long time(final int session, final long exchangeSequence)
    {
        return TestTicks.OPEN_NANOS + session * DAY_NANOS + exchangeSequence * 1_000;
    }

    long nextGatewaySequence()
    {
        return gatewaySequence;
    }

    int session()
    {
        return session;
    }

    long nextExchangeSequence()
    {
        return exchangeSequence;
    }

    /** Publishes the ticks of the next step: a session start, a gap or one message. */
    void next(final TickHandler handler)
    {
        if (session == 0 || exchangeSequence > sessionLength)
        {
            session++;
            exchangeSequence = 1;
            session(handler, session, name(session), 1, lastTime);
            return;
        }
        if (gapEvery > 0 && exchangeSequence % gapEvery == 0)
        {
            final long count = 1 + (exchangeSequence / gapEvery) % 5;
            gap(handler, exchangeSequence, count, lastTime);
            exchangeSequence += count;
            return;
        }
        final long time = time(session, exchangeSequence);
        final boolean withTop = exchangeSequence % 3 != 0;
        tick(handler, EventType.ADD, exchangeSequence, time, exchangeSequence * 7, !withTop);
        if (withTop)
        {
            tick(handler, EventType.TOP_OF_BOOK, exchangeSequence, time, 0, true);
        }
        lastTime = time;
        exchangeSequence++;
    }

    /** Publishes a SESSION tick as the contract lays it out, received at the start of its session's day. */
    void session(final TickHandler handler, final int number, final String name, final long first, final long time)
    {
        final UnsafeBuffer nameBytes = new UnsafeBuffer(name.getBytes(StandardCharsets.US_ASCII));
        start(EventType.SESSION, number, first, time)
            .receiveTimestamp(time(number, 0))
            .orderReference(nameBytes.getLong(0, ByteOrder.LITTLE_ENDIAN))
            .matchOrNewReference(nameBytes.getShort(8, ByteOrder.LITTLE_ENDIAN) & 0xFFFF);
        publish(handler, true);
    }

    /** Publishes a GAP tick: messages first..first+count-1 lost. */
    void gap(final TickHandler handler, final long first, final long count, final long time)
    {
        start(EventType.GAP, session, first, time).matchOrNewReference(count);
        publish(handler, true);
    }

    /** Publishes an ordinary tick of the current session. */
    void tick(final TickHandler handler, final EventType type, final long sequence, final long time,
        final long reference, final boolean lastInMessage)
    {
        start(type, session, sequence, time).orderReference(reference).side(Side.BUY).instrumentId(7)
            .price().mantissa(1_000_000);
        publish(handler, lastInMessage);
    }

    /** Starts the stream's gateway sequences at this one (after ticks some other way wrote). */
    void resumeAt(final long nextGatewaySequence)
    {
        gatewaySequence = nextGatewaySequence;
    }

    /** Makes the next SESSION tick use this number (a test of a journal whose numbers do not rise). */
    void sessionNumber(final int number)
    {
        session = number;
    }

    private TickEncoder start(final EventType type, final int number, final long sequence, final long time)
    {
        encoder.wrap(buffer, 0)
            .gatewaySequence(gatewaySequence++)
            .exchangeSequence(sequence)
            .exchangeTimestamp(time)
            .receiveTimestamp(time + 500)
            .orderReference(0)
            .matchOrNewReference(0)
            .quantity(0)
            .instrumentId(0)
            .sessionId(number)
            .eventType(type)
            .side(Side.NONE)
            .price().mantissa(Integer.MIN_VALUE);
        return encoder;
    }

    private void publish(final TickHandler handler, final boolean lastInMessage)
    {
        if (skip > 0)
        {
            skip--;
            return;
        }
        buffer.putShort(TickEncoder.flagsEncodingOffset(), lastInMessage ? LAST_IN_MESSAGE : 0,
            TickEncoder.BYTE_ORDER);
        handler.onTick(buffer, 0);
    }
}
