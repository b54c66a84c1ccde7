package io.mdgate.core.capture;

import com.fasterxml.jackson.core.JsonGenerator;
import io.mdgate.core.json.JsonText;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a {@link DecodeSummary} as one JSON object, through Jackson's generator ({@link JsonText}). The first keys
 * are those scripts rely on, in this order: {@code messages, counts, malformed, gaps, firstSequence, lastSequence};
 * more follow, always present (null or 0 when they do not apply), so the shape never depends on the input.
 * Stateless and thread-safe.
 */
final class DecodeSummaryJson
{
    private DecodeSummaryJson()
    {
    }

    static String write(final DecodeSummary s)
    {
        return JsonText.write(json -> write(json, s));
    }

    private static void write(final JsonGenerator json, final DecodeSummary s) throws IOException
    {
        json.writeStartObject();
        json.writeNumberField("messages", s.messages());
        counts(json, s);
        json.writeNumberField("malformed", s.malformed());
        json.writeNumberField("gaps", s.gaps());
        json.writeNumberField("firstSequence", s.firstSequence());
        json.writeNumberField("lastSequence", s.lastSequence());
        json.writeNumberField("missingMessages", s.missingMessages());
        json.writeNumberField("duplicates", s.duplicates());
        json.writeNumberField("duplicatePackets", s.duplicatePackets());
        json.writeNumberField("packets", s.packets());
        json.writeNumberField("heartbeats", s.heartbeats());
        json.writeBooleanField("endOfSession", s.endOfSession());
        malformedDetail(json, s);
        gapRanges(json, s);
        lines(json, s);
        JsonText.stringOrNull(json, "session", s.session());
        json.writeBooleanField("sessionAcceptedAtEnd", s.sessionAcceptedAtEnd());
        otherSessions(json, s);
        json.writeNumberField("sessionChanges", s.sessionChanges());
        json.writeNumberField("unsequencedPackets", s.unsequencedPackets());
        json.writeNumberField("heldPackets", s.heldPackets());
        capture(json, s);
        JsonText.stringOrNull(json, "file", s.file());
        JsonText.stringOrNull(json, "format", s.format() == null ? null : s.format().cliName());
        json.writeBooleanField("compressed", s.compressed());
        json.writeBooleanField("compressedStreamTruncated", s.compressedStreamTruncated());
        json.writeNumberField("bytes", s.bytes());
        json.writeFieldName("elapsedMillis");
        json.writeNumber(String.format(Locale.ROOT, "%.3f", s.elapsedNanos() / 1e6)); // three places, as before
        json.writeNumberField("messagesPerSecond", s.messagesPerSecond());
        json.writeEndObject();
    }

    private static void counts(final JsonGenerator json, final DecodeSummary s) throws IOException
    {
        json.writeObjectFieldStart("counts");
        for (final byte type : DecodeSummary.types())
        {
            json.writeNumberField(String.valueOf((char)type), s.count(type));
        }
        json.writeEndObject();
    }

    private static void malformedDetail(final JsonGenerator json, final DecodeSummary s) throws IOException
    {
        json.writeObjectFieldStart("malformedDetail");
        json.writeNumberField("unknownType", s.unknownType());
        json.writeNumberField("lengthMismatch", s.lengthMismatch());
        json.writeNumberField("truncatedRecords", s.truncatedRecords());
        json.writeNumberField("oversizedRecords", s.oversizedRecords());
        json.writeNumberField("malformedBlocks", s.malformedBlocks());
        json.writeNumberField("truncatedFrames", s.truncatedFrames());
        json.writeNumberField("malformedFrames", s.malformedFrames());
        json.writeNumberField("moldMalformedHeader", s.moldMalformedHeader());
        json.writeNumberField("moldBlockOverrun", s.moldBlockOverrun());
        json.writeNumberField("moldTrailingBytes", s.moldTrailingBytes());
        json.writeNumberField("moldMalformedOther", s.moldMalformedOther());
        json.writeNumberField("skippedBytes", s.skippedBytes());
        json.writeEndObject();
    }

    private static void gapRanges(final JsonGenerator json, final DecodeSummary s) throws IOException
    {
        json.writeArrayFieldStart("gapRanges");
        for (int i = 0; i < s.gapRanges(); i++)
        {
            json.writeStartObject();
            json.writeNumberField("first", s.gapFirst(i));
            json.writeNumberField("last", s.gapLast(i));
            json.writeNumberField("missing", s.gapLast(i) - s.gapFirst(i) + 1);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void lines(final JsonGenerator json, final DecodeSummary s) throws IOException
    {
        json.writeObjectFieldStart("lines");
        for (int line = 0; line < 2; line++)
        {
            json.writeObjectFieldStart(line == 0 ? "A" : "B");
            JsonText.stringOrNull(json, "destination", s.lineDestination(line));
            json.writeNumberField("packets", s.linePackets(line));
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void otherSessions(final JsonGenerator json, final DecodeSummary s) throws IOException
    {
        json.writeObjectFieldStart("otherSessions");
        for (final Map.Entry<String, Long> entry : s.otherSessions().entrySet())
        {
            json.writeNumberField(entry.getKey(), entry.getValue());
        }
        json.writeEndObject();
    }

    private static void capture(final JsonGenerator json, final DecodeSummary s) throws IOException
    {
        json.writeObjectFieldStart("capture");
        json.writeNumberField("frames", s.frames());
        json.writeNumberField("udpDatagrams", s.udpDatagrams());
        json.writeNumberField("notIpv4", s.notIpv4());
        json.writeNumberField("notUdp", s.notUdp());
        json.writeNumberField("fragments", s.fragments());
        json.writeNumberField("otherDestinations", s.otherDestinations());
        json.writeNumberField("notMoldUdp64", s.notMoldUdp64());
        json.writeNumberField("unsupportedLinkType", s.unsupportedLinkType());
        json.writeEndObject();
    }
}
