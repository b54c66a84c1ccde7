package io.mdgate.journal;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Test support: reads a whole journal forwards and works out, the slow and obvious way, the resume point its last
 * tick gives, while checking what a restart must never break: exchange times never go backwards, and within each
 * session every exchange message is accounted for exactly once (each tick either continues its message or starts
 * the one after the previous tick's) and whole (a message whose last tick never came, a crash between its ticks,
 * must be completed by the restarted writer before anything else).
 */
final class JournalTruth implements TickHandler
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final Map<Integer, Long> sessionStarts = new HashMap<>();
    private final Map<Integer, byte[]> sessionNames = new HashMap<>();
    private final UnsafeBuffer last = new UnsafeBuffer(new byte[64]);
    private long ticks;
    private long messages;
    private int partial;
    private int sessionChanges;

    static JournalTruth read(final Path directory)
    {
        final JournalTruth truth = new JournalTruth();
        try (JournalReader reader = JournalReader.open(directory); TickReplay replay = reader.newTickReplay())
        {
            replay.replay(1, Long.MAX_VALUE, truth);
        }
        return truth;
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final int session = buffer.getShort(offset + TickEncoder.sessionIdEncodingOffset(), LE) & 0xFFFF;
        final int type = buffer.getByte(offset + TickEncoder.eventTypeEncodingOffset()) & 0xFF;
        final long sequence = buffer.getLong(offset + TickEncoder.exchangeSequenceEncodingOffset(), LE);
        final long time = buffer.getLong(offset + TickReplay.EXCHANGE_TIME_OFFSET, LE);
        if (ticks > 0)
        {
            final long lastTime = last.getLong(TickReplay.EXCHANGE_TIME_OFFSET, LE);
            if (time < lastTime)
            {
                throw new AssertionError("exchange time goes back from " + lastTime + " to " + time + " at tick " +
                    buffer.getLong(offset, LE));
            }
        }
        if (type == EventType.SESSION.value())
        {
            sessionChanges++;
            if (sessionStarts.put(session, buffer.getLong(offset, LE)) != null)
            {
                throw new AssertionError("session " + session + " started twice");
            }
            final byte[] name = new byte[10];
            buffer.getBytes(offset + TickEncoder.orderReferenceEncodingOffset(), name, 0, 10);
            sessionNames.put(session, name);
        }
        else if (ticks > 0)
        {
            checkOnce(session, type, sequence, buffer.getLong(offset, LE));
        }
        last.putBytes(0, buffer, offset, 64);
        ticks++;
        final boolean whole = type == EventType.SESSION.value() || type == EventType.GAP.value() ||
            (buffer.getShort(offset + TickEncoder.flagsEncodingOffset(), LE) & SessionTickStream.LAST_IN_MESSAGE) != 0;
        partial = whole ? 0 : partial + 1;
    }

    private void checkOnce(final int session, final int type, final long sequence, final long gatewaySequence)
    {
        final int lastSession = last.getShort(TickEncoder.sessionIdEncodingOffset(), LE) & 0xFFFF;
        final long expected = ResumePointFinder.nextExchangeSequence(last);
        final boolean sameMessage = (last.getShort(TickEncoder.flagsEncodingOffset(), LE) &
            SessionTickStream.LAST_IN_MESSAGE) == 0 &&
            last.getLong(TickEncoder.exchangeSequenceEncodingOffset(), LE) == sequence;
        if (lastSession != session)
        {
            throw new AssertionError("tick " + gatewaySequence + " of session " + session + " follows session " +
                lastSession + " without a SESSION tick");
        }
        if (!sameMessage && partial > 0)
        {
            throw new AssertionError("tick " + gatewaySequence + " (exchange sequence " + sequence + ") follows " +
                partial + " tick(s) of message " + last.getLong(TickEncoder.exchangeSequenceEncodingOffset(), LE) +
                " without its last");
        }
        if (!sameMessage && sequence != expected)
        {
            throw new AssertionError("tick " + gatewaySequence + " carries exchange sequence " + sequence +
                " where " + expected + " follows (a message " + (sequence < expected ? "twice" : "missing") + ")");
        }
        if (!sameMessage && type != EventType.GAP.value())
        {
            messages++;
        }
    }

    /** @return the resume point the last tick gives, worked out from the whole journal. */
    Optional<ResumePoint> resumePoint()
    {
        if (ticks == 0)
        {
            return Optional.empty();
        }
        final int session = last.getShort(TickEncoder.sessionIdEncodingOffset(), LE) & 0xFFFF;
        final Long start = sessionStarts.get(session);
        if (start == null)
        {
            return Optional.empty();
        }
        final long nextExchange = partial > 0 ? last.getLong(TickEncoder.exchangeSequenceEncodingOffset(), LE) :
            ResumePointFinder.nextExchangeSequence(last);
        return Optional.of(new ResumePoint(last.getLong(0, LE) + 1, session, sessionNames.get(session),
            nextExchange, last.getLong(TickReplay.EXCHANGE_TIME_OFFSET, LE), start, partial));
    }

    long ticks()
    {
        return ticks;
    }

    /** @return messages of the feed journaled (not counting GAP and SESSION ticks, nor a message's second tick). */
    long messages()
    {
        return messages;
    }

    int sessionChanges()
    {
        return sessionChanges;
    }
}
