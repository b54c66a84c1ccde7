/**
 * The floor of the end-to-end latency benchmark: what handing a 64-byte message from one thread to another costs on
 * the same CPUs, paced at the same offered rates, so that the gateway's wire-to-consumer figures can be given as a
 * multiple of it (benchmarks/e2e-latency.sh, docs/BENCHMARKS.md).
 */
package io.mdgate.bench.floor;
