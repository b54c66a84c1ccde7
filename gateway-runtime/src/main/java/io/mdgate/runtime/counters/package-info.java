/**
 * The gateway's counters file: one memory-mapped file holding every live counter (an Agrona
 * {@link org.agrona.concurrent.status.CountersManager}'s metadata and values) and the distinct-error log, written
 * by the running gateway and read by {@code mdgate stat}, {@code mdgate errors}, the demo's dashboard, or any other
 * process, while the gateway runs and after it died. {@link io.mdgate.runtime.counters.CountersFileDescriptor}
 * documents the layout; {@link io.mdgate.runtime.counters.CountersFile} writes and reads it.
 */
package io.mdgate.runtime.counters;
