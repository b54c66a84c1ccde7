package io.mdgate.egress.transport.disni;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import io.mdgate.egress.transport.verbs.SoftRoce;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * DiSNI's own verbs API over the project's libdisni on Soft-RoCE: two RDMA-CM ids of one JVM connect over
 * {@code rxe0}, register memory, exchange a SEND/RECV, do RDMA Writes with a stateful post-send call whose work
 * request is changed in place between posts, and tear everything down. Runs only in the guest (tag and skip).
 */
@Tag("softroce")
class DisniVerbsTest
{
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final int REGION = 8192;
    private static final int HALF = REGION / 2;
    private static final int INFO_LENGTH = 16;
    private static final int DONE_LENGTH = 64;
    private static final int RETRY = 7;
    private static final AtomicInteger CONNECTIONS = new AtomicInteger();

    private Side server;
    private Side client;
    private RdmaEventChannel serverChannel;
    private RdmaEventChannel clientChannel;
    private RdmaCmId listenId;
    private int port;

    @BeforeEach
    void connect() throws Exception
    {
        SoftRoce.assumeDevice();
        final InetAddress address = InetAddress.getByName(SoftRoce.address());
        port = 21000 + (int)(ProcessHandle.current().pid() % 4000) * 4 + CONNECTIONS.incrementAndGet() % 4;

        serverChannel = RdmaEventChannel.createEventChannel();
        clientChannel = RdmaEventChannel.createEventChannel();
        listenId = serverChannel.createId(RdmaCm.RDMA_PS_TCP);
        listenId.bindAddr(new InetSocketAddress(address, port));
        listenId.listen(4);

        final RdmaCmId clientId = clientChannel.createId(RdmaCm.RDMA_PS_TCP);
        clientId.resolveAddr(null, new InetSocketAddress(address, port), 5000);
        await(clientChannel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED);
        clientId.resolveRoute(5000);
        await(clientChannel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_RESOLVED);
        client = new Side(clientId);
        client.postRecv(DONE_LENGTH);
        clientId.connect(connParam());

        final RdmaCmEvent request = await(serverChannel, RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST);
        assertTrue(request.getListenIdPriv() == listenId, "the request names the listening id");
        server = new Side(request.getConnIdPriv());
        server.postRecv(DONE_LENGTH);
        server.id.accept(connParam());

        // The client first: librdmacm answers the server's reply (RTU) while the client takes its event.
        await(clientChannel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED);
        await(serverChannel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED);
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (null == client)
        {
            return;
        }
        // The client's disconnect completes when the server answers it with its own.
        assertEquals(0, client.id.disconnect());
        await(serverChannel, RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED);
        assertEquals(0, server.id.disconnect());
        await(clientChannel, RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED);
        client.close();
        server.close();
        assertEquals(0, listenId.destroyId());
        assertEquals(0, clientChannel.destroyEventChannel());
        assertEquals(0, serverChannel.destroyEventChannel());
    }

    @Test
    void shouldCarryASendToAPostedReceiveAndLandTwoRdmaWritesOfOneReusedWorkRequest() throws Exception
    {
        // The server tells the client where to write: SEND of (address, rkey, length) into the client's receive.
        server.send.clear();
        server.send.putLong(0, server.target.getAddr()).putInt(8, server.target.getRkey()).putInt(12, REGION);
        server.postSend(IbvSendWR.IBV_WR_SEND, 11, server.sendMr, INFO_LENGTH, 0, 0).execute().free();
        assertSuccess(server.awaitCompletion(11), 11);
        final IbvWC received = client.awaitCompletion(Side.RECV_WR_ID);
        assertSuccess(received, Side.RECV_WR_ID);
        assertEquals(INFO_LENGTH, received.getByte_len());
        final long remoteAddress = client.recv.getLong(0);
        final int rkey = client.recv.getInt(8);
        assertEquals(server.target.getAddr(), remoteAddress);
        assertEquals(REGION, client.recv.getInt(12));

        // Two RDMA Writes with one stateful call: the second changes wr_id, local and remote address in place.
        final byte[] pattern = new byte[REGION];
        for (int i = 0; i < REGION; i++)
        {
            pattern[i] = (byte)(i * 31 + 7);
        }
        client.source.put(0, pattern);
        final SVCPostSend write =
            client.postSend(IbvSendWR.IBV_WR_RDMA_WRITE, 21, client.sourceMr, HALF, remoteAddress, rkey);
        write.execute();
        assertSuccess(client.awaitCompletion(21), 21);
        write.getWrMod(0).setWr_id(22);
        write.getWrMod(0).getSgeMod(0).setAddr(client.sourceMr.getAddr() + HALF);
        write.getWrMod(0).getRdmaMod().setRemote_addr(remoteAddress + HALF);
        write.execute();
        assertSuccess(client.awaitCompletion(22), 22);
        write.free();

        // Then a SEND that the server receives after both writes (one RC queue pair: in order).
        for (int i = 0; i < DONE_LENGTH; i++)
        {
            client.send.put(i, (byte)(0xA0 + i));
        }
        client.postSend(IbvSendWR.IBV_WR_SEND, 31, client.sendMr, DONE_LENGTH, 0, 0).execute().free();
        assertSuccess(client.awaitCompletion(31), 31);
        final IbvWC done = server.awaitCompletion(Side.RECV_WR_ID);
        assertSuccess(done, Side.RECV_WR_ID);
        assertEquals(DONE_LENGTH, done.getByte_len());
        assertEquals(IbvWC.IbvWcOpcode.IBV_WC_RECV.getOpcode(), done.getOpcode());
        final byte[] message = new byte[DONE_LENGTH];
        server.recv.get(0, message);
        final byte[] expectedMessage = new byte[DONE_LENGTH];
        client.send.get(0, expectedMessage);
        assertArrayEquals(expectedMessage, message);

        final byte[] landed = new byte[REGION];
        server.targetBuffer.get(0, landed);
        assertArrayEquals(pattern, landed, "both halves written into the server's region");
    }

    @Test
    void shouldWakeOnACompletionEventAndNameBothEndsOfTheConnection() throws Exception
    {
        final InetSocketAddress clientSource = (InetSocketAddress)client.id.getSource();
        final InetSocketAddress clientDestination = (InetSocketAddress)client.id.getDestination();
        final InetSocketAddress serverSource = (InetSocketAddress)server.id.getSource();
        assertEquals(SoftRoce.address(), clientDestination.getAddress().getHostAddress());
        assertEquals(port, clientDestination.getPort());
        assertEquals(port, serverSource.getPort());
        assertEquals(clientSource, server.id.getDestination());
        assertTrue(client.qp.getQp_num() > 0 && client.qp.getQp_num() != server.qp.getQp_num());
        assertTrue(client.cq.getContext().getNumCompVectors() > 0);
        assertTrue(client.cq.getContext().getCmd_fd() >= 0);

        client.cq.reqNotification(false).execute().free();
        server.send.putLong(0, 0x0123_4567_89AB_CDEFL);
        server.postSend(IbvSendWR.IBV_WR_SEND, 41, server.sendMr, 8, 0, 0).execute().free();

        assertTrue(client.compChannel.getCqEvent(client.cq, 30_000), "a completion event within 30 s");
        assertEquals(0, client.cq.ackEvents(1));
        final IbvWC received = client.awaitCompletion(Side.RECV_WR_ID);
        assertSuccess(received, Side.RECV_WR_ID);
        assertEquals(8, received.getByte_len());
        assertEquals(0x0123_4567_89AB_CDEFL, client.recv.getLong(0));
        assertSuccess(server.awaitCompletion(41), 41);
    }

    private static void assertSuccess(final IbvWC wc, final long wrId)
    {
        assertEquals(wrId, wc.getWr_id());
        assertEquals(IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal(), wc.getStatus(),
            () -> "completion of " + wrId + " failed with status " + wc.getStatus());
    }

    private static RdmaConnParam connParam() throws IOException
    {
        final RdmaConnParam param = new RdmaConnParam();
        param.setRetry_count((byte)RETRY);
        param.setRnr_retry_count((byte)RETRY);
        return param;
    }

    private static RdmaCmEvent await(final RdmaEventChannel channel, final RdmaCmEvent.EventType expected)
        throws IOException
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (System.nanoTime() < deadline)
        {
            final RdmaCmEvent event = channel.getCmEvent(200);
            if (null != event)
            {
                event.ackEvent();
                assertEquals(expected, RdmaCmEvent.EventType.values()[event.getEvent()]);
                return event;
            }
        }
        return fail("no " + expected + " within 30 s");
    }

    private static ByteBuffer direct(final int length)
    {
        return ByteBuffer.allocateDirect(length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** One end: its id, protection domain, completion queue (send and receive), queue pair and regions. */
    private final class Side implements AutoCloseable
    {
        static final long RECV_WR_ID = 99;

        final RdmaCmId id;
        final IbvPd pd;
        final IbvCompChannel compChannel;
        final IbvCQ cq;
        final IbvQP qp;
        final ByteBuffer send = direct(REGION);
        final ByteBuffer recv = direct(REGION);
        final ByteBuffer source = direct(REGION);
        final ByteBuffer targetBuffer = direct(REGION);
        final IbvMr sendMr;
        final IbvMr recvMr;
        final IbvMr sourceMr;
        final IbvMr target;
        final IbvWC[] wcs = { new IbvWC() };
        final SVCPollCq poll;

        Side(final RdmaCmId id) throws IOException
        {
            this.id = id;
            final IbvContext context = id.getVerbs();
            assertNotNull(context, "the id is bound to a device");
            pd = context.allocPd();
            compChannel = context.createCompChannel();
            cq = context.createCQ(compChannel, 64, 0);
            final IbvQPInitAttr attr = new IbvQPInitAttr();
            attr.cap().setMax_send_wr(32);
            attr.cap().setMax_recv_wr(32);
            attr.cap().setMax_send_sge(1);
            attr.cap().setMax_recv_sge(1);
            attr.cap().setMax_inline_data(0);
            attr.setQp_type(IbvQP.IBV_QPT_RC);
            attr.setSend_cq(cq);
            attr.setRecv_cq(cq);
            qp = id.createQP(pd, attr);
            assertNotNull(qp);
            final int local = IbvMr.IBV_ACCESS_LOCAL_WRITE;
            sendMr = pd.regMr(send, local).execute().free().getMr();
            recvMr = pd.regMr(recv, local).execute().free().getMr();
            sourceMr = pd.regMr(source, local).execute().free().getMr();
            target = pd.regMr(targetBuffer, local | IbvMr.IBV_ACCESS_REMOTE_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ)
                .execute().free().getMr();
            poll = cq.poll(wcs, 1);
        }

        void postRecv(final int length) throws IOException
        {
            final IbvSge sge = new IbvSge();
            sge.setAddr(recvMr.getAddr());
            sge.setLength(length);
            sge.setLkey(recvMr.getLkey());
            final LinkedList<IbvSge> sges = new LinkedList<>();
            sges.add(sge);
            final IbvRecvWR wr = new IbvRecvWR();
            wr.setWr_id(RECV_WR_ID);
            wr.setSg_list(sges);
            wr.setNum_sge(1);
            final List<IbvRecvWR> wrs = new ArrayList<>();
            wrs.add(wr);
            final SVCPostRecv post = qp.postRecv(wrs, null);
            post.execute().free();
        }

        SVCPostSend postSend(
            final int opcode, final long wrId, final IbvMr mr, final int length, final long remote, final int rkey)
            throws IOException
        {
            final IbvSge sge = new IbvSge();
            sge.setAddr(mr.getAddr());
            sge.setLength(length);
            sge.setLkey(mr.getLkey());
            final LinkedList<IbvSge> sges = new LinkedList<>();
            sges.add(sge);
            final IbvSendWR wr = new IbvSendWR();
            wr.setWr_id(wrId);
            wr.setSg_list(sges);
            wr.setOpcode(opcode);
            wr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
            wr.getRdma().setRemote_addr(remote);
            wr.getRdma().setRkey(rkey);
            final List<IbvSendWR> wrs = new ArrayList<>();
            wrs.add(wr);
            return qp.postSend(wrs, null);
        }

        IbvWC awaitCompletion(final long wrId) throws IOException
        {
            final long deadline = System.nanoTime() + WAIT_NANOS;
            while (System.nanoTime() < deadline)
            {
                if (poll.execute().getPolls() > 0)
                {
                    final IbvWC wc = wcs[0].clone();
                    assertEquals(wrId, wc.getWr_id(), () -> "unexpected completion, status " + wc.getStatus());
                    return wc;
                }
                Thread.onSpinWait();
            }
            return fail("no completion of work request " + wrId + " within 30 s");
        }

        @Override
        public void close() throws Exception
        {
            poll.free();
            assertEquals(0, id.destroyQP());
            for (final IbvMr mr : new IbvMr[] { sendMr, recvMr, sourceMr, target })
            {
                mr.deregMr().execute().free();
            }
            assertEquals(0, cq.destroyCQ());
            assertEquals(0, compChannel.destroyCompChannel());
            assertEquals(0, pd.deallocPd());
            assertEquals(0, id.destroyId());
        }
    }
}
