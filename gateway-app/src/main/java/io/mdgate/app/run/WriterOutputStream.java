package io.mdgate.app.run;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Lets the gateway's error reports, written to a {@code PrintStream}, reach the command's error writer. */
final class WriterOutputStream extends OutputStream
{
    private final PrintWriter writer;

    WriterOutputStream(final PrintWriter writer)
    {
        this.writer = writer;
    }

    @Override
    public synchronized void write(final int b)
    {
        writer.write(b & 0xFF);
    }

    @Override
    public synchronized void write(final byte[] bytes, final int offset, final int length)
    {
        writer.write(new String(bytes, offset, length, StandardCharsets.UTF_8));
    }

    @Override
    public synchronized void flush()
    {
        writer.flush();
    }
}
