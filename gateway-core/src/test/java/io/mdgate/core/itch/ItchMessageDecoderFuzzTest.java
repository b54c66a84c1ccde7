package io.mdgate.core.itch;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Feeds arbitrary bytes to {@link ItchMessageDecoder}, framed as in Nasdaq's daily files (u16 big-endian length,
 * then the message) so that the fuzzer controls type bytes and declared lengths alike, including lengths that
 * run past the end of the input. The decoder must never throw and its counters must account for every call.
 * <p>
 * {@code mvn test} replays the seeds in {@code ItchMessageDecoderFuzzTestInputs} (surefire execution
 * {@code fuzz-regression}, a JVM of its own). To fuzz for the annotation's duration:
 * {@code JAZZER_FUZZ=1 mvn -pl gateway-core -am test -Dtest=ItchMessageDecoderFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("fuzz")
class ItchMessageDecoderFuzzTest
{
    @FuzzTest(maxDuration = "60s")
    @Timeout(90)
    void decodeNeverThrowsAndCountsEveryMessage(final byte[] input)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(input);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final RecordingItchHandler handler = new RecordingItchHandler();
        long calls = 0;
        long ok = 0;
        long unknown = 0;
        long mismatch = 0;

        int position = 0;
        while (position + 2 <= input.length)
        {
            final int length = ((input[position] & 0xFF) << 8) | (input[position + 1] & 0xFF);
            position += 2;
            final int callsBefore = handler.calls;

            final int result = decoder.decode(buffer, position, length, handler);

            calls++;
            switch (result)
            {
                case ItchMessageDecoder.OK:
                    ok++;
                    assertEquals(callsBefore + 1, handler.calls);
                    assertWithinInput(handler.message, position, length, input.length);
                    break;
                case ItchMessageDecoder.UNKNOWN_TYPE:
                    unknown++;
                    assertEquals(callsBefore, handler.calls);
                    break;
                case ItchMessageDecoder.LENGTH_MISMATCH:
                    mismatch++;
                    assertEquals(callsBefore, handler.calls);
                    break;
                default:
                    fail("unexpected result " + result);
            }
            position += Math.max(length, 0);
        }

        assertEquals(ok, decoder.decodedCount());
        assertEquals(unknown, decoder.unknownTypeCount());
        assertEquals(mismatch, decoder.lengthMismatchCount());
        assertEquals(calls, decoder.decodedCount() + decoder.malformedCount());
        assertEquals(ok, handler.calls);
    }

    private static void assertWithinInput(
        final ItchMessageFlyweight message, final int offset, final int length, final int inputLength)
    {
        assertEquals(offset, message.offset());
        assertEquals(length, message.length());
        assertEquals(message.type(), message.buffer().getByte(offset));
        assertTrue(offset + length <= inputLength);
        assertTrue(message.timestamp() >= 0 && message.timestamp() <= 0xFFFF_FFFF_FFFFL);
        assertTrue(message.stockLocate() >= 0 && message.stockLocate() <= 0xFFFF);
        message.buffer().getByte(offset + message.length() - 1);
    }
}
