package io.mdgate.ingress;

import com.fasterxml.jackson.core.JsonGenerator;
import io.mdgate.core.json.JsonText;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of an {@link Ingress}'s counters: packets and bytes handed over per feed line, packets dropped per
 * reason (the reason names below are shared by every ingress), and counters of the underlying port or sockets
 * under their native names (for DPDK: {@code ipackets}, {@code imissed}, {@code ierrors}, {@code rx_nombuf}, ...).
 * Built with {@link #builder(String)}; immutable and thread-safe once built. For the CLI and monitoring, never
 * for the hot path.
 */
public final class IngressStats
{
    /** Frames that are not IPv4 (and not ARP). */
    public static final String NOT_IPV4 = "notIpv4";
    /** ARP frames. */
    public static final String ARP = "arp";
    /** IPv4 fragments: never reassembled, a feed packet always fits one datagram. */
    public static final String FRAGMENT = "fragment";
    /** IPv4 datagrams that are neither UDP nor IGMP. */
    public static final String NOT_UDP = "notUdp";
    /** IGMP messages received (membership queries included). */
    public static final String IGMP = "igmp";
    /** UDP datagrams to a (destination, port) pair that feeds no line. */
    public static final String OTHER_DESTINATION = "otherDestination";
    /** Frames whose Ethernet, IPv4 or UDP header is cut short or impossible (IPv4 version, header length). */
    public static final String MALFORMED = "malformed";
    /**
     * IPv4 datagrams whose total length runs past the frame or is shorter than the header, and UDP lengths shorter
     * than the UDP header or longer than the IPv4 payload (padding after the datagram is allowed).
     */
    public static final String LENGTH = "length";
    /** IPv4 headers whose checksum is wrong (by the device's verdict, or summed in software). */
    public static final String IP_CHECKSUM = "ipChecksum";
    /**
     * UDP datagrams of a configured pair whose checksum is wrong (device verdict or software); a checksum of 0
     * (none sent) is accepted.
     */
    public static final String UDP_CHECKSUM = "udpChecksum";
    /**
     * A port counter, not a drop: datagrams accepted whose UDP checksum field holds only the pseudo-header sum, as
     * a sender on the same host leaves it for checksum offload (veth); the kernel accepts those too.
     */
    public static final String UDP_CHECKSUM_PARTIAL = "udpChecksumPartial";
    /** Payloads larger than the hand-over buffer. */
    public static final String OVERSIZED = "oversized";
    /** Every drop reason, in the order {@link #dropped()} lists them for the DPDK ingress. */
    public static final List<String> REASONS = List.of(NOT_IPV4, ARP, FRAGMENT, NOT_UDP, IGMP, OTHER_DESTINATION,
        MALFORMED, OVERSIZED, LENGTH, IP_CHECKSUM, UDP_CHECKSUM);

    private final String source;
    private final long[] linePackets;
    private final long[] lineBytes;
    private final Map<String, Long> dropped;
    private final Map<String, Long> port;

    private IngressStats(final Builder builder)
    {
        source = builder.source;
        linePackets = builder.linePackets.clone();
        lineBytes = builder.lineBytes.clone();
        dropped = Collections.unmodifiableMap(new LinkedHashMap<>(builder.dropped));
        port = Collections.unmodifiableMap(new LinkedHashMap<>(builder.port));
    }

    /**
     * @param source what the counters are of, for people, e.g. {@code "dpdk net_pcap0 (net_pcap)"}.
     * @return a builder with every counter at 0.
     */
    public static Builder builder(final String source)
    {
        return new Builder(source);
    }

    /** @return what the counters are of. */
    public String source()
    {
        return source;
    }

    /** @param line one of {@link io.mdgate.core.feed.FeedLines}. @return packets handed over on it. */
    public long linePackets(final int line)
    {
        return linePackets[line];
    }

    /** @param line one of {@link io.mdgate.core.feed.FeedLines}. @return UDP payload bytes handed over on it. */
    public long lineBytes(final int line)
    {
        return lineBytes[line];
    }

    /** @return packets handed over on every line. */
    public long packets()
    {
        long sum = 0;
        for (final long packets : linePackets)
        {
            sum += packets;
        }
        return sum;
    }

    /** @param reason one of the reason constants. @return packets dropped for it, 0 when it never happened. */
    public long dropped(final String reason)
    {
        return dropped.getOrDefault(reason, 0L);
    }

    /** @return packets dropped per reason, in a fixed order. */
    public Map<String, Long> dropped()
    {
        return dropped;
    }

    /** @return packets dropped for any reason. */
    public long droppedTotal()
    {
        long sum = 0;
        for (final long count : dropped.values())
        {
            sum += count;
        }
        return sum;
    }

    /** @param name a port counter such as {@code imissed}. @return its value, 0 when the port has none. */
    public long port(final String name)
    {
        return port.getOrDefault(name, 0L);
    }

    /** @return the port's (or sockets') counters under their native names, in a fixed order. */
    public Map<String, Long> port()
    {
        return port;
    }

    /**
     * @return one JSON object, written through Jackson ({@link JsonText}): {@code {"source":...,"lines":{"A":
     * {"packets":n,"bytes":n},...},"dropped":{...},"port":{...}}}.
     */
    public String toJson()
    {
        return JsonText.write(json ->
        {
            json.writeStartObject();
            json.writeStringField("source", source);
            json.writeObjectFieldStart("lines");
            for (int line = 0; line < linePackets.length; line++)
            {
                json.writeObjectFieldStart(IngressLines.name(line));
                json.writeNumberField("packets", linePackets[line]);
                json.writeNumberField("bytes", lineBytes[line]);
                json.writeEndObject();
            }
            json.writeEndObject();
            object(json, "dropped", dropped);
            object(json, "port", port);
            json.writeEndObject();
        });
    }

    @Override
    public String toString()
    {
        return toJson();
    }

    private static void object(final JsonGenerator json, final String name, final Map<String, Long> values)
        throws IOException
    {
        json.writeObjectFieldStart(name);
        for (final Map.Entry<String, Long> entry : values.entrySet())
        {
            json.writeNumberField(entry.getKey(), entry.getValue());
        }
        json.writeEndObject();
    }

    /**
     * Collects the counters of one snapshot. Not thread-safe.
     */
    public static final class Builder
    {
        private final String source;
        private final long[] linePackets = new long[IngressLines.lineCount()];
        private final long[] lineBytes = new long[IngressLines.lineCount()];
        private final Map<String, Long> dropped = new LinkedHashMap<>();
        private final Map<String, Long> port = new LinkedHashMap<>();

        private Builder(final String source)
        {
            this.source = source;
        }

        /**
         * @param line    one of {@link io.mdgate.core.feed.FeedLines}.
         * @param packets handed over on it.
         * @param bytes   of UDP payload handed over on it.
         * @return this.
         */
        public Builder line(final int line, final long packets, final long bytes)
        {
            linePackets[line] = packets;
            lineBytes[line] = bytes;
            return this;
        }

        /**
         * @param reason one of the reason constants (or another stable camelCase word).
         * @param count  packets dropped for it.
         * @return this.
         */
        public Builder dropped(final String reason, final long count)
        {
            dropped.put(reason, count);
            return this;
        }

        /**
         * @param name  a counter of the port or sockets, under its native name.
         * @param value its value.
         * @return this.
         */
        public Builder port(final String name, final long value)
        {
            port.put(name, value);
            return this;
        }

        /** @return the immutable snapshot. */
        public IngressStats build()
        {
            return new IngressStats(this);
        }
    }
}
