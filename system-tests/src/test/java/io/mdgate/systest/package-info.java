/**
 * System tests: the built gateway and simulator run as separate processes, end to end, including in network
 * namespaces and veth pairs that the tests create and remove.
 */
package io.mdgate.systest;
