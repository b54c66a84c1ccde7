package io.mdgate.app;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks that a command's stdout is pure NDJSON, as {@code jq} reads it: every line one JSON object and nothing
 * else, no blank line, no text before, between or after. Parsed with Jackson, trailing tokens refused.
 */
public final class JsonLines
{
    private static final ObjectMapper MAPPER =
        new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonLines()
    {
    }

    /**
     * @param stdout what the command printed on stdout.
     * @return the objects, one per line; at least one.
     */
    public static List<JsonNode> parse(final String stdout)
    {
        assertFalse(stdout.isEmpty(), "nothing on stdout");
        assertTrue(stdout.endsWith("\n"), "the last line is not ended: " + tail(stdout));
        final List<JsonNode> objects = new ArrayList<>();
        for (final String line : stdout.substring(0, stdout.length() - 1).split("\n", -1))
        {
            objects.add(object(line));
        }
        return objects;
    }

    /** @return the one JSON object that is the whole of stdout. */
    public static JsonNode single(final String stdout)
    {
        final List<JsonNode> objects = parse(stdout);
        assertTrue(objects.size() == 1, "one object, not " + objects.size() + ": " + tail(stdout));
        return objects.get(0);
    }

    private static JsonNode object(final String line)
    {
        try
        {
            final JsonNode node = MAPPER.readTree(line);
            assertTrue(null != node && node.isObject(), "not a JSON object: '" + line + "'");
            return node;
        }
        catch (final IOException ex)
        {
            return fail("not one JSON object: '" + line + "': " + ex.getMessage());
        }
    }

    private static String tail(final String text)
    {
        return text.length() <= 400 ? text : "..." + text.substring(text.length() - 400);
    }
}
