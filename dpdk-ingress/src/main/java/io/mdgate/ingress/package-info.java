/**
 * Ingress: takes the exchange's UDP multicast packets off the NIC with a DPDK poll-mode driver (through the
 * project's JNI library in {@code src/main/c}, loaded by {@link io.mdgate.ingress.DpdkNative}) or, on hosts
 * without DPDK, off ordinary kernel sockets, and hands UDP payloads with their feed line and receive timestamp
 * to the feed session.
 */
package io.mdgate.ingress;
