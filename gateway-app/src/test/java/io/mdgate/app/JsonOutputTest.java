package io.mdgate.app;

import com.fasterxml.jackson.core.JsonGenerator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonOutputTest
{
    @Test
    void shouldWriteOneCompactLineWithNumbersNullsAndEscapedStrings()
    {
        final String line = JsonOutput.line(JsonOutput.object()
            .put("name", "a \"q\" \\ \t\n\u0001")
            .put("count", 3L)
            .put("rate", 1.5)
            .put("first", JsonOutput.orNull(false, 7))
            .put("last", JsonOutput.orNull(true, 7)));

        assertEquals("{\"name\":\"a \\\"q\\\" \\\\ \\t\\n\\u0001\",\"count\":3,\"rate\":1.5,\"first\":null,\"last\":7}",
            line);
        assertEquals("a \"q\" \\ \t\n\u0001", JsonFields.object(line).get("name").textValue());
    }

    @Test
    void shouldKeepTheTextOfDecimalsItReadsBack()
    {
        final String json = "{\"elapsedMillis\": 12.300, \"big\": 18446744073709551615, \"small\": 1.5E-7}";

        assertEquals("{\"elapsedMillis\":12.300,\"big\":18446744073709551615,\"small\":1.5E-7}",
            JsonOutput.line(JsonOutput.parseObject(json)));
    }

    @Test
    void shouldRefuseWhatIsNotOneObject()
    {
        assertThrows(IllegalStateException.class, () -> JsonOutput.parseObject("[1]"));
        assertThrows(IllegalStateException.class, () -> JsonOutput.parseObject("{\"a\": 1"));
    }

    @Test
    void shouldWriteLinesWithNothingBetweenThemAndLeaveItsWriterOpenAndUnflushed() throws IOException
    {
        final boolean[] flushedOrClosed = new boolean[1];
        final StringWriter text = new StringWriter();
        final Writer out = new Writer()
        {
            @Override
            public void write(final char[] buffer, final int offset, final int length)
            {
                text.write(buffer, offset, length);
            }

            @Override
            public void flush()
            {
                flushedOrClosed[0] = true;
            }

            @Override
            public void close()
            {
                flushedOrClosed[0] = true;
            }
        };
        final JsonGenerator lines = JsonOutput.lines(out);

        for (int i = 1; i <= 2; i++)
        {
            lines.writeStartObject();
            lines.writeNumberField("n", i);
            lines.writeEndObject();
            lines.writeRaw('\n');
            lines.flush();
        }
        lines.close();

        assertEquals("{\"n\":1}\n{\"n\":2}\n", text.toString());
        assertFalse(flushedOrClosed[0], "the caller flushes and closes its writer");
    }
}
