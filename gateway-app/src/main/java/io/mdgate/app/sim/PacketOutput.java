package io.mdgate.app.sim;

import org.agrona.DirectBuffer;

/**
 * Where the simulator's packets go, per line: a pcap file, live multicast, or nowhere (counting only). The bytes
 * are valid only during the call. Used on the simulator's thread.
 */
public interface PacketOutput extends AutoCloseable
{
    int LINE_A = 0;
    int LINE_B = 1;

    /**
     * @param line      {@link #LINE_A} or {@link #LINE_B}.
     * @param timestamp exchange time, nanoseconds since midnight of the session date.
     */
    void send(int line, long timestamp, DirectBuffer buffer, int offset, int length);

    /** @return a description for the summary, e.g. the file or the interface and groups. */
    String describe();

    @Override
    void close();
}
