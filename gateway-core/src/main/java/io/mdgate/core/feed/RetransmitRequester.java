package io.mdgate.core.feed;

/**
 * The way a {@link FeedSession} asks the exchange's re-request server for missing messages, and gets the answers
 * back: {@link #request} sends one MoldUDP64 re-request; {@link #poll} hands the answers that arrived to the
 * session as packets on {@link FeedLines#RECOVERY}. {@link UdpRetransmitRequester} does it over UDP; tests use a
 * fake. Both methods are called on the session's thread from {@link FeedSession#doWork(long)}; they must not block,
 * allocate in steady state or throw.
 */
public interface RetransmitRequester
{
    /**
     * Sends one re-request.
     *
     * @param session       the 10-byte MoldUDP64 session id; read only, never kept.
     * @param firstSequence the first sequence wanted.
     * @param count         how many, 1 to 65535.
     * @return true when the request was handed to the network, false when it could not be sent (counted by the
     * session; the retry timer asks again).
     */
    boolean request(byte[] session, long firstSequence, int count);

    /**
     * Hands the answers received since the last call, up to a small limit, to the handler on line
     * {@link FeedLines#RECOVERY}.
     *
     * @param handler the session.
     * @return the number of answers handed over.
     */
    int poll(PacketHandler handler);
}
