package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64Descriptor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The session names a {@link FeedSession} has seen on lines A and B but not accepted, with the evidence for each
 * ({@link Corroboration}). A few slots, so that strays with names of their own cannot push a real new session out
 * before it is corroborated: a name not in a slot takes the one heard from least recently.
 * <p>
 * Allocation-free after construction. Not thread-safe: owned by one session.
 */
final class SessionCandidates
{
    /** Slots: the real next session keeps its place unless this many stray names come between two of its packets. */
    static final int SLOTS = 4;
    static final int NONE = -1;

    private static final int NAME_LENGTH = MoldUdp64Descriptor.SESSION_LENGTH;

    private final UnsafeBuffer names = new UnsafeBuffer(new byte[SLOTS * NAME_LENGTH]);
    private final Corroboration[] evidence = new Corroboration[SLOTS];
    private final long[] lastTouched = new long[SLOTS];
    private final int[] ids = new int[SLOTS];
    private final long[] packets = new long[SLOTS];
    private final long[] lowestSeen = new long[SLOTS];
    private long touches;
    private int nextId;
    private int used;

    /** @see Corroboration#Corroboration(long, int, long, long) */
    SessionCandidates(final long plausibleWindow, final int runLength, final long matchNanos, final long runGapNanos)
    {
        for (int i = 0; i < SLOTS; i++)
        {
            evidence[i] = new Corroboration(plausibleWindow, runLength, matchNanos, runGapNanos);
        }
    }

    boolean isEmpty()
    {
        return used == 0;
    }

    /** @return the slot of the session name at {@code offset}, or {@link #NONE}. */
    int find(final DirectBuffer buffer, final int offset)
    {
        if (used == 0)
        {
            return NONE;
        }
        final long low = buffer.getLong(offset);
        final short high = buffer.getShort(offset + 8);
        for (int i = 0; i < SLOTS; i++)
        {
            if (evidence[i].isActive() && names.getLong(i * NAME_LENGTH) == low &&
                names.getShort(i * NAME_LENGTH + 8) == high)
            {
                return i;
            }
        }
        return NONE;
    }

    /**
     * @return the slot for the session name at {@code offset}: its own, or the one heard from least recently, whose
     * evidence is cleared and whose name is replaced.
     */
    int slotFor(final DirectBuffer buffer, final int offset)
    {
        int slot = find(buffer, offset);
        if (slot == NONE)
        {
            slot = 0;
            for (int i = 0; i < SLOTS; i++)
            {
                if (!evidence[i].isActive())
                {
                    slot = i;
                    break;
                }
                if (lastTouched[i] < lastTouched[slot])
                {
                    slot = i;
                }
            }
            if (evidence[slot].isActive())
            {
                evidence[slot].clear();
            }
            else
            {
                used++;
            }
            names.putBytes(slot * NAME_LENGTH, buffer, offset, NAME_LENGTH);
            nextId = nextId == Integer.MAX_VALUE ? 1 : nextId + 1;
            ids[slot] = nextId;
            packets[slot] = 0;
            lowestSeen[slot] = Long.MAX_VALUE;
        }
        lastTouched[slot] = ++touches;
        return slot;
    }

    /**
     * @return a number that names the candidate in a slot, different for each name a slot takes (so packets tagged
     * with it are never taken for those of a later occupant); never 0.
     */
    int id(final int slot)
    {
        return ids[slot];
    }

    /**
     * Counts one well-formed packet of the slot's name, whatever its evidence makes of it.
     *
     * @param sequence the packet's first sequence (the next one, for a heartbeat).
     */
    void countPacket(final int slot, final long sequence)
    {
        packets[slot]++;
        lowestSeen[slot] = Math.min(lowestSeen[slot], sequence);
    }

    /** @return the lowest sequence any packet of the slot's name showed since the slot took it. */
    long lowestSeen(final int slot)
    {
        return lowestSeen[slot];
    }

    /**
     * @return the slot whose name came in more well-formed packets than any other's, or {@link #NONE} when there is
     * no candidate or two have equally many (nothing then tells the real session from a stray).
     */
    int mostPackets()
    {
        int best = NONE;
        boolean tie = false;
        for (int i = 0; i < SLOTS; i++)
        {
            if (!evidence[i].isActive())
            {
                continue;
            }
            if (best == NONE || packets[i] > packets[best])
            {
                best = i;
                tie = false;
            }
            else if (packets[i] == packets[best])
            {
                tie = true;
            }
        }
        return tie ? NONE : best;
    }

    /** @return the evidence of a slot; {@link Corroboration#add} it the packet. */
    Corroboration evidence(final int slot)
    {
        return evidence[slot];
    }

    /** @return the buffer holding the names; slot i's name is at {@link #nameOffset(int)}. */
    DirectBuffer names()
    {
        return names;
    }

    static int nameOffset(final int slot)
    {
        return slot * NAME_LENGTH;
    }

    /** Forgets every candidate, e.g. once one was accepted. */
    void clear()
    {
        for (int i = 0; i < SLOTS; i++)
        {
            evidence[i].clear();
        }
        used = 0;
    }
}
