/**
 * The MoldUDP64 feed as a session: A/B line arbitration with duplicate removal, a bounded reorder window and gap
 * detection ({@link io.mdgate.core.feed.LineArbiter}), delivering each sequence once and in order to the stages
 * that decode it.
 * <p>
 * Allocation-free in steady state; every class is confined to the one thread that feeds it.
 */
package io.mdgate.core.feed;
