package io.mdgate.egress.publisher;

/**
 * Receives each connected consumer from {@link EgressPublisher#forEachConsumer(ConsumerVisitor)}, e.g. to publish
 * per-consumer lag as counters. Called on the publisher's thread.
 */
@FunctionalInterface
public interface ConsumerVisitor
{
    /**
     * @param name              the consumer's name, as authenticated.
     * @param deliveredSequence the last gateway sequence the consumer reports it delivered (0 before any).
     */
    void onConsumer(String name, long deliveredSequence);
}
