/**
 * The kernel-socket ingress: the {@link io.mdgate.ingress.Ingress} contract over ordinary UDP sockets
 * ({@link java.nio.channels.DatagramChannel}), one per configured (group, port), joined on a named interface. For
 * hosts without DPDK and for comparison with the DPDK ingress; chosen by configuration, never as a silent fallback.
 * <p>
 * Confined to the receive thread, like every ingress; allocation-free while polling.
 */
package io.mdgate.ingress.socket;
