package io.mdgate.core.ticklog;

import io.mdgate.core.tick.TickHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@org.junit.jupiter.api.Timeout(30)
class TickLogTest
{
    private final UnsafeBuffer tick = new UnsafeBuffer(new byte[TickLogDescriptor.TICK_LENGTH]);

    @Test
    void shouldHandEveryTickToEveryReaderInOrder()
    {
        final TickLog log = new TickLog(64, "journal", "egress");
        write(log, 1, 40);
        final List<Long> journal = new ArrayList<>();
        final List<Long> egress = new ArrayList<>();
        assertEquals(40, log.reader(0).poll(collect(journal), 100));
        assertEquals(25, log.reader(1).poll(collect(egress), 25));
        assertEquals(15, log.reader(1).poll(collect(egress), 100));
        assertEquals(range(1, 40), journal);
        assertEquals(range(1, 40), egress);
        assertEquals(0, log.reader(0).poll(collect(journal), 100));
    }

    @Test
    void shouldStopAControlledPollBeforeARefusedTickAndKeepItAndItsFollowersUnread()
    {
        final TickLog log = new TickLog(64, "journal", "egress");
        final TickLogReader egress = log.reader(1).follow(log.reader(0));
        write(log, 1, 30);
        final List<Long> taken = new ArrayList<>();
        final long[] refuseFrom = {18};
        final io.mdgate.core.tick.ControlledTickHandler upTo = (buffer, offset) ->
        {
            final long sequence = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
            if (sequence >= refuseFrom[0])
            {
                return false;
            }
            taken.add(sequence);
            return true;
        };
        assertEquals(17, log.reader(0).controlledPoll(upTo, 100));
        assertEquals(17, log.reader(0).position());
        assertEquals(0, log.reader(0).controlledPoll(upTo, 100), "the refused tick is offered again, and refused");
        final List<Long> followed = new ArrayList<>();
        assertEquals(17, egress.poll(collect(followed), 100));
        assertEquals(range(1, 17), followed, "a follower gets only what was taken");
        refuseFrom[0] = Long.MAX_VALUE;
        assertEquals(5, log.reader(0).controlledPoll(upTo, 5), "the limit still holds");
        assertEquals(8, log.reader(0).controlledPoll(upTo, 100));
        assertEquals(range(1, 30), taken);
    }

    @Test
    void shouldHaveNoRoomWhileTheSlowestReaderIsAWholeLogBehind()
    {
        final TickLog log = new TickLog(64, "journal", "egress");
        write(log, 1, 60);
        log.reader(0).poll((b, o) -> {}, 100);
        assertTrue(log.hasRoom(4));
        assertFalse(log.hasRoom(5), "egress has read nothing: only 4 slots are free");
        assertEquals(4, log.remaining());
        log.reader(1).poll((b, o) -> {}, 10);
        assertTrue(log.hasRoom(14));
        assertFalse(log.hasRoom(15));
    }

    @Test
    void shouldCountAndNotWriteATickThatFindsNoSlot()
    {
        final TickLog log = new TickLog(64, "journal");
        write(log, 1, 64);
        write(log, 65, 1);
        assertEquals(1, log.overruns());
        assertEquals(64, log.published());
        final List<Long> read = new ArrayList<>();
        log.reader(0).poll(collect(read), 100);
        assertEquals(range(1, 64), read, "the oldest slot was not overwritten");
    }

    @Test
    void shouldLetAFollowerReadOnlyWhatItsUpstreamFinished()
    {
        final TickLog log = new TickLog(64, "journal", "egress");
        log.reader(1).follow(log.reader(0));
        write(log, 1, 10);
        final List<Long> egress = new ArrayList<>();
        assertEquals(0, log.reader(1).poll(collect(egress), 100));
        log.reader(0).poll((b, o) -> {}, 6);
        assertEquals(6, log.reader(1).poll(collect(egress), 100));
        assertEquals(range(1, 6), egress);
        assertEquals(4, log.reader(1).lag());
    }

    @Test
    void shouldRefuseACapacityThatIsNotAPowerOfTwoSayingWhatWouldDo()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new TickLog(1000, "j"));
        assertTrue(ex.getMessage().contains("power of two"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TickLog(1024));
        assertThrows(IllegalArgumentException.class, () -> log().reader(0).follow(log().reader(0)));
    }

    private static TickLog log()
    {
        return new TickLog(64, "journal");
    }

    private void write(final TickLog log, final long first, final int count)
    {
        for (long s = first; s < first + count; s++)
        {
            for (int i = 0; i < TickLogDescriptor.TICK_LENGTH; i += 8)
            {
                tick.putLong(i, s, ByteOrder.LITTLE_ENDIAN);
            }
            log.onTick(tick, 0);
        }
    }

    private static TickHandler collect(final List<Long> into)
    {
        return (buffer, offset) -> into.add(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
    }

    private static List<Long> range(final long first, final long last)
    {
        final List<Long> values = new ArrayList<>();
        for (long s = first; s <= last; s++)
        {
            values.add(s);
        }
        return values;
    }
}
