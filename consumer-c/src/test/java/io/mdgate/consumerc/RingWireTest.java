package io.mdgate.consumerc;

import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.SlotCheck;
import io.mdgate.egress.support.Ticks;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The ring read by the C library, slot by slot, against a publisher played by hand ({@link FakePublisher}): the
 * test writes the consumer's 16-slot ring itself. An intact slot is delivered; a slot whose check does not match its
 * bytes (a torn write), or whose stamp landed before its bytes, is not, until the bytes agree; a slot still holding
 * an older position is not; a slot holding a later position makes the consumer ask RESYNC. The consumer reports its
 * read position and delivered sequence into the position region. Run with the sanitizer build.
 */
class RingWireTest
{
    private static final int RING = 16;
    private FakePublisher publisher;
    private NativeProcess consumer;

    @AfterEach
    void tearDown() throws IOException
    {
        if (null != consumer)
        {
            consumer.close();
        }
        if (null != publisher)
        {
            publisher.close();
        }
        if (null != consumer)
        {
            assertNull(consumer.sanitizerReport());
        }
    }

    private static void writeSlot(final UnsafeBuffer region, final long position, final long sequence,
        final boolean bytes, final long stamp, final long check)
    {
        final int slot = ConsumerRegionDescriptor.slotOffset(position, RING);
        if (bytes)
        {
            Ticks.writeAdd(region, slot, sequence, 1, 0);
        }
        final int stampAt = ConsumerRegionDescriptor.stampOffset(position, RING);
        region.putLongRelease(stampAt + ConsumerRegionDescriptor.STAMP_CHECK_OFFSET, check);
        region.putLongRelease(stampAt, stamp);
    }

    static long checkOf(final long position, final long sequence)
    {
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        Ticks.writeAdd(tick, 0, sequence, 1, 0);
        return SlotCheck.compute(position, tick, 0);
    }

    static void writeIntact(final UnsafeBuffer region, final long position)
    {
        writeSlot(region, position, position + 1, true, position + 1, checkOf(position, position + 1));
    }

    private int delivered()
    {
        return consumer.out().size();
    }

    private void awaitDelivered(final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (delivered() < count)
        {
            assertTrue(System.nanoTime() < deadline,
                "delivered " + delivered() + " of " + count + ": " + consumer.err());
            Thread.sleep(5);
        }
    }

    private void assertStillDelivered(final int count) throws InterruptedException
    {
        Thread.sleep(300); // the consumer polls all the while; nothing more may come
        assertEquals(count, delivered(), consumer.out().toString());
    }

    /**
     * Starts the sanitizer build of mdgate-consume-c on instrument 1 and plays the publisher up to its grant. The
     * consumer does not ask for the directory, which these tests do not answer.
     */
    static NativeProcess connect(final FakePublisher publisher) throws Exception
    {
        return connect(publisher, "--format", "seq", "--no-directory");
    }

    private static NativeProcess connect(final FakePublisher publisher, final String... options) throws Exception
    {
        final List<String> command = new java.util.ArrayList<>(List.of(
            NativeBuild.SANITIZE.tool("mdgate-consume-c").toString(), "--instance", publisher.instance(),
            "--consumer", "ring", "--token", "t", "--instruments", "1", "--ring-slots", Integer.toString(RING)));
        command.addAll(List.of(options));
        final NativeProcess consumer = new NativeProcess("ring", NativeBuild.SANITIZE, command);
        final ByteBuffer hello = publisher.acceptHello();
        assertEquals(ControlMessageDescriptor.HELLO, hello.getShort(0));
        assertEquals(RING, hello.getInt(8));
        return consumer;
    }

    @Test
    void shouldDeliverTheRingWithoutSymbolsWhenAnOlderPublisherRefusesTheDirectory() throws Exception
    {
        publisher = new FakePublisher();
        consumer = connect(publisher, "--format", "json");
        final UnsafeBuffer region = publisher.mapRegion();
        publisher.welcome();
        publisher.grantSubscription();
        ByteBuffer request = publisher.read();
        while (request.getShort(0) == ControlMessageDescriptor.HEARTBEAT)
        {
            request = publisher.read();
        }
        assertEquals(ControlMessageDescriptor.SNAPSHOT, request.getShort(0), "the directory is asked for first");
        assertEquals(ControlMessageDescriptor.PER_INSTRUMENT | ControlMessageDescriptor.DIRECTORY, request.getInt(8));
        assertEquals(0, request.getInt(12), "every instrument");
        writeIntact(region, 0); // written before the refusal, read after it
        final ByteBuffer refusal = FakePublisher.message(ControlMessageDescriptor.SNAPSHOT_END, 48);
        refusal.putLong(8, 0).putLong(16, 0).putInt(40, ControlMessageDescriptor.RECOVERY_REFUSED).putInt(44, 0);
        publisher.send(refusal); // as a publisher that predates the flag refuses it
        publisher.collect();
        consumer.awaitReady(30);

        awaitDelivered(1);
        writeIntact(region, 1);
        awaitDelivered(2);
        assertTrue(consumer.out().get(0).startsWith("{\"gatewaySequence\":1,"), consumer.out().toString());
        assertTrue(consumer.out().stream().allMatch(line -> line.contains("\"symbol\":null")), consumer.out().toString());
        consumer.signal("TERM");
        assertEquals(0, consumer.awaitExit(30), consumer.err().toString());
        assertTrue(consumer.err().stream().anyMatch(line -> line.contains("no instrument directory")),
            consumer.err().toString());
        assertTrue(consumer.err().stream().anyMatch(line -> line.contains("directory refused by the publisher")),
            consumer.err().toString());
        assertTrue(publisher.received().stream().noneMatch(m -> m.getShort(0) == ControlMessageDescriptor.SNAPSHOT),
            "nothing asked in its place");
    }

    @Test
    void shouldDeliverIntactSlotsOnlyAndAskResyncWhenOvertaken() throws Exception
    {
        publisher = new FakePublisher();
        consumer = connect(publisher);
        final UnsafeBuffer region = publisher.mapRegion();
        assertEquals(ConsumerRegionDescriptor.NOT_LAPPED,
            region.getLongVolatile(ConsumerRegionDescriptor.LAP_POSITION_OFFSET));
        final UnsafeBuffer positions = publisher.welcome();
        publisher.grantSubscription();
        publisher.collect();
        consumer.awaitReady(30);

        writeIntact(region, 0);
        awaitDelivered(1);

        writeSlot(region, 1, 2, true, 2, checkOf(1, 2) ^ 1); // the check disagrees with the bytes: torn
        assertStillDelivered(1);
        writeSlot(region, 1, 2, false, 2, checkOf(1, 2));
        awaitDelivered(2);

        writeSlot(region, 2, 3, false, 3, checkOf(2, 3)); // stamp and check landed before the bytes
        assertStillDelivered(2);
        writeSlot(region, 2, 3, true, 3, checkOf(2, 3));
        awaitDelivered(3);

        for (long position = 3; position < 19; position++)
        {
            writeIntact(region, position);
        }
        awaitDelivered(19); // positions 0..18
        assertStillDelivered(19); // position 19's slot still says position 3: older, not read
        assertEquals(19, positions.getLongVolatile(PositionRegionDescriptor.READ_POSITION_OFFSET));
        assertEquals(19, positions.getLongVolatile(PositionRegionDescriptor.DELIVERED_SEQUENCE_OFFSET));

        writeSlot(region, 19 + RING, 36, true, 19 + RING + 1, checkOf(19 + RING, 36)); // a later position
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (publisher.received().stream().noneMatch(m -> m.getShort(0) == ControlMessageDescriptor.RESYNC))
        {
            assertTrue(System.nanoTime() < deadline, "no RESYNC after being overtaken: " + consumer.err());
            Thread.sleep(5);
        }
        final ByteBuffer resync = publisher.received().stream()
            .filter(m -> m.getShort(0) == ControlMessageDescriptor.RESYNC).findFirst().orElseThrow();
        assertEquals(20, resync.getLong(8), "RESYNC from the sequence after the last delivered");
        assertStillDelivered(19);
        assertEquals(List.of("1", "2", "3"), consumer.out().subList(0, 3));

        consumer.signal("TERM");
        assertEquals(0, consumer.awaitExit(30), consumer.err().toString());
        final String summary = consumer.err().stream().filter(l -> l.contains(": delivered ")).findFirst()
            .orElseThrow();
        assertTrue(summary.contains("delivered 19 ticks") && summary.contains("duplicates 0"), summary);
        assertFalse(summary.contains("torn 0,"), "torn reads were counted: " + summary);
        assertFalse(summary.contains("malformed 0,"), "the overtaken slot was counted: " + summary);
    }
}
