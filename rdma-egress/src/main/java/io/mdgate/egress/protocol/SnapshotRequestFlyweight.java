package io.mdgate.egress.protocol;

/**
 * SNAPSHOT ({@link ControlMessageDescriptor}): a consumer asks for the current state of its subscribed instruments,
 * all of them (count 0) or those listed. Not thread-safe.
 * <pre>
 *   8 flags i32 (PER_INSTRUMENT, maybe with DIRECTORY; 0 from an older consumer) | 12 instrument count i32
 *  16 instrument ids, i32 each
 * </pre>
 */
public final class SnapshotRequestFlyweight extends ControlFlyweight
{
    private static final int FLAGS = 8;
    private static final int COUNT = 12;
    public static final int IDS_OFFSET = 16;
    /** Length of a request without instrument ids. */
    public static final int LENGTH = IDS_OFFSET;

    @Override
    public int length()
    {
        return LENGTH;
    }

    /** @return bytes of a request listing {@code count} instruments. */
    public static int length(final int count)
    {
        return IDS_OFFSET + count * 4;
    }

    public int flags()
    {
        return buffer.getInt(offset + FLAGS, LE);
    }

    public SnapshotRequestFlyweight flags(final int value)
    {
        mutable.putInt(offset + FLAGS, value, LE);
        return this;
    }

    public int instrumentCount()
    {
        return buffer.getInt(offset + COUNT, LE);
    }

    public SnapshotRequestFlyweight instrumentCount(final int value)
    {
        mutable.putInt(offset + COUNT, value, LE);
        return this;
    }

    public int instrument(final int index)
    {
        return buffer.getInt(offset + IDS_OFFSET + index * 4, LE);
    }

    public SnapshotRequestFlyweight instrument(final int index, final int value)
    {
        mutable.putInt(offset + IDS_OFFSET + index * 4, value, LE);
        return this;
    }

    /**
     * @param messageLength bytes received.
     * @return whether the request is well formed: count 0..{@value ControlMessageDescriptor#MAX_SNAPSHOT_INSTRUMENTS},
     *         every listed id 1..65535 and inside the message, no flag but
     *         {@link ControlMessageDescriptor#PER_INSTRUMENT} and {@link ControlMessageDescriptor#DIRECTORY}.
     */
    public boolean isValid(final int messageLength)
    {
        final int known = ControlMessageDescriptor.PER_INSTRUMENT | ControlMessageDescriptor.DIRECTORY;
        if (messageLength < LENGTH || (flags() & ~known) != 0)
        {
            return false;
        }
        final int count = instrumentCount();
        if (count < 0 || count > ControlMessageDescriptor.MAX_SNAPSHOT_INSTRUMENTS || messageLength < length(count))
        {
            return false;
        }
        for (int i = 0; i < count; i++)
        {
            final int id = instrument(i);
            if (id < 1 || id > TickLayout.MAX_INSTRUMENT_ID)
            {
                return false;
            }
        }
        return true;
    }
}
