package io.mdgate.egress.support;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.egress.TickSource;
import org.agrona.DirectBuffer;

/**
 * A tick source that also hands every tick to another handler first (e.g. a {@link io.mdgate.egress.TickArchive}),
 * on the polling thread, as the journal would have it before the publisher sends it.
 */
public final class TeeTickSource implements TickSource, TickHandler
{
    private final TickSource source;
    private final TickHandler first;
    private TickHandler then;

    public TeeTickSource(final TickSource source, final TickHandler first)
    {
        this.source = source;
        this.first = first;
    }

    @Override
    public int poll(final TickHandler handler, final int limit)
    {
        then = handler;
        return source.poll(this, limit);
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        first.onTick(buffer, offset);
        then.onTick(buffer, offset);
    }
}
