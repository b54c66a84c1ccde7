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

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ingress's own drop counters reach the counters file as {@code ingress.<port>.<queue>.frames_dropped.<reason>}:
 * copied every 1024 duty cycles at most once a second, and at close.
 */
class IngressAgentDropCountersTest
{
    @TempDir
    Path dir;

    /** Receives nothing; says it dropped 10 + i packets for reason i, times the number of reads so far. */
    private static final class DroppingIngress implements Ingress
    {
        int reads;

        @Override
        public void start()
        {
        }

        @Override
        public int poll(final PacketHandler handler)
        {
            return 0;
        }

        @Override
        public void readDropped(final long[] counts)
        {
            reads++;
            for (int i = 0; i < IngressStats.REASONS.size(); i++)
            {
                counts[i] = (10L + i) * reads;
            }
        }

        @Override
        public IngressStats stats()
        {
            return IngressStats.builder("test").build();
        }

        @Override
        public void close()
        {
        }
    }

    @Test
    void shouldPublishEveryDropReasonOfTheIngressInTheCountersFile() throws Exception
    {
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(4096 + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        final DroppingIngress ingress = new DroppingIngress();
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 64, 4096);
            CountersFile file = CountersFile.open(dir.resolve("c")))
        {
            final IngressAgent agent = new IngressAgent("ingress:p1:0", ingress, t -> {}, counters);
            agent.input(PacketRingWriter.of(ring, agent));
            agent.onStart();
            for (int i = 0; i < 1023; i++)
            {
                agent.doWork();
            }
            assertEquals(0, file.snapshot().value("ingress.p1.0.frames_dropped.ip_checksum"), "not yet");
            agent.doWork();
            assertEquals(1, ingress.reads);
            final int ip = IngressStats.REASONS.indexOf(IngressStats.IP_CHECKSUM);
            assertEquals(10L + ip, file.snapshot().value("ingress.p1.0.frames_dropped.ip_checksum"));
            final int udp = IngressStats.REASONS.indexOf(IngressStats.UDP_CHECKSUM);
            assertEquals(10L + udp, file.snapshot().value("ingress.p1.0.frames_dropped.udp_checksum"));
            final int length = IngressStats.REASONS.indexOf(IngressStats.LENGTH);
            assertEquals(10L + length, file.snapshot().value("ingress.p1.0.frames_dropped.length"));
            final int other = IngressStats.REASONS.indexOf("otherDestination");
            assertEquals(10L + other, file.snapshot().value("ingress.p1.0.frames_dropped.other_destination"));

            for (int i = 0; i < 1024; i++)
            {
                agent.doWork();
            }
            assertEquals(1, ingress.reads, "at most once a second");

            agent.onClose();
            assertEquals(2, ingress.reads, "and once more at close");
            assertEquals(2 * (10L + ip), file.snapshot().value("ingress.p1.0.frames_dropped.ip_checksum"));
            final int fragment = IngressStats.REASONS.indexOf(IngressStats.FRAGMENT);
            assertEquals(2 * (10L + fragment), file.snapshot().value("ingress.p1.0.frames_dropped.fragment"));
        }
    }
}
