package io.mdgate.app.clock;

/**
 * What probing a peer's clock found.
 *
 * @param probes           probes sent.
 * @param answered         probes answered in time.
 * @param offsetNanos      the peer's clock minus this host's, from the answer with the shortest round trip.
 * @param boundNanos       the true offset is within {@code offsetNanos} plus or minus this (half that round trip).
 * @param bestRoundTripNanos   that shortest round trip, the peer's own time taken out.
 * @param medianRoundTripNanos the median of the answered round trips, likewise.
 */
record ClockOffset(int probes, int answered, long offsetNanos, long boundNanos, long bestRoundTripNanos,
    long medianRoundTripNanos)
{
}
