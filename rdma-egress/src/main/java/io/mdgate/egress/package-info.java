/**
 * Egress: fans normalized ticks out to the trading processes in the rack over one transport interface, with RDMA
 * verbs (UD multicast stream, RC control, RDMA Write rings and top-of-book tables) or host-local shared memory,
 * and the consumer SDK that reads them. Arrives with the egress issues.
 */
package io.mdgate.egress;
