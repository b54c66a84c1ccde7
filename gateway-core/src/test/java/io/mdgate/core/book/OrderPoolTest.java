package io.mdgate.core.book;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class OrderPoolTest
{
    private static final int WINDOW = 1024;

    @Test
    void shouldFindEveryOrderThatSharesASlotWhateverOrderTheyLeaveIn()
    {
        final OrderPool pool = new OrderPool(WINDOW, 64);
        final long[] references = { 7, 7 + WINDOW, 7 + 2L * WINDOW, 7 + 3L * WINDOW };
        final int[] orders = new int[references.length];
        for (int i = 0; i < references.length; i++)
        {
            orders[i] = pool.claim(references[i]);
            pool.place(orders[i], references[i], 100 + i, 10 + i, i);
        }
        assertEquals(3, pool.displaced(), "the first holds the slot, the other three are displaced");
        pool.release(orders[0], references[0]);
        assertEquals(OrderPool.NONE, pool.find(references[0]));
        for (int i = 1; i < references.length; i++)
        {
            assertEquals(orders[i], pool.find(references[i]), "displaced order " + i + " after its slot's holder left");
            assertEquals(100 + i, pool.level(orders[i]));
            assertEquals(10 + i, pool.shares(orders[i]));
        }
        final int again = pool.claim(references[0] + 4L * WINDOW);
        pool.place(again, references[0] + 4L * WINDOW, 9, 9, 9);
        assertEquals(again, pool.find(references[0] + 4L * WINDOW), "a new order takes the free slot");
        assertEquals(3, pool.displaced());
        pool.release(orders[2], references[2]);
        assertEquals(OrderPool.NONE, pool.find(references[2]));
        assertEquals(orders[3], pool.find(references[3]));
        assertEquals(OrderPool.NONE, pool.find(references[0] + 5L * WINDOW), "never added");
    }

    @Test
    void shouldAgreeWithAMapOverARandomDay()
    {
        final Random random = new Random(5);
        final int maxOrders = 512;
        final OrderPool pool = new OrderPool(WINDOW, maxOrders);
        final java.util.HashMap<Long, Integer> model = new java.util.HashMap<>();
        final List<Long> references = new ArrayList<>();
        long next = 1;
        for (int step = 0; step < 200_000; step++)
        {
            if (model.size() < maxOrders && (references.isEmpty() || random.nextInt(100) < 52))
            {
                next += 1 + random.nextInt(3);
                final int order = pool.claim(next);
                assertNotEquals(OrderPool.NONE, order);
                pool.place(order, next, step, step & 0xFFFF, step);
                model.put(next, order);
                references.add(next);
            }
            else
            {
                // mostly recent orders leave, a few old ones stay for many windows and get displaced neighbours
                final int pick = random.nextInt(10) == 0 ? random.nextInt(references.size())
                    : references.size() - 1 - random.nextInt(Math.min(references.size(), 40));
                final long reference = references.get(pick);
                references.set(pick, references.get(references.size() - 1));
                references.remove(references.size() - 1);
                final int order = model.remove(reference);
                assertEquals(order, pool.find(reference), "live order " + reference + " at step " + step);
                pool.release(order, reference);
                assertEquals(OrderPool.NONE, pool.find(reference), "left order " + reference);
            }
            final long probe = next - random.nextInt(8 * WINDOW);
            assertEquals(model.getOrDefault(probe, OrderPool.NONE).intValue(), pool.find(probe), "probe " + probe + " at step " + step);
        }
        assertEquals(model.size(), pool.used());
        int live = 0;
        for (int order = pool.nextLive(-1); order != OrderPool.NONE; order = pool.nextLive(order))
        {
            assertEquals(order, model.get(pool.reference(order)).intValue());
            live++;
        }
        assertEquals(model.size(), live);
    }
}
