/**
 * {@code mdgate demo}: the whole chain on one host. A simulated exchange sends the A and B lines (with loss, and
 * a re-request server) into a pair of network namespaces, the gateway ({@code mdgate run} with a generated
 * configuration) receives them, journals the ticks and publishes them over shm to four consumers, one of them
 * deliberately slow; a one-screen dashboard follows the gateway's counters file and a summary ends the run.
 * Every namespace and process the demo starts is removed again on exit and on Ctrl-C.
 */
package io.mdgate.app.demo;
