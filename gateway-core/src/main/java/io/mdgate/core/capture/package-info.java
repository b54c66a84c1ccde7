/**
 * Reading a user's files: Nasdaq daily files, ITCH files with zero length prefixes, and pcap/pcapng captures of
 * MoldUDP64 over Ethernet/IPv4/UDP, gzip-compressed or not, recognised by their content
 * ({@link io.mdgate.core.capture.ItchFileFormat}). {@link io.mdgate.core.capture.ItchFileDecoder} ties the readers
 * to the gateway's own feed session ({@link io.mdgate.core.feed.FeedSession}, driven in capture time by
 * {@link io.mdgate.core.capture.CaptureFeed}) and produces a {@link io.mdgate.core.capture.DecodeSummary}.
 * <p>
 * Readers frame records in place in one reused direct buffer ({@link io.mdgate.core.capture.CaptureInput}) and
 * allocate nothing per record. Bad input in the middle of a file (a truncated last record, a frame that is not
 * IPv4/UDP, a malformed packet) is counted, never thrown; only a file that cannot be opened or matches no format
 * is an exception, raised before any record is read. Every class here is confined to one thread.
 */
package io.mdgate.core.capture;
