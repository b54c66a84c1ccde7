package io.mdgate.app.journal;

import com.fasterxml.jackson.core.JsonGenerator;
import io.mdgate.app.JsonOutput;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64Descriptor;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteOrder;

/**
 * Writes replayed raw packets as text lines describing each one: receive time, line, MoldUDP64 session, first
 * sequence, message count and length; as JSON objects or CSV rows (after a header line). A payload too short for a
 * MoldUDP64 header gets empty session, sequence and count. Not thread-safe.
 */
final class PacketLines implements PacketHandler
{
    static final String HEADER = "receiveTimestamp,line,session,sequence,messages,length";

    private final Writer out;
    private final boolean json;
    private final JsonGenerator generator;
    private final StringBuilder line = new StringBuilder(256);
    private final ProgressBar progress;
    private long written;

    PacketLines(final Writer out, final boolean json, final ProgressBar progress)
    {
        this.out = out;
        this.json = json;
        this.generator = json ? JsonOutput.lines(out) : null;
        this.progress = progress;
        if (!json)
        {
            write(HEADER + '\n');
        }
    }

    @Override
    public void onPacket(
        final int packetLine,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final long receiveTimestamp)
    {
        final boolean mold = length >= MoldUdp64Descriptor.HEADER_LENGTH;
        final String session = mold ? buffer.getStringWithoutLengthAscii(
            offset + MoldUdp64Descriptor.SESSION_OFFSET, MoldUdp64Descriptor.SESSION_LENGTH).trim() : "";
        final long sequence = mold ?
            buffer.getLong(offset + MoldUdp64Descriptor.SEQUENCE_NUMBER_OFFSET, ByteOrder.BIG_ENDIAN) : 0;
        final int messages = mold ?
            buffer.getShort(offset + MoldUdp64Descriptor.MESSAGE_COUNT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF : 0;
        if (json)
        {
            writeJson(packetLine, receiveTimestamp, length, mold, session, sequence, messages);
        }
        else
        {
            line.setLength(0);
            line.append(receiveTimestamp).append(',').append(lineName(packetLine)).append(',')
                .append(mold ? session.replace(',', ' ') : "").append(',')
                .append(mold ? Long.toUnsignedString(sequence) : "").append(',')
                .append(mold ? Integer.toString(messages) : "").append(',')
                .append(length).append('\n');
            write(line);
        }
        progress.update(++written);
    }

    long written()
    {
        return written;
    }

    static String lineName(final int line)
    {
        switch (line)
        {
            case FeedLines.A:
                return "A";
            case FeedLines.B:
                return "B";
            case FeedLines.RECOVERY:
                return "RECOVERY";
            default:
                return Integer.toString(line);
        }
    }

    private void writeJson(
        final int packetLine,
        final long receiveTimestamp,
        final int length,
        final boolean mold,
        final String session,
        final long sequence,
        final int messages)
    {
        try
        {
            generator.writeStartObject();
            generator.writeNumberField("receiveTimestamp", receiveTimestamp);
            generator.writeStringField("line", lineName(packetLine));
            if (mold)
            {
                generator.writeStringField("session", session);
                generator.writeFieldName("sequence");
                generator.writeNumber(Long.toUnsignedString(sequence));
                generator.writeNumberField("messages", messages);
            }
            else
            {
                generator.writeNullField("session");
                generator.writeNullField("sequence");
                generator.writeNullField("messages");
            }
            generator.writeNumberField("length", length);
            generator.writeEndObject();
            generator.writeRaw('\n');
            generator.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void write(final CharSequence text)
    {
        try
        {
            out.append(text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
