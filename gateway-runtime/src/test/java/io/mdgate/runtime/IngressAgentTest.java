package io.mdgate.runtime;

import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressStats;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IngressAgentTest
{
    @TempDir
    Path dir;

    /** Hands over the same 1000-byte packet {@code burst} times per poll, then a fatal error when told. */
    private static final class FakeIngress implements Ingress
    {
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[1000]);
        int burst = 4;
        int fatal;
        boolean started;
        boolean closed;

        @Override
        public void start()
        {
            started = true;
        }

        @Override
        public int poll(final PacketHandler handler)
        {
            if (fatal != 0)
            {
                return fatal;
            }
            for (int i = 0; i < burst; i++)
            {
                packet.putLong(0, i);
                handler.onPacket(i % 2, packet, 0, packet.capacity(), 1_000L + i);
            }
            return burst;
        }

        @Override
        public IngressStats stats()
        {
            return null;
        }

        @Override
        public void close()
        {
            closed = true;
        }
    }

    @Test
    void shouldCopyEachPacketWithItsLineAndTimeIntoThePipelinesRingAndDropWithoutWaitingWhenItIsFull() throws Exception
    {
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(8192 + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        final FakeIngress ingress = new FakeIngress();
        final List<Throwable> errors = new ArrayList<>();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 64, 4096))
        {
            final IngressAgent agent = new IngressAgent("ingress:p0:0", ingress, errors::add, counters);
            agent.input(PacketRingWriter.of(ring, agent));
            agent.onStart();
            assertTrue(ingress.started, "started on the agent's thread");
            assertEquals(4, agent.doWork());
            assertEquals(4, agent.doWork());
            assertEquals(4, agent.doWork(), "returns at once although the ring is full");

            final List<long[]> read = new ArrayList<>();
            ring.read((type, buffer, index, length) -> read.add(new long[] {
                PacketRingDescriptor.line(type), buffer.getLong(index, ByteOrder.LITTLE_ENDIAN),
                length - PacketRingDescriptor.PAYLOAD_OFFSET,
                buffer.getLong(index + PacketRingDescriptor.PAYLOAD_OFFSET) }));
            try (CountersFile file = CountersFile.open(dir.resolve("c")))
            {
                final long packets = file.snapshot().value("ingress.p0.0.packets");
                final long dropped = file.snapshot().value("ingress.p0.0.dropped");
                assertEquals(12, packets, "every packet taken off the port is counted");
                assertEquals(4, dropped, "an 8 KiB ring takes eight 1 KB packets");
                assertEquals(packets - dropped, read.size(), "every packet either in the ring or counted as dropped");
                assertEquals(packets * 1000, file.snapshot().value("ingress.p0.0.bytes"));
            }
            assertEquals(0, read.get(0)[0], "line A");
            assertEquals(1_000L, read.get(0)[1], "receive time");
            assertEquals(1000, read.get(0)[2], "payload length");
            assertEquals(1, read.get(1)[0], "line B");
            assertEquals(1, read.get(1)[3], "payload bytes copied");

            ingress.fatal = -5;
            assertEquals(0, agent.doWork());
            assertEquals(1, errors.size(), "a failed port is reported once");
            assertTrue(errors.get(0).getMessage().contains("ingress:p0:0 failed with -5"), errors.get(0).getMessage());
            assertEquals(0, agent.doWork(), "and polled no more");
            assertTrue(agent.isStopped());
            agent.onClose();
            assertTrue(ingress.closed);
        }
    }

    @Test
    void shouldCloseItsPortOnItsOwnThreadWhenAskedToStopReceiving()
    {
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(65536 + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        final FakeIngress ingress = new FakeIngress();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 64, 4096))
        {
            final IngressAgent agent = new IngressAgent("ingress:p0:0", ingress, t -> {}, counters);
            agent.input(PacketRingWriter.of(ring, agent));
            agent.onStart();
            agent.stopReceiving();
            assertTrue(!agent.isStopped(), "not until its next duty cycle");
            agent.doWork();
            assertTrue(ingress.closed);
            assertTrue(agent.isStopped());
            assertEquals(0, agent.doWork());
        }
    }

    @Test
    void shouldCountAndDropAPacketTooLongForTheRing()
    {
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(4096 + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        final FakeIngress ingress = new FakeIngress();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 64, 4096);
            CountersFile file = CountersFile.open(dir.resolve("c")))
        {
            final IngressAgent agent = new IngressAgent("ingress:p0:0", ingress, t -> {}, counters);
            agent.input(PacketRingWriter.of(ring, agent));
            agent.onStart();
            assertEquals(4, agent.doWork());
            assertEquals(4, file.snapshot().value("ingress.p0.0.oversized"), "1 KB packets, 512-byte records");
            assertEquals(4, file.snapshot().value("ingress.p0.0.packets"), "taken off the port, then refused");
            assertEquals(0, ring.size());
        }
    }
}
