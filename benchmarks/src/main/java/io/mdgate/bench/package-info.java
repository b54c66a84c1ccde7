/**
 * Benchmarks: JMH for the pieces (decode, book, normalize) and harnesses for end-to-end runs. Every result in
 * docs/BENCHMARKS.md names the command that produced it.
 */
package io.mdgate.bench;
