package io.mdgate.egress.transport;

/**
 * The publisher's listening end of the control channel (verbs: an RDMA-CM listener). Threading: one thread.
 */
public interface ControlServer extends AutoCloseable
{
    /**
     * @return a newly connected channel, or null when none is waiting. Never blocks.
     */
    ControlChannel accept();

    /** @return where consumers connect, for logs. */
    String endpoint();

    @Override
    void close();
}
