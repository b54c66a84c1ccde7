package io.mdgate.egress;

/**
 * Makes a string a peer sent (a consumer's name, a refusal text) safe to log: printable ASCII is kept, a backslash
 * and anything else (NUL, newline, escape sequences, bytes above 0x7E) is written as {@code \xNN} or {@code \n} so
 * a peer can never start a forged log line, and the result is cut to a bounded length.
 * <p>
 * Threading: stateless; any thread. Allocates, so for logging and set-up only.
 */
public final class PeerText
{
    /** Characters of a peer's name kept by default; the rest is replaced by "...". */
    public static final int MAX_LENGTH = 64;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PeerText()
    {
    }

    /** @return {@code text} escaped and cut to {@link #MAX_LENGTH} characters; "(none)" for null. */
    public static String sanitize(final String text)
    {
        return sanitize(text, MAX_LENGTH);
    }

    /** @return {@code text} escaped and cut to {@code maxLength} characters; "(none)" for null. */
    public static String sanitize(final String text, final int maxLength)
    {
        if (null == text)
        {
            return "(none)";
        }
        final int kept = Math.min(text.length(), maxLength);
        final StringBuilder out = new StringBuilder(kept + 8);
        for (int i = 0; i < kept; i++)
        {
            escape(text.charAt(i), out);
        }
        if (text.length() > kept)
        {
            out.append("...");
        }
        return out.toString();
    }

    private static void escape(final char c, final StringBuilder out)
    {
        if (c == '\\')
        {
            out.append("\\\\");
        }
        else if (c == '\n')
        {
            out.append("\\n");
        }
        else if (c == '\r')
        {
            out.append("\\r");
        }
        else if (c == '\t')
        {
            out.append("\\t");
        }
        else if (c >= 0x20 && c < 0x7F)
        {
            out.append(c);
        }
        else if (c <= 0xFF)
        {
            out.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xF]);
        }
        else
        {
            out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
                .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
        }
    }
}
