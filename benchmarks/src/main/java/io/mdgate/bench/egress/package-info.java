/**
 * The egress comparison harness: the {@code shm} egress (publisher, per-consumer rings) and Aeron IPC side by side
 * in one run, with 64-byte ticks and 1, 4 and 16 consumers; see {@link io.mdgate.bench.egress.EgressComparison}.
 */
package io.mdgate.bench.egress;
