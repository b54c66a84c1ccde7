/**
 * The journal's benchmark harness ({@link io.mdgate.bench.journal.JournalBenchmark}): append rate and latency of the
 * journal beside a bare Chronicle Queue appender, replay rate, and seek time in a large journal. Single-threaded
 * except where a run says otherwise.
 */
package io.mdgate.bench.journal;
