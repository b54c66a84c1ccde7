package io.mdgate.egress.transport.verbs;

/**
 * Something a {@link VerbsTransport} made and closes with itself, unless it was closed before.
 */
interface VerbsResource extends AutoCloseable
{
    boolean isClosed();

    @Override
    void close();
}
