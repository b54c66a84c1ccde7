/**
 * Order books built from ITCH 5.0 order-level messages: one book per instrument (ITCH stock locate), price levels
 * per side kept sorted best first, the orders of each level in FIFO order, and the best bid and offer with their
 * aggregate size and order count.
 * <p>
 * {@link io.mdgate.core.book.OrderBooks} holds every instrument's book in pools allocated once at start-up from a
 * {@link io.mdgate.core.book.BookContext}: orders and levels are struct-of-arrays records linked into intrusive
 * lists, and order references and level prices are found through fixed-capacity open-addressing maps. After
 * construction nothing allocates. Bad input (unknown order references, oversized executions, exhausted capacity)
 * is a return code and a counter, never an exception.
 * <p>
 * Threading: single-threaded. One thread (the normalizer's) owns a book instance; queries from another thread need
 * the owner's cooperation.
 */
package io.mdgate.core.book;
