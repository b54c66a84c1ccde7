/**
 * The appliance: the whole gateway in one process, assembled from its configuration by
 * {@link io.mdgate.runtime.Gateway}. The pipeline's stages are Agrona agents (ingress per port and queue, session,
 * journal, egress, housekeeping), run on one pinned thread per {@code [[cores]]} entry with that core's idle strategy
 * (the market-hours one included), with per-stage latency and every counter in the counters file
 * ({@link io.mdgate.runtime.counters}).
 * <pre>
 *  ingress:p0:0 --\   (on the session's thread: called directly;
 *  ingress:p1:0 ---> from another thread: the packet ring, full: dropped and counted)
 *                --> session --> tick log (each tick once) --> journal reader --> Chronicle Queue
 *                                                        \--> egress reader (behind the journal's) --> consumers
 *  housekeeping: heartbeat, latency percentiles and .hlog files each second
 * </pre>
 * Embedding: read a {@link io.mdgate.runtime.config.GatewayConfig} with
 * {@link io.mdgate.runtime.config.ConfigLoader#load}, check its core map against the host with
 * {@link io.mdgate.runtime.config.CoreMapValidator}, then {@link io.mdgate.runtime.Gateway#create}, {@code start()},
 * watch {@code hasFailed()} and {@code close()}. gateway-app's {@code mdgate run} does only that, plus its
 * arguments, signals and exit codes; its pinner answers {@link io.mdgate.runtime.CpuPinner} with
 * {@link io.mdgate.runtime.config.ThreadPinning}'s {@code pin}, {@code isPinnedTo} and {@code threadId}, and says
 * yes to {@code placesOtherThreads}. Public here are {@code Gateway} and {@code CpuPinner} (how a core's thread is
 * pinned); the agents, rings, idle strategies and the guard of the spinning CPUs are package-private.
 */
package io.mdgate.runtime;
