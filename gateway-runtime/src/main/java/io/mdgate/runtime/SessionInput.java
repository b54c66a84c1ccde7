package io.mdgate.runtime;

import io.mdgate.core.feed.PacketHandler;

/**
 * Where an {@link IngressAgent} hands its packets: the session itself when both run on one thread
 * (run-to-completion), or the packet ring to a session on another thread (pipeline). Before each burst the ingress
 * asks {@link #readyForBurst(int)}; on false it leaves the burst in the port's queue, so a session without room for
 * the ticks stops taking packets instead of waiting inside a callback. Threading: the ingress agent's thread.
 */
interface SessionInput extends PacketHandler
{
    /**
     * @param maxBytes the most UDP payload bytes the coming burst may carry.
     * @return true when a burst of that size can be taken now.
     */
    boolean readyForBurst(int maxBytes);
}
