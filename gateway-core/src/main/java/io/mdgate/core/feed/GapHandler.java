package io.mdgate.core.feed;

/**
 * Receives the gaps a {@link FeedSession} gives up on, in stream order: called exactly where the lost messages
 * would have been delivered, between the message before them and the message after them. Typically the
 * normalizer, which publishes a GAP tick so nothing downstream mistakes the hole for continuity. Called on the
 * session's thread.
 */
@FunctionalInterface
public interface GapHandler
{
    /**
     * @param firstSequence the first lost sequence.
     * @param count         how many consecutive sequences are lost, at least 1.
     */
    void onGapDeclared(long firstSequence, long count);
}
