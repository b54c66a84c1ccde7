/**
 * The exchange simulator's market: a deterministic, seeded Nasdaq TotalView-ITCH 5.0 session generator.
 * <p>
 * {@link io.mdgate.core.sim.SimulationConfig} holds the settings (seed, instruments, message count, order depth,
 * rate profile, session date) and validates them once; {@link io.mdgate.core.sim.ItchSessionGenerator} writes the
 * session one message at a time into a caller's buffer without allocating: start-of-day events, a Stock
 * Directory and its companions per instrument, an opening cross, an order flow driven by an internal model of
 * every instrument's book (so every order a message refers to is live and books never cross), rare market
 * events (halts, collars, IPO and direct-listing updates, broken trades, circuit-breaker status), a closing
 * cross and the end-of-day events. The same seed and settings always give the same bytes.
 */
package io.mdgate.core.sim;
