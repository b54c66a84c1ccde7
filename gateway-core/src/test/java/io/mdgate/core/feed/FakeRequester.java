package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;

/**
 * Test support: a re-request server in memory. Records every request; when told to answer, queues an answer
 * packet built like the originals (Add Orders tagged with their sequences), at most {@code answerLimit} messages
 * from the first one asked, and hands the queued answers over on the next {@link #poll}. Answers can be dropped
 * at random and sends made to fail.
 */
final class FakeRequester implements RetransmitRequester
{
    /** One request as received. */
    record Request(String session, long first, int count)
    {
        @Override
        public String toString()
        {
            return first + "+" + count;
        }
    }

    private final List<Request> requests = new ArrayList<>();
    private final ArrayDeque<byte[]> answers = new ArrayDeque<>();
    private int answerLimit;
    private long lastSequence = Long.MAX_VALUE;
    private String answerSession = SESSION;
    private boolean failSends;
    private SplittableRandom lossRandom;
    private double answerLoss;
    private long answerTimestamp;

    /** Answers from now on, with at most this many messages per answer (0 stops answering). */
    FakeRequester answerLimit(final int limit)
    {
        this.answerLimit = limit;
        return this;
    }

    /** Answers nothing past this sequence, as a server that has not sent it yet. */
    FakeRequester lastSequence(final long sequence)
    {
        this.lastSequence = sequence;
        return this;
    }

    /** @param session the session the answers name; null to name the session each request asked for. */
    FakeRequester answerSession(final String session)
    {
        this.answerSession = session;
        return this;
    }

    FakeRequester failSends(final boolean fail)
    {
        this.failSends = fail;
        return this;
    }

    FakeRequester answerLoss(final double probability, final long seed)
    {
        this.answerLoss = probability;
        this.lossRandom = new SplittableRandom(seed);
        return this;
    }

    FakeRequester answerTimestamp(final long timestamp)
    {
        this.answerTimestamp = timestamp;
        return this;
    }

    /** Queues an answer as if the server had sent it unasked. */
    void queue(final byte[] packet)
    {
        answers.add(packet);
    }

    @Override
    public boolean request(final byte[] session, final long firstSequence, final int count)
    {
        requests.add(new Request(MoldUdp64Session.text(session), firstSequence, count));
        if (failSends)
        {
            return false;
        }
        final long answered = Math.min(Math.min(count, answerLimit), lastSequence - firstSequence + 1);
        if (answered > 0 && (lossRandom == null || lossRandom.nextDouble() >= answerLoss))
        {
            final String named = answerSession != null ? answerSession : MoldUdp64Session.text(session);
            answers.add(moldPacketOfAdds(named, firstSequence, (int)answered));
        }
        return true;
    }

    @Override
    public int poll(final PacketHandler handler)
    {
        int polled = 0;
        byte[] packet;
        while ((packet = answers.poll()) != null)
        {
            handler.onPacket(FeedLines.RECOVERY, new UnsafeBuffer(packet), 0, packet.length, answerTimestamp);
            polled++;
        }
        return polled;
    }

    List<Request> requests()
    {
        return requests;
    }

    /** @return the requests as text, e.g. {@code [3+2, 5+1]}. */
    String requested()
    {
        return requests.toString();
    }

    int pendingAnswers()
    {
        return answers.size();
    }
}
