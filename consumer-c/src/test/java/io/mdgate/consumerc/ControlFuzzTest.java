package io.mdgate.consumerc;

import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.HelloFlyweight;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A fake publisher on the control socket answers the C consumer's HELLO with truncated, garbage, oversized and
 * inconsistent messages. The sanitizer build of mdgate-consume-c must end every time with exit code 1 and a first
 * line saying what was wrong, never a crash, and with no AddressSanitizer, LeakSanitizer or UBSan report. After its
 * answer the fake publisher closes its side, so a message cut short stays cut short.
 */
class ControlFuzzTest
{
    private static final Path DIRECTORY = Path.of("/dev/shm");
    private final List<NativeProcess> processes = new ArrayList<>();
    private final String instance = ShmInstance.unique();
    private final Path socket = DIRECTORY.resolve(instance + "-control.sock");

    @AfterEach
    void tearDown() throws IOException
    {
        processes.forEach(NativeProcess::close);
        Files.deleteIfExists(socket);
        ShmInstance.removeFiles(ShmInstance.context(instance));
    }

    private static ByteBuffer message(final int type, final int length)
    {
        final ByteBuffer message = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        if (length >= 4)
        {
            message.putShort(0, (short)type).putShort(2, ControlMessageDescriptor.PROTOCOL_VERSION);
        }
        return message;
    }

    private static byte[] frame(final ByteBuffer message)
    {
        final ByteBuffer frame = ByteBuffer.allocate(4 + message.capacity()).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(message.capacity()).put(message.array());
        return frame.array();
    }

    private static byte[] rawLength(final int length, final int bytesAfter)
    {
        return ByteBuffer.allocate(4 + bytesAfter).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array();
    }

    private static ByteBuffer welcome()
    {
        final ByteBuffer welcome = message(ControlMessageDescriptor.WELCOME, 80);
        welcome.putLong(8, 1).putLong(16, 0x1234_5678L).putInt(24, 7).putInt(28, 1).putLong(32, 64).putLong(40, 1)
            .putLong(48, 100_000_000L).putLong(56, 5_000_000_000L).putInt(64, 4096).putInt(68, 0).putInt(72, 0);
        return welcome;
    }

    private static Map<String, byte[]> cases()
    {
        final Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("nothing, the connection held open until the consumer gives up", null);
        cases.put("nothing, then the connection closed", new byte[0]);
        cases.put("three bytes of a frame header", new byte[] {1, 2, 3});
        cases.put("a negative frame length", rawLength(-1, 16));
        cases.put("a frame of 1 GiB", rawLength(1 << 30, 64));
        cases.put("a frame cut short", rawLength(200, 20));
        cases.put("a 4-byte message", frame(message(ControlMessageDescriptor.WELCOME, 4)));
        cases.put("an empty message", frame(message(0, 0)));
        cases.put("a WELCOME of 40 bytes", frame(message(ControlMessageDescriptor.WELCOME, 40)));
        cases.put("a WELCOME naming a position region that does not exist", frame(welcome()));
        cases.put("a WELCOME with a zero heartbeat", frame(welcome().putLong(48, 0)));
        cases.put("a WELCOME of protocol version 9", frame(welcome().putShort(2, (short)9)));
        cases.put("a WELCOME with a position region of 2^40 bytes", frame(welcome().putLong(32, 1L << 40)));
        cases.put("a WELCOME with a negative shared log", frame(welcome().putInt(68, -5)));
        cases.put("a REJECT cut short", frame(message(ControlMessageDescriptor.REJECT, 20)));
        final ByteBuffer reject = message(ControlMessageDescriptor.REJECT, 254).putInt(8, 77).putShort(12, (short)-1);
        for (int i = 14; i < 254; i++)
        {
            reject.put(i, (byte)(i % 3 == 0 ? '\n' : i % 3 == 1 ? 0 : 0xC3));
        }
        cases.put("a REJECT whose text length says 65535 and whose text is control bytes", frame(reject));
        cases.put("a message of unknown type 999", frame(message(999, 48)));
        cases.put("a SUBSCRIPTION before WELCOME", frame(message(ControlMessageDescriptor.SUBSCRIPTION, 48)));
        cases.put("RECOVERY_DATA claiming 2^31-1 ticks", frame(message(ControlMessageDescriptor.RECOVERY_DATA, 64)
            .putInt(8, Integer.MAX_VALUE)));
        final Random random = new Random(7001);
        for (int i = 0; i < 24; i++)
        {
            final byte[] garbage = new byte[random.nextInt(600)];
            random.nextBytes(garbage);
            if (i % 2 == 0 && garbage.length >= 4)
            {
                // a plausible frame header, so the garbage gets past framing into the message parser
                ByteBuffer.wrap(garbage).order(ByteOrder.LITTLE_ENDIAN).putInt(0, garbage.length - 4);
            }
            cases.put("random bytes #" + i + " (" + garbage.length + " bytes)", garbage);
        }
        return cases;
    }

    @Test
    void shouldEndWithAnErrorAndNeverCrashWhateverThePublisherAnswers() throws Exception
    {
        final Map<String, String> failures = new LinkedHashMap<>();
        int ran = 0;
        for (final Map.Entry<String, byte[]> fuzzCase : cases().entrySet())
        {
            final String problem = runCase(fuzzCase.getValue());
            if (null != problem)
            {
                failures.put(fuzzCase.getKey(), problem);
            }
            ran++;
        }
        assertEquals(Map.of(), failures);
        assertTrue(ran >= 40, "every case ran: " + ran);
    }

    /**
     * After WELCOME: malformed messages of every type the consumer reads (and random frames) are counted and the
     * session carries on: a ring slot written afterwards is still delivered, and the consumer ends cleanly.
     */
    @Test
    void shouldCountMalformedMessagesAfterWelcomeAndCarryOn() throws Exception
    {
        try (FakePublisher publisher = new FakePublisher())
        {
            final NativeProcess consumer = RingWireTest.connect(publisher);
            processes.add(consumer);
            final org.agrona.concurrent.UnsafeBuffer region = publisher.mapRegion();
            publisher.welcome();
            publisher.grantSubscription();
            publisher.collect();
            consumer.awaitReady(30);
            final List<ByteBuffer> garbage = new ArrayList<>();
            garbage.add(message(ControlMessageDescriptor.SUBSCRIPTION, 48).putInt(8, 70_000));
            garbage.add(message(ControlMessageDescriptor.SUBSCRIPTION, 48).putInt(8, 1).putInt(12, 1 << 30));
            garbage.add(message(ControlMessageDescriptor.SUBSCRIPTION, 20));
            garbage.add(message(ControlMessageDescriptor.RECOVERY_DATA, 64).putInt(8, -1));
            garbage.add(message(ControlMessageDescriptor.RECOVERY_DATA, 128).putInt(8, 1_000_000));
            garbage.add(message(ControlMessageDescriptor.RECOVERY_DATA, 10));
            garbage.add(message(ControlMessageDescriptor.RECOVERY_END, 30));
            garbage.add(message(ControlMessageDescriptor.RECOVERY_END, 48).putLong(16, Long.MAX_VALUE));
            garbage.add(message(ControlMessageDescriptor.SNAPSHOT_DATA, 128).putInt(8, 1));
            garbage.add(message(ControlMessageDescriptor.SNAPSHOT_END, 48));
            garbage.add(message(ControlMessageDescriptor.RESYNCED, 12));
            garbage.add(message(ControlMessageDescriptor.REJECT, 100));
            garbage.add(message(ControlMessageDescriptor.WELCOME, 80));
            garbage.add(message(999, 64));
            garbage.add(message(0, 4));
            final Random random = new Random(7002);
            for (int i = 0; i < 200; i++)
            {
                final ByteBuffer frame = message(0, random.nextInt(400) + 8);
                random.nextBytes(frame.array());
                final int type = frame.getShort(0) & 0xFFFF;
                if (type == ControlMessageDescriptor.REJECT || type == ControlMessageDescriptor.RESYNCED ||
                    type == ControlMessageDescriptor.BYE)
                {
                    frame.putShort(0, (short)999); // these would end the session or move the ring, as they may
                }
                garbage.add(frame);
            }
            for (final ByteBuffer message : garbage)
            {
                publisher.send(message);
            }
            RingWireTest.writeIntact(region, 0);
            consumer.awaitLine(false, "1"::equals, 30, "the tick written after the garbage");
            consumer.signal("TERM");
            assertEquals(0, consumer.awaitExit(30), consumer.err().toString());
            assertNull(consumer.sanitizerReport());
            final String summary = consumer.err().stream().filter(l -> l.contains(": delivered ")).findFirst()
                .orElseThrow();
            assertTrue(summary.contains("delivered 1 ticks") && summary.contains("reconnects 0"), summary);
            assertFalse(summary.contains("malformed 0,"), "the malformed messages were counted: " + summary);
        }
    }

    /** @return null when the consumer behaved, else what it did wrong. */
    private String runCase(final byte[] answer) throws Exception
    {
        Files.deleteIfExists(socket);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX))
        {
            server.bind(UnixDomainSocketAddress.of(socket));
            final NativeProcess consumer = new NativeProcess("fuzzed", NativeBuild.SANITIZE, List.of(
                NativeBuild.SANITIZE.tool("mdgate-consume-c").toString(), "--instance", instance, "--consumer", "fuzz",
                "--token", "t0ken", "--all", "--connect-timeout-ms", "3000"));
            processes.add(consumer);
            try (SocketChannel channel = server.accept())
            {
                final String hello = readHello(channel);
                if (null != hello)
                {
                    return hello;
                }
                if (null != answer)
                {
                    channel.write(ByteBuffer.wrap(answer));
                    channel.shutdownOutput(); // what was cut short stays cut short
                }
                final int exit = consumer.awaitExit(30);
                return verdict(consumer, exit);
            }
        }
    }

    private static String readHello(final SocketChannel channel) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        while (header.hasRemaining() && channel.read(header) >= 0)
        {
            // blocking read of the frame header
        }
        final int length = header.getInt(0);
        if (length != HelloFlyweight.LENGTH)
        {
            return "a HELLO of " + length + " bytes, expected " + HelloFlyweight.LENGTH;
        }
        final ByteBuffer hello = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (hello.hasRemaining() && channel.read(hello) >= 0)
        {
            // blocking read of the message
        }
        if (hello.getShort(0) != ControlMessageDescriptor.HELLO || hello.get(40) != 4 ||
            !"fuzz".equals(new String(hello.array(), 41, 4, java.nio.charset.StandardCharsets.US_ASCII)))
        {
            return "the HELLO does not carry type 1 and the name 'fuzz'";
        }
        return null;
    }

    private static String verdict(final NativeProcess consumer, final int exit)
    {
        final String report = consumer.sanitizerReport();
        if (null != report)
        {
            return report;
        }
        final List<String> err = consumer.err();
        if (exit != 1)
        {
            return "exit code " + exit + " (expected 1); stderr: " + err;
        }
        if (err.isEmpty() || !err.get(0).startsWith("mdgate-consume-c: ") || err.get(0).length() < 40)
        {
            return "no first line saying what is wrong; stderr: " + err;
        }
        if (err.get(0).chars().anyMatch(c -> c < 0x20 || c > 0x7E))
        {
            return "the first line carries raw control or non-ASCII bytes: " + err.get(0);
        }
        return null;
    }
}
