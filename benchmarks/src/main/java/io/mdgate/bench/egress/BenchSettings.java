package io.mdgate.bench.egress;

/**
 * One run of one transport with some consumers: how many ticks, how fast (0 = as fast as the publisher can), and
 * how many of them warm up before measuring.
 *
 * @param consumers   consumer threads.
 * @param warmUpTicks ticks sent before measuring.
 * @param ticks       ticks measured.
 * @param rate        ticks per second offered; 0 for as fast as possible.
 */
record BenchSettings(int consumers, long warmUpTicks, long ticks, long rate)
{
    long lastSequence()
    {
        return warmUpTicks + ticks;
    }
}
