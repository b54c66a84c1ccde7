/**
 * Journal: records every normalized tick and every raw MoldUDP64 packet in Chronicle Queue behind the project's
 * own interface, and replays any range by gateway sequence or exchange time. No Chronicle type appears in a public
 * signature.
 * <ul>
 *   <li>Writing: {@link io.mdgate.journal.TickJournal} opens (checking the files and finding the last tick, so the
 *   gateway sequence continues after it), the core publishes to its {@link io.mdgate.journal.JournalPublisher}
 *   (a one-to-one ring), and the {@link io.mdgate.journal.JournalAgent} appends and publishes the journaled
 *   sequence.</li>
 *   <li>Reading: {@link io.mdgate.journal.TickReplay} (the API consumer recovery uses) and
 *   {@link io.mdgate.journal.PacketReplay} find a start by binary search over the queue index; pacing by
 *   {@link io.mdgate.journal.ReplayPacer}; {@link io.mdgate.journal.JournalReader} opens a journal for tools.</li>
 *   <li>Damage is never skipped: {@link io.mdgate.journal.JournalDamagedException} names the file and what to do.</li>
 * </ul>
 * Layout and formats: {@link io.mdgate.journal.JournalLayout}, {@link io.mdgate.journal.PacketRecordDescriptor},
 * docs/JOURNAL.md. Threading contracts are on each type.
 */
package io.mdgate.journal;
