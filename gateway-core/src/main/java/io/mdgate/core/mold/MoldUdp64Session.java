package io.mdgate.core.mold;

import java.nio.charset.StandardCharsets;

/**
 * The 10-byte MoldUDP64 session identifier: ASCII, space-padded on the right. Converts between text and wire
 * bytes; both directions allocate, so they belong to start-up and reporting, not the hot path. Stateless and
 * thread-safe.
 */
public final class MoldUdp64Session
{
    public static final int LENGTH = MoldUdp64Descriptor.SESSION_LENGTH;

    private MoldUdp64Session()
    {
    }

    /**
     * @param session up to 10 ASCII characters, e.g. {@code "000010059B"}.
     * @return the 10 wire bytes, padded with spaces.
     * @throws IllegalArgumentException when the text is longer than 10 characters or not ASCII.
     */
    public static byte[] of(final String session)
    {
        if (session.length() > LENGTH)
        {
            throw new IllegalArgumentException(
                "MoldUDP64 session '" + session + "' has " + session.length() + " characters; at most " + LENGTH +
                " are allowed");
        }
        final byte[] bytes = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++)
        {
            final char c = i < session.length() ? session.charAt(i) : ' ';
            if (c > 0x7F)
            {
                throw new IllegalArgumentException(
                    "MoldUDP64 session '" + session + "' has a non-ASCII character at position " + i +
                    "; use ASCII only");
            }
            bytes[i] = (byte)c;
        }
        return bytes;
    }

    /**
     * @param session 10 wire bytes.
     * @return the session as text without its trailing padding (spaces or NUL bytes).
     */
    public static String text(final byte[] session)
    {
        int end = Math.min(session.length, LENGTH);
        while (end > 0 && (session[end - 1] == ' ' || session[end - 1] == 0))
        {
            end--;
        }
        return new String(session, 0, end, StandardCharsets.US_ASCII);
    }

    /**
     * @param session to check before it is handed to an encoder.
     * @throws IllegalArgumentException when it is not exactly 10 bytes.
     */
    static void checkLength(final byte[] session)
    {
        if (session.length != LENGTH)
        {
            throw new IllegalArgumentException(
                "a MoldUDP64 session is " + LENGTH + " bytes, got " + session.length +
                "; build it with MoldUdp64Session.of(String)");
        }
    }
}
