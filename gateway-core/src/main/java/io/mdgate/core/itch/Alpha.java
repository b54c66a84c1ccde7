package io.mdgate.core.itch;

/**
 * Packs ITCH alpha fields (ASCII, left-justified, space-padded) into primitives and back, so the hot path can
 * compare and hash symbols without allocating. The first character lands in the most significant byte, so a
 * packed value is the field's bytes read big-endian. Stateless and thread-safe.
 */
public final class Alpha
{
    private Alpha()
    {
    }

    /**
     * @param text  at most {@code width} ASCII characters.
     * @param width field width in bytes (1 to 8).
     * @return the field packed into the low {@code width} bytes, padded with spaces.
     * @throws IllegalArgumentException when the text is longer than the field or not ASCII.
     */
    public static long pack(final CharSequence text, final int width)
    {
        if (text.length() > width)
        {
            throw new IllegalArgumentException("'" + text + "' is longer than the " + width + "-character field");
        }
        long packed = 0;
        for (int i = 0; i < width; i++)
        {
            final char c = i < text.length() ? text.charAt(i) : ' ';
            if (c > 0x7F)
            {
                throw new IllegalArgumentException("'" + text + "' is not ASCII");
            }
            packed = (packed << 8) | c;
        }
        return packed;
    }

    public static long pack8(final CharSequence text)
    {
        return pack(text, 8);
    }

    public static int pack4(final CharSequence text)
    {
        return (int)pack(text, 4);
    }

    /**
     * @param packed a field packed by {@link #pack(CharSequence, int)} or read from the wire.
     * @param width  field width in bytes.
     * @return the field as text with trailing spaces removed. Allocates: not for the hot path.
     */
    public static String unpack(final long packed, final int width)
    {
        final StringBuilder sb = new StringBuilder(width);
        for (int i = width - 1; i >= 0; i--)
        {
            sb.append((char)((packed >>> (i * 8)) & 0xFF));
        }
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ')
        {
            end--;
        }
        sb.setLength(end);
        return sb.toString();
    }

    /** @return characters of a packed 8-character field without its trailing spaces; does not allocate. */
    public static int length8(final long packed)
    {
        int length = 8;
        while (length > 0 && charAt8(packed, length - 1) == ' ')
        {
            length--;
        }
        return length;
    }

    /** @return character {@code index} (0 = first) of a packed 8-character field. */
    public static char charAt8(final long packed, final int index)
    {
        return (char)((packed >>> ((7 - index) * 8)) & 0xFF);
    }

    public static String unpack8(final long packed)
    {
        return unpack(packed, 8);
    }

    public static String unpack4(final int packed)
    {
        return unpack(packed & 0xFFFF_FFFFL, 4);
    }
}
