package io.mdgate.app.sim;

import io.mdgate.app.feed.LoopbackMulticast;
import io.mdgate.app.run.RunSignalTest;
import io.mdgate.core.mold.MoldUdp64RequestFlyweight;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate sim} in a child JVM, serving re-requests through a long linger, ended by SIGTERM sent to its PID as a
 * test bed does once its gateway has the session: the linger ends, the summary is printed and the exit code is 0.
 */
class SimSignalTest
{
    @TempDir
    Path dir;

    private Process child;

    @AfterEach
    void tearDown() throws InterruptedException
    {
        if (null != child && child.isAlive())
        {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(120)
    void shouldEndTheLingerOnSigtermAndStillSummarize() throws Exception
    {
        final int port = LoopbackMulticast.freePort();
        final Path output = dir.resolve("output.txt");
        child = new ProcessBuilder(RunSignalTest.command("sim", "--messages", "2000", "--seed", "8",
            "--session", "SIGTERMS", "--serve-retransmits", String.valueOf(port), "--linger-ms", "600000"))
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        awaitAnswer(port, output);

        final Process kill = new ProcessBuilder("kill", "-TERM", String.valueOf(child.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -TERM " + child.pid());
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "mdgate sim did not end on SIGTERM: " + read(output));
        final String text = read(output);
        assertEquals(0, child.exitValue(), text);
        assertTrue(text.contains("re-requests on 127.0.0.1:" + port), text);
        assertTrue(text.contains("sequences 1 to 2000"), text);
    }

    /** Asks for a message until the server answers: it is then serving (the 2,000 messages go out at once). */
    private void awaitAnswer(final int port, final Path output) throws Exception
    {
        final UnsafeBuffer request = new UnsafeBuffer(new byte[MoldUdp64RequestFlyweight.LENGTH]);
        new MoldUdp64RequestFlyweight().wrap(request, 0).session(MoldUdp64Session.of("SIGTERMS"))
            .sequenceNumber(1_000).requestedCount(1);
        try (DatagramChannel client = DatagramChannel.open())
        {
            client.bind(new InetSocketAddress("127.0.0.1", 0));
            client.configureBlocking(false);
            final ByteBuffer received = ByteBuffer.allocate(2_048);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline)
            {
                assertTrue(child.isAlive(), () -> "mdgate sim ended before it was signalled: " + read(output));
                client.send(ByteBuffer.wrap(request.byteArray()), new InetSocketAddress("127.0.0.1", port));
                Thread.sleep(50);
                if (null != client.receive(received))
                {
                    return;
                }
            }
        }
        throw new AssertionError("the re-request server never answered: " + read(output));
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(" + ex.getMessage() + ")";
        }
    }
}
