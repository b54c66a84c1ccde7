package io.mdgate.egress.support;

import io.mdgate.egress.TickArchive;
import io.mdgate.egress.TickRing;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A publisher on its own agent thread over a fresh shm instance, fed through a {@link TickRing}, with a
 * {@link TickArchive} filled on the publisher's thread as its recovery source. Closing it stops the agent and
 * removes every file of the instance.
 */
public final class PublisherHarness implements PublisherBed
{
    public static final String TOKEN_SUFFIX = PublisherBed.TOKEN_SUFFIX;

    private final ShmContext shm;
    private final ShmTransport transport;
    private final TickRing ring = new TickRing(1 << 16);
    private final TickArchive archive;
    private final EgressPublisher publisher;
    private final AgentRunner runner;
    private final List<String> events = new CopyOnWriteArrayList<>();

    /**
     * @param shm        the instance (files are removed on close).
     * @param consumers  names allowed, each with token {@code name + TOKEN_SUFFIX}.
     * @param customizer adjusts the publisher's settings.
     */
    public PublisherHarness(final ShmContext shm, final List<String> consumers,
        final Consumer<PublisherContext> customizer)
    {
        this(shm, consumers, customizer, new TickArchive(1 << 20));
    }

    /**
     * A publisher whose recovery source is {@code archive}, as a gateway restarted on the same journal recovers what
     * the last one published: pass the one a closed harness filled ({@link #archive()}).
     */
    public PublisherHarness(final ShmContext shm, final List<String> consumers,
        final Consumer<PublisherContext> customizer, final TickArchive archive)
    {
        this.shm = shm;
        this.archive = archive;
        this.transport = new ShmTransport(shm);
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
                ShmInstance.removeFiles(shm);
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
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
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
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
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

    public ShmTransport transport()
    {
        return transport;
    }

    public ShmContext shm()
    {
        return shm;
    }

    /** @return the recovery source, filled on the publisher's thread (read it only once this harness is closed). */
    public TickArchive archive()
    {
        return archive;
    }

    /** @return a transport on this instance with the instance's control message and queue lengths. */
    @Override
    public ShmTransport consumerTransport()
    {
        return new ShmTransport(ShmInstance.context(shm.instance()).controlMessageLength(shm.controlMessageLength())
            .controlQueueLength(shm.controlQueueLength()));
    }

    @Override
    public List<String> events()
    {
        return events;
    }

    @Override
    public void close()
    {
        runner.close();
        transport.close();
        ShmInstance.removeFiles(shm);
    }
}
