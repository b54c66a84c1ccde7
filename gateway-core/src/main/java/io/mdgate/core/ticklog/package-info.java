/**
 * The tick log: the one buffer every tick is written to once, by the session, and read by the journal and the
 * egress at their own positions ({@link io.mdgate.core.ticklog.TickLog}, {@link io.mdgate.core.ticklog.TickLogReader},
 * layout in {@link io.mdgate.core.ticklog.TickLogDescriptor}). Readers gate the writer: the writer asks
 * {@link io.mdgate.core.ticklog.TickLog#hasRoom(int)} before it takes input and stops taking it while there is no room,
 * so back-pressure is a return value of the writer's duty cycle, never a wait, and writer and readers may share one
 * thread.
 */
package io.mdgate.core.ticklog;
