package io.mdgate.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * Writes one JSON document through Jackson's streaming generator and returns it as one line of text, in the style
 * of every command's JSON (compact, Jackson's string escapes). For summaries and reports, written once per run: it
 * allocates a writer per document. Thread-safe: the factory is configured once and only used after.
 */
public final class JsonText
{
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    /** The fields of one document, written to a generator. */
    @FunctionalInterface
    public interface Body
    {
        /**
         * @param json the generator to write the document with: one value (usually an object), whole.
         * @throws IOException as the generator does (not for text in memory).
         */
        void write(JsonGenerator json) throws IOException;
    }

    private JsonText()
    {
    }

    /**
     * @param body writes the document.
     * @return the document as one line, without a line separator.
     */
    public static String write(final Body body)
    {
        final StringWriter text = new StringWriter(256);
        try (JsonGenerator json = FACTORY.createGenerator(text))
        {
            body.write(json);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return text.toString();
    }

    /**
     * Writes a string, or null when there is none.
     *
     * @param json  the generator.
     * @param name  the field's name.
     * @param value the text, or null.
     * @throws IOException as the generator does.
     */
    public static void stringOrNull(final JsonGenerator json, final String name, final String value) throws IOException
    {
        if (value == null)
        {
            json.writeNullField(name);
        }
        else
        {
            json.writeStringField(name, value);
        }
    }
}
