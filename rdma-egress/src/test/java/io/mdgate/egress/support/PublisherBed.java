package io.mdgate.egress.support;

import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.transport.EgressTransport;
import org.agrona.DirectBuffer;

import java.util.List;

/**
 * A publisher on its own agent thread over one transport, as a test drives it: ticks handed over with
 * {@link #publish}, consumers given transports of their own that reach this publisher. Lets one scenario run over
 * shm ({@link PublisherHarness}) and over verbs ({@code VerbsPublisherHarness}). Set-up and {@code publish} from
 * one test thread; {@link #publisher()}'s counters may be read from any.
 */
public interface PublisherBed extends AutoCloseable
{
    /** A consumer's token is its name followed by this. */
    String TOKEN_SUFFIX = "-secret";

    /** Hands a tick to the publisher's thread, waiting while its queue is full. */
    void publish(DirectBuffer tick);

    /** Waits until the publisher has taken every tick handed over. */
    void awaitDrained();

    EgressPublisher publisher();

    /** @return what the publisher logged. */
    List<String> events();

    /** @return a new transport, the caller's to close, over which a consumer reaches this publisher. */
    EgressTransport consumerTransport();

    @Override
    void close();
}
