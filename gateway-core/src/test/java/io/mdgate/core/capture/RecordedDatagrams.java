package io.mdgate.core.capture;

import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Records the UDP datagrams a capture reader finds: timestamp, destination and payload.
 */
public final class RecordedDatagrams implements UdpDatagramHandler
{
    /** One datagram. */
    public record Datagram(long timestampNanos, UdpEndpoint destination, byte[] payload)
    {
    }

    private final List<Datagram> datagrams = new ArrayList<>();

    @Override
    public void onDatagram(
        final long timestampNanos,
        final int sourceAddress,
        final int sourcePort,
        final int destinationAddress,
        final int destinationPort,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        final byte[] payload = new byte[length];
        buffer.getBytes(offset, payload);
        datagrams.add(new Datagram(timestampNanos, new UdpEndpoint(destinationAddress, destinationPort), payload));
    }

    public List<Datagram> datagrams()
    {
        return datagrams;
    }

    public List<Long> timestamps()
    {
        return datagrams.stream().map(Datagram::timestampNanos).toList();
    }
}
