/**
 * The exchange simulator behind {@code mdgate sim}: frames the generated ITCH 5.0 session
 * ({@link io.mdgate.core.sim.ItchSessionGenerator}) into MoldUDP64 packets, copies them onto an A and a B line
 * with seeded faults per line (loss in bursts, reordering, duplication, corruption), and writes them to a pcap
 * file, a Nasdaq daily file (bare messages) or live UDP multicast on two groups; a re-request server answers
 * MoldUDP64 retransmission requests from the messages it generated.
 * <p>
 * A run is single-threaded: the generator, framer, fault injectors, output and re-request server all share the
 * caller's thread, the server being polled between packets and while the live output waits for its send time.
 */
package io.mdgate.app.sim;
