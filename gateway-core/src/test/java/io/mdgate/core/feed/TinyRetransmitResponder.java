package io.mdgate.core.feed;

import io.mdgate.core.capture.CaptureFixtures;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64RequestFlyweight;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Test support: the smallest re-request server, on 127.0.0.1 and an ephemeral port, driven by the test's own
 * thread through {@link #serve()}. Each request is answered with one MoldUDP64 packet of Add Orders tagged with
 * their sequences (as {@link CaptureFixtures#moldPacketOfAdds} builds them), at most {@code answerLimit} of them,
 * built with {@link MoldUdp64PacketEncoder}.
 */
final class TinyRetransmitResponder implements AutoCloseable
{
    private final DatagramChannel channel;
    private final byte[] session;
    private final int answerLimit;
    private final ByteBuffer received = ByteBuffer.allocate(2_048);
    private final ByteBuffer answer = ByteBuffer.allocate(65_536);
    private final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
    private final MoldUdp64RequestFlyweight request = new MoldUdp64RequestFlyweight();
    private final List<String> requests = new ArrayList<>();
    private final List<byte[]> answers = new ArrayList<>();

    TinyRetransmitResponder(final String session, final int answerLimit) throws IOException
    {
        this.session = MoldUdp64Session.of(session);
        this.answerLimit = answerLimit;
        channel = DatagramChannel.open();
        channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        channel.configureBlocking(false);
        encoder.wrap(new UnsafeBuffer(answer), 0, 1_400).session(this.session);
    }

    InetSocketAddress address() throws IOException
    {
        return (InetSocketAddress)channel.getLocalAddress();
    }

    /** Answers every request waiting. @return requests answered. */
    int serve() throws IOException
    {
        int served = 0;
        SocketAddress from;
        while ((from = channel.receive(received.clear())) != null)
        {
            final int length = received.position();
            request.wrap(new UnsafeBuffer(received), 0);
            requests.add(MoldUdp64Session.text(sessionOf()) + " " + request.sequenceNumber() + "+" +
                request.requestedCount() + " (" + length + " bytes)");
            final long first = request.sequenceNumber();
            encoder.reset(first);
            for (int i = 0; i < Math.min(answerLimit, request.requestedCount()); i++)
            {
                final byte[] message = CaptureFixtures.itch('A', (int)(first + i));
                encoder.tryAppend(new UnsafeBuffer(message), 0, message.length);
            }
            final byte[] packet = new byte[encoder.length()];
            new UnsafeBuffer(answer).getBytes(0, packet);
            answers.add(packet);
            channel.send(ByteBuffer.wrap(packet), from);
            served++;
        }
        return served;
    }

    private byte[] sessionOf()
    {
        final byte[] bytes = new byte[MoldUdp64Session.LENGTH];
        request.session(bytes, 0);
        return bytes;
    }

    /** @return each request seen, e.g. {@code "000010059B 3+2 (20 bytes)"}. */
    List<String> requests()
    {
        return requests;
    }

    List<byte[]> answers()
    {
        return answers;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
