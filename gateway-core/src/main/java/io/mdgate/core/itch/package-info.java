/**
 * Nasdaq TotalView-ITCH 5.0: one flyweight per message type over an Agrona buffer, read in place and written in
 * place, and {@link io.mdgate.core.itch.ItchMessageDecoder}, which checks a message's type and length and hands
 * it to an {@link io.mdgate.core.itch.ItchMessageHandler} callback.
 * <p>
 * The common 11-byte header is drawn in {@link io.mdgate.core.itch.ItchMessageFlyweight}; each flyweight's
 * Javadoc lists its body offsets as in the specification's table. Integers are unsigned big-endian: u16 fields
 * read as {@code int}, u32 fields and Price(4) as {@code long}, u64 fields and Price(8) as {@code long} holding
 * the raw 64 bits. Alpha fields of 8 and 4 characters are packed into a {@code long} or {@code int}
 * ({@link io.mdgate.core.itch.Alpha}) so the hot path compares symbols without allocating.
 * <p>
 * Decoding allocates nothing and never throws: an unknown type or a wrong length is a return code and a counter.
 * Flyweights and decoders are not thread-safe; each thread keeps its own.
 */
package io.mdgate.core.itch;
