package io.mdgate.app.run;

/** Minimal JSON text helpers for the commands' {@code --json} output. */
final class Json
{
    private Json()
    {
    }

    /** @return {@code text} as a JSON string literal, quotes included. */
    static String string(final String text)
    {
        final StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
