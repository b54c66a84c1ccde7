package io.mdgate.egress.transport.verbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostSend;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/**
 * The send side of one RC queue pair on the DiSNI path: two stateful post calls built once (a SEND and an RDMA
 * Write, one work request and one scatter/gather entry each) whose changing fields are set in place before each
 * post, a registered byte ring for copied payloads, and a stateful completion poll.
 * <p>
 * A post puts its payload inline in the work request when it fits the queue pair's inline size and has an
 * address, copies it into the ring up to {@link #COPY_MAX} bytes, or, for larger writes, points at the caller's
 * registered memory (which must then stay unchanged until completion). Every {@link #SIGNAL_EVERY}th work request
 * is signaled, and earlier when the queue or the ring is half full: completions of one send queue come in posting
 * order, so one signaled completion frees the ring bytes of every request before it. The queue never posts more
 * than it has room for, so DiSNI's post (which throws on any failure) fails only when the queue pair broke.
 * <p>
 * Threading: one thread. Posting and reaping do not allocate.
 */
final class DisniSendQueue
{
    static final int OK = 0;
    static final int AGAIN = -1;
    static final int DOWN = -2;
    /** A payload larger than {@link #COPY_MAX} without registered memory to send it from: refused, nothing posted. */
    static final int TOO_LONG = -3;
    /** Payloads up to this size are copied at post time: the caller's buffer is free on return. */
    static final int COPY_MAX = 4096;
    private static final int SIGNAL_EVERY = 16;
    private static final int REAP_BATCH = 16;
    private static final int SLOT_ALIGN = 64;
    private static final int SUCCESS = IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();

    private final SVCPostSend send;
    private final SVCPostSend write;
    private final SVCPostSend.SendWRMod sendWr;
    private final SVCPostSend.SendWRMod writeWr;
    private final SVCPostSend.SgeMod sendSge;
    private final SVCPostSend.SgeMod writeSge;
    private final SVCPostSend.RdmaMod writeRdma;
    private final IbvWC[] completions = new IbvWC[REAP_BATCH];
    private final SVCPollCq reap;
    private final RegionMemory ringMemory;
    private final UnsafeBuffer ring;
    private final IbvMr ringMr;
    private final long ringBytes;
    private final long[] ends;
    private final int depth;
    private final int maxInline;
    private long head;
    private long tail;
    private long posted;
    private long completed;
    private int unsignaled;
    private boolean broken;

    DisniSendQueue(final IbvPd pd, final IbvQP qp, final IbvCQ cq, final int depth, final int ringBytes,
        final int maxInline) throws IOException
    {
        this.depth = depth;
        this.maxInline = maxInline;
        this.ringBytes = ringBytes;
        this.ends = new long[depth];
        this.ringMemory = RegionMemory.regular(ringBytes);
        this.ring = ringMemory.buffer();
        this.ringMr = pd.regMr(ringMemory.address(), ringBytes, IbvMr.IBV_ACCESS_LOCAL_WRITE).execute().free().getMr();
        for (int i = 0; i < completions.length; i++)
        {
            completions[i] = new IbvWC();
        }
        try
        {
            this.send = qp.postSend(oneRequest(IbvSendWR.IBV_WR_SEND), null);
            this.write = qp.postSend(oneRequest(IbvSendWR.IBV_WR_RDMA_WRITE), null);
            this.sendWr = send.getWrMod(0);
            this.writeWr = write.getWrMod(0);
            this.sendSge = sendWr.getSgeMod(0);
            this.writeSge = writeWr.getSgeMod(0);
            this.writeRdma = writeWr.getRdmaMod();
            this.reap = cq.poll(completions, REAP_BATCH);
        }
        catch (final IOException | RuntimeException ex)
        {
            ringMr.deregMr().execute().free();
            ringMemory.release();
            throw ex;
        }
    }

    private List<IbvSendWR> oneRequest(final int opcode)
    {
        final IbvSge sge = new IbvSge();
        sge.setAddr(ringMemory.address());
        sge.setLength(0);
        sge.setLkey(ringMr.getLkey());
        final LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        final IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(0);
        wr.setSg_list(sges);
        wr.setNum_sge(1);
        wr.setOpcode(opcode);
        wr.setSend_flags(0);
        final List<IbvSendWR> wrs = new ArrayList<>(1);
        wrs.add(wr);
        return wrs;
    }

    boolean isBroken()
    {
        return broken;
    }

    /** Reclaims completed work. @return {@link #OK}, or {@link #DOWN} once a work request failed. */
    int reap()
    {
        int n;
        do
        {
            try
            {
                n = reap.execute().getPolls();
            }
            catch (final IOException ex)
            {
                broken = true;
                return DOWN;
            }
            for (int i = 0; i < n; i++)
            {
                final IbvWC wc = completions[i];
                if (wc.getStatus() != SUCCESS)
                {
                    broken = true;
                    continue;
                }
                final long id = wc.getWr_id();
                completed = id + 1;
                tail = ends[(int)(id % depth)];
            }
        }
        while (n == REAP_BATCH);
        return broken ? DOWN : OK;
    }

    /** A SEND of {@code length} bytes of {@code source}, copied or inline: the source is free on return. */
    int send(final DirectBuffer source, final int offset, final int length)
    {
        return post(send, sendWr, sendSge, source, offset, length, 0);
    }

    /**
     * An RDMA Write of {@code length} bytes of {@code source} (registered with {@code lkey}) to
     * {@code remoteAddress} under {@code rkey}.
     */
    int write(final DirectBuffer source, final int offset, final int length, final int lkey,
        final long remoteAddress, final int rkey)
    {
        writeRdma.setRemote_addr(remoteAddress);
        writeRdma.setRkey(rkey);
        return post(write, writeWr, writeSge, source, offset, length, lkey);
    }

    private int post(final SVCPostSend call, final SVCPostSend.SendWRMod wr, final SVCPostSend.SgeMod sge,
        final DirectBuffer source, final int offset, final int length, final int lkey)
    {
        if (broken)
        {
            return DOWN;
        }
        if (posted - completed >= depth - 1)
        {
            if (reap() != OK)
            {
                return DOWN;
            }
            if (posted - completed >= depth - 1)
            {
                return AGAIN;
            }
        }
        final long headBefore = head;
        int flags = 0;
        final boolean addressable = null == source.byteArray();
        if (length <= maxInline && addressable)
        {
            flags = IbvSendWR.IBV_SEND_INLINE;
            sge.setAddr(source.addressOffset() + offset);
            sge.setLkey(0);
        }
        else if (length <= COPY_MAX || 0 == lkey || !addressable)
        {
            if (length > COPY_MAX)
            {
                return TOO_LONG;
            }
            final long need = (length + SLOT_ALIGN - 1) & -SLOT_ALIGN;
            long slot = reserve(need);
            if (slot < 0)
            {
                if (reap() != OK)
                {
                    return DOWN;
                }
                slot = reserve(need);
                if (slot < 0)
                {
                    return AGAIN;
                }
            }
            ring.putBytes((int)slot, source, offset, length);
            sge.setAddr(ringMemory.address() + slot);
            sge.setLkey(ringMr.getLkey());
        }
        else
        {
            sge.setAddr(source.addressOffset() + offset);
            sge.setLkey(lkey);
        }
        sge.setLength(length);
        if (unsignaled + 1 >= SIGNAL_EVERY || posted - completed >= depth / 2 || head - tail > ringBytes / 2)
        {
            flags |= IbvSendWR.IBV_SEND_SIGNALED;
            unsignaled = 0;
        }
        else
        {
            unsignaled++;
        }
        wr.setSend_flags(flags);
        wr.setWr_id(posted);
        ends[(int)(posted % depth)] = head;
        try
        {
            call.execute();
        }
        catch (final IOException ex)
        {
            head = headBefore;
            broken = true;
            return DOWN;
        }
        posted++;
        return OK;
    }

    /** @return the ring offset of {@code need} contiguous bytes, or -1 when they do not fit. */
    private long reserve(final long need)
    {
        final long position = head % ringBytes;
        final long skip = position + need > ringBytes ? ringBytes - position : 0;
        if (head + skip + need - tail > ringBytes)
        {
            return -1;
        }
        head += skip;
        final long slot = head % ringBytes;
        head += need;
        return slot;
    }

    /** Frees the post and poll calls and the ring (after the queue pair is gone). */
    void close()
    {
        send.free();
        write.free();
        reap.free();
        try
        {
            ringMr.deregMr().execute().free();
        }
        catch (final IOException ignore)
        {
            // Teardown.
        }
        ringMemory.release();
    }
}
