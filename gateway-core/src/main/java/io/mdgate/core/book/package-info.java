/**
 * Order books built from ITCH 5.0 order-level messages: one book per instrument (ITCH stock locate), price levels
 * per side kept sorted, each level's aggregate size and order count, its orders' time priority, and the best bid
 * and offer.
 * <p>
 * {@link io.mdgate.core.book.OrderBooks} holds every instrument's book in records allocated once at start-up from
 * a {@link io.mdgate.core.book.BookContext}, laid out so that an operation touches as few cache lines as it can:
 * an order is one 16-byte record found directly from its reference's low bits (a window of records; a map only for
 * an order whose record an older one still holds), a level is one 32-byte record, and each side's levels are a
 * sorted array with the best price at its end, searched back from the touch. Orders are not linked to each other;
 * time priority is an arrival number. After construction nothing allocates. Bad input (unknown order references,
 * oversized executions, exhausted capacity) is a return code and a counter, never an exception.
 * <p>
 * Threading: single-threaded. One thread (the normalizer's) owns a book instance; queries from another thread need
 * the owner's cooperation.
 */
package io.mdgate.core.book;
