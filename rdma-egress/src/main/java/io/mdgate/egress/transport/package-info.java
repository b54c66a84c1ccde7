/**
 * The egress transport interface: registered memory regions with keys, one-sided ordered writes into a peer's
 * region, an unreliable multicast datagram channel with an MTU, and a reliable connected message channel for
 * control. It is shaped after RDMA verbs so that the verbs transport is a straight mapping (regions = memory
 * regions, writes = {@code IBV_WR_RDMA_WRITE}, multicast = UD queue pair + address handle, control = RC send/recv);
 * {@code shm} implements the same semantics on one host (see {@link io.mdgate.egress.transport.shm}).
 */
package io.mdgate.egress.transport;
