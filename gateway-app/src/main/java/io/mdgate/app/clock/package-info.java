/**
 * {@code mdgate clock}: how far another host's clock is from this one's, and how sure that is. Latency a consumer
 * reports is one-way (the gateway's receive stamp in each tick against the consumer's clock), so it is only as good
 * as the agreement of the two hosts' clocks; where they are not synchronised the offset measured here is what
 * {@code mdgate consume --clock-offset-ns} adds.
 */
package io.mdgate.app.clock;
