/**
 * The {@code shm} egress transport for one host: registered regions as files under {@code /dev/shm} (owner/group
 * only), one-sided writes as ordered stores into a peer's mapping, the multicast channel as a broadcast log
 * ({@link io.mdgate.egress.transport.shm.BroadcastLogDescriptor}), control over a Unix domain socket. Entry point:
 * {@link io.mdgate.egress.transport.shm.ShmTransport} with a {@link io.mdgate.egress.transport.shm.ShmContext}.
 */
package io.mdgate.egress.transport.shm;
