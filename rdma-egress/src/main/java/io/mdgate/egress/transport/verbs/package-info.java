/**
 * The {@code verbs} egress transport: {@link io.mdgate.egress.transport.verbs.VerbsTransport} over rdma-core
 * through the project's JNI library {@code libmdgate-verbs} ({@code src/main/c}), loaded and checked (ABI version,
 * struct sizes) by {@link io.mdgate.egress.transport.verbs.VerbsNative}. Control connections are RC queue pairs set
 * up by RDMA-CM, one-sided writes are RDMA Writes on them, and the multicast stream is one UD queue pair sending
 * to an IPv4 group joined through RDMA-CM. {@link io.mdgate.egress.transport.verbs.VerbsBenchmark} measures the
 * two data paths in one process, {@link io.mdgate.egress.transport.verbs.VerbsPairBenchmark} between two hosts.
 */
package io.mdgate.egress.transport.verbs;
