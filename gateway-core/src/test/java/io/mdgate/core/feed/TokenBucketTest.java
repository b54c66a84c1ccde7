package io.mdgate.core.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class TokenBucketTest
{
    @Test
    void shouldStartFullAndAllowTheBurstAtOnce()
    {
        final TokenBucket bucket = new TokenBucket(1_000, 3);
        assertTrue(bucket.tryAcquire(5_000));
        assertTrue(bucket.tryAcquire(5_000));
        assertTrue(bucket.tryAcquire(5_000));
        assertFalse(bucket.tryAcquire(5_000));
    }

    @Test
    void shouldAddOneTokenPerIntervalAndNeverMoreThanTheBurst()
    {
        final TokenBucket bucket = new TokenBucket(1_000, 2);
        final long start = 1_000_000_000L;
        assertEquals(2, bucket.available(start));
        assertTrue(bucket.tryAcquire(start));
        assertTrue(bucket.tryAcquire(start));
        assertFalse(bucket.tryAcquire(start + 999_999));
        assertTrue(bucket.tryAcquire(start + 1_000_000));
        assertFalse(bucket.tryAcquire(start + 1_000_000));
        assertEquals(2, bucket.available(start + 60_000_000_000L), "a long quiet time saves up only the burst");
    }

    @Test
    void shouldAllowTheConfiguredRateOverALongRun()
    {
        final TokenBucket bucket = new TokenBucket(2_000, 10);
        int granted = 0;
        for (long now = 0; now < 1_000_000_000L; now += 10_000)
        {
            while (bucket.tryAcquire(now))
            {
                granted++;
            }
        }
        assertEquals(10 + 2_000 - 1, granted, "the burst, then one every 500 us for the rest of the second");
    }

    @Test
    void shouldRefuseARateOrBurstBelowOne()
    {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0));
    }
}
