/**
 * The running gateway: the pipeline's stages as Agrona agents (ingress per port and queue, session, journal,
 * egress, housekeeping), the rings between them, the core map that runs them on pinned threads, the idle
 * strategies (including the market-hours one), per-stage latency, and the {@code run}, {@code stat} and
 * {@code errors} commands.
 * <pre>
 *  ingress:p0:0 --\                          /--> journal (TickJournal ring, waits when full)
 *  ingress:p1:0 ---> packet ring --> session --
 *       (many-to-one, drops counted)        \--> tick ring (drops counted) --> egress --> consumers
 *  housekeeping: heartbeat, latency percentiles and .hlog files each second
 * </pre>
 */
package io.mdgate.runtime;
