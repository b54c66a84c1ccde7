package io.mdgate.app.sim;

import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64RequestFlyweight;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(30)
class RetransmitServerTest
{
    private static final byte[] SESSION = MoldUdp64Session.of("RETX000001");
    private static final int MESSAGES = 5_000;
    /** Small enough that 25 of the longest messages (52 bytes with their prefix) fit one 1,472-byte answer. */
    private static final int ANSWER_LIMIT = 25;

    private final List<byte[]> generated = new ArrayList<>();
    private RetransmitServer server;
    private DatagramChannel client;

    @BeforeEach
    void start() throws IOException
    {
        final RetransmitStore store = new RetransmitStore(1, MESSAGES, MESSAGES * 40);
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(12).instruments(10).messages(MESSAGES));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        int length;
        long sequence = 1;
        while ((length = generator.next(message, 0)) > 0)
        {
            store.append(sequence++, message, 0, length);
            final byte[] copy = new byte[length];
            message.getBytes(0, copy);
            generated.add(copy);
        }
        server = new RetransmitServer(new InetSocketAddress("127.0.0.1", 0), SESSION, store, ANSWER_LIMIT, 1_472);
        client = DatagramChannel.open();
        client.bind(new InetSocketAddress("127.0.0.1", 0));
        client.configureBlocking(false);
    }

    @AfterEach
    void stop() throws IOException
    {
        server.close();
        client.close();
    }

    private void request(final byte[] session, final long sequence, final int count) throws IOException
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[MoldUdp64RequestFlyweight.LENGTH]);
        new MoldUdp64RequestFlyweight().wrap(bytes, 0).session(session).sequenceNumber(sequence).requestedCount(count);
        send(bytes.byteArray());
    }

    private void send(final byte[] datagram) throws IOException
    {
        client.send(ByteBuffer.wrap(datagram), new InetSocketAddress("127.0.0.1", server.port()));
    }

    /** Polls the server on this thread until the request is handled, then takes the answer if one came. */
    private byte[] answer(final long requestsBefore) throws IOException, InterruptedException
    {
        while (server.requests() == requestsBefore)
        {
            server.poll();
            Thread.sleep(1);
        }
        final ByteBuffer received = ByteBuffer.allocate(65_536);
        for (int i = 0; i < 200; i++)
        {
            if (null != client.receive(received))
            {
                final byte[] datagram = new byte[received.position()];
                received.flip().get(datagram);
                return datagram;
            }
            Thread.sleep(1);
        }
        return null;
    }

    @Test
    void shouldAnswerARequestWithTheMessagesFromTheRequestedSequence() throws Exception
    {
        request(SESSION, 1_234, 20);
        final byte[] answer = answer(0);

        final RecordedPackets.Decoded decoded = RecordedPackets.decode(List.of(answer));
        assertEquals(20, decoded.messages.size());
        for (int i = 0; i < 20; i++)
        {
            assertEquals(1_234L + i, decoded.sequences.get(i));
            assertArrayEquals(generated.get(1_233 + i), decoded.messages.get(i));
        }
        final MoldUdp64PacketDecoder mold = new MoldUdp64PacketDecoder();
        mold.decode(new UnsafeBuffer(answer), 0, answer.length, (b, o, l, s) -> { });
        assertEquals("RETX000001", mold.sessionString());
        assertEquals(1, server.answered());
        assertEquals(20, server.messagesResent());
    }

    @Test
    void shouldAnswerNoMoreThanTheAnswerLimitAndCountTheRequestsOverIt() throws Exception
    {
        request(SESSION, 10, 1_000);
        final RecordedPackets.Decoded decoded = RecordedPackets.decode(List.of(answer(0)));

        assertEquals(ANSWER_LIMIT, decoded.messages.size());
        assertEquals(10L, decoded.sequences.get(0));
        assertEquals(10L + ANSWER_LIMIT - 1, decoded.sequences.get(ANSWER_LIMIT - 1));
        assertArrayEquals(generated.get(9 + ANSWER_LIMIT - 1), decoded.messages.get(ANSWER_LIMIT - 1));
        assertEquals(1, server.limited());
        assertEquals(ANSWER_LIMIT, server.messagesResent());
    }

    @Test
    void shouldIgnoreAndCountMalformedWrongSessionAndUnavailableRequests() throws Exception
    {
        send(new byte[19]);
        assertNull(answer(0));
        request(MoldUdp64Session.of("OTHER"), 1, 10);
        assertNull(answer(1));
        request(SESSION, MESSAGES + 1, 10);
        assertNull(answer(2));
        request(SESSION, 5, 0);
        assertNull(answer(3));

        assertEquals(4, server.requests());
        assertEquals(2, server.malformed());
        assertEquals(1, server.wrongSession());
        assertEquals(1, server.unavailable());
        assertEquals(0, server.answered());
    }

    @Test
    void shouldAnswerEachServedSessionFromItsOwnMessagesAndInItsOwnName() throws Exception
    {
        final byte[] next = MoldUdp64Session.of("RETX000002");
        final RetransmitStore store = new RetransmitStore(1, 100, 100 * 40);
        final List<byte[]> nextMessages = new ArrayList<>();
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(99).instruments(10).messages(1_000));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        for (long sequence = 1; sequence <= 100; sequence++)
        {
            final int length = generator.next(message, 0);
            store.append(sequence, message, 0, length);
            final byte[] copy = new byte[length];
            message.getBytes(0, copy);
            nextMessages.add(copy);
        }
        server.addSession(next, store);

        request(next, 40, 5);
        final byte[] fromNext = answer(0);
        request(SESSION, 40, 5);
        final byte[] fromFirst = answer(1);
        request(next, 101, 1);
        assertNull(answer(2), "the second session has only 100 messages");

        final MoldUdp64PacketDecoder mold = new MoldUdp64PacketDecoder();
        final RecordedPackets.Decoded decodedNext = RecordedPackets.decode(List.of(fromNext));
        mold.decode(new UnsafeBuffer(fromNext), 0, fromNext.length, (b, o, l, s) -> { });
        assertEquals("RETX000002", mold.sessionString());
        assertArrayEquals(nextMessages.get(39), decodedNext.messages.get(0));
        assertEquals(40L, decodedNext.sequences.get(0));
        final RecordedPackets.Decoded decodedFirst = RecordedPackets.decode(List.of(fromFirst));
        mold.decode(new UnsafeBuffer(fromFirst), 0, fromFirst.length, (b, o, l, s) -> { });
        assertEquals("RETX000001", mold.sessionString());
        assertArrayEquals(generated.get(39), decodedFirst.messages.get(0));
        assertEquals(1, server.unavailable());
        assertEquals(0, server.wrongSession());
    }
}
