package io.mdgate.app;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * The one JSON style of every command's {@code --json} output and JSON lines: Jackson, compact, one document a line,
 * keys in the order they were put, numbers as numbers, absent values as {@code null}, strings escaped by Jackson
 * (control characters, quotes and backslashes included). JSON written by other modules' writers is read back with
 * {@link #parseObject(String)} before it is extended, so decimals keep their exact text. Thread-safe: the mapper is
 * configured once and only used after.
 */
public final class JsonOutput
{
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .disable(SerializationFeature.INDENT_OUTPUT)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .build();

    private JsonOutput()
    {
    }

    /** @return the shared mapper, for reading JSON and for {@link ObjectMapper#valueToTree(Object)}. */
    public static ObjectMapper mapper()
    {
        return MAPPER;
    }

    /** @return a new empty object to fill. */
    public static ObjectNode object()
    {
        return MAPPER.createObjectNode();
    }

    /** @return a new empty array to fill. */
    public static ArrayNode array()
    {
        return MAPPER.createArrayNode();
    }

    /**
     * @param present whether the value applies.
     * @param value   the value.
     * @return the value, or null (written as JSON {@code null}) when it does not apply.
     */
    public static Long orNull(final boolean present, final long value)
    {
        return present ? Long.valueOf(value) : null;
    }

    /**
     * @param value a tree, or any value Jackson can write (a map, a list, a record).
     * @return it as one line of JSON, without the line separator.
     */
    public static String line(final Object value)
    {
        try
        {
            return MAPPER.writeValueAsString(value);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("cannot write JSON: " + ex.getOriginalMessage(), ex);
        }
    }

    /**
     * @param json one JSON object, as written by a module's own writer.
     * @return it as a tree, to extend and write with {@link #line(Object)}.
     * @throws IllegalStateException when it is not one JSON object (a bug in that writer).
     */
    public static ObjectNode parseObject(final String json)
    {
        final JsonNode node = parse(json);
        if (!node.isObject())
        {
            throw new IllegalStateException("not a JSON object: " + json);
        }
        return (ObjectNode)node;
    }

    /**
     * @param json one JSON value, as written by a module's own writer.
     * @return it as a tree.
     * @throws IllegalStateException when it is not valid JSON (a bug in that writer).
     */
    public static JsonNode parse(final String json)
    {
        try
        {
            return MAPPER.readTree(json);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("not valid JSON: " + ex.getOriginalMessage() + ": " + json, ex);
        }
    }

    /**
     * A generator for JSON lines written one record at a time: it leaves {@code out} open, writes nothing between
     * two documents (the caller writes the line separator with {@link JsonGenerator#writeRaw(char)}) and its
     * {@link JsonGenerator#flush()} hands what it holds to {@code out} without flushing {@code out}.
     *
     * @param out where the lines go.
     * @return the generator; flush it before {@code out} is flushed or closed.
     */
    public static JsonGenerator lines(final Writer out)
    {
        try
        {
            final JsonGenerator generator = MAPPER.getFactory().createGenerator(out);
            generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            generator.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
            generator.setRootValueSeparator(null);
            return generator;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
