package io.mdgate.journal;

/**
 * Which time decides the cycle (file) a record goes into.
 * <p>
 * Immutable; safe from any thread.
 */
public enum JournalCycleClock
{
    /** The wall clock when the record is appended: a live gateway's journal. */
    WALL_CLOCK,
    /**
     * The time carried by the record, never going backwards: a tick's exchange timestamp, a packet's receive
     * timestamp. An offline recording of a day then gets the files a live recording of that day would have had.
     */
    RECORD_TIME
}
