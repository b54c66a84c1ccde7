package io.mdgate.runtime.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads typed values out of one TOML table, recording a problem (key path, what is wrong, what would be right) for
 * each missing, mistyped or unknown key instead of stopping at the first, and returning a default so reading can go
 * on. Not thread-safe; one per table of one load.
 */
final class TableReader
{
    private final ObjectNode table;
    private final String path;
    private final List<String> problems;

    /**
     * @param table    the table, or null for an absent one (every key then takes its default).
     * @param path     the table's key path, e.g. {@code feed} or {@code feed.lines[0]}; empty for the root.
     * @param problems where problems go.
     */
    TableReader(final ObjectNode table, final String path, final List<String> problems)
    {
        this.table = table;
        this.path = path;
        this.problems = problems;
    }

    String path()
    {
        return path;
    }

    String keyPath(final String key)
    {
        return path.isEmpty() ? key : path + "." + key;
    }

    void problem(final String key, final String what)
    {
        problems.add(keyPath(key) + ": " + what);
    }

    boolean has(final String key)
    {
        return null != table && table.has(key);
    }

    /**
     * Records every key of the table that is not in {@code known}, suggesting the closest known key.
     */
    void refuseUnknownKeys(final Set<String> known)
    {
        if (null == table)
        {
            return;
        }
        final Iterator<String> names = table.fieldNames();
        while (names.hasNext())
        {
            final String name = names.next();
            if (!known.contains(name))
            {
                final String closest = closest(name, known);
                final List<String> sorted = new ArrayList<>(known);
                Collections.sort(sorted);
                problem(name, "unknown key" + (null == closest ? "" : "; did you mean '" + closest + "'?") +
                    " (the keys here are " + String.join(", ", sorted) + ")");
            }
        }
    }

    TableReader table(final String key, final boolean required)
    {
        final JsonNode node = null == table ? null : table.get(key);
        if (null == node)
        {
            if (required)
            {
                problem(key, "missing; add a [" + keyPath(key) + "] table");
            }
            return new TableReader(null, keyPath(key), problems);
        }
        if (!node.isObject())
        {
            problem(key, "must be a table ([" + keyPath(key) + "]), is " + describe(node));
            return new TableReader(null, keyPath(key), problems);
        }
        return new TableReader((ObjectNode)node, keyPath(key), problems);
    }

    List<TableReader> tables(final String key, final boolean required)
    {
        final List<TableReader> readers = new ArrayList<>();
        final JsonNode node = null == table ? null : table.get(key);
        if (null == node)
        {
            if (required)
            {
                problem(key, "missing; add at least one [[" + keyPath(key) + "]] table");
            }
            return readers;
        }
        if (!node.isArray())
        {
            problem(key, "must be an array of tables ([[" + keyPath(key) + "]]), is " + describe(node));
            return readers;
        }
        for (int i = 0; i < node.size(); i++)
        {
            final JsonNode element = node.get(i);
            final String elementPath = keyPath(key) + "[" + i + "]";
            if (element.isObject())
            {
                readers.add(new TableReader((ObjectNode)element, elementPath, problems));
            }
            else
            {
                problems.add(elementPath + ": must be a table ([[" + keyPath(key) + "]]), is " + describe(element));
            }
        }
        if (required && readers.isEmpty())
        {
            problem(key, "empty; add at least one [[" + keyPath(key) + "]] table");
        }
        return readers;
    }

    String string(final String key, final String defaultValue)
    {
        final JsonNode node = null == table ? null : table.get(key);
        if (null == node)
        {
            if (null == defaultValue)
            {
                problem(key, "missing; add " + key + " = \"...\"");
                return "";
            }
            return defaultValue;
        }
        if (!node.isTextual())
        {
            problem(key, "must be a string in double quotes, is " + describe(node));
            return null == defaultValue ? "" : defaultValue;
        }
        return node.textValue();
    }

    long integer(final String key, final long defaultValue, final long min, final long max)
    {
        final JsonNode node = null == table ? null : table.get(key);
        if (null == node)
        {
            return defaultValue;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong())
        {
            problem(key, "must be a whole number from " + min + " to " + max + ", is " + describe(node));
            return defaultValue;
        }
        final long value = node.longValue();
        if (value < min || value > max)
        {
            problem(key, "must be from " + min + " to " + max + ", is " + value);
            return defaultValue;
        }
        return value;
    }

    /**
     * A required whole number.
     */
    long requiredInteger(final String key, final long min, final long max, final String example)
    {
        if (!has(key))
        {
            problem(key, "missing; add " + key + " = " + example);
            return min;
        }
        return integer(key, min, min, max);
    }

    boolean bool(final String key, final boolean defaultValue)
    {
        final JsonNode node = null == table ? null : table.get(key);
        if (null == node)
        {
            return defaultValue;
        }
        if (!node.isBoolean())
        {
            problem(key, "must be true or false (no quotes), is " + describe(node));
            return defaultValue;
        }
        return node.booleanValue();
    }

    List<String> strings(final String key, final List<String> defaultValue)
    {
        final JsonNode node = null == table ? null : table.get(key);
        if (null == node)
        {
            return defaultValue;
        }
        if (!node.isArray())
        {
            problem(key, "must be an array of strings, e.g. [\"a\", \"b\"], is " + describe(node));
            return defaultValue;
        }
        final List<String> values = new ArrayList<>();
        for (int i = 0; i < node.size(); i++)
        {
            final JsonNode element = node.get(i);
            if (element.isTextual())
            {
                values.add(element.textValue());
            }
            else
            {
                problems.add(keyPath(key) + "[" + i + "]: must be a string in double quotes, is " + describe(element));
            }
        }
        return values;
    }

    /**
     * A string parsed by {@code parser}, whose {@link IllegalArgumentException} message becomes the problem.
     */
    <T> T parsed(final String key, final String defaultText, final Function<String, T> parser, final T fallback)
    {
        final String text;
        if (!has(key))
        {
            if (null == defaultText)
            {
                problem(key, "missing; add " + key + " = \"...\"");
                return fallback;
            }
            text = defaultText;
        }
        else
        {
            final JsonNode node = table.get(key);
            if (!node.isTextual())
            {
                problem(key, "must be a string in double quotes, is " + describe(node));
                return fallback;
            }
            text = node.textValue();
        }
        try
        {
            return parser.apply(text);
        }
        catch (final IllegalArgumentException | java.time.DateTimeException ex)
        {
            problem(key, ex.getMessage());
            return fallback;
        }
    }

    static String describe(final JsonNode node)
    {
        if (node.isTextual())
        {
            return "the string \"" + node.textValue() + "\"";
        }
        if (node.isObject())
        {
            return "a table";
        }
        if (node.isArray())
        {
            return "an array";
        }
        if (node.isBoolean())
        {
            return "the boolean " + node.booleanValue();
        }
        if (node.isNumber())
        {
            return "the number " + node.asText();
        }
        return "'" + node.asText() + "'";
    }

    private static String closest(final String name, final Set<String> known)
    {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : known)
        {
            final int distance = distance(name, candidate);
            if (distance < bestDistance)
            {
                bestDistance = distance;
                best = candidate;
            }
        }
        return bestDistance <= Math.max(2, name.length() / 3) ? best : null;
    }

    private static int distance(final String a, final String b)
    {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
