package io.mdgate.app;

import io.mdgate.core.capture.DecodeSummary;
import io.mdgate.core.capture.ItchFileDecoder;
import io.mdgate.core.capture.ItchFileFormat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.Optional;

/**
 * The FILE of a command that reads a capture or ITCH file ({@code decode}, {@code record}): a path, or {@code -}
 * for stdin. Stdin is streamed straight into the decoder when one pass is enough (an ITCH framing given with
 * {@code --format}, or a capture's lines given with {@code --line-a}/{@code --line-b}); otherwise it is first copied
 * to a temporary file, because finding a capture's lines takes a pass of its own, and the copy is deleted on
 * {@link #close()} (or when the JVM exits, if it is stopped first). Either way messages and summaries call it
 * {@value #STDIN}. One command, one thread.
 */
public final class CaptureSource implements AutoCloseable
{
    /** What summaries and messages call stdin. */
    public static final String STDIN = "stdin";
    /** How the help of the commands that read stdin says what {@code -} does. */
    public static final String STDIN_HELP = "- reads stdin: streamed when --line-a/--line-b or --format daily or " +
        "zero-prefixed are given, else copied to a temporary file in java.io.tmpdir (a capture's lines are found in " +
        "a pass of their own) that is deleted at the end.";

    private final Path file;
    private final InputStream stream;
    private final boolean spooled;

    private CaptureSource(final Path file, final InputStream stream, final boolean spooled)
    {
        this.file = file;
        this.stream = stream;
        this.spooled = spooled;
    }

    /** @return whether a FILE argument is {@code -}, stdin. */
    public static boolean isStdin(final Path file)
    {
        return StdioArguments.isDash(file);
    }

    /**
     * @param file           the FILE argument; {@code -} for stdin.
     * @param stdin          the process's stdin (replaced in tests).
     * @param format         the {@code --format} given, or null for detection.
     * @param linesGiven     whether {@code --line-a}/{@code --line-b} are given.
     * @param spoolDirectory where to copy stdin when it cannot be streamed; null for java.io.tmpdir.
     * @return the source; to be closed.
     * @throws IOException when stdin cannot be copied.
     */
    public static CaptureSource open(final Path file, final InputStream stdin, final ItchFileFormat format,
        final boolean linesGiven, final Path spoolDirectory) throws IOException
    {
        if (!isStdin(file))
        {
            return new CaptureSource(file, null, false);
        }
        final boolean onePass = linesGiven || (null != format && !format.isCapture());
        if (onePass)
        {
            return new CaptureSource(null, new BufferedInputStream(stdin, 1 << 16), false);
        }
        final Path spool = null == spoolDirectory ? Files.createTempFile("mdgate-stdin-", ".capture") :
            Files.createTempFile(spoolDirectory, "mdgate-stdin-", ".capture");
        spool.toFile().deleteOnExit();
        try
        {
            Files.copy(stdin, spool, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException | RuntimeException ex)
        {
            Files.deleteIfExists(spool);
            throw ex;
        }
        return new CaptureSource(spool, null, true);
    }

    /** @return what summaries and messages call the input. */
    public String name()
    {
        return null == stream && !spooled ? file.toString() : STDIN;
    }

    /** @return the file read (stdin's copy when spooled), or null when stdin is streamed. */
    public Path file()
    {
        return file;
    }

    /**
     * @return the size of the file when it is not compressed, so that bytes read say how far the work is; 0 for
     * stdin streamed and gzip files (whose inflated size is not known).
     */
    public long plainSize()
    {
        if (null == file)
        {
            return 0;
        }
        try (InputStream in = Files.newInputStream(file))
        {
            final byte[] magic = in.readNBytes(2);
            final boolean gzip = magic.length == 2 && (magic[0] & 0xFF) == 0x1F && (magic[1] & 0xFF) == 0x8B;
            return gzip ? 0 : Files.size(file);
        }
        catch (final IOException ex)
        {
            return 0; // the decoder reports what is wrong with the file
        }
    }

    /** @return the New York date of a classic pcap's first record, or empty. */
    Optional<LocalDate> captureDate()
    {
        return null != stream ? CaptureDate.peek((BufferedInputStream)stream) : CaptureDate.of(file);
    }

    /**
     * Decodes the whole input.
     *
     * @param decoder configured by the command.
     * @return what it held.
     * @throws IOException as {@link ItchFileDecoder#decode(Path)}.
     */
    public DecodeSummary decode(final ItchFileDecoder decoder) throws IOException
    {
        return null != stream ? decoder.decode(stream, STDIN) : decoder.decode(file, name());
    }

    /** Deletes stdin's copy. */
    @Override
    public void close() throws IOException
    {
        if (spooled)
        {
            Files.deleteIfExists(file);
        }
    }
}
