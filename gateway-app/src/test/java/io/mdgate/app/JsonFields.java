package io.mdgate.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Reads a command's JSON output strictly, with a Jackson of its own (not {@link JsonOutput}'s): every line must be
 * exactly one JSON object, with no duplicate key and nothing after it.
 */
public final class JsonFields
{
    private static final ObjectMapper STRICT = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();

    private JsonFields()
    {
    }

    /**
     * @param out what a command printed.
     * @return its one line, parsed; fails unless it is exactly one line holding exactly one JSON object.
     */
    public static ObjectNode oneObjectLine(final String out)
    {
        final List<ObjectNode> lines = objectLines(out);
        assertEquals(1, lines.size(), "one line: " + out);
        return lines.get(0);
    }

    /**
     * @param out what a command printed.
     * @return each line parsed; fails unless every line is exactly one JSON object and the last ends with a newline.
     */
    public static List<ObjectNode> objectLines(final String out)
    {
        assertFalse(out.isEmpty(), "no output");
        assertTrue(out.endsWith("\n"), "the last line ends: " + out);
        final List<ObjectNode> objects = new ArrayList<>();
        for (final String line : out.substring(0, out.length() - 1).split("\n", -1))
        {
            objects.add(object(line));
        }
        return objects;
    }

    /**
     * @param json one JSON document.
     * @return it parsed; fails unless it is exactly one JSON object.
     */
    public static ObjectNode object(final String json)
    {
        try
        {
            final JsonNode node = STRICT.readTree(json);
            assertTrue(node != null && node.isObject(), "one JSON object: " + json);
            return (ObjectNode)node;
        }
        catch (final JsonProcessingException ex)
        {
            return fail("not one JSON object (" + ex.getOriginalMessage() + "): " + json);
        }
    }

    /** @return the object's keys in their order. */
    public static List<String> names(final JsonNode object)
    {
        final List<String> names = new ArrayList<>();
        for (final Iterator<String> it = object.fieldNames(); it.hasNext(); )
        {
            names.add(it.next());
        }
        return names;
    }
}
