package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.TickArchive;
import io.mdgate.egress.TickRing;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.PublisherBed;
import io.mdgate.egress.support.TeeTickSource;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A publisher over its own {@link VerbsTransport} on its own agent thread, fed through a {@link TickRing}, with a
 * {@link TickArchive} as its recovery source. Closing it stops the agent and releases the transport.
 */
public final class VerbsPublisherHarness implements PublisherBed
{
    public static final String TOKEN_SUFFIX = PublisherBed.TOKEN_SUFFIX;

    private final VerbsContext verbs;
    private final VerbsTransport transport;
    private final TickRing ring = new TickRing(1 << 16);
    private final TickArchive archive = new TickArchive(1 << 20);
    private final EgressPublisher publisher;
    private final AgentRunner runner;
    private final List<String> events = new CopyOnWriteArrayList<>();

    public VerbsPublisherHarness(final VerbsContext verbs, final List<String> consumers,
        final Consumer<PublisherContext> customizer)
    {
        this.verbs = verbs;
        this.transport = new VerbsTransport(verbs, events::add);
        final PublisherContext context = new PublisherContext()
            .transport(transport)
            .recoverySource(archive)
            .tickSource(new TeeTickSource(ring, archive))
            .eventLog(events::add)
            .maxRingSlots(1 << 14)
            .maxInstruments(1024);
        consumers.forEach(name -> context.token(name, name + TOKEN_SUFFIX));
        customizer.accept(context);
        EgressPublisher created = null;
        try
        {
            created = new EgressPublisher(context);
        }
        finally
        {
            if (null == created)
            {
                transport.close();
            }
        }
        publisher = created;
        runner = new AgentRunner(new BackoffIdleStrategy(100, 10, 1_000, 100_000), Throwable::printStackTrace, null,
            publisher);
        AgentRunner.startOnThread(runner);
    }

    @Override
    public void publish(final DirectBuffer tick)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ring.offer(tick, 0))
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the publisher stopped taking ticks");
            }
            Thread.yield();
        }
    }

    @Override
    public void awaitDrained()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ring.size() > 0 && System.nanoTime() < deadline)
        {
            Thread.yield();
        }
    }

    @Override
    public EgressPublisher publisher()
    {
        return publisher;
    }

    /** @return the settings consumers of this publisher use: same control address and group. */
    public VerbsContext consumerContext()
    {
        return SoftRoce.context(verbs.controlAddress(), verbs.multicastGroup());
    }

    @Override
    public List<String> events()
    {
        return events;
    }

    /** @return a transport of its own to this publisher's control address and group. */
    @Override
    public VerbsTransport consumerTransport()
    {
        return new VerbsTransport(consumerContext());
    }

    @Override
    public void close()
    {
        runner.close();
        transport.close();
    }
}
