package io.mdgate.core.feed;

import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.ItchMessageFlyweight;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Decode, book and normalize of one ITCH message with its MoldUDP64 sequence: the message handler a
 * {@link MoldUdp64PacketDecoder} (or a file reader) drives. The sequence becomes the ticks' exchange sequence;
 * receive time, line, recovery and session are set here before the messages of a packet are dispatched and stay
 * until changed. A message the ITCH decoder refuses produces no tick and is counted as malformed.
 * <p>
 * When given the packet decoder that dispatches to it ({@link #packetDecoder(MoldUdp64PacketDecoder)}), the
 * processor flags the last tick of each packet's last message {@code lastInPacket}.
 * <p>
 * Behind a {@link FeedSession} the processor is all three of its outputs: the message handler, the
 * {@link GapHandler} (a lost range becomes a GAP tick; a session start resets the books and becomes a SESSION tick,
 * and later ticks carry the session's number) and the {@link PacketContextHandler} (each packet's line and receive
 * time go into its ticks' flags and receive timestamp).
 * <p>
 * Allocation-free. Threading: not thread-safe; runs on the thread that decodes the packets.
 */
public final class MessageProcessor implements MoldUdp64MessageHandler, GapHandler, PacketContextHandler
{
    /** Every order event carries its (original) order reference at the same offset. */
    private static final int REFERENCE_OFFSET = OrderDeleteFlyweight.ORDER_REFERENCE_OFFSET;
    private static final int ORDER_EVENT_MIN_LENGTH = OrderDeleteFlyweight.LENGTH;
    /** Order events of one packet whose levels are prefetched in a second step. */
    private static final int STAGED = 64;
    /**
     * Live levels up to which their records (32 bytes each) fit a 2 MB cache and the second prefetch step costs more
     * than it saves (standard benchmark day: 13% slower with it; deep day, 500,000 levels: faster).
     */
    static final int LEVELS_IN_CACHE = 1 << 16;

    private final ItchMessageDecoder decoder;
    private final Normalizer normalizer;
    private MoldUdp64PacketDecoder packetDecoder;
    private long messageCount;
    private long malformedCount;
    private long prefetched;
    private int staged;
    private int levelsInCache = LEVELS_IN_CACHE;
    /** Whether the packet being noted gets the second prefetch step; decided at the previous packet. */
    private boolean stageLevels;
    private final long[] stagedReference = new long[STAGED];
    private final int[] stagedBook = new int[STAGED];

    /**
     * @param normalizer holding the books and the tick handler.
     */
    public MessageProcessor(final Normalizer normalizer)
    {
        this(new ItchMessageDecoder(), normalizer);
    }

    /**
     * @param decoder    the ITCH decoder, whose counters break malformed messages down by reason.
     * @param normalizer holding the books and the tick handler.
     */
    public MessageProcessor(final ItchMessageDecoder decoder, final Normalizer normalizer)
    {
        this.decoder = decoder;
        this.normalizer = normalizer;
    }

    /**
     * @param packetDecoder the decoder dispatching to this processor, read during dispatch to find each packet's
     *                      last message; null to never set {@code lastInPacket}.
     * @return this.
     */
    public MessageProcessor packetDecoder(final MoldUdp64PacketDecoder packetDecoder)
    {
        this.packetDecoder = packetDecoder;
        return this;
    }

    /** @param epochNanos receive time of the packet whose messages come next. */
    public MessageProcessor receiveTimestamp(final long epochNanos)
    {
        normalizer.receiveTimestamp(epochNanos);
        return this;
    }

    /** @param lineB true when the packet whose messages come next arrived first on line B. */
    public MessageProcessor lineB(final boolean lineB)
    {
        normalizer.lineB(lineB);
        return this;
    }

    /** @param recovered true when the messages that come next are a retransmission. */
    public MessageProcessor recovered(final boolean recovered)
    {
        normalizer.recovered(recovered);
        return this;
    }

    /** @param sessionId the gateway's number for the exchange session of the messages that come next. */
    public MessageProcessor sessionId(final int sessionId)
    {
        normalizer.sessionId(sessionId);
        return this;
    }

    /**
     * Sets the context of the packet whose messages come next from where a {@link FeedSession} got it.
     *
     * @param line                  {@link FeedLines#B} sets {@code lineB}, {@link FeedLines#RECOVERY} sets
     *                              {@code recovered}.
     * @param receiveTimestampNanos the packet's receive time, ns since the epoch.
     */
    @Override
    public void onPacketContext(final int line, final long receiveTimestampNanos)
    {
        normalizer.lineB(line == FeedLines.B)
            .recovered(line == FeedLines.RECOVERY)
            .receiveTimestamp(receiveTimestampNanos);
    }

    /** Publishes a GAP tick for messages the session gave up on (see {@link Normalizer#onGap(long, long)}). */
    @Override
    public void onGapDeclared(final long firstSequence, final long count)
    {
        normalizer.onGap(firstSequence, count);
    }

    /** Starts the session in the normalizer (see {@link Normalizer#onSession}): books reset, one SESSION tick. */
    @Override
    public void onSessionStarted(
        final int sessionNumber, final DirectBuffer sessionId, final int offset, final long firstSequence)
    {
        normalizer.onSession(sessionNumber, sessionId, offset, firstSequence);
    }

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        process(buffer, offset, length, sequence);
    }

    /**
     * Notes the order record a message will touch, without processing it, for {@link #process} to bring into the
     * cache with the others of its packet. A packet's messages name orders all over the book, each a likely cache
     * miss on a book bigger than the cache; reading all of them back to back, in a loop of a few instructions each,
     * lets the misses overlap, so processing the packet then waits about one memory latency instead of one per
     * message. Only order events (add, execute, cancel, delete, replace) are noted; anything else, or a message too
     * short to hold a reference, is ignored. Changes no state that processing reads.
     */
    @Override
    public void prefetch(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte type;
        if (staged < STAGED && length >= ORDER_EVENT_MIN_LENGTH && isOrderEvent(type = buffer.getByte(offset)))
        {
            stagedReference[staged] = buffer.getLong(offset + REFERENCE_OFFSET, ByteOrder.BIG_ENDIAN);
            if (stageLevels)
            {
                final boolean add = type == ItchMessageType.ADD_ORDER || type == ItchMessageType.ADD_ORDER_MPID;
                stagedBook[staged] = add ? (buffer.getShort(offset + ItchMessageFlyweight.STOCK_LOCATE_OFFSET,
                    ByteOrder.BIG_ENDIAN) & 0xFFFF) << 1 | (buffer.getByte(offset + AddOrderFlyweight.SIDE_OFFSET) ==
                    'S' ? 1 : 0) : -1;
            }
            staged++;
        }
    }

    /**
     * @return {@link ItchMessageDecoder#OK}, or the decoder's code for a malformed message (which is dropped).
     */
    public int process(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        if (staged > 0)
        {
            prefetchStaged();
        }
        messageCount++;
        normalizer.exchangeSequence(sequence);
        if (packetDecoder != null)
        {
            normalizer.lastInPacket(sequence == packetDecoder.sequenceNumber() + packetDecoder.messageCount() - 1);
        }
        final int result = decoder.decode(buffer, offset, length, normalizer);
        if (result != ItchMessageDecoder.OK)
        {
            malformedCount++;
        }
        return result;
    }

    /**
     * A packet's prefetch, at its first message: its order records read back to back; then, while more than
     * {@link #LEVELS_IN_CACHE} levels are live, a second step once those records have arrived (or are on their
     * way): each order event's level record, and for an add its side's best entry, the next misses on a book of
     * hundreds of thousands of levels.
     */
    private void prefetchStaged()
    {
        final OrderBooks books = normalizer.books();
        prefetched += books.prefetch(stagedReference, staged);
        if (stageLevels)
        {
            for (int i = 0; i < staged; i++)
            {
                final int book = stagedBook[i];
                prefetched += book < 0 ? books.prefetchLevel(stagedReference[i]) : books.prefetchSide(book);
            }
        }
        stageLevels = books.levelCount() > levelsInCache;
        staged = 0;
    }

    /** For tests: the live levels above which the second prefetch step runs. */
    MessageProcessor levelsInCache(final int levels)
    {
        levelsInCache = levels;
        stageLevels = normalizer.books().levelCount() > levels;
        return this;
    }

    private static boolean isOrderEvent(final byte type)
    {
        switch (type)
        {
            case ItchMessageType.ADD_ORDER:
            case ItchMessageType.ADD_ORDER_MPID:
            case ItchMessageType.ORDER_EXECUTED:
            case ItchMessageType.ORDER_EXECUTED_WITH_PRICE:
            case ItchMessageType.ORDER_CANCEL:
            case ItchMessageType.ORDER_DELETE:
            case ItchMessageType.ORDER_REPLACE:
                return true;
            default:
                return false;
        }
    }

    public ItchMessageDecoder decoder()
    {
        return decoder;
    }

    public Normalizer normalizer()
    {
        return normalizer;
    }

    /** @return messages handed to this processor, malformed ones included. */
    public long messageCount()
    {
        return messageCount;
    }

    /** @return messages the ITCH decoder refused. */
    public long malformedCount()
    {
        return malformedCount;
    }
}
