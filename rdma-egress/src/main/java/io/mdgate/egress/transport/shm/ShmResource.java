package io.mdgate.egress.transport.shm;

/**
 * Something the {@link ShmTransport} made and closes when it is closed, unless it was closed before.
 */
interface ShmResource extends AutoCloseable
{
    boolean isClosed();

    @Override
    void close();
}
