/**
 * The feed pipeline's per-message stages: {@link io.mdgate.core.feed.MessageProcessor} takes each message a
 * MoldUDP64 packet (or a file reader) delivers, with its sequence, and runs ITCH decode, the order books and the
 * normalizer on it.
 * <p>
 * Threading: single-threaded; each processor belongs to the thread that feeds it.
 */
package io.mdgate.core.feed;
