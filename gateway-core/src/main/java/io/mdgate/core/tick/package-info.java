/**
 * Normalized ticks: the {@link io.mdgate.core.tick.Normalizer} turns each decoded ITCH 5.0 message into one tick
 * for its own event plus top-of-book ticks when a best bid or offer changes, written with the codecs generated from
 * {@code sbe/mdgate-tick-schema.xml} ({@code io.mdgate.core.tick.sbe}) and handed to a
 * {@link io.mdgate.core.tick.TickHandler}. {@link io.mdgate.core.tick.ExchangeClock} turns ITCH's nanoseconds since
 * midnight into nanoseconds since the Unix epoch. The meaning of every tick field per event type is in
 * {@code docs/TICK.md}.
 * <p>
 * Threading: single-threaded; a normalizer, its books and its clock belong to one thread.
 */
package io.mdgate.core.tick;
