package io.mdgate.core.sim;

import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Deep books: orders far from the touch when asked for, and the same bytes as before when not. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimulationDepthTest
{
    private static final int NEAR = SimulationConfig.NEAR_DEPTH;
    /** Adds further than this from the touch count as far: twice the near depth, past any near order. */
    private static final int FAR = 2 * NEAR;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));

    private String sha256(final SimulationConfig config) throws NoSuchAlgorithmException
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config);
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        final byte[] bytes = new byte[64];
        int length;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            buffer.getBytes(0, bytes, 0, length);
            digest.update(bytes, 0, length);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private <H extends ItchMessageHandler> H replay(final SimulationConfig config, final H handler)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        int length;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            decoder.decode(buffer, 0, length, handler);
        }
        assertEquals(0, decoder.malformedCount());
        return handler;
    }

    private static SimulationConfig deep(final int instruments, final long messages)
    {
        return new SimulationConfig().seed(5).instruments(instruments).messages(messages)
            .priceLevels(1024).farOrderShare(0.3).farOrderLevels(400);
    }

    /** The digests were taken from the generator as it was before price windows and far orders were settings. */
    @Test
    void shouldWriteTheSameBytesAsBeforeFarOrdersExistedWhenNoOrderGoesFar() throws NoSuchAlgorithmException
    {
        assertEquals("e99a56f13728fb34e70f89407a976bc6b90578528d68f903102a7cabe9421aae",
            sha256(new SimulationConfig()));
        assertEquals("3f3a0c9d8b3b0895470ca4d1fc2c922bef83487dc5ac7df066a4b1042ce96c07",
            sha256(new SimulationConfig().seed(1).instruments(500).messages(2_000_000)));
        assertEquals("59a869618d2abb7dc8383e227d13b53175a34db5ceaf0485fadaa9a21208b956",
            sha256(new SimulationConfig().seed(9).instruments(8192).messages(1_000_000).ordersPerInstrument(200)
                .rateProfile(RateProfile.OPENING_BURST)));
        assertEquals("38115a2ad8f3cdd2c2965471a70cb88066a653c601946ff9e4ea839e8cbdd144",
            sha256(new SimulationConfig().seed(3).instruments(7).messages(300_000).ordersPerInstrument(5000)));
        assertEquals("e99a56f13728fb34e70f89407a976bc6b90578528d68f903102a7cabe9421aae",
            sha256(new SimulationConfig().priceLevels(256).farOrderShare(0).farOrderLevels(90)),
            "the defaults spelt out, and a far depth that no order uses");
    }

    @Test
    void shouldPlaceTheConfiguredShareOfAddsFarFromTheTouchUpToTheConfiguredDepth()
    {
        final SimulationConfig config = deep(40, 400_000);
        final BookDepthProbe deep = replay(config, new BookDepthProbe(FAR));
        final BookDepthProbe near = replay(deep(40, 400_000).farOrderShare(0), new BookDepthProbe(FAR));

        assertEquals(0, deep.failures, "every order message applies to the books");
        // A far order rests uniformly NEAR + 1 .. farOrderLevels behind the quote, and the touch is at the quote
        // or within a few levels of it: this share of far orders lands more than FAR levels away.
        final double expected =
            config.farOrderShare() * (config.farOrderLevels() - FAR) / (double)(config.farOrderLevels() - NEAR);
        assertEquals(expected, deep.shareBeyond(), 0.03, "share of adds more than " + FAR + " levels away");
        assertTrue(near.shareBeyond() < 0.01, "without far orders: " + near.shareBeyond());
        assertTrue(deep.maxDistance >= config.farOrderLevels() * 9 / 10, "farthest add " + deep.maxDistance);
        assertTrue(deep.maxDistance <= config.farOrderLevels() + FAR, "farthest add " + deep.maxDistance);
        assertTrue(deep.deepestSide > 2 * near.deepestSide,
            "deepest side " + deep.deepestSide + " levels vs " + near.deepestSide + " without far orders");
    }

    @Test
    void shouldKeepDeepBooksUncrossedAndNameOnlyLiveOrders()
    {
        final SessionChecker checker = replay(deep(40, 300_000), new SessionChecker());
        assertEquals(List.of(), checker.violations);
        assertEquals(300_000, checker.messages);
    }

    @Test
    void shouldKeepEveryPriceAtOneCentOrAboveWhenTheWindowIsWiderThanThePrice()
    {
        // A $5 stock's 2048-level window would start at -$5.24 if it were centred on the price.
        final SimulationConfig config = new SimulationConfig().seed(2).instruments(200).messages(300_000)
            .priceLevels(SimulationConfig.MAX_PRICE_LEVELS).farOrderShare(0.5)
            .farOrderLevels(SimulationConfig.maxFarOrderLevels(SimulationConfig.MAX_PRICE_LEVELS));
        final BookDepthProbe probe = replay(config, new BookDepthProbe(FAR));
        assertEquals(0, probe.failures);
        assertTrue(probe.lowestPrice >= 100, "lowest price " + probe.lowestPrice);
    }
}
