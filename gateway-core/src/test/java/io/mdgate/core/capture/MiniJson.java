package io.mdgate.core.capture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for tests (RFC 8259: objects keep key order, numbers become Long or Double), so that
 * summaries are checked as JSON a script would read, not as strings.
 */
public final class MiniJson
{
    private final String text;
    private int at;

    private MiniJson(final String text)
    {
        this.text = text;
    }

    /**
     * @param text exactly one JSON value, optionally surrounded by whitespace.
     * @return Map, List, String, Long, Double, Boolean or null.
     * @throws IllegalArgumentException when the text is not valid JSON.
     */
    public static Object parse(final String text)
    {
        final MiniJson parser = new MiniJson(text);
        final Object value = parser.value();
        parser.whitespace();
        if (parser.at != text.length())
        {
            throw parser.error("trailing characters");
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(final String text)
    {
        return (Map<String, Object>)parse(text);
    }

    private Object value()
    {
        whitespace();
        if (at >= text.length())
        {
            throw error("value expected");
        }
        final char c = text.charAt(at);
        if (c == '{')
        {
            return object();
        }
        if (c == '[')
        {
            return array();
        }
        if (c == '"')
        {
            return string();
        }
        if (c == '-' || (c >= '0' && c <= '9'))
        {
            return number();
        }
        if (text.startsWith("true", at))
        {
            at += 4;
            return Boolean.TRUE;
        }
        if (text.startsWith("false", at))
        {
            at += 5;
            return Boolean.FALSE;
        }
        if (text.startsWith("null", at))
        {
            at += 4;
            return null;
        }
        throw error("unexpected character");
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        at++;
        whitespace();
        if (peek() == '}')
        {
            at++;
            return map;
        }
        while (true)
        {
            whitespace();
            if (peek() != '"')
            {
                throw error("key expected");
            }
            final String key = string();
            whitespace();
            expect(':');
            if (map.containsKey(key))
            {
                throw error("duplicate key " + key);
            }
            map.put(key, value());
            whitespace();
            if (peek() == ',')
            {
                at++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        at++;
        whitespace();
        if (peek() == ']')
        {
            at++;
            return list;
        }
        while (true)
        {
            list.add(value());
            whitespace();
            if (peek() == ',')
            {
                at++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string()
    {
        at++;
        final StringBuilder sb = new StringBuilder();
        while (true)
        {
            if (at >= text.length())
            {
                throw error("unterminated string");
            }
            final char c = text.charAt(at++);
            if (c == '"')
            {
                return sb.toString();
            }
            if (c < 0x20)
            {
                throw error("raw control character in string");
            }
            if (c != '\\')
            {
                sb.append(c);
                continue;
            }
            final char e = text.charAt(at++);
            switch (e)
            {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' ->
                {
                    sb.append((char)Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Object number()
    {
        final int start = at;
        if (peek() == '-')
        {
            at++;
        }
        boolean fraction = false;
        while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0)
        {
            fraction |= "eE.".indexOf(text.charAt(at)) >= 0;
            at++;
        }
        final String number = text.substring(start, at);
        return fraction ? (Object)Double.valueOf(number) : (Object)Long.valueOf(number);
    }

    private void whitespace()
    {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0)
        {
            at++;
        }
    }

    private char peek()
    {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void expect(final char c)
    {
        if (peek() != c)
        {
            throw error("'" + c + "' expected");
        }
        at++;
    }

    private IllegalArgumentException error(final String what)
    {
        return new IllegalArgumentException(what + " at " + at + " in " + text);
    }
}
