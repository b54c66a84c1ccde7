package io.mdgate.app.journal;

import io.mdgate.app.JsonOutput;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.journal.TickReplay;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Locale;

/**
 * What a replay delivered, gathered on the way (it sits in front of the output as a tick or packet handler) and
 * printed at the end as one line of text or one JSON object with the keys {@code source, records, firstSequence,
 * lastSequence, firstTime, lastTime, elapsedNanos, ratePerSecond, speed, output}. Sequences are null for packets;
 * times are exchange times for ticks and receive times for packets, ISO-8601 in the text, nanoseconds since the
 * epoch in JSON. Not thread-safe.
 */
final class ReplaySummary implements TickHandler, PacketHandler
{
    static final int SEQUENCE_OFFSET = TickEncoder.gatewaySequenceEncodingOffset();
    static final int EXCHANGE_TIME_OFFSET = TickEncoder.exchangeTimestampEncodingOffset();
    static final int RECEIVE_TIME_OFFSET = TickEncoder.receiveTimestampEncodingOffset();

    private final String source;
    private final String output;
    private final double speed;
    private final TickHandler ticks;
    private final PacketHandler packets;
    private long records;
    private long firstSequence = TickReplay.NO_SEQUENCE;
    private long lastSequence = TickReplay.NO_SEQUENCE;
    private long firstTime;
    private long lastTime;
    private long elapsedNanos;
    private long symbolTicks;
    private long symbolNanos;

    /**
     * @param source  "ticks" or "packets".
     * @param output  where the records went, for the summary.
     * @param speed   the pace factor, or 0 for as fast as possible.
     * @param ticks   the tick output, or null.
     * @param packets the packet output, or null.
     */
    ReplaySummary(
        final String source, final String output, final double speed, final TickHandler ticks,
        final PacketHandler packets)
    {
        this.source = source;
        this.output = output;
        this.speed = speed;
        this.ticks = ticks;
        this.packets = packets;
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset + SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long time = buffer.getLong(offset + EXCHANGE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (records++ == 0)
        {
            firstSequence = sequence;
            firstTime = time;
        }
        lastSequence = sequence;
        lastTime = time;
        ticks.onTick(buffer, offset);
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestamp)
    {
        if (records++ == 0)
        {
            firstTime = receiveTimestamp;
        }
        lastTime = receiveTimestamp;
        packets.onPacket(line, buffer, offset, length, receiveTimestamp);
    }

    void elapsedNanos(final long nanos)
    {
        this.elapsedNanos = nanos;
    }

    /** Records the read of the session's ticks before the range that found the symbols named there. */
    void symbolScan(final long ticks, final long nanos)
    {
        this.symbolTicks = ticks;
        this.symbolNanos = nanos;
    }

    long records()
    {
        return records;
    }

    long firstSequence()
    {
        return firstSequence;
    }

    long lastSequence()
    {
        return lastSequence;
    }

    String text()
    {
        final StringBuilder text = new StringBuilder(200);
        text.append(String.format(Locale.ROOT, "replayed %,d %s", records, source));
        if (records > 0)
        {
            if (firstSequence != TickReplay.NO_SEQUENCE)
            {
                text.append(" ").append(firstSequence).append("..").append(lastSequence);
            }
            text.append(" (").append(source.equals("ticks") ? "exchange" : "receive").append(" time ")
                .append(TimeArgument.format(firstTime)).append("..").append(TimeArgument.format(lastTime)).append(')');
        }
        text.append(String.format(Locale.ROOT, " in %.3f s, %s %s/s", elapsedNanos / 1e9,
            ProgressBar.rate(rate()), source));
        text.append(speed > 0 ? String.format(Locale.ROOT, " at %sx the recorded pace", speed) : "");
        text.append(", to ").append(output);
        if (symbolTicks > 0)
        {
            text.append(String.format(Locale.ROOT, "; symbols from %,d ticks of the session before the range, " +
                "read in %.3f s", symbolTicks, symbolNanos / 1e9));
        }
        return text.toString();
    }

    String json()
    {
        final boolean ticked = firstSequence != TickReplay.NO_SEQUENCE;
        return JsonOutput.line(JsonOutput.object()
            .put("source", source)
            .put("records", records)
            .put("firstSequence", JsonOutput.orNull(ticked, firstSequence))
            .put("lastSequence", JsonOutput.orNull(ticked, lastSequence))
            .put("firstTime", JsonOutput.orNull(records > 0, firstTime))
            .put("lastTime", JsonOutput.orNull(records > 0, lastTime))
            .put("elapsedNanos", elapsedNanos)
            .put("ratePerSecond", Math.round(rate()))
            .put("speed", speed > 0 ? Double.valueOf(speed) : null)
            .put("output", output));
    }

    private double rate()
    {
        return elapsedNanos <= 0 ? 0 : records * 1e9 / elapsedNanos;
    }
}
