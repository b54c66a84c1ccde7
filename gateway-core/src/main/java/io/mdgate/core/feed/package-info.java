/**
 * The MoldUDP64 feed as a session. {@link io.mdgate.core.feed.FeedSession} merges lines A and B (and the
 * re-request answers, line {@link io.mdgate.core.feed.FeedLines#RECOVERY}) into one stream in which every sequence
 * leaves once and in order, holds packets after gaps, recovers gaps through a
 * {@link io.mdgate.core.feed.RetransmitRequester} and passes those it cannot recover on as declared gaps. It is the
 * one feed implementation: live behind the ingresses, and offline behind the capture readers
 * ({@link io.mdgate.core.capture.CaptureFeed}, capture time as its clock). It delivers to the stages that decode (a
 * {@link io.mdgate.core.feed.MessageProcessor}). Ingresses hand packets over through
 * {@link io.mdgate.core.feed.PacketHandler}.
 * <p>
 * Allocation-free in steady state; every class is confined to the one thread that feeds it.
 */
package io.mdgate.core.feed;
