package io.mdgate.core.feed;

/**
 * Told by a {@link FeedSession}, before the messages of each packet are delivered, which line the packet came
 * from and when it was received, so that the ticks of those messages can carry it (line B and recovered flags,
 * receive timestamp). Held packets keep their own line and time. Called on the session's thread.
 */
@FunctionalInterface
public interface PacketContextHandler
{
    /**
     * @param line                  one of {@link FeedLines}.
     * @param receiveTimestampNanos as given by the ingress with the packet.
     */
    void onPacketContext(int line, long receiveTimestampNanos);
}
