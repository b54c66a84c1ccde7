package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.Ticks;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The publisher in this JVM and consumers in their own JVMs, all over verbs on one device: the multicast stream
 * received by two consumer processes, and a consumer process killed mid-stream while another carries on, then
 * restarted to recover what it missed.
 */
@Tag("softroce")
class VerbsMultiProcessTest
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();
    private static final int WAIT_SECONDS = 150;

    private final List<VerbsChild> children = new ArrayList<>();
    private VerbsPublisherHarness harness;

    @BeforeEach
    void requireDevice()
    {
        SoftRoce.assumeDevice();
    }

    @AfterEach
    void tearDown()
    {
        children.forEach(VerbsChild::close);
        if (null != harness)
        {
            harness.close();
        }
    }

    private VerbsChild consumer(final String name, final String path, final long until, final long resumeFrom)
        throws IOException
    {
        final VerbsContext verbs = harness.consumerContext();
        final VerbsChild child = new VerbsChild(name, List.of("control=" + verbs.controlAddress(),
            "group=" + verbs.multicastGroup(), "name=" + name, "token=" + name + VerbsPublisherHarness.TOKEN_SUFFIX,
            "path=" + path, "until=" + until, "resumeFrom=" + resumeFrom));
        children.add(child);
        return child;
    }

    /** Publishes ADD ticks from..to, pausing now and then so that the stream's receivers are not simply flooded. */
    private void publish(final long from, final long to)
    {
        for (long sequence = from; sequence <= to; sequence++)
        {
            harness.publish(Ticks.add(sequence, (int)(sequence % 10) + 1, CLOCK.nanoTime()));
            if (sequence % 100 == 0)
            {
                harness.awaitDrained();
            }
        }
        harness.awaitDrained();
    }

    private static List<Long> range(final long from, final long to)
    {
        return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toList());
    }

    @Test
    void shouldDeliverTheMulticastStreamToTwoConsumerProcesses() throws Exception
    {
        harness = new VerbsPublisherHarness(SoftRoce.context(), List.of("east", "west"),
            context -> context.batchBudgetNanos(0));
        final VerbsChild east = consumer("east", "stream", 3000, 0);
        final VerbsChild west = consumer("west", "stream", 3000, 0);
        east.awaitLine("READY"::equals, WAIT_SECONDS, "READY");
        west.awaitLine("READY"::equals, WAIT_SECONDS, "READY");

        publish(1, 3000);

        east.awaitLine("DONE"::equals, WAIT_SECONDS, "DONE");
        west.awaitLine("DONE"::equals, WAIT_SECONDS, "DONE");
        assertEquals(range(1, 3000), east.sequences(), east.stats());
        assertEquals(range(1, 3000), west.sequences(), west.stats());
        System.out.println("east: " + east.stats() + "\nwest: " + west.stats());
    }

    @Test
    void shouldCarryOnWhenAConsumerProcessIsKilledMidStreamAndRecoverItWhenItComesBack() throws Exception
    {
        harness = new VerbsPublisherHarness(SoftRoce.context(), List.of("steady", "victim"), context -> { });
        final VerbsChild steady = consumer("steady", "ring", 3000, 0);
        final VerbsChild victim = consumer("victim", "ring", 3000, 0);
        steady.awaitLine("READY"::equals, WAIT_SECONDS, "READY");
        victim.awaitLine("READY"::equals, WAIT_SECONDS, "READY");
        Await.until("both sessions", WAIT_SECONDS, () -> harness.publisher().activeConsumers() == 2);

        publish(1, 1000);
        victim.awaitLine("T 1000"::equals, WAIT_SECONDS, "sequence 1000");
        victim.killHard();
        final List<Long> before = victim.sequences();
        assertEquals(range(1, 1000), before);

        publish(1001, 2000);
        Await.until("the publisher to drop the killed consumer's session", WAIT_SECONDS,
            () -> harness.publisher().activeConsumers() == 1);

        final VerbsChild back = consumer("victim", "ring", 3000, before.get(before.size() - 1) + 1);
        back.awaitLine("READY"::equals, WAIT_SECONDS, "READY after restart");
        publish(2001, 3000);

        steady.awaitLine("DONE"::equals, WAIT_SECONDS, "DONE");
        back.awaitLine("DONE"::equals, WAIT_SECONDS, "DONE after restart");
        assertEquals(range(1, 3000), steady.sequences(), steady.stats());
        assertEquals(range(1001, 3000), back.sequences(), back.stats());
        assertTrue(back.stats().contains("recovered="), back.stats());
        assertEquals(0, back.awaitExit(WAIT_SECONDS));
        System.out.println("steady: " + steady.stats() + "\nrestarted: " + back.stats());
    }
}
