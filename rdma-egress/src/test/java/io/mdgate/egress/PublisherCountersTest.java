package io.mdgate.egress;

import io.mdgate.core.counters.PrivateCounters;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerRejectedException;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.publisher.PublisherCounterDescriptor;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The publisher's counters live in the allocator its context names, under their {@code egress.*} labels, and are
 * updated on the publisher's thread as it works: another thread reads them there, with no copy step.
 */
@Timeout(60)
class PublisherCountersTest
{
    @Test
    void shouldCountTicksGapsRefusalsAndConsumersUnderTheirLabelsInTheContextsCounters()
    {
        final PrivateCounters counters = new PrivateCounters(PublisherCounterDescriptor.values().length);
        try (PublisherHarness harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()),
            List.of("alpha"), context -> context.counters(counters));
            ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance())))
        {
            for (long sequence = 1; sequence <= 100; sequence++)
            {
                harness.publish(Ticks.add(sequence, 1, 0));
            }
            harness.publish(Ticks.add(102, 1, 0));
            Await.until("the ticks counted", 10, () -> counters.value("egress.ticks_published") == 101);
            assertEquals(102, counters.value("egress.last_sequence"));
            assertEquals(1, counters.value("egress.input_gaps"), "101 never came");

            assertThrows(ConsumerRejectedException.class,
                () -> EgressConsumer.connect(transport, new ConsumerContext().name("alpha").token("guess")));
            Await.until("the refusal counted", 10, () -> counters.value("egress.authentication_failures") == 1);
            assertEquals(1, counters.value("egress.rejected"));

            try (EgressConsumer alpha = EgressConsumer.connect(transport,
                new ConsumerContext().name("alpha").token("alpha" + PublisherHarness.TOKEN_SUFFIX)))
            {
                Await.until("the consumer counted", 10, () -> counters.value("egress.consumers") == 1);
                assertEquals(1, counters.value("egress.consumers_welcomed"));
                assertEquals(harness.publisher().counters().ticksPublished(), counters.value("egress.ticks_published"),
                    "the accessor reads the counter");
            }
        }
    }
}
