/**
 * The journal tools of the CLI: {@code record} (a capture or ITCH file through arbitration, books and normalizer
 * into a journal), {@code replay} (a sequence or time range of ticks or raw packets to JSON/CSV lines or a pcap, as
 * fast as possible or at the recorded pace) and {@code journal info}. docs/JOURNAL.md describes them.
 * <p>
 * Threading: each command runs on the calling thread (record also runs the journal agent on a thread of its own).
 */
package io.mdgate.app.journal;
