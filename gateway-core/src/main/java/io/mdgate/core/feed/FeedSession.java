package io.mdgate.core.feed;

import io.mdgate.core.counters.CounterAllocator;
import io.mdgate.core.counters.PrivateCounters;
import io.mdgate.core.mold.MoldUdp64Descriptor;
import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One live MoldUDP64 session over two lines, A and B, with gap recovery: every message leaves exactly once, in
 * sequence order, to the {@link MoldUdp64MessageHandler}; messages that cannot be recovered leave as one
 * {@link GapHandler#onGapDeclared} call in their place. docs/FEED.md describes the policy; in short:
 * <ul>
 *   <li>The first copy of a sequence wins, from whichever line; later copies are counted as duplicates.</li>
 *   <li>A packet past a missing sequence opens a gap and is held (copied into a bounded {@link PacketHold}). The
 *   gap waits {@code gapWaitNanos} for the other line, then is asked of the re-request server in rounds of
 *   requests of at most {@code maxRequestCount} messages, paced by a token bucket; a round that brings nothing is
 *   repeated every {@code retryIntervalNanos}, at most {@code maxRetries} more times. Answers arrive as packets on
 *   {@link FeedLines#RECOVERY}. Held packets leave, in order, as soon as the gap before them fills.</li>
 *   <li>A gap is declared lost when its retries are exhausted, when the messages asked for it reach the request
 *   budget, when its wait expires and there is no re-request server, when the hold (or its index) is full and room
 *   is needed, or when the session changes while it is open; it is counted, passed to the {@link GapHandler} in
 *   stream order and reported once to the {@link FeedSessionListener}.</li>
 *   <li>Heartbeats and the end-of-session marker carry the next sequence, so they reveal holes at the tail too.
 *   A line silent for {@code staleLineNanos} is reported stale once per silent period. A packet further ahead of
 *   what is known than the plausibility window is counted as implausible and dropped, unless the jump is
 *   corroborated.</li>
 *   <li>Corroboration, of a jump or a session name: both lines carried the same packet (sequence, count and
 *   messages) within {@code corroborationWindowNanos} of each other, or one line sent {@code confirmPackets}
 *   consecutive packets, each starting where the one before ended and within {@code staleLineNanos} of it. Strays
 *   (bit-flipped or far-ahead copies of different packets, whichever lines they come on) never corroborate.</li>
 *   <li>Sessions: a configured session is accepted with its first packet and every other one is dropped. Without
 *   one, a session name not yet accepted is a candidate: its packets are held (bounded) and counted until it is
 *   corroborated and the current session may be left (there is none, it delivered its end of session, or
 *   everything it revealed is resolved and each line has moved on to the candidate or gone stale). The new session
 *   expects sequence 1; its held packets go through the usual arbitration; the gap handler and the listener are
 *   told once. Packets of the previous session are counted and dropped from then on. After the end of session,
 *   packets of it are counted and dropped.</li>
 *   <li>An input with an end (a capture, see {@link #onEndOfInput()}): at its end, when no session was ever
 *   accepted, the candidate that came in the most well-formed packets is accepted and its held packets delivered.</li>
 *   <li>Malformed packets (as {@link MoldUdp64PacketDecoder} finds them, plus sequence 0, which MoldUDP64 never
 *   assigns) are counted per line and dropped, never thrown.</li>
 * </ul>
 * Time is the session's own: {@link #doWork(long)} sets it and runs the timers; packets are timed by the latest
 * {@code doWork}, so call it every duty cycle and once before the first packet. Receive timestamps given with
 * packets are only passed on (see {@link PacketContextHandler}).
 * <p>
 * Counters ({@link FeedCounterDescriptor}) are allocated once, from {@link Context#counters(CounterAllocator)}, and
 * updated by the session where each event happens; the accessors below read them back.
 * <p>
 * Allocation-free after construction. Threading: not thread-safe; the ingress poll, {@link #doWork(long)}, the
 * re-request answers and every callback run on one thread.
 */
public final class FeedSession implements PacketHandler
{
    /** The gap's wait for the other line expired and no re-request server is configured. */
    public static final int LOST_NO_RECOVERY = 1;
    /** Every round of re-requests for the gap went unanswered. */
    public static final int LOST_RETRIES_EXHAUSTED = 2;
    /** The hold had no room for a packet after the gap. */
    public static final int LOST_HOLD_FULL = 3;
    /** A new session started while the gap was open. */
    public static final int LOST_SESSION_CHANGED = 4;
    /** The messages asked for the gap, over all its requests, reached {@link Context#maxRequestedPerGap}. */
    public static final int LOST_REQUEST_BUDGET = 5;

    /** Fill (percent of the hold's entries or bytes) at which packets ahead of what is held start to be shed. */
    static final int SHED_HIGH_PERCENT = 75;
    /** Fill at or below which shedding stops and the sequences shed are asked for. */
    static final int SHED_LOW_PERCENT = 25;
    /** Gaps tracked beyond one per held packet: shed ranges, and the pieces answers split them into. */
    static final int SHED_GAPS = 1_024;

    /** Highest sequence accepted in a header: leaves room for a packet's count without overflow. */
    static final long MAX_SEQUENCE = Long.MAX_VALUE - 0x1_0000L;

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final int HEADER_LENGTH = MoldUdp64Descriptor.HEADER_LENGTH;
    private static final int SESSION_LENGTH = MoldUdp64Descriptor.SESSION_LENGTH;
    private static final int END_OF_SESSION_COUNT = MoldUdp64Descriptor.END_OF_SESSION_COUNT;
    private static final MoldUdp64MessageHandler VALIDATE_ONLY = (buffer, offset, length, sequence) -> {};

    private final MoldUdp64MessageHandler messageHandler;
    private final GapHandler gapHandler;
    private final PacketContextHandler packetContextHandler;
    private final FeedSessionListener listener;
    private final RetransmitRequester requester;
    private final long firstSequence;
    private final long gapWaitNanos;
    private final long retryIntervalNanos;
    private final long staleLineNanos;
    private final int maxRetries;
    private final int maxRequestCount;
    private final byte[] configuredSession;
    private final UnsafeBuffer configuredSessionView;
    private final long plausibleWindow;
    private final long maxRequestedPerGap;

    private final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
    private final MoldUdp64MessageHandler deliverer = new MoldUdp64MessageHandler()
    {
        @Override
        public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
        {
            onSessionMessage(buffer, offset, length, sequence);
        }

        @Override
        public void prefetch(final DirectBuffer buffer, final int offset, final int length)
        {
            messageHandler.prefetch(buffer, offset, length);
        }
    };
    private final FeedCounters counters;
    private final PacketHold hold;
    private final GapTable gaps;
    private final TokenBucket requestTokens;
    private final SessionCandidates candidates;
    private final PacketHold candidateHold;
    private final int[] lineCandidate = new int[2];
    private final Corroboration jump;

    private final byte[] session = new byte[SESSION_LENGTH];
    private final UnsafeBuffer sessionView = new UnsafeBuffer(session);
    private final byte[] previousSession = new byte[SESSION_LENGTH];
    private final UnsafeBuffer previousSessionView = new UnsafeBuffer(previousSession);
    private int sessionNumber;
    private boolean hasPreviousSession;
    private long expected;
    private long highestKnown;
    private boolean endSeen;
    private long endSequence;
    private boolean ended;

    private long nowNanos;
    private boolean clockStarted;
    private final long[] lastHeard = new long[2];
    private final boolean[] stale = new boolean[2];
    private boolean tokensLeft;
    private int deliveringLine;
    private boolean shedding;
    private long shedFrom;
    private long shedInPeriod;

    /**
     * @param context the settings; {@link Context#conclude()} is called here.
     * @throws IllegalArgumentException when a setting is out of range, naming it and its allowed range.
     */
    public FeedSession(final Context context)
    {
        context.conclude();
        this.messageHandler = context.messageHandler();
        this.gapHandler = context.gapHandler();
        this.packetContextHandler = context.packetContextHandler();
        this.listener = context.listener();
        this.requester = context.requester();
        this.firstSequence = context.firstSequence();
        this.gapWaitNanos = context.gapWaitNanos();
        this.retryIntervalNanos = context.retryIntervalNanos();
        this.staleLineNanos = context.staleLineNanos();
        this.maxRetries = context.maxRetries();
        this.maxRequestCount = context.maxRequestCount();
        this.configuredSession = context.sessionBytes();
        this.configuredSessionView = null == configuredSession ? null : new UnsafeBuffer(configuredSession);
        this.plausibleWindow = context.plausibleSequenceWindow();
        this.maxRequestedPerGap = context.maxRequestedPerGap();
        this.counters = new FeedCounters(null != context.counters() ?
            context.counters() : new PrivateCounters(FeedCounterDescriptor.COUNTERS_PER_SESSION));
        this.candidates = new SessionCandidates(plausibleWindow, context.confirmPackets(),
            context.corroborationWindowNanos(), staleLineNanos);
        this.jump = new Corroboration(plausibleWindow, context.confirmPackets(), context.corroborationWindowNanos(),
            staleLineNanos);
        this.hold = new PacketHold(context.holdBytes(), context.holdPackets());
        this.candidateHold = new PacketHold(
            Math.max(Context.MIN_HOLD_BYTES, context.holdBytes() / 8), Math.max(16, context.holdPackets() / 8));
        // A gap per held packet, and room for the ranges shed and split by answers while the hold is full.
        this.gaps = new GapTable(context.holdPackets() + 2 + SHED_GAPS, counters);
        this.requestTokens = new TokenBucket(context.requestsPerSecond(), context.requestBurst());
        if (null != context.resumeSessionName())
        {
            System.arraycopy(context.resumeSessionName(), 0, session, 0, SESSION_LENGTH);
            this.sessionNumber = context.resumeSessionNumber();
            this.expected = context.resumeNextSequence();
            this.highestKnown = expected;
        }
        levelsChanged();
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        receive(line, buffer, offset, length, receiveTimestampNanos);
        levelsChanged();
    }

    private void receive(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        if (line < FeedLines.A || line > FeedLines.RECOVERY)
        {
            counters.unknownLinePackets.incrementRelease();
            return;
        }
        counters.packets[line].incrementRelease();
        heard(line);
        if (length < HEADER_LENGTH || offset < 0 || length > buffer.capacity() - offset)
        {
            decoder.decode(buffer, offset, length, VALIDATE_ONLY);
            counters.malformed[line].incrementRelease();
            return;
        }
        final long sequence = buffer.getLong(offset + MoldUdp64Descriptor.SEQUENCE_NUMBER_OFFSET, BE);
        final int count = buffer.getShort(offset + MoldUdp64Descriptor.MESSAGE_COUNT_OFFSET, BE) & 0xFFFF;
        if (sequence < 1 || sequence > MAX_SEQUENCE)
        {
            counters.malformed[line].incrementRelease();
            return;
        }
        if ((sessionNumber == 0 || !sameSession(sessionView, buffer, offset)) &&
            !admitSession(line, buffer, offset, length, sequence, count, receiveTimestampNanos))
        {
            return;
        }
        if (line != FeedLines.RECOVERY)
        {
            lineCandidate[line] = 0;
        }
        onSessionPacket(line, buffer, offset, length, receiveTimestampNanos, sequence, count, false);
        if (!candidates.isEmpty())
        {
            acceptWaitingCandidate();
        }
    }

    /**
     * A packet of the current session.
     *
     * @param trusted true when its sequence was corroborated already (a candidate's packets replayed at acceptance).
     */
    private void onSessionPacket(
        final int line,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long timestamp,
        final long sequence,
        final int count,
        final boolean trusted)
    {
        if (ended)
        {
            counters.packetsAfterEndOfSession.incrementRelease();
            return;
        }
        if (!trusted && sequence - highestKnown > plausibleWindow &&
            !corroborateJump(line, buffer, offset, length, timestamp, sequence, count))
        {
            return;
        }
        if (count == 0 || count == END_OF_SESSION_COUNT)
        {
            onControl(line, buffer, offset, length, sequence, count);
        }
        else
        {
            onData(line, buffer, offset, length, timestamp, sequence, count);
        }
        checkEnd();
    }

    /**
     * A packet far ahead of everything known: counted as implausible and dropped, unless it corroborates a jump seen
     * before (the other line's copy of the same packet, or the last of consecutive packets of one line), which is
     * then taken as real.
     *
     * @return true when the packet is to be taken.
     */
    private boolean corroborateJump(
        final int line,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long timestamp,
        final long sequence,
        final int count)
    {
        if (line == FeedLines.RECOVERY)
        {
            counters.implausible[line].incrementRelease();
            return false;
        }
        if (!isWellFormed(buffer, offset, length, count))
        {
            counters.malformed[line].incrementRelease();
            return false;
        }
        jump.add(line, sequence, count, Corroboration.hash(buffer, offset, length), timestamp, nowNanos);
        if (!jump.isCorroborated())
        {
            counters.implausible[line].incrementRelease();
            return false;
        }
        jump.clear();
        counters.sequenceJumps.incrementRelease();
        return true;
    }

    /**
     * The duty cycle: takes the re-request answers waiting, reports lines gone stale, and moves each gap's recovery
     * on (requests due, rounds repeated, gaps given up).
     *
     * @param nowNanos the session's clock, never going back; also the time the following packets are given.
     * @return the work done: answers taken, requests sent, lines reported, gaps given up.
     */
    public int doWork(final long nowNanos)
    {
        this.nowNanos = nowNanos;
        if (!clockStarted)
        {
            clockStarted = true;
            lastHeard[FeedLines.A] = nowNanos;
            lastHeard[FeedLines.B] = nowNanos;
        }
        int work = 0;
        if (null != requester)
        {
            work += requester.poll(this);
        }
        work += checkLines();
        if (!gaps.isEmpty())
        {
            work += serviceGaps();
        }
        if (!candidates.isEmpty())
        {
            work += acceptWaitingCandidate();
        }
        levelsChanged();
        return work;
    }

    /**
     * Sets the counters that are levels of the session's state (gaps open, messages missing, packets held, next
     * sequence, end of session, session number) to what they are now: at the end of every call that may change
     * them, on the session's thread.
     */
    private void levelsChanged()
    {
        counters.gapsOpen.setRelease(gaps.size());
        counters.messagesMissing.setRelease(gaps.isEmpty() ? 0 : missingMessages());
        counters.heldPackets.setRelease(hold.size());
        counters.nextSequence.setRelease(expected);
        counters.endOfSession.setRelease(ended ? 1 : 0);
        counters.sessionNumber.setRelease(sessionNumber);
    }

    private void onControl(
        final int line,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long sequence,
        final int count)
    {
        if (length != HEADER_LENGTH)
        {
            decoder.decode(buffer, offset, length, VALIDATE_ONLY);
            counters.malformed[line].incrementRelease();
            return;
        }
        if (count == END_OF_SESSION_COUNT)
        {
            if (!endSeen)
            {
                endSeen = true;
                endSequence = sequence;
            }
        }
        else
        {
            counters.heartbeats[line].incrementRelease();
        }
        if (sequence > highestKnown)
        {
            while (gaps.isFull())
            {
                declareFront(LOST_HOLD_FULL);
            }
            gaps.open(highestKnown, sequence, line, nowNanos + gapWaitNanos);
            highestKnown = sequence;
        }
    }

    private void onData(
        final int line,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long timestamp,
        final long sequence,
        final int count)
    {
        final long end = sequence + count;
        if (end <= expected)
        {
            duplicatePacket(line, buffer, offset, length, count);
            return;
        }
        if (sequence <= expected)
        {
            deliverLive(line, buffer, offset, length, timestamp, end);
            return;
        }
        if (decoder.decode(buffer, offset, length, VALIDATE_ONLY) < 0)
        {
            counters.malformed[line].incrementRelease();
            return;
        }
        if (null != requester && shed(line, sequence, end, length))
        {
            return;
        }
        while (!hold.canHold(length) || gaps.isFull())
        {
            if (!declareFront(LOST_HOLD_FULL))
            {
                counters.malformed[line].incrementRelease();
                return;
            }
            if (end <= expected)
            {
                counters.duplicates[line].getAndAddRelease(count);
                return;
            }
            if (sequence <= expected)
            {
                deliverLive(line, buffer, offset, length, timestamp, end);
                return;
            }
        }
        holdAhead(line, buffer, offset, length, timestamp, sequence, count, end);
    }

    /**
     * With a re-request server, the hold is kept for what is closest to delivery: once it is filled past
     * {@link #SHED_HIGH_PERCENT} behind a gap, packets of lines A and B from the sequence known then on are not held
     * but left missing (the gap at the tail grows over them) and are not asked for until the hold has drained to
     * {@link #SHED_LOW_PERCENT}; what fills the older gaps (the other line's copies, re-request answers) is still
     * held in the room left. A packet that finds no room at all is dropped and its gap asked for again, rather than
     * declaring the lowest gap lost; so is one when the gap table is full (a packet past everything known then
     * leaves what is known where it was, so a later packet's gap covers it).
     *
     * @return true when the packet was shed (not held, nothing else to do).
     */
    private boolean shed(final int line, final long sequence, final long end, final int length)
    {
        if (shedding && hold.fillPercent() <= SHED_LOW_PERCENT)
        {
            stopShedding();
        }
        if (!shedding)
        {
            if (sequence < highestKnown || line == FeedLines.RECOVERY)
            {
                return dropForRoom(line, sequence, end, length);
            }
            if (hold.fillPercent() < SHED_HIGH_PERCENT && hold.canHold(length))
            {
                return false;
            }
            shedding = true;
            shedFrom = highestKnown;
            shedInPeriod = 0;
            counters.shedPeriods.incrementRelease();
            listener.onSheddingStarted(shedFrom, gaps.isEmpty() ? expected : gaps.from(gaps.first()), hold.size());
        }
        if (sequence < shedFrom)
        {
            return dropForRoom(line, sequence, end, length);
        }
        if (end > highestKnown)
        {
            final boolean extended = !gaps.isEmpty() && gaps.from(gaps.limit() - 1) >= shedFrom &&
                gaps.extendLast(highestKnown, end);
            if (!extended)
            {
                if (gaps.isFull())
                {
                    // Not even a gap to remember it by: what is known stays where it was, so the next packet or
                    // heartbeat past it opens a gap over this one too.
                    counters.packetsShed.incrementRelease();
                    shedInPeriod++;
                    return true;
                }
                gaps.open(highestKnown, end, line, nowNanos + gapWaitNanos);
            }
            highestKnown = end;
        }
        counters.packetsShed.incrementRelease();
        shedInPeriod++;
        return true;
    }

    /**
     * @return true, counting it shed, when a packet that fills an older gap finds no room in the hold at all; an
     * answer dropped so does not use up its gap's retries.
     */
    private boolean dropForRoom(final int line, final long sequence, final long end, final int length)
    {
        if (hold.canHold(length) && !gaps.isFull())
        {
            return false;
        }
        if (line == FeedLines.RECOVERY)
        {
            gaps.answerDropped(sequence, end);
        }
        counters.packetsShed.incrementRelease();
        shedInPeriod++;
        return true;
    }

    private void stopShedding()
    {
        shedding = false;
        listener.onSheddingStopped(shedFrom, highestKnown, shedInPeriod);
        shedInPeriod = 0;
    }

    private void holdAhead(
        final int line,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long timestamp,
        final long sequence,
        final int count,
        final long end)
    {
        boolean fillsSomething;
        if (sequence >= highestKnown)
        {
            if (sequence > highestKnown)
            {
                gaps.open(highestKnown, sequence, line, nowNanos + gapWaitNanos);
            }
            fillsSomething = true;
        }
        else
        {
            fillsSomething = gaps.fill(sequence, end, line, maxRequestCount);
        }
        if (end > highestKnown)
        {
            highestKnown = end;
            fillsSomething = true;
        }
        if (!fillsSomething)
        {
            counters.duplicates[line].getAndAddRelease(count);
            return;
        }
        hold.add(buffer, offset, length, sequence, count, line, timestamp);
    }

    private void duplicatePacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final int count)
    {
        if (decoder.decode(buffer, offset, length, VALIDATE_ONLY) < 0)
        {
            counters.malformed[line].incrementRelease();
        }
        else
        {
            counters.duplicates[line].getAndAddRelease(count);
        }
    }

    /** Delivers a packet that starts at or before the next expected sequence straight from the caller's buffer. */
    private void deliverLive(
        final int line,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long timestamp,
        final long end)
    {
        final long from = expected;
        deliveringLine = line;
        if (null != packetContextHandler)
        {
            packetContextHandler.onPacketContext(line, timestamp);
        }
        if (decoder.decode(buffer, offset, length, deliverer) < 0)
        {
            counters.malformed[line].incrementRelease();
            return;
        }
        if (end > highestKnown)
        {
            highestKnown = end;
        }
        if (!gaps.isEmpty())
        {
            gaps.fill(from, end, line, maxRequestCount);
        }
        if (!hold.isEmpty() || !gaps.isEmpty())
        {
            drain();
        }
    }

    /**
     * Releases held packets and declares lost gaps for as long as the next one in sequence is either: the stream
     * moves on until it reaches a gap still in recovery, or the end of what is known.
     */
    private void drain()
    {
        while (true)
        {
            final int entry = hold.lowestEntry();
            if (entry >= 0 && hold.sequence(entry) <= expected)
            {
                releaseHeld(entry);
                hold.removeLowest();
                continue;
            }
            if (!gaps.isEmpty() && gaps.state(gaps.first()) == GapTable.LOST && gaps.from(gaps.first()) <= expected)
            {
                emitLost(gaps.first());
                continue;
            }
            return;
        }
    }

    private void releaseHeld(final int entry)
    {
        final int line = hold.line(entry);
        final int count = hold.count(entry);
        if (hold.sequence(entry) + count <= expected)
        {
            counters.duplicates[line].getAndAddRelease(count);
            return;
        }
        deliveringLine = line;
        if (null != packetContextHandler)
        {
            packetContextHandler.onPacketContext(line, hold.timestamp(entry));
        }
        decoder.decode(hold.buffer(), hold.offset(entry), hold.length(entry), deliverer);
    }

    private void emitLost(final int i)
    {
        final long first = Math.max(gaps.from(i), expected);
        final long count = gaps.to(i) - first;
        final int reason = gaps.reason(i);
        final int opener = gaps.openedBy(i);
        gaps.removeFirst();
        if (count <= 0)
        {
            return;
        }
        expected = first + count;
        counters.gapLost(opener, reason, count);
        gapHandler.onGapDeclared(first, count);
        listener.onGapDeclared(first, count, reason);
    }

    /** @return false when there is no gap to declare. */
    private boolean declareFront(final int reason)
    {
        if (gaps.isEmpty())
        {
            return false;
        }
        gaps.markLost(gaps.first(), reason);
        drain();
        return true;
    }

    private void onSessionMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        if (sequence < expected)
        {
            counters.duplicates[deliveringLine].incrementRelease();
            return;
        }
        expected = sequence + 1;
        counters.delivered(deliveringLine);
        messageHandler.onMessage(buffer, offset, length, sequence);
    }

    /**
     * A packet whose session id is not the current one: the previous session's or another session's answer (dropped),
     * the configured session (accepted at once), or a candidate, held until it is corroborated and the current
     * session may be left (docs/FEED.md, "Session acceptance").
     *
     * @return true when the packet belongs to the (possibly new) current session and is still to be processed.
     */
    private boolean admitSession(
        final int line,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long sequence,
        final int count,
        final long timestamp)
    {
        if ((hasPreviousSession && sameSession(previousSessionView, buffer, offset)) || line == FeedLines.RECOVERY)
        {
            counters.otherSessionPackets.incrementRelease();
            return false;
        }
        if (!isWellFormed(buffer, offset, length, count) || !isPrintable(buffer, offset))
        {
            counters.malformed[line].incrementRelease();
            return false;
        }
        if (null != configuredSession)
        {
            if (!sameSession(configuredSessionView, buffer, offset))
            {
                counters.refusedSessionPackets.incrementRelease();
                return false;
            }
            beginSession(buffer, offset, sequence, line, timestamp);
            return true;
        }
        counters.candidateSessionPackets.incrementRelease();
        final int slot = candidates.slotFor(buffer, offset);
        final int id = candidates.id(slot);
        candidates.evidence(slot).add(line, sequence, count, Corroboration.hash(buffer, offset, length), timestamp,
            nowNanos);
        candidates.countPacket(slot, sequence);
        lineCandidate[line] = id;
        if (!candidateHold.canHold(length))
        {
            // Full (strays of long ago, or a long wait): what it held is recovered like any gap once accepted.
            candidateHold.clear();
        }
        candidateHold.add(buffer, offset, length, sequence, count, line, timestamp, id);
        if (canAccept(slot))
        {
            acceptCandidate(slot);
        }
        return false;
    }

    /**
     * @return true when the candidate is corroborated and the current session may be left: there is none, it ended,
     * or everything it revealed is resolved and each line has moved on to the candidate (or gone stale).
     */
    private boolean canAccept(final int slot)
    {
        if (!candidates.evidence(slot).isCorroborated())
        {
            return false;
        }
        if (sessionNumber == 0 || ended)
        {
            return true;
        }
        final int id = candidates.id(slot);
        return gaps.isEmpty() && hold.isEmpty() &&
            (lineCandidate[FeedLines.A] == id || stale[FeedLines.A]) &&
            (lineCandidate[FeedLines.B] == id || stale[FeedLines.B]);
    }

    /** @return 1 when a candidate held back (by the current session's tail) could be accepted now. */
    private int acceptWaitingCandidate()
    {
        for (int slot = 0; slot < SessionCandidates.SLOTS; slot++)
        {
            if (candidates.evidence(slot).isActive() && canAccept(slot))
            {
                acceptCandidate(slot);
                return 1;
            }
        }
        return 0;
    }

    /**
     * The end of the input, which a capture read offline has and a live feed never has (docs/FEED.md, "Offline:
     * captures"); call it once, after the last packet. When no session was ever accepted and candidates are still
     * waiting for corroboration, nothing more can corroborate them: the one that came in the most well-formed
     * packets is accepted as it stands, from the lowest sequence it showed (or {@code firstSequence}), and its held
     * packets are delivered through the usual arbitration, as at any acceptance. A hole among them opens a gap that
     * waits as usual: run {@link #doWork(long)} past the gap wait to declare it. When two candidates came in
     * equally many packets none is accepted, since nothing tells the session from a stray; a damaged packet is never
     * a candidate at all. Once a session was accepted (or resumed) this does nothing: a candidate for a change still
     * waiting is left as it is, its packets undelivered.
     *
     * @return true when a candidate was accepted.
     */
    public boolean onEndOfInput()
    {
        if (sessionNumber != 0 || candidates.isEmpty())
        {
            return false;
        }
        final int slot = candidates.mostPackets();
        if (slot == SessionCandidates.NONE)
        {
            return false;
        }
        acceptCandidate(slot, Math.min(candidates.lowestSeen(slot), candidates.evidence(slot).lowest()));
        levelsChanged();
        return true;
    }

    /**
     * Makes the candidate the current session, then delivers its held packets through the usual arbitration and
     * opens a gap for any it showed that could not be held, so they are recovered.
     */
    private void acceptCandidate(final int slot)
    {
        acceptCandidate(slot, candidates.evidence(slot).lowest());
    }

    /** @param lowest the first session's first sequence, unless {@code firstSequence} is configured. */
    private void acceptCandidate(final int slot, final long lowest)
    {
        final Corroboration evidence = candidates.evidence(slot);
        final int id = candidates.id(slot);
        final long known = evidence.highest();
        final int line = evidence.lastLine();
        beginSession(candidates.names(), SessionCandidates.nameOffset(slot), lowest, line,
            evidence.lastTimestamp());
        candidates.clear();
        lineCandidate[FeedLines.A] = 0;
        lineCandidate[FeedLines.B] = 0;
        replayCandidate(id);
        if (known > highestKnown && !ended)
        {
            reveal(known, line);
        }
    }

    private void replayCandidate(final int id)
    {
        while (!candidateHold.isEmpty())
        {
            final int entry = candidateHold.lowestEntry();
            if (candidateHold.tag(entry) == id)
            {
                final DirectBuffer held = candidateHold.buffer();
                final int at = candidateHold.offset(entry);
                onSessionPacket(candidateHold.line(entry), held, at, candidateHold.length(entry),
                    candidateHold.timestamp(entry), candidateHold.sequence(entry), candidateHold.count(entry), true);
            }
            candidateHold.removeLowest();
        }
        candidateHold.clear();
    }

    /** Opens a gap from what is known up to {@code sequence}, revealed by the line. */
    private void reveal(final long sequence, final int line)
    {
        while (gaps.isFull())
        {
            declareFront(LOST_HOLD_FULL);
        }
        gaps.open(highestKnown, sequence, line, nowNanos + gapWaitNanos);
        highestKnown = sequence;
    }

    /**
     * Starts a session, the first or a new one: the old one's open gaps are declared and what it held delivered, the
     * first sequence is the configured one (first session), the lowest seen (first session from its first packet)
     * or 1 (a change). The gap handler and the listener are told once.
     */
    private void beginSession(
        final DirectBuffer name, final int nameOffset, final long lowest, final int line, final long timestamp)
    {
        final boolean first = sessionNumber == 0;
        if (!first)
        {
            endOldSession();
        }
        name.getBytes(nameOffset, session, 0, SESSION_LENGTH);
        sessionNumber++;
        expected = first ? (firstSequence > 0 ? firstSequence : lowest) : 1;
        highestKnown = expected;
        endSeen = false;
        endSequence = 0;
        ended = false;
        jump.clear();
        if (null != packetContextHandler)
        {
            packetContextHandler.onPacketContext(line, timestamp);
        }
        gapHandler.onSessionStarted(sessionNumber, sessionView, 0, expected);
        if (hasPreviousSession)
        {
            listener.onSessionChanged(sessionNumber, previousSessionView, 0, sessionView, 0, expected);
        }
        else
        {
            listener.onSessionStarted(sessionNumber, sessionView, 0, expected);
        }
    }

    /** Declares every gap still open, delivers what was held, and remembers the session so its stragglers drop. */
    private void endOldSession()
    {
        for (int i = gaps.first(); i < gaps.limit(); i++)
        {
            gaps.markLost(i, LOST_SESSION_CHANGED);
        }
        drain();
        hold.clear();
        shedding = false;
        counters.sessionChanges.incrementRelease();
        System.arraycopy(session, 0, previousSession, 0, SESSION_LENGTH);
        hasPreviousSession = true;
    }

    private boolean isWellFormed(final DirectBuffer buffer, final int offset, final int length, final int count)
    {
        if (count == 0 || count == END_OF_SESSION_COUNT)
        {
            return length == HEADER_LENGTH;
        }
        return decoder.decode(buffer, offset, length, VALIDATE_ONLY) >= 0;
    }

    private void checkEnd()
    {
        if (endSeen && !ended && expected >= endSequence)
        {
            ended = true;
            listener.onEndOfSession(endSequence);
        }
    }

    private void heard(final int line)
    {
        if (line <= FeedLines.B)
        {
            lastHeard[line] = nowNanos;
            if (stale[line])
            {
                stale[line] = false;
                listener.onLineActive(line);
            }
        }
    }

    private int checkLines()
    {
        if (ended)
        {
            return 0;
        }
        int work = 0;
        for (int line = FeedLines.A; line <= FeedLines.B; line++)
        {
            if (!stale[line] && nowNanos - lastHeard[line] >= staleLineNanos)
            {
                stale[line] = true;
                counters.stalePeriods[line].incrementRelease();
                listener.onLineStale(line);
                work++;
            }
        }
        return work;
    }

    private int serviceGaps()
    {
        int work = 0;
        tokensLeft = true;
        if (shedding && hold.fillPercent() <= SHED_LOW_PERCENT)
        {
            stopShedding();
            work++;
        }
        // Answers for gaps past the lowest one have to be held: with the hold past its high mark only the lowest
        // gap, whose answers leave at once, is asked for; the others wait (their rounds and retries with them).
        final boolean onlyLowest = null != requester && hold.fillPercent() >= SHED_HIGH_PERCENT;
        for (int i = gaps.first(); i < gaps.limit(); i++)
        {
            final byte state = gaps.state(i);
            if (state == GapTable.LOST || (shedding && gaps.from(i) >= shedFrom))
            {
                continue;
            }
            if (onlyLowest && i != gaps.first())
            {
                break;
            }
            if (state == GapTable.WAITING)
            {
                if (nowNanos - gaps.deadline(i) < 0)
                {
                    continue;
                }
                if (null == requester)
                {
                    gaps.markLost(i, LOST_NO_RECOVERY);
                    work++;
                    continue;
                }
                gaps.startRound(i, 1);
            }
            else if (gaps.requestedTo(i) >= gaps.to(i) && gaps.followUpTo(i) == 0)
            {
                if (nowNanos - gaps.deadline(i) < 0)
                {
                    continue;
                }
                if (gaps.attempts(i) > maxRetries)
                {
                    gaps.markLost(i, LOST_RETRIES_EXHAUSTED);
                    work++;
                    continue;
                }
                gaps.startRound(i, gaps.attempts(i) + 1);
            }
            if (tokensLeft)
            {
                work += sendRequests(i);
            }
        }
        drain();
        checkEnd();
        return work;
    }

    /** Sends what gap i is due: a follow-up for a short answer, then the rest of its round, while tokens last. */
    private int sendRequests(final int i)
    {
        int sent = 0;
        final long followUp = gaps.followUpTo(i);
        if (followUp != 0)
        {
            if (followUp > gaps.from(i))
            {
                if (overBudget(i, followUp - gaps.from(i)) || !takeToken())
                {
                    return sent;
                }
                send(i, gaps.from(i), (int)(followUp - gaps.from(i)));
                sent++;
                gaps.deadline(i, nowNanos + retryIntervalNanos);
            }
            gaps.clearFollowUp(i);
        }
        while (gaps.requestedTo(i) < gaps.to(i))
        {
            final long first = gaps.requestedTo(i);
            final int count = (int)Math.min(gaps.to(i) - first, maxRequestCount);
            if (overBudget(i, count) || !takeToken())
            {
                return sent;
            }
            send(i, first, count);
            sent++;
            gaps.requestedTo(i, first + count);
            gaps.deadline(i, nowNanos + retryIntervalNanos);
        }
        return sent;
    }

    /** @return true, having given the gap up, when asking {@code count} more would go past its request budget. */
    private boolean overBudget(final int i, final long count)
    {
        if (gaps.asked(i) + count <= maxRequestedPerGap)
        {
            return false;
        }
        gaps.markLost(i, LOST_REQUEST_BUDGET);
        return true;
    }

    private boolean takeToken()
    {
        if (requestTokens.tryAcquire(nowNanos))
        {
            return true;
        }
        counters.requestsDeferred.incrementRelease();
        tokensLeft = false;
        return false;
    }

    private void send(final int i, final long first, final int count)
    {
        gaps.asked(i, gaps.asked(i) + count);
        if (requester.request(session, first, count))
        {
            counters.requestsSent.incrementRelease();
        }
        else
        {
            counters.requestFailures.incrementRelease();
        }
    }

    private static boolean sameSession(final DirectBuffer known, final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset) == known.getLong(0) && buffer.getShort(offset + 8) == known.getShort(8);
    }

    /** Session ids are printable ASCII; anything else is a damaged packet, not a new session. */
    private static boolean isPrintable(final DirectBuffer buffer, final int offset)
    {
        for (int i = 0; i < SESSION_LENGTH; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if (b < 0x20 || b > 0x7E)
            {
                return false;
            }
        }
        return true;
    }

    /** @return packets received on the line, of any kind. */
    public long packets(final int line)
    {
        return counters.packets[line].get();
    }

    /** @return messages delivered from the line's packets (the line's copy was the first). */
    public long messages(final int line)
    {
        return counters.messages[line].get();
    }

    /** @return messages received on the line that had already been received or delivered. */
    public long duplicates(final int line)
    {
        return counters.duplicates[line].get();
    }

    /** @return heartbeats received on the line. */
    public long heartbeats(final int line)
    {
        return counters.heartbeats[line].get();
    }

    /** @return gaps this line revealed (a packet or heartbeat of it was ahead of sequences nobody had seen). */
    public long gapsOpened(final int line)
    {
        return counters.gapsOpened[line].get();
    }

    /** @return gaps this line revealed that the other line filled. */
    public long gapsFilledByOtherLine(final int line)
    {
        return counters.gapsFilledByOtherLine[line].get();
    }

    /** @return gaps this line revealed that its own late (reordered) packets filled. */
    public long gapsFilledBySameLine(final int line)
    {
        return counters.gapsFilledBySameLine[line].get();
    }

    /** @return gaps this line revealed that re-request answers filled. */
    public long gapsFilledByRerequest(final int line)
    {
        return counters.gapsFilledByRerequest[line].get();
    }

    /** @return gaps this line revealed that were declared lost. */
    public long gapsDeclaredLost(final int line)
    {
        return counters.gapsDeclaredLost[line].get();
    }

    /** @return packets of the line dropped as malformed. */
    public long malformed(final int line)
    {
        return counters.malformed[line].get();
    }

    /** @return times the line was reported stale. */
    public long stalePeriods(final int line)
    {
        return counters.stalePeriods[line].get();
    }

    /**
     * @param reason one of the {@code LOST_*} constants.
     * @return gaps declared lost for that reason; 0 for 0, which is no reason.
     */
    public long gapsLost(final int reason)
    {
        return reason == 0 ? 0 : counters.gapsLostByReason[reason].get();
    }

    /** @return the open gaps and their recovery state, for test messages. */
    String describeGaps()
    {
        final StringBuilder text = new StringBuilder();
        for (int i = gaps.first(); i < gaps.limit(); i++)
        {
            text.append('[').append(gaps.from(i)).append(',').append(gaps.to(i)).append(") state ")
                .append(gaps.state(i)).append(" attempts ").append(gaps.attempts(i)).append(" requestedTo ")
                .append(gaps.requestedTo(i)).append(" followUp ").append(gaps.followUpTo(i)).append("; ");
        }
        return text + "held " + hold.size() + " (" + hold.fillPercent() + "%), lowest held " +
            (hold.isEmpty() ? -1 : hold.lowestSequence()) + ", expected " + expected + ", now " + nowNanos;
    }

    /** @return packets not held because the hold was (nearly) full behind a gap; their messages are asked for. */
    public long packetsShed()
    {
        return counters.packetsShed.get();
    }

    /** @return times the hold filled past its high mark and shedding began. */
    public long shedPeriods()
    {
        return counters.shedPeriods.get();
    }

    /** @return true while packets ahead of the hold are being shed. */
    public boolean isShedding()
    {
        return shedding;
    }

    /** @return messages declared lost, over all gaps. */
    public long messagesLost()
    {
        return counters.messagesLost.get();
    }

    /** @return messages delivered, from all lines. */
    public long messagesDelivered()
    {
        return counters.messagesDelivered.get();
    }

    /** @return packets of the previous session, or re-request answers of another session, dropped. */
    public long otherSessionPackets()
    {
        return counters.otherSessionPackets.get();
    }

    /** @return packets of the current session dropped because it had ended. */
    public long packetsAfterEndOfSession()
    {
        return counters.packetsAfterEndOfSession.get();
    }

    /** @return packets of lines A and B naming another session than the configured one, dropped. */
    public long refusedSessionPackets()
    {
        return counters.refusedSessionPackets.get();
    }

    /**
     * @return packets of lines A and B that arrived naming a session not accepted (yet), with no session
     * configured: held, and delivered if their session is accepted; one stray packet is one of these.
     */
    public long candidateSessionPackets()
    {
        return counters.candidateSessionPackets.get();
    }

    /** @return packets of the line dropped because their sequence was implausibly far ahead of what is known. */
    public long implausible(final int line)
    {
        return counters.implausible[line].get();
    }

    /**
     * @return jumps far ahead that were corroborated (the same packet on both lines, or consecutive packets of one)
     * and taken as real.
     */
    public long sequenceJumps()
    {
        return counters.sequenceJumps.get();
    }

    /** @return packets given with a line index outside {@link FeedLines}. */
    public long unknownLinePackets()
    {
        return counters.unknownLinePackets.get();
    }

    /** @return times a new session replaced the current one (a resumed session is not a change). */
    public long sessionChanges()
    {
        return counters.sessionChanges.get();
    }

    /** @return re-requests handed to the requester. */
    public long requestsSent()
    {
        return counters.requestsSent.get();
    }

    /** @return re-requests the requester could not send. */
    public long requestFailures()
    {
        return counters.requestFailures.get();
    }

    /** @return times a due re-request had to wait for the rate limit. */
    public long requestsDeferred()
    {
        return counters.requestsDeferred.get();
    }

    /** @return the next sequence to deliver; 0 before the first session is accepted. */
    public long nextSequence()
    {
        return expected;
    }

    /** @return one past the highest sequence any line has shown, as far as the session knows. */
    public long knownSequence()
    {
        return highestKnown;
    }

    /**
     * @return messages in the packets held after gaps: what one filled gap may release at once (the runtime keeps
     * room for their ticks before it gives the session more input).
     */
    public long heldMessages()
    {
        return hold.messages();
    }

    /** @return packets held after a gap. */
    public int heldPackets()
    {
        return hold.size();
    }

    /** @return gaps open (in recovery or declared and about to be passed on). */
    public int openGaps()
    {
        return gaps.size();
    }

    /** @return sequences currently missing, over all open gaps. */
    public long missingMessages()
    {
        long missing = 0;
        for (int i = gaps.first(); i < gaps.limit(); i++)
        {
            missing += gaps.to(i) - gaps.from(i);
        }
        return missing;
    }

    /** @return true once everything before the end-of-session marker has left. */
    public boolean isEndOfSession()
    {
        return ended;
    }

    /** @return true while the line is reported stale. */
    public boolean isLineStale(final int line)
    {
        return stale[line];
    }

    /**
     * @return 0 before the first session is accepted, 1 for the first session, one more for each change; a resumed
     * session keeps its number.
     */
    public int sessionNumber()
    {
        return sessionNumber;
    }

    /** @return the current session id as text; allocates, for reports. */
    public String sessionString()
    {
        return MoldUdp64Session.text(session);
    }

    /** @return the line of the packet whose messages are being delivered; meaningful inside a callback. */
    public int deliveringLine()
    {
        return deliveringLine;
    }

    /**
     * @return the decoder that dispatches delivered messages; give it to
     * {@link MessageProcessor#packetDecoder(MoldUdp64PacketDecoder)} to flag each packet's last tick.
     */
    public MoldUdp64PacketDecoder decoder()
    {
        return decoder;
    }

    /**
     * The settings of a {@link FeedSession}, with defaults; {@link #conclude()} checks them all at once.
     * Not thread-safe: fill in on one thread before the session is built.
     */
    public static final class Context
    {
        public static final long DEFAULT_GAP_WAIT_NANOS = 200_000L;
        public static final long DEFAULT_RETRY_INTERVAL_NANOS = 2_000_000L;
        public static final int DEFAULT_MAX_RETRIES = 5;
        public static final int DEFAULT_MAX_REQUEST_COUNT = 128;
        public static final long DEFAULT_REQUESTS_PER_SECOND = 2_000L;
        public static final int DEFAULT_REQUEST_BURST = 64;
        public static final int DEFAULT_HOLD_BYTES = 8 << 20;
        public static final int DEFAULT_HOLD_PACKETS = 8_192;
        public static final long DEFAULT_STALE_LINE_NANOS = 2_000_000_000L;
        public static final int DEFAULT_CONFIRM_PACKETS = 3;
        public static final long DEFAULT_PLAUSIBLE_SEQUENCE_WINDOW = 1_000_000L;
        public static final long DEFAULT_CORROBORATION_WINDOW_NANOS = 1_000_000_000L;
        public static final long DEFAULT_MAX_REQUESTED_PER_GAP = 10_000_000L;
        /** The largest gateway session number: a tick's sessionId is a uint16. */
        public static final int MAX_SESSION_NUMBER = 0xFFFF;

        /** The largest UDP payload must fit the hold. */
        public static final int MIN_HOLD_BYTES = 65_536;
        public static final int MAX_HOLD_BYTES = 1 << 30;
        public static final int MAX_HOLD_PACKETS = 1 << 20;
        /** A re-request's count is a u16. */
        public static final int MAX_REQUEST_COUNT = 0xFFFF;

        private static final long SECOND = 1_000_000_000L;

        private MoldUdp64MessageHandler messageHandler;
        private GapHandler gapHandler;
        private PacketContextHandler packetContextHandler;
        private FeedSessionListener listener = FeedSessionListener.NO_OP;
        private RetransmitRequester requester;
        private CounterAllocator counters;
        private long firstSequence;
        private long gapWaitNanos = DEFAULT_GAP_WAIT_NANOS;
        private long retryIntervalNanos = DEFAULT_RETRY_INTERVAL_NANOS;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private int maxRequestCount = DEFAULT_MAX_REQUEST_COUNT;
        private long requestsPerSecond = DEFAULT_REQUESTS_PER_SECOND;
        private int requestBurst = DEFAULT_REQUEST_BURST;
        private int holdBytes = DEFAULT_HOLD_BYTES;
        private int holdPackets = DEFAULT_HOLD_PACKETS;
        private long staleLineNanos = DEFAULT_STALE_LINE_NANOS;
        private String session;
        private byte[] sessionBytes;
        private String sessionProblem;
        private int confirmPackets = DEFAULT_CONFIRM_PACKETS;
        private long plausibleSequenceWindow = DEFAULT_PLAUSIBLE_SEQUENCE_WINDOW;
        private long corroborationWindowNanos = DEFAULT_CORROBORATION_WINDOW_NANOS;
        private long maxRequestedPerGap = DEFAULT_MAX_REQUESTED_PER_GAP;
        private byte[] resumeSessionName;
        private int resumeSessionNumber;
        private long resumeNextSequence;
        private boolean resumeGiven;

        /**
         * Checks every setting.
         *
         * @return this.
         * @throws IllegalArgumentException naming every setting that is wrong, with what it was and what is allowed.
         */
        public Context conclude()
        {
            final StringBuilder problems = new StringBuilder();
            require(problems, null != messageHandler,
                "messageHandler is required: the handler that receives the session's messages in order, " +
                "e.g. a MessageProcessor");
            require(problems, null != gapHandler,
                "gapHandler is required: the handler told of lost messages in their place, e.g. a MessageProcessor " +
                "(which publishes a GAP tick)");
            require(problems, null != listener, "listener must not be null; use FeedSessionListener.NO_OP for none");
            require(problems, firstSequence >= 0 && firstSequence <= MAX_SEQUENCE,
                "firstSequence must be 0 (start at the first packet seen) or a MoldUDP64 sequence from 1, was " +
                firstSequence);
            require(problems, gapWaitNanos >= 0 && gapWaitNanos <= 10 * SECOND,
                "gapWaitNanos must be 0 (ask at once) to 10 s (10000000000), was " + gapWaitNanos);
            require(problems, retryIntervalNanos >= 1_000 && retryIntervalNanos <= 60 * SECOND,
                "retryIntervalNanos must be 1 us (1000) to 60 s, longer than a round trip to the re-request server, " +
                "was " + retryIntervalNanos);
            require(problems, maxRetries >= 0 && maxRetries <= 1_000,
                "maxRetries must be 0 (one round of requests only) to 1000, was " + maxRetries);
            require(problems, maxRequestCount >= 1 && maxRequestCount <= MAX_REQUEST_COUNT,
                "maxRequestCount must be 1 to 65535 (a re-request's count is a u16), was " + maxRequestCount);
            require(problems, requestsPerSecond >= 1 && requestsPerSecond <= 1_000_000,
                "requestsPerSecond must be 1 to 1000000, was " + requestsPerSecond);
            require(problems, requestBurst >= 1 && requestBurst <= 1_000_000,
                "requestBurst must be 1 to 1000000 requests, was " + requestBurst);
            require(problems, holdBytes >= MIN_HOLD_BYTES && holdBytes <= MAX_HOLD_BYTES,
                "holdBytes must be " + MIN_HOLD_BYTES + " (one largest UDP payload) to " + MAX_HOLD_BYTES +
                ", was " + holdBytes);
            require(problems, holdPackets >= 1 && holdPackets <= MAX_HOLD_PACKETS,
                "holdPackets must be 1 to " + MAX_HOLD_PACKETS + ", was " + holdPackets);
            require(problems, staleLineNanos >= 1_000_000 && staleLineNanos <= 3_600 * SECOND,
                "staleLineNanos must be 1 ms (1000000) to 1 hour, more than the exchange's heartbeat interval, was " +
                staleLineNanos);
            require(problems, null == sessionProblem, sessionProblem);
            require(problems, confirmPackets >= 2 && confirmPackets <= 1_000,
                "confirmPackets must be 2 to 1000 (consecutive packets of one line that corroborate a new session or " +
                "a jump; 1 would let one stray packet through), was " + confirmPackets);
            require(problems, plausibleSequenceWindow >= 1 && plausibleSequenceWindow <= MAX_SEQUENCE,
                "plausibleSequenceWindow must be 1 to " + MAX_SEQUENCE + " sequences, was " + plausibleSequenceWindow);
            require(problems, corroborationWindowNanos >= 1_000 && corroborationWindowNanos <= 3_600 * SECOND,
                "corroborationWindowNanos must be 1 us (1000) to 1 hour, more than the skew between lines A and B, " +
                "was " + corroborationWindowNanos);
            require(problems, maxRequestedPerGap >= 1,
                "maxRequestedPerGap must be 1 or more messages, was " + maxRequestedPerGap);
            if (resumeGiven)
            {
                require(problems, null != resumeSessionName && resumeSessionName.length == SESSION_LENGTH,
                    "resume needs the 10-byte MoldUDP64 session name, was " +
                    (null == resumeSessionName ? "null" : resumeSessionName.length + " bytes"));
                require(problems, resumeSessionNumber >= 1 && resumeSessionNumber <= MAX_SESSION_NUMBER,
                    "resume's sessionNumber must be 1 to 65535 (a tick's sessionId), was " + resumeSessionNumber);
                require(problems, resumeNextSequence >= 1 && resumeNextSequence <= MAX_SEQUENCE,
                    "resume's nextSequence must be 1 to " + MAX_SEQUENCE + ", was " + resumeNextSequence);
            }
            if (problems.length() > 0)
            {
                throw new IllegalArgumentException("feed session settings: " + problems);
            }
            return this;
        }

        private static void require(final StringBuilder problems, final boolean ok, final String problem)
        {
            if (!ok)
            {
                problems.append(problems.length() > 0 ? "; " : "").append(problem);
            }
        }

        public MoldUdp64MessageHandler messageHandler()
        {
            return messageHandler;
        }

        /** @param handler receives every message once, in sequence order. */
        public Context messageHandler(final MoldUdp64MessageHandler handler)
        {
            this.messageHandler = handler;
            return this;
        }

        public GapHandler gapHandler()
        {
            return gapHandler;
        }

        /** @param handler told of lost messages, in their place in the stream. */
        public Context gapHandler(final GapHandler handler)
        {
            this.gapHandler = handler;
            return this;
        }

        public PacketContextHandler packetContextHandler()
        {
            return packetContextHandler;
        }

        /** @param handler told each delivered packet's line and receive time; null (the default) for none. */
        public Context packetContextHandler(final PacketContextHandler handler)
        {
            this.packetContextHandler = handler;
            return this;
        }

        public FeedSessionListener listener()
        {
            return listener;
        }

        /** @param listener told of sessions, lost gaps, stale lines and the end of session. */
        public Context listener(final FeedSessionListener listener)
        {
            this.listener = listener;
            return this;
        }

        public RetransmitRequester requester()
        {
            return requester;
        }

        /** @param requester the way to the re-request server; null (the default) for none. */
        public Context requester(final RetransmitRequester requester)
        {
            this.requester = requester;
            return this;
        }

        public CounterAllocator counters()
        {
            return counters;
        }

        /**
         * @param counters where the session allocates its counters ({@link FeedCounterDescriptor}, labelled
         *                 {@code feed.*}), once, when it is built: the gateway's counters file, so other processes
         *                 read them live; null (the default) for counters of its own that nobody outside sees.
         */
        public Context counters(final CounterAllocator counters)
        {
            this.counters = counters;
            return this;
        }

        public long firstSequence()
        {
            return firstSequence;
        }

        /**
         * @param sequence the first sequence of the first session to deliver: 1 to recover a session joined late
         *                 from its start, 0 (the default) to begin with the first packet seen.
         */
        public Context firstSequence(final long sequence)
        {
            this.firstSequence = sequence;
            return this;
        }

        public long gapWaitNanos()
        {
            return gapWaitNanos;
        }

        /** @param nanos how long a gap waits for the other line before it is requested. */
        public Context gapWaitNanos(final long nanos)
        {
            this.gapWaitNanos = nanos;
            return this;
        }

        public long retryIntervalNanos()
        {
            return retryIntervalNanos;
        }

        /** @param nanos how long a round of requests waits for answers before it is repeated. */
        public Context retryIntervalNanos(final long nanos)
        {
            this.retryIntervalNanos = nanos;
            return this;
        }

        public int maxRetries()
        {
            return maxRetries;
        }

        /** @param retries rounds of requests after the first, without an answer, before the gap is declared lost. */
        public Context maxRetries(final int retries)
        {
            this.maxRetries = retries;
            return this;
        }

        public int maxRequestCount()
        {
            return maxRequestCount;
        }

        /** @param count most messages asked for in one request; larger gaps take several. */
        public Context maxRequestCount(final int count)
        {
            this.maxRequestCount = count;
            return this;
        }

        public long requestsPerSecond()
        {
            return requestsPerSecond;
        }

        /** @param rate re-requests allowed per second, on average. */
        public Context requestsPerSecond(final long rate)
        {
            this.requestsPerSecond = rate;
            return this;
        }

        public int requestBurst()
        {
            return requestBurst;
        }

        /** @param burst re-requests that may go out at once after a quiet time. */
        public Context requestBurst(final int burst)
        {
            this.requestBurst = burst;
            return this;
        }

        public int holdBytes()
        {
            return holdBytes;
        }

        /** @param bytes room for packets held after gaps. */
        public Context holdBytes(final int bytes)
        {
            this.holdBytes = bytes;
            return this;
        }

        public int holdPackets()
        {
            return holdPackets;
        }

        /** @param packets most packets held after gaps. */
        public Context holdPackets(final int packets)
        {
            this.holdPackets = packets;
            return this;
        }

        public long staleLineNanos()
        {
            return staleLineNanos;
        }

        /**
         * @param nanos how long a line may send nothing, not even a heartbeat, before it is reported stale; also the
         *              longest pause between two consecutive packets of a run that corroborates ({@link
         *              #confirmPackets(int)}).
         */
        public Context staleLineNanos(final long nanos)
        {
            this.staleLineNanos = nanos;
            return this;
        }

        /** @return the configured MoldUDP64 session name, or null for none. */
        public String session()
        {
            return session;
        }

        /** @return the configured session's 10 wire bytes, or null for none. */
        byte[] sessionBytes()
        {
            return sessionBytes;
        }

        /**
         * @param name the only MoldUDP64 session to accept (up to 10 ASCII characters, space-padded): its first
         *             packet starts it at once and packets of any other session are counted and dropped. Null or
         *             empty (the default) for none: sessions are then accepted only when corroborated.
         */
        public Context session(final String name)
        {
            this.session = null == name || name.isEmpty() ? null : name;
            this.sessionBytes = null;
            this.sessionProblem = null;
            if (null != session)
            {
                try
                {
                    sessionBytes = MoldUdp64Session.of(session);
                    for (final byte b : sessionBytes)
                    {
                        if (b < 0x20 || b > 0x7E)
                        {
                            throw new IllegalArgumentException("MoldUDP64 session '" + session +
                                "' has a control character; use printable ASCII only");
                        }
                    }
                }
                catch (final IllegalArgumentException ex)
                {
                    sessionBytes = null;
                    sessionProblem = "session: " + ex.getMessage();
                }
            }
            return this;
        }

        public int confirmPackets()
        {
            return confirmPackets;
        }

        /**
         * @param packets consecutive packets of one line (each starting where the one before ended, and within
         *                {@link #staleLineNanos} of it) that corroborate a session not seen on the other line yet,
         *                or a jump far ahead; the same packet on both lines is corroboration at once.
         */
        public Context confirmPackets(final int packets)
        {
            this.confirmPackets = packets;
            return this;
        }

        public long plausibleSequenceWindow()
        {
            return plausibleSequenceWindow;
        }

        /**
         * @param sequences how far past the highest known sequence a packet may be and still be taken without
         *                  corroboration; further ahead it is counted as implausible and dropped until corroborated.
         */
        public Context plausibleSequenceWindow(final long sequences)
        {
            this.plausibleSequenceWindow = sequences;
            return this;
        }

        public long corroborationWindowNanos()
        {
            return corroborationWindowNanos;
        }

        /**
         * @param nanos how far apart lines A and B may bring their copies of one packet for the two to corroborate a
         *              session or a jump far ahead: more than the lines' skew; two different packets, however close,
         *              never corroborate.
         */
        public Context corroborationWindowNanos(final long nanos)
        {
            this.corroborationWindowNanos = nanos;
            return this;
        }

        public long maxRequestedPerGap()
        {
            return maxRequestedPerGap;
        }

        /**
         * @param messages messages that may be asked for one gap, over all its requests and rounds, before it is
         *                 declared lost ({@link FeedSession#LOST_REQUEST_BUDGET}).
         */
        public Context maxRequestedPerGap(final long messages)
        {
            this.maxRequestedPerGap = messages;
            return this;
        }

        /**
         * Starts the session already in a session a previous run journaled: its packets are accepted at once from
         * {@code nextSequence} (nothing before it is delivered or requested), no session start is reported, and a
         * packet of another session is a candidate for a change like any other. {@link #firstSequence(long)} does
         * not apply.
         *
         * @param sessionName   the 10-byte MoldUDP64 session name.
         * @param sessionNumber the gateway's number of that session, 1 to 65535.
         * @param nextSequence  one past the last sequence journaled.
         */
        public Context resume(final byte[] sessionName, final int sessionNumber, final long nextSequence)
        {
            this.resumeGiven = true;
            this.resumeSessionName = null == sessionName ? null : sessionName.clone();
            this.resumeSessionNumber = sessionNumber;
            this.resumeNextSequence = nextSequence;
            return this;
        }

        /** @return the resumed session's name, or null when not resuming. */
        public byte[] resumeSessionName()
        {
            return resumeGiven ? resumeSessionName : null;
        }

        public int resumeSessionNumber()
        {
            return resumeSessionNumber;
        }

        public long resumeNextSequence()
        {
            return resumeNextSequence;
        }
    }
}
