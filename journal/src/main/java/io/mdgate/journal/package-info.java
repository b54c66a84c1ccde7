/**
 * Journal: records every normalized tick and every raw MoldUDP64 packet in Chronicle Queue behind the project's
 * own interface, and replays any range by gateway sequence or exchange time. Arrives with the journal issue.
 */
package io.mdgate.journal;
