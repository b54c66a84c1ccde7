/**
 * Market depth as the {@code LEVEL} ticks describe it ({@code docs/TICK.md}): {@link io.mdgate.core.depth.DepthBook}
 * keeps the top D price levels per side of one instrument from those ticks, allocation-free, for consumers (the
 * egress SDK) and for the egress's depth table. It depends on nothing but the tick layout, so every module can use
 * it.
 * <p>
 * Threading: a book belongs to one thread at a time.
 */
package io.mdgate.core.depth;
