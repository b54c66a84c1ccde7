package io.mdgate.core.itch;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A few messages written out byte by byte in hex, worked by hand from the ITCH 5.0 table, to pin the flyweights
 * (and the {@link WireBytes} builder the round-trip tests rely on) to the specification.
 */
class ItchWireFormatTest
{
    /** 09:30:00.000000000 in nanoseconds since midnight: 34,200,000,000,000 = 0x1F1A_CED9_F000. */
    private static final long MARKET_OPEN = 34_200_000_000_000L;
    private static final long AAPL = Alpha.pack8("AAPL");
    private static final long MSFT = Alpha.pack8("MSFT");

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final ItchMessageDecoder decoder = new ItchMessageDecoder();
    private final RecordingItchHandler handler = new RecordingItchHandler();

    private String encoded(final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static String hex(final String spaced)
    {
        return spaced.replace(" ", "");
    }

    private ItchMessageFlyweight decode(final String spacedHex)
    {
        final byte[] bytes = HexFormat.of().parseHex(hex(spacedHex));
        assertEquals(ItchMessageDecoder.OK, decoder.decode(new UnsafeBuffer(bytes), 0, bytes.length, handler));
        return handler.message;
    }

    @Test
    void shouldEncodeAddOrderAsTheSpecificationLaysItOut()
    {
        final AddOrderFlyweight add = new AddOrderFlyweight();
        add.wrapForEncode(buffer, 0).stockLocate(1).trackingNumber(2).timestamp(MARKET_OPEN);
        add.orderReference(1111).side('B').shares(100).stock(AAPL).price(1_500_000);

        final String expected =
            "41 0001 0002 1f1aced9f000 0000000000000457 42 00000064 4141504c20202020 0016e360";
        assertEquals(hex(expected), encoded(36));

        final AddOrderFlyweight decoded = (AddOrderFlyweight)decode(expected);
        assertEquals(1111, decoded.orderReference());
        assertEquals('B', decoded.side());
        assertEquals(100, decoded.shares());
        assertEquals("AAPL", Alpha.unpack8(decoded.stock()));
        assertEquals(1_500_000, decoded.price());
        assertEquals(MARKET_OPEN, decoded.timestamp());
    }

    @Test
    void shouldEncodeCrossTradeWithItsSixtyFourBitShares()
    {
        final CrossTradeFlyweight cross = new CrossTradeFlyweight();
        cross.wrapForEncode(buffer, 0).stockLocate(0x0102).trackingNumber(0).timestamp(57_600_000_000_000L);
        cross.shares(2_500_000_000L).stock(MSFT).crossPrice(1_500_000).matchNumber(12_345_678).crossType('C');

        final String expected =
            "51 0102 0000 34630b8a0000 000000009502f900 4d53465420202020 0016e360 0000000000bc614e 43";
        assertEquals(hex(expected), encoded(40));

        final CrossTradeFlyweight decoded = (CrossTradeFlyweight)decode(expected);
        assertEquals(2_500_000_000L, decoded.shares());
        assertEquals(12_345_678, decoded.matchNumber());
        assertEquals('C', decoded.crossType());
        assertEquals(0x0102, decoded.stockLocate());
    }

    @Test
    void shouldEncodeSystemEventAsTwelveBytes()
    {
        final SystemEventFlyweight event = new SystemEventFlyweight();
        event.wrapForEncode(buffer, 0).stockLocate(0).trackingNumber(7).timestamp(MARKET_OPEN);
        event.eventCode('Q');

        final String expected = "53 0000 0007 1f1aced9f000 51";
        assertEquals(hex(expected), encoded(12));
        assertEquals('Q', ((SystemEventFlyweight)decode(expected)).eventCode());
    }

    @Test
    void shouldEncodeNoiiWithItsStockAfterTheDirection()
    {
        final NoiiFlyweight noii = new NoiiFlyweight();
        noii.wrapForEncode(buffer, 0).stockLocate(3).trackingNumber(4).timestamp(86_399_999_999_999L);
        noii.pairedShares(10_000).imbalanceShares(1_000).imbalanceDirection('B').stock(AAPL)
            .farPrice(1_500_000).nearPrice(1_500_100).currentReferencePrice(1_499_900)
            .crossType('O').priceVariationIndicator('A');

        final String expected = "49 0003 0004 4e94914effff 0000000000002710 00000000000003e8 42 " +
            "4141504c20202020 0016e360 0016e3c4 0016e2fc 4f 41";
        assertEquals(hex(expected), encoded(50));

        final NoiiFlyweight decoded = (NoiiFlyweight)decode(expected);
        assertEquals(86_399_999_999_999L, decoded.timestamp());
        assertEquals(1_499_900, decoded.currentReferencePrice());
        assertEquals('A', decoded.priceVariationIndicator());
    }
}
