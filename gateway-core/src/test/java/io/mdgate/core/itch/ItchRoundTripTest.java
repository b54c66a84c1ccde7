package io.mdgate.core.itch;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Every one of the 23 ITCH 5.0 messages: encoded through its flyweight's setters, compared byte for byte with the
 * layout written out from the specification's table ({@link WireBytes}), decoded through
 * {@link ItchMessageDecoder} and read back field by field through the callback its type belongs to.
 * <p>
 * Values are chosen so that no two fields share a byte pattern and unsigned fields have their top bit set, so a
 * swapped, shifted or sign-extended field cannot pass.
 */
class ItchRoundTripTest
{
    private static final int OFFSET = 9;
    private static final byte SENTINEL = (byte)0xEE;

    private static final int LOCATE = 0xBEEF;
    private static final int TRACKING = 0xCAFE;
    private static final long TIMESTAMP = 0xA1B2_C3D4_E5F6L;

    private static final long U64_A = 0x8899_AABB_CCDD_EEFFL;
    private static final long U64_B = 0xF0E1_D2C3_B4A5_9687L;
    private static final long U64_C = 0x9122_3344_5566_7788L;
    private static final long U32_A = 0xF1E2_D3C4L;
    private static final long U32_B = 0x8A7B_6C5DL;
    private static final long U32_C = 0x9BAD_C0DEL;
    private static final long U32_D = 0xC0FF_EE11L;
    private static final long U32_E = 0xDEAD_BEEFL;
    private static final long U32_F = 0xFEED_FACEL;
    private static final String STOCK_TEXT = "MDGATE";
    private static final long STOCK = Alpha.pack8(STOCK_TEXT);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final ItchMessageDecoder decoder = new ItchMessageDecoder();
    private final RecordingItchHandler handler = new RecordingItchHandler();

    @BeforeEach
    void fillWithSentinel()
    {
        buffer.setMemory(0, buffer.capacity(), SENTINEL);
    }

    private <T extends ItchMessageFlyweight> T encode(final T flyweight)
    {
        flyweight.wrapForEncode(buffer, OFFSET).stockLocate(LOCATE).trackingNumber(TRACKING).timestamp(TIMESTAMP);
        return flyweight;
    }

    private static WireBytes expected(final char type, final int length)
    {
        return WireBytes.header(type, length, LOCATE, TRACKING, TIMESTAMP);
    }

    /**
     * Checks the encoded bytes, decodes them with the specification's length and returns the flyweight handed to
     * the expected callback, its header already checked.
     */
    private <T extends ItchMessageFlyweight> T decodeAs(
        final WireBytes expected, final String callback, final Class<T> type)
    {
        assertEncodedAs(expected);

        assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, OFFSET, expected.length(), handler));

        assertEquals(1, handler.calls);
        assertEquals(callback, handler.callback);
        assertEquals(1, decoder.decodedCount());
        assertEquals(0, decoder.malformedCount());
        assertSame(type, handler.message.getClass());
        final T message = type.cast(handler.message);
        assertEquals(expected.length(), message.length());
        assertEquals(expected.toBytes()[0], message.type());
        assertEquals(expected.length(), ItchMessageType.lengthOf(message.type()));
        assertEquals(LOCATE, message.stockLocate());
        assertEquals(TRACKING, message.trackingNumber());
        assertEquals(TIMESTAMP, message.timestamp());
        assertEquals(OFFSET, message.offset());
        return message;
    }

    private void assertEncodedAs(final WireBytes expected)
    {
        final byte[] actual = new byte[expected.length()];
        buffer.getBytes(OFFSET, actual);
        final HexFormat hex = HexFormat.of();
        assertEquals(hex.formatHex(expected.toBytes()), hex.formatHex(actual), "encoded bytes");
        for (int i = 0; i < buffer.capacity(); i++)
        {
            if (i < OFFSET || i >= OFFSET + expected.length())
            {
                assertEquals(SENTINEL, buffer.getByte(i), "byte " + i + " outside the message was written");
            }
        }
    }

    @Test
    void shouldRoundTripSystemEvent()
    {
        encode(new SystemEventFlyweight()).eventCode('Q');

        final SystemEventFlyweight m =
            decodeAs(expected('S', 12).ch(11, 'Q'), "onSystemEvent", SystemEventFlyweight.class);

        assertEquals('Q', m.eventCode());
    }

    @Test
    void shouldRoundTripStockDirectory()
    {
        encode(new StockDirectoryFlyweight())
            .stock(STOCK)
            .marketCategory('Q')
            .financialStatusIndicator('D')
            .roundLotSize(U32_A)
            .roundLotsOnly('Y')
            .issueClassification('C')
            .issueSubType(('Z' << 8) | 'B')
            .authenticity('P')
            .shortSaleThresholdIndicator('N')
            .ipoFlag('X')
            .luldReferencePriceTier('1')
            .etpFlag('E')
            .etpLeverageFactor(U32_B)
            .inverseIndicator('I');

        final StockDirectoryFlyweight m = decodeAs(
            expected('R', 39).alpha(11, STOCK_TEXT, 8).ch(19, 'Q').ch(20, 'D').u32(21, U32_A).ch(25, 'Y')
                .ch(26, 'C').alpha(27, "ZB", 2).ch(29, 'P').ch(30, 'N').ch(31, 'X').ch(32, '1').ch(33, 'E')
                .u32(34, U32_B).ch(38, 'I'),
            "onStockDirectory", StockDirectoryFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals('Q', m.marketCategory());
        assertEquals('D', m.financialStatusIndicator());
        assertEquals(U32_A, m.roundLotSize());
        assertEquals('Y', m.roundLotsOnly());
        assertEquals('C', m.issueClassification());
        assertEquals(('Z' << 8) | 'B', m.issueSubType());
        assertEquals('P', m.authenticity());
        assertEquals('N', m.shortSaleThresholdIndicator());
        assertEquals('X', m.ipoFlag());
        assertEquals('1', m.luldReferencePriceTier());
        assertEquals('E', m.etpFlag());
        assertEquals(U32_B, m.etpLeverageFactor());
        assertEquals('I', m.inverseIndicator());
    }

    @Test
    void shouldRoundTripStockTradingAction()
    {
        encode(new StockTradingActionFlyweight())
            .stock(STOCK).tradingState('H').reserved('R').reason(Alpha.pack4("T1"));

        final StockTradingActionFlyweight m = decodeAs(
            expected('H', 25).alpha(11, STOCK_TEXT, 8).ch(19, 'H').ch(20, 'R').alpha(21, "T1", 4),
            "onStockTradingAction", StockTradingActionFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals('H', m.tradingState());
        assertEquals('R', m.reserved());
        assertEquals("T1", Alpha.unpack4(m.reason()));
    }

    @Test
    void shouldRoundTripRegShoRestriction()
    {
        encode(new RegShoRestrictionFlyweight()).stock(STOCK).regShoAction('2');

        final RegShoRestrictionFlyweight m = decodeAs(
            expected('Y', 20).alpha(11, STOCK_TEXT, 8).ch(19, '2'),
            "onRegShoRestriction", RegShoRestrictionFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals('2', m.regShoAction());
    }

    @Test
    void shouldRoundTripMarketParticipantPosition()
    {
        encode(new MarketParticipantPositionFlyweight())
            .mpid(Alpha.pack4("NSDQ"))
            .stock(STOCK)
            .primaryMarketMaker('Y')
            .marketMakerMode('N')
            .marketParticipantState('A');

        final MarketParticipantPositionFlyweight m = decodeAs(
            expected('L', 26).alpha(11, "NSDQ", 4).alpha(15, STOCK_TEXT, 8).ch(23, 'Y').ch(24, 'N').ch(25, 'A'),
            "onMarketParticipantPosition", MarketParticipantPositionFlyweight.class);

        assertEquals("NSDQ", Alpha.unpack4(m.mpid()));
        assertEquals(STOCK, m.stock());
        assertEquals('Y', m.primaryMarketMaker());
        assertEquals('N', m.marketMakerMode());
        assertEquals('A', m.marketParticipantState());
    }

    @Test
    void shouldRoundTripMwcbDeclineLevel()
    {
        encode(new MwcbDeclineLevelFlyweight()).level1(U64_A).level2(U64_B).level3(U64_C);

        final MwcbDeclineLevelFlyweight m = decodeAs(
            expected('V', 35).u64(11, U64_A).u64(19, U64_B).u64(27, U64_C),
            "onMwcbDeclineLevel", MwcbDeclineLevelFlyweight.class);

        assertEquals(U64_A, m.level1());
        assertEquals(U64_B, m.level2());
        assertEquals(U64_C, m.level3());
    }

    @Test
    void shouldRoundTripMwcbStatus()
    {
        encode(new MwcbStatusFlyweight()).breachedLevel('3');

        final MwcbStatusFlyweight m =
            decodeAs(expected('W', 12).ch(11, '3'), "onMwcbStatus", MwcbStatusFlyweight.class);

        assertEquals('3', m.breachedLevel());
    }

    @Test
    void shouldRoundTripIpoQuotingPeriodUpdate()
    {
        encode(new IpoQuotingPeriodUpdateFlyweight())
            .stock(STOCK).ipoQuotationReleaseTime(U32_A).ipoQuotationReleaseQualifier('C').ipoPrice(U32_B);

        final IpoQuotingPeriodUpdateFlyweight m = decodeAs(
            expected('K', 28).alpha(11, STOCK_TEXT, 8).u32(19, U32_A).ch(23, 'C').u32(24, U32_B),
            "onIpoQuotingPeriodUpdate", IpoQuotingPeriodUpdateFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals(U32_A, m.ipoQuotationReleaseTime());
        assertEquals('C', m.ipoQuotationReleaseQualifier());
        assertEquals(U32_B, m.ipoPrice());
    }

    @Test
    void shouldRoundTripLuldAuctionCollar()
    {
        encode(new LuldAuctionCollarFlyweight())
            .stock(STOCK)
            .auctionCollarReferencePrice(U32_A)
            .upperAuctionCollarPrice(U32_B)
            .lowerAuctionCollarPrice(U32_C)
            .auctionCollarExtension(U32_D);

        final LuldAuctionCollarFlyweight m = decodeAs(
            expected('J', 35).alpha(11, STOCK_TEXT, 8).u32(19, U32_A).u32(23, U32_B).u32(27, U32_C)
                .u32(31, U32_D),
            "onLuldAuctionCollar", LuldAuctionCollarFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals(U32_A, m.auctionCollarReferencePrice());
        assertEquals(U32_B, m.upperAuctionCollarPrice());
        assertEquals(U32_C, m.lowerAuctionCollarPrice());
        assertEquals(U32_D, m.auctionCollarExtension());
    }

    @Test
    void shouldRoundTripOperationalHalt()
    {
        encode(new OperationalHaltFlyweight()).stock(STOCK).marketCode('B').operationalHaltAction('T');

        final OperationalHaltFlyweight m = decodeAs(
            expected('h', 21).alpha(11, STOCK_TEXT, 8).ch(19, 'B').ch(20, 'T'),
            "onOperationalHalt", OperationalHaltFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals('B', m.marketCode());
        assertEquals('T', m.operationalHaltAction());
    }

    @Test
    void shouldRoundTripAddOrder()
    {
        encode(new AddOrderFlyweight()).orderReference(U64_A).side('S').shares(U32_A).stock(STOCK).price(U32_B);

        final AddOrderFlyweight m = decodeAs(
            expected('A', 36).u64(11, U64_A).ch(19, 'S').u32(20, U32_A).alpha(24, STOCK_TEXT, 8).u32(32, U32_B),
            "onAddOrder", AddOrderFlyweight.class);

        assertEquals(U64_A, m.orderReference());
        assertEquals('S', m.side());
        assertEquals(U32_A, m.shares());
        assertEquals(STOCK, m.stock());
        assertEquals(U32_B, m.price());
    }

    @Test
    void shouldRoundTripAddOrderWithMpid()
    {
        final AddOrderMpidFlyweight encoder = encode(new AddOrderMpidFlyweight());
        encoder.attribution(Alpha.pack4("GSCO"));
        encoder.orderReference(U64_B).side('B').shares(U32_C).stock(STOCK).price(U32_D);

        final AddOrderMpidFlyweight m = decodeAs(
            expected('F', 40).u64(11, U64_B).ch(19, 'B').u32(20, U32_C).alpha(24, STOCK_TEXT, 8).u32(32, U32_D)
                .alpha(36, "GSCO", 4),
            "onAddOrderMpid", AddOrderMpidFlyweight.class);

        assertEquals(U64_B, m.orderReference());
        assertEquals('B', m.side());
        assertEquals(U32_C, m.shares());
        assertEquals(STOCK, m.stock());
        assertEquals(U32_D, m.price());
        assertEquals("GSCO", Alpha.unpack4(m.attribution()));
    }

    @Test
    void shouldRoundTripOrderExecuted()
    {
        encode(new OrderExecutedFlyweight()).orderReference(U64_A).executedShares(U32_A).matchNumber(U64_B);

        final OrderExecutedFlyweight m = decodeAs(
            expected('E', 31).u64(11, U64_A).u32(19, U32_A).u64(23, U64_B),
            "onOrderExecuted", OrderExecutedFlyweight.class);

        assertEquals(U64_A, m.orderReference());
        assertEquals(U32_A, m.executedShares());
        assertEquals(U64_B, m.matchNumber());
    }

    @Test
    void shouldRoundTripOrderExecutedWithPrice()
    {
        encode(new OrderExecutedWithPriceFlyweight())
            .orderReference(U64_C).executedShares(U32_E).matchNumber(U64_A).printable('N').executionPrice(U32_F);

        final OrderExecutedWithPriceFlyweight m = decodeAs(
            expected('C', 36).u64(11, U64_C).u32(19, U32_E).u64(23, U64_A).ch(31, 'N').u32(32, U32_F),
            "onOrderExecutedWithPrice", OrderExecutedWithPriceFlyweight.class);

        assertEquals(U64_C, m.orderReference());
        assertEquals(U32_E, m.executedShares());
        assertEquals(U64_A, m.matchNumber());
        assertEquals('N', m.printable());
        assertEquals(U32_F, m.executionPrice());
    }

    @Test
    void shouldRoundTripOrderCancel()
    {
        encode(new OrderCancelFlyweight()).orderReference(U64_B).cancelledShares(U32_C);

        final OrderCancelFlyweight m = decodeAs(
            expected('X', 23).u64(11, U64_B).u32(19, U32_C), "onOrderCancel", OrderCancelFlyweight.class);

        assertEquals(U64_B, m.orderReference());
        assertEquals(U32_C, m.cancelledShares());
    }

    @Test
    void shouldRoundTripOrderDelete()
    {
        encode(new OrderDeleteFlyweight()).orderReference(U64_C);

        final OrderDeleteFlyweight m =
            decodeAs(expected('D', 19).u64(11, U64_C), "onOrderDelete", OrderDeleteFlyweight.class);

        assertEquals(U64_C, m.orderReference());
    }

    @Test
    void shouldRoundTripOrderReplace()
    {
        encode(new OrderReplaceFlyweight())
            .originalOrderReference(U64_A).newOrderReference(U64_B).shares(U32_A).price(U32_B);

        final OrderReplaceFlyweight m = decodeAs(
            expected('U', 35).u64(11, U64_A).u64(19, U64_B).u32(27, U32_A).u32(31, U32_B),
            "onOrderReplace", OrderReplaceFlyweight.class);

        assertEquals(U64_A, m.originalOrderReference());
        assertEquals(U64_B, m.newOrderReference());
        assertEquals(U32_A, m.shares());
        assertEquals(U32_B, m.price());
    }

    @Test
    void shouldRoundTripTrade()
    {
        encode(new TradeFlyweight())
            .orderReference(U64_A).side('B').shares(U32_C).stock(STOCK).price(U32_D).matchNumber(U64_C);

        final TradeFlyweight m = decodeAs(
            expected('P', 44).u64(11, U64_A).ch(19, 'B').u32(20, U32_C).alpha(24, STOCK_TEXT, 8).u32(32, U32_D)
                .u64(36, U64_C),
            "onTrade", TradeFlyweight.class);

        assertEquals(U64_A, m.orderReference());
        assertEquals('B', m.side());
        assertEquals(U32_C, m.shares());
        assertEquals(STOCK, m.stock());
        assertEquals(U32_D, m.price());
        assertEquals(U64_C, m.matchNumber());
    }

    @Test
    void shouldRoundTripCrossTrade()
    {
        encode(new CrossTradeFlyweight())
            .shares(U64_B).stock(STOCK).crossPrice(U32_E).matchNumber(U64_C).crossType('O');

        final CrossTradeFlyweight m = decodeAs(
            expected('Q', 40).u64(11, U64_B).alpha(19, STOCK_TEXT, 8).u32(27, U32_E).u64(31, U64_C).ch(39, 'O'),
            "onCrossTrade", CrossTradeFlyweight.class);

        assertEquals(U64_B, m.shares());
        assertEquals(STOCK, m.stock());
        assertEquals(U32_E, m.crossPrice());
        assertEquals(U64_C, m.matchNumber());
        assertEquals('O', m.crossType());
    }

    @Test
    void shouldRoundTripBrokenTrade()
    {
        encode(new BrokenTradeFlyweight()).matchNumber(U64_A);

        final BrokenTradeFlyweight m =
            decodeAs(expected('B', 19).u64(11, U64_A), "onBrokenTrade", BrokenTradeFlyweight.class);

        assertEquals(U64_A, m.matchNumber());
    }

    @Test
    void shouldRoundTripNoii()
    {
        encode(new NoiiFlyweight())
            .pairedShares(U64_A)
            .imbalanceShares(U64_B)
            .imbalanceDirection('S')
            .stock(STOCK)
            .farPrice(U32_A)
            .nearPrice(U32_B)
            .currentReferencePrice(U32_C)
            .crossType('C')
            .priceVariationIndicator('L');

        final NoiiFlyweight m = decodeAs(
            expected('I', 50).u64(11, U64_A).u64(19, U64_B).ch(27, 'S').alpha(28, STOCK_TEXT, 8).u32(36, U32_A)
                .u32(40, U32_B).u32(44, U32_C).ch(48, 'C').ch(49, 'L'),
            "onNoii", NoiiFlyweight.class);

        assertEquals(U64_A, m.pairedShares());
        assertEquals(U64_B, m.imbalanceShares());
        assertEquals('S', m.imbalanceDirection());
        assertEquals(STOCK, m.stock());
        assertEquals(U32_A, m.farPrice());
        assertEquals(U32_B, m.nearPrice());
        assertEquals(U32_C, m.currentReferencePrice());
        assertEquals('C', m.crossType());
        assertEquals('L', m.priceVariationIndicator());
    }

    @Test
    void shouldRoundTripRetailPriceImprovement()
    {
        encode(new RetailPriceImprovementFlyweight()).stock(STOCK).interestFlag('A');

        final RetailPriceImprovementFlyweight m = decodeAs(
            expected('N', 20).alpha(11, STOCK_TEXT, 8).ch(19, 'A'),
            "onRetailPriceImprovement", RetailPriceImprovementFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals('A', m.interestFlag());
    }

    @Test
    void shouldRoundTripDirectListingCapitalRaise()
    {
        encode(new DirectListingCapitalRaiseFlyweight())
            .stock(STOCK)
            .openEligibilityStatus('Y')
            .minimumAllowablePrice(U32_A)
            .maximumAllowablePrice(U32_B)
            .nearExecutionPrice(U32_C)
            .nearExecutionTime(U64_A)
            .lowerPriceRangeCollar(U32_D)
            .upperPriceRangeCollar(U32_E);

        final DirectListingCapitalRaiseFlyweight m = decodeAs(
            expected('O', 48).alpha(11, STOCK_TEXT, 8).ch(19, 'Y').u32(20, U32_A).u32(24, U32_B).u32(28, U32_C)
                .u64(32, U64_A).u32(40, U32_D).u32(44, U32_E),
            "onDirectListingCapitalRaise", DirectListingCapitalRaiseFlyweight.class);

        assertEquals(STOCK, m.stock());
        assertEquals('Y', m.openEligibilityStatus());
        assertEquals(U32_A, m.minimumAllowablePrice());
        assertEquals(U32_B, m.maximumAllowablePrice());
        assertEquals(U32_C, m.nearExecutionPrice());
        assertEquals(U64_A, m.nearExecutionTime());
        assertEquals(U32_D, m.lowerPriceRangeCollar());
        assertEquals(U32_E, m.upperPriceRangeCollar());
    }
}
