/**
 * The egress protocol: the multicast datagram header ({@link io.mdgate.egress.protocol.StreamDatagramDescriptor}),
 * the consumer's registered region with its ring and top-of-book table
 * ({@link io.mdgate.egress.protocol.ConsumerRegionDescriptor}, {@link io.mdgate.egress.protocol.TopOfBookDescriptor}),
 * the read-position region ({@link io.mdgate.egress.protocol.PositionRegionDescriptor}) and the control messages
 * ({@link io.mdgate.egress.protocol.ControlMessageDescriptor}), with the flyweights, the torn-slot and seqlock
 * readers and the ring and table writers that both ends share.
 */
package io.mdgate.egress.protocol;
