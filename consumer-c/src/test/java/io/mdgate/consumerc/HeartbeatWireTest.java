package io.mdgate.consumerc;

import io.mdgate.egress.protocol.ControlMessageDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Heartbeats both ways, against a publisher played by hand ({@link FakePublisher}): the C consumer sends HEARTBEAT at
 * the interval WELCOME names, carrying its last delivered sequence; a publisher silent for the heartbeat timeout
 * WELCOME names is dropped, and the consumer reconnects by itself with a new region and subscribes again.
 */
class HeartbeatWireTest
{
    @Test
    void shouldHeartbeatAndReconnectWhenThePublisherFallsSilent() throws Exception
    {
        try (FakePublisher publisher = new FakePublisher())
        {
            final NativeProcess consumer = RingWireTest.connect(publisher);
            try (consumer)
            {
                publisher.mapRegion();
                publisher.welcome(400_000_000L); // a 400 ms timeout
                publisher.grantSubscription();
                publisher.collect();
                final long silentSince = System.nanoTime();
                final ByteBuffer secondHello = publisher.acceptHello(); // the consumer gave up on us and came back
                final long silentMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - silentSince);

                assertEquals(ControlMessageDescriptor.HELLO, secondHello.getShort(0));
                assertTrue(silentMillis >= 350, "dropped after the timeout, not before: " + silentMillis + " ms");
                final long heartbeats = publisher.received().stream()
                    .filter(m -> m.getShort(0) == ControlMessageDescriptor.HEARTBEAT).count();
                assertTrue(heartbeats >= 2, "heartbeats every 100 ms while connected: " + heartbeats + " of " +
                    publisher.received().stream().map(m -> m.getShort(0)).toList() + " after " + silentMillis +
                    " ms; " + consumer.err());
                assertTrue(publisher.received().stream()
                    .filter(m -> m.getShort(0) == ControlMessageDescriptor.HEARTBEAT)
                    .allMatch(m -> m.capacity() == 24 && m.getLong(16) == 0), "each carries the last sequence, 0");
                consumer.awaitLine(true, line -> line.contains("no heartbeat from the publisher for"), 10,
                    "the reason");
                publisher.mapRegion(); // a new region, registered for the new connection
                publisher.welcome();
                publisher.grantSubscription(); // subscribed again by itself
                consumer.signal("TERM");
                assertEquals(0, consumer.awaitExit(30), consumer.err().toString());
                assertTrue(consumer.err().stream().anyMatch(l -> l.contains("reconnects 1")),
                    consumer.err().toString());
                assertNull(consumer.sanitizerReport());
            }
        }
    }
}
