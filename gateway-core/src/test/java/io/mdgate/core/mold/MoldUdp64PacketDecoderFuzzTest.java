package io.mdgate.core.mold;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Feeds arbitrary bytes to {@link MoldUdp64PacketDecoder} as one datagram, and again as two datagrams split at a
 * point the input's first byte chooses, then hands every dispatched message on to {@link ItchMessageDecoder} as
 * the gateway does. Neither decoder may throw; every message handed out must lie inside its datagram with
 * consecutive sequence numbers; the counters must account for every packet and message.
 * <p>
 * {@code mvn test} replays the seeds in {@code MoldUdp64PacketDecoderFuzzTestInputs} (surefire execution
 * {@code fuzz-regression}, a JVM of its own). To fuzz for the annotation's duration, one test at a time:
 * {@code JAZZER_FUZZ=1 mvn -pl gateway-core -am test -Dtest=MoldUdp64PacketDecoderFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false}; Jazzer then reuses one test instance for many inputs, so every input
 * starts from fresh decoders.
 */
@Tag("fuzz")
class MoldUdp64PacketDecoderFuzzTest
{
    private final ItchMessageHandler itchHandler = new ItchMessageHandler()
    {
    };

    private MoldUdp64PacketDecoder decoder;
    private ItchMessageDecoder itchDecoder;

    private int datagramStart;
    private int datagramEnd;
    private boolean firstMessage;
    private long expectedSequence;
    private long handlerCalls;

    @FuzzTest(maxDuration = "60s")
    @Timeout(90)
    void decodeNeverThrowsAndCountsEveryPacket(final byte[] input)
    {
        decoder = new MoldUdp64PacketDecoder();
        itchDecoder = new ItchMessageDecoder();
        handlerCalls = 0;
        final UnsafeBuffer buffer = new UnsafeBuffer(input);
        long dispatched = 0;
        int datagrams = 0;

        dispatched += decodeDatagram(buffer, 0, input.length);
        datagrams++;
        if (input.length > 0)
        {
            final int split = (input[0] & 0xFF) % (input.length + 1);
            dispatched += decodeDatagram(buffer, 0, split);
            dispatched += decodeDatagram(buffer, split, input.length - split);
            datagrams += 2;
        }

        assertEquals(datagrams, decoder.packetCount());
        assertEquals(decoder.packetCount(),
            decoder.messagePacketCount() + decoder.heartbeatCount() + decoder.endOfSessionCount() +
            decoder.malformedCount());
        assertEquals(decoder.malformedCount(),
            decoder.malformedHeaderCount() + decoder.blockOverrunCount() + decoder.trailingBytesCount());
        assertEquals(dispatched, decoder.messagesDispatched());
        assertEquals(dispatched, handlerCalls);
        assertEquals(dispatched, itchDecoder.decodedCount() + itchDecoder.malformedCount());
    }

    private int decodeDatagram(final DirectBuffer buffer, final int offset, final int length)
    {
        datagramStart = offset;
        datagramEnd = offset + length;
        firstMessage = true;
        final long callsBefore = handlerCalls;
        final long malformedBefore = decoder.malformedCount();

        final int result = decoder.decode(buffer, offset, length, this::onMessage);

        if (result >= 0)
        {
            assertEquals(result, handlerCalls - callsBefore);
            assertEquals(result, decoder.messageCount());
            assertEquals(malformedBefore, decoder.malformedCount());
            assertTrue(result == 0 || decoder.nextSequenceNumber() == expectedSequence);
            return result;
        }
        switch (result)
        {
            case MoldUdp64PacketDecoder.MALFORMED_HEADER:
            case MoldUdp64PacketDecoder.BLOCK_OVERRUN:
            case MoldUdp64PacketDecoder.TRAILING_BYTES:
                break;
            default:
                fail("unexpected result " + result);
        }
        assertEquals(callsBefore, handlerCalls, "a malformed packet dispatched a message");
        assertEquals(malformedBefore + 1, decoder.malformedCount());
        return 0;
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        handlerCalls++;
        assertTrue(offset >= datagramStart + MoldUdp64PacketDecoder.HEADER_LENGTH + 2);
        assertTrue(length >= 0 && offset + length <= datagramEnd, "message outside its datagram");
        assertEquals(firstMessage ? decoder.sequenceNumber() : expectedSequence, sequence);
        firstMessage = false;
        expectedSequence = sequence + 1;
        itchDecoder.decode(buffer, offset, length, itchHandler);
    }
}
