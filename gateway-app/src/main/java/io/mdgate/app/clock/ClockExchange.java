package io.mdgate.app.clock;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The wire of {@code mdgate clock}, one UDP datagram each way, little-endian:
 * <pre>
 *   probe  (24 bytes): magic PROBE, probe id, t1 (the prober's clock as it sent)
 *   answer (40 bytes): magic ANSWER, probe id, t1 echoed, t2 (the answerer's clock on receipt), t3 (as it answered)
 * </pre>
 * The prober reads t4 on receipt. Causality bounds the answerer's offset from the prober, theta: t2 cannot be before
 * t1 + theta nor t3 after t4 + theta, so theta lies in [t3 - t4, t2 - t1], an interval as wide as the round trip
 * less the answerer's own time, (t4 - t1) - (t3 - t2); its middle is the estimate and half its width the bound,
 * whatever the two directions' delays are. Stateless; constants and codecs only.
 */
final class ClockExchange
{
    /** "MDGCLKP1" */
    static final long PROBE = 0x31504b4c43474d44L;
    /** "MDGCLKA1" */
    static final long ANSWER = 0x31414b4c43474d44L;
    static final int PROBE_LENGTH = 24;
    static final int ANSWER_LENGTH = 40;

    private ClockExchange()
    {
    }

    static ByteBuffer buffer()
    {
        return ByteBuffer.allocate(ANSWER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    }

    static void probe(final ByteBuffer buffer, final long id, final long t1)
    {
        buffer.clear();
        buffer.putLong(PROBE).putLong(id).putLong(t1).flip();
    }

    /** @return whether {@code buffer} (flipped) holds a well-formed probe. */
    static boolean isProbe(final ByteBuffer buffer)
    {
        return buffer.remaining() == PROBE_LENGTH && buffer.getLong(buffer.position()) == PROBE;
    }

    /** Turns the probe in {@code buffer} into its answer, in place. */
    static void answer(final ByteBuffer buffer, final long t2, final long t3)
    {
        final long id = buffer.getLong(8);
        final long t1 = buffer.getLong(16);
        buffer.clear();
        buffer.putLong(ANSWER).putLong(id).putLong(t1).putLong(t2).putLong(t3).flip();
    }

    /** @return whether {@code buffer} (flipped) holds the answer to probe {@code id} sent at {@code t1}. */
    static boolean isAnswerTo(final ByteBuffer buffer, final long id, final long t1)
    {
        return buffer.remaining() == ANSWER_LENGTH && buffer.getLong(0) == ANSWER && buffer.getLong(8) == id &&
            buffer.getLong(16) == t1;
    }

    static long t2(final ByteBuffer answer)
    {
        return answer.getLong(24);
    }

    static long t3(final ByteBuffer answer)
    {
        return answer.getLong(32);
    }
}
