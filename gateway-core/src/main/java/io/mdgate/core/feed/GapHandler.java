package io.mdgate.core.feed;

import org.agrona.DirectBuffer;

/**
 * Receives what a {@link FeedSession} puts in the stream that is not a message, in stream order: the gaps it gives
 * up on, called exactly where the lost messages would have been delivered, and the start of each session it
 * accepts, called before the session's first message. Typically the normalizer (a {@link MessageProcessor}), which
 * publishes a GAP tick so nothing downstream mistakes the hole for continuity, and a SESSION tick (resetting its
 * books) when a session starts, so any session and processor pair carries the session without further wiring.
 * Called on the session's thread.
 */
@FunctionalInterface
public interface GapHandler
{
    /**
     * @param firstSequence the first lost sequence.
     * @param count         how many consecutive sequences are lost, at least 1.
     */
    void onGapDeclared(long firstSequence, long count);

    /**
     * A session was accepted: the first one, or a new one after a change (never a session resumed with
     * {@link FeedSession.Context#resume}). The packet context handler has just been told the line and receive time
     * of the packet that made the session accepted. The default does nothing.
     *
     * @param sessionNumber 1 for the first session, one more for each change (continuing a resumed number).
     * @param sessionId     buffer holding the 10-byte MoldUDP64 session name at {@code offset}; valid during the call.
     * @param offset        of the session name.
     * @param firstSequence the sequence the session expects first.
     */
    default void onSessionStarted(
        final int sessionNumber, final DirectBuffer sessionId, final int offset, final long firstSequence)
    {
    }
}
