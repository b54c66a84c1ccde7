package io.mdgate.core.feed;

/**
 * The line indexes used everywhere a packet is attributed to a feed line: the two redundant multicast lines
 * {@link #A} and {@link #B}, and {@link #RECOVERY} for packets answered by the re-request server.
 * <p>
 * Constants only; safe from any thread.
 */
public interface FeedLines
{
    /**
     * The first multicast line.
     */
    int A = 0;

    /**
     * The second multicast line, carrying the same packets as {@link #A}.
     */
    int B = 1;

    /**
     * Packets received from the re-request (retransmission) server.
     */
    int RECOVERY = 2;
}
