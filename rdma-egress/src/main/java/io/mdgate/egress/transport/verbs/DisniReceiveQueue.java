package io.mdgate.egress.transport.verbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCPostRecv;
import io.mdgate.egress.transport.ControlMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/**
 * The receive side of one RC queue pair on the DiSNI path: {@code count} buffers of one registered region, each
 * with its own stateful post-receive call built once, all posted at set-up. A poll hands each arrived message to
 * the handler where it landed (no copy) and posts its buffer again once the handler returned.
 * <p>
 * Threading: one thread. Polling does not allocate.
 */
final class DisniReceiveQueue
{
    private static final int BATCH = 32;
    private static final int SUCCESS = IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();

    private final RegionMemory memory;
    private final UnsafeBuffer buffers;
    private final IbvMr mr;
    private final SVCPostRecv[] reposts;
    private final IbvWC[] completions = new IbvWC[BATCH];
    private final SVCPollCq pollCall;
    private final int bufferLength;
    private int taken;
    private int next;
    private boolean broken;

    DisniReceiveQueue(final IbvPd pd, final IbvQP qp, final IbvCQ cq, final int count, final int maxMessage)
        throws IOException
    {
        this.bufferLength = (maxMessage + 63) & -64;
        this.memory = RegionMemory.regular(count * bufferLength);
        this.buffers = memory.buffer();
        this.mr = pd.regMr(memory.address(), count * bufferLength, IbvMr.IBV_ACCESS_LOCAL_WRITE).execute().free()
            .getMr();
        this.reposts = new SVCPostRecv[count];
        for (int i = 0; i < BATCH; i++)
        {
            completions[i] = new IbvWC();
        }
        try
        {
            for (int i = 0; i < count; i++)
            {
                reposts[i] = qp.postRecv(oneReceive(i), null);
                reposts[i].execute();
            }
            pollCall = cq.poll(completions, BATCH);
        }
        catch (final IOException | RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private List<IbvRecvWR> oneReceive(final int index)
    {
        final IbvSge sge = new IbvSge();
        sge.setAddr(memory.address() + (long)index * bufferLength);
        sge.setLength(bufferLength);
        sge.setLkey(mr.getLkey());
        final LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(sge);
        final IbvRecvWR wr = new IbvRecvWR();
        wr.setWr_id(index);
        wr.setSg_list(sges);
        wr.setNum_sge(1);
        final List<IbvRecvWR> wrs = new ArrayList<>(1);
        wrs.add(wr);
        return wrs;
    }

    boolean isBroken()
    {
        return broken;
    }

    /**
     * Hands up to {@code limit} arrived messages to {@code handler}, in arrival order. One poll of the completion
     * queue takes up to {@value #BATCH} completions; those beyond {@code limit} wait, in order, for the next call.
     *
     * @return messages delivered.
     */
    int poll(final ControlMessageHandler handler, final int limit)
    {
        int delivered = 0;
        while (delivered < limit && !broken)
        {
            if (next == taken)
            {
                try
                {
                    taken = pollCall.execute().getPolls();
                }
                catch (final IOException ex)
                {
                    broken = true;
                    break;
                }
                next = 0;
                if (0 == taken)
                {
                    break;
                }
            }
            final IbvWC wc = completions[next++];
            if (wc.getStatus() != SUCCESS)
            {
                broken = true;
                continue;
            }
            final int index = (int)wc.getWr_id();
            handler.onMessage(buffers, index * bufferLength, wc.getByte_len());
            delivered++;
            try
            {
                reposts[index].execute();
            }
            catch (final IOException ex)
            {
                broken = true;
            }
        }
        return delivered;
    }

    /** Frees the calls and the buffers (after the queue pair is gone). */
    void close()
    {
        for (final SVCPostRecv repost : reposts)
        {
            if (null != repost)
            {
                repost.free();
            }
        }
        if (null != pollCall)
        {
            pollCall.free();
        }
        try
        {
            mr.deregMr().execute().free();
        }
        catch (final IOException ignore)
        {
            // Teardown.
        }
        memory.release();
    }
}
