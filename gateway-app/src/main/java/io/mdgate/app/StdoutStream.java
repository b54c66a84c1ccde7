package io.mdgate.app;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The process's stdout as the binary output of a command given {@code -} (a pcap, an ITCH file): writers close
 * their output when done, and closing must flush stdout, not close it, so the summary and anything later still
 * reach their streams. Confined to the writing thread.
 */
public final class StdoutStream extends FilterOutputStream
{
    /**
     * @param stdout the process's stdout (another stream in tests).
     */
    public StdoutStream(final OutputStream stdout)
    {
        super(stdout);
    }

    @Override
    public void write(final byte[] bytes, final int offset, final int length) throws IOException
    {
        out.write(bytes, offset, length);
    }

    @Override
    public void close() throws IOException
    {
        out.flush();
    }
}
