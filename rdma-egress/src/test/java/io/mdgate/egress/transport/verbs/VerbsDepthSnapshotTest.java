package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.snapshot.LateJoiners;
import io.mdgate.egress.snapshot.SnapshotDay;
import io.mdgate.egress.support.DepthCheckpoints;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Depth tables and late joiners over verbs, the product path: RC control over RDMA-CM, ticks and depth written into
 * each consumer's region with RDMA Writes. A consumer's depth table, read at checkpoints (after every message early
 * in the day, then every few), holds exactly the top levels of the reference depth and order books of the same
 * flow; a consumer that subscribes mid-day gets them with its answer ({@link DepthCheckpoints}, which
 * {@code DepthTableTest} runs over shm). Late joiners that ask for a snapshot at seeded random points get the books
 * of a consumer that had every sequence and every live sequence after the snapshot exactly once
 * ({@link LateJoiners}, the scenario {@code SnapshotLateJoinTest} runs over shm). The seed is
 * {@code -Dmdgate.test.seed} or the clock's, printed.
 */
@Tag("softroce")
class VerbsDepthSnapshotTest
{
    private static final long SEED = Long.getLong("mdgate.test.seed", System.nanoTime() & 0xFFFF_FFFFL);
    private static final int WAIT_SECONDS = 90;
    private static final int MESSAGES = 4_000;
    private static final int EVERY_MESSAGE_UNTIL = 500;
    private static final int LATE_JOIN_MESSAGES = 8_000;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private VerbsPublisherHarness harness;

    @BeforeEach
    void requireDevice()
    {
        SoftRoce.assumeDevice();
    }

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    @Test
    @Timeout(480)
    void shouldHoldTheReferenceLevelsInTheRdmaWrittenDepthTableAfterEveryChangeAndForALateSubscriber()
    {
        harness = new VerbsPublisherHarness(SoftRoce.context(), DepthCheckpoints.CONSUMERS,
            DepthCheckpoints.publisherSettings());
        new DepthCheckpoints(harness, closeables, WAIT_SECONDS).run(SEED, MESSAGES, EVERY_MESSAGE_UNTIL);
    }

    static Stream<Arguments> lateJoins()
    {
        System.out.println("verbs late joiners: seed " + SEED);
        return Stream.of(
            Arguments.of(SubscriptionView.ALL, "RING", SnapshotDay.Subset.EVERY, SEED),
            Arguments.of(SubscriptionView.DEPTH, "RING", SnapshotDay.Subset.ODD, SEED + 1),
            Arguments.of(SubscriptionView.ORDERS, "STREAM", SnapshotDay.Subset.FIRST_FIVE, SEED + 2));
    }

    @ParameterizedTest(name = "view {0}, path {1}, instruments {2}, seed {3}")
    @MethodSource("lateJoins")
    @Timeout(480)
    void shouldGiveLateJoinersAtRandomPointsOverVerbsTheBooksOfAConsumerThatHadEverySequence(
        final SubscriptionView view, final String path, final SnapshotDay.Subset subset, final long seed)
    {
        harness = new VerbsPublisherHarness(SoftRoce.context(), List.of("full", "late0", "late1", "late2"),
            LateJoiners.publisherSettings(LateJoiners.SMALL_BUDGET));
        new LateJoiners(harness, closeables, 420).joinAtRandomPoints(view, path, subset, seed, LATE_JOIN_MESSAGES);
    }
}
