package io.mdgate.core.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.List;
import java.util.Map;

/**
 * Reads JSON for tests with Jackson, strictly (one value, nothing after it; objects keep key order, whole numbers
 * become Long, or BigInteger beyond it, others Double), so that what the tools write is checked as JSON a script would read, not as strings.
 */
public final class ReadJson
{
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();

    private ReadJson()
    {
    }

    /**
     * @param text exactly one JSON value, optionally surrounded by whitespace.
     * @return Map, List, String, Long, Double, Boolean or null.
     * @throws IllegalArgumentException when the text is not valid JSON.
     */
    public static Object parse(final String text)
    {
        try
        {
            return longs(MAPPER.readValue(text, Object.class));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("not valid JSON: " + ex.getOriginalMessage() + ": " + text, ex);
        }
    }

    /**
     * @param text exactly one JSON object.
     * @return its keys and values, in the order written.
     * @throws IllegalArgumentException when the text is not one valid JSON object.
     */
    public static Map<String, Object> parseObject(final String text)
    {
        try
        {
            final Map<String, Object> object = MAPPER.readValue(text, new TypeReference<Map<String, Object>>() { });
            object.replaceAll((key, value) -> longs(value));
            return object;
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("not one valid JSON object: " + ex.getOriginalMessage() + ": " + text,
                ex);
        }
    }

    /** Jackson reads small whole numbers as Integer; tests compare them as Long, whatever their size. */
    @SuppressWarnings("unchecked")
    private static Object longs(final Object value)
    {
        if (value instanceof Integer number)
        {
            return number.longValue();
        }
        if (value instanceof Map<?, ?> map)
        {
            ((Map<String, Object>)map).replaceAll((key, item) -> longs(item));
        }
        else if (value instanceof List<?> list)
        {
            ((List<Object>)list).replaceAll(ReadJson::longs);
        }
        return value;
    }
}
