package io.mdgate.core.book;

import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.AddOrderMpidFlyweight;
import io.mdgate.core.itch.BrokenTradeFlyweight;
import io.mdgate.core.itch.CrossTradeFlyweight;
import io.mdgate.core.itch.DirectListingCapitalRaiseFlyweight;
import io.mdgate.core.itch.IpoQuotingPeriodUpdateFlyweight;
import io.mdgate.core.itch.ItchMessageFlyweight;
import io.mdgate.core.itch.LuldAuctionCollarFlyweight;
import io.mdgate.core.itch.MarketParticipantPositionFlyweight;
import io.mdgate.core.itch.MwcbDeclineLevelFlyweight;
import io.mdgate.core.itch.MwcbStatusFlyweight;
import io.mdgate.core.itch.NoiiFlyweight;
import io.mdgate.core.itch.OperationalHaltFlyweight;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderExecutedWithPriceFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;
import io.mdgate.core.itch.RegShoRestrictionFlyweight;
import io.mdgate.core.itch.RetailPriceImprovementFlyweight;
import io.mdgate.core.itch.StockDirectoryFlyweight;
import io.mdgate.core.itch.StockTradingActionFlyweight;
import io.mdgate.core.itch.SystemEventFlyweight;
import io.mdgate.core.itch.TradeFlyweight;
import org.agrona.MutableDirectBuffer;

/**
 * Test support: writes one ITCH 5.0 message of any type at a given offset of a buffer with the production
 * flyweights, and returns its length. Tracking number is always 0.
 */
public final class ItchMessageWriter
{
    public final SystemEventFlyweight systemEvent = new SystemEventFlyweight();
    public final StockDirectoryFlyweight stockDirectory = new StockDirectoryFlyweight();
    public final StockTradingActionFlyweight tradingAction = new StockTradingActionFlyweight();
    public final RegShoRestrictionFlyweight regSho = new RegShoRestrictionFlyweight();
    public final MarketParticipantPositionFlyweight participant = new MarketParticipantPositionFlyweight();
    public final MwcbDeclineLevelFlyweight mwcbLevel = new MwcbDeclineLevelFlyweight();
    public final MwcbStatusFlyweight mwcbStatus = new MwcbStatusFlyweight();
    public final IpoQuotingPeriodUpdateFlyweight ipo = new IpoQuotingPeriodUpdateFlyweight();
    public final LuldAuctionCollarFlyweight luld = new LuldAuctionCollarFlyweight();
    public final OperationalHaltFlyweight operationalHalt = new OperationalHaltFlyweight();
    public final AddOrderFlyweight addOrder = new AddOrderFlyweight();
    public final AddOrderMpidFlyweight addOrderMpid = new AddOrderMpidFlyweight();
    public final OrderExecutedFlyweight executed = new OrderExecutedFlyweight();
    public final OrderExecutedWithPriceFlyweight executedWithPrice = new OrderExecutedWithPriceFlyweight();
    public final OrderCancelFlyweight cancel = new OrderCancelFlyweight();
    public final OrderDeleteFlyweight delete = new OrderDeleteFlyweight();
    public final OrderReplaceFlyweight replace = new OrderReplaceFlyweight();
    public final TradeFlyweight trade = new TradeFlyweight();
    public final CrossTradeFlyweight crossTrade = new CrossTradeFlyweight();
    public final BrokenTradeFlyweight brokenTrade = new BrokenTradeFlyweight();
    public final NoiiFlyweight noii = new NoiiFlyweight();
    public final RetailPriceImprovementFlyweight retail = new RetailPriceImprovementFlyweight();
    public final DirectListingCapitalRaiseFlyweight directListing = new DirectListingCapitalRaiseFlyweight();

    private final MutableDirectBuffer buffer;

    public ItchMessageWriter(final MutableDirectBuffer buffer)
    {
        this.buffer = buffer;
    }

    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** Wraps a flyweight for encoding at the offset and writes the common header. */
    public <T extends ItchMessageFlyweight> T header(final T flyweight, final int offset, final int locate,
        final long timestamp)
    {
        flyweight.wrapForEncode(buffer, offset);
        flyweight.stockLocate(locate).trackingNumber(0).timestamp(timestamp);
        return flyweight;
    }

    public int addOrder(final int offset, final int locate, final long timestamp, final long reference,
        final char side, final long shares, final long stock, final long price)
    {
        header(addOrder, offset, locate, timestamp)
            .orderReference(reference).side(side).shares(shares).stock(stock).price(price);
        return AddOrderFlyweight.LENGTH;
    }

    public int addOrderMpid(final int offset, final int locate, final long timestamp, final long reference,
        final char side, final long shares, final long stock, final long price, final int attribution)
    {
        header(addOrderMpid, offset, locate, timestamp)
            .orderReference(reference).side(side).shares(shares).stock(stock).price(price);
        addOrderMpid.attribution(attribution);
        return AddOrderMpidFlyweight.LENGTH;
    }

    public int executed(final int offset, final int locate, final long timestamp, final long reference,
        final long shares, final long match)
    {
        header(executed, offset, locate, timestamp).orderReference(reference).executedShares(shares).matchNumber(match);
        return OrderExecutedFlyweight.LENGTH;
    }

    public int executedWithPrice(final int offset, final int locate, final long timestamp, final long reference,
        final long shares, final long match, final char printable, final long price)
    {
        header(executedWithPrice, offset, locate, timestamp)
            .orderReference(reference).executedShares(shares).matchNumber(match).printable(printable)
            .executionPrice(price);
        return OrderExecutedWithPriceFlyweight.LENGTH;
    }

    public int cancel(final int offset, final int locate, final long timestamp, final long reference,
        final long shares)
    {
        header(cancel, offset, locate, timestamp).orderReference(reference).cancelledShares(shares);
        return OrderCancelFlyweight.LENGTH;
    }

    public int delete(final int offset, final int locate, final long timestamp, final long reference)
    {
        header(delete, offset, locate, timestamp).orderReference(reference);
        return OrderDeleteFlyweight.LENGTH;
    }

    public int replace(final int offset, final int locate, final long timestamp, final long original,
        final long newReference, final long shares, final long price)
    {
        header(replace, offset, locate, timestamp)
            .originalOrderReference(original).newOrderReference(newReference).shares(shares).price(price);
        return OrderReplaceFlyweight.LENGTH;
    }

    public int trade(final int offset, final int locate, final long timestamp, final long reference,
        final char side, final long shares, final long stock, final long price, final long match)
    {
        header(trade, offset, locate, timestamp)
            .orderReference(reference).side(side).shares(shares).stock(stock).price(price).matchNumber(match);
        return TradeFlyweight.LENGTH;
    }

    public int crossTrade(final int offset, final int locate, final long timestamp, final long shares,
        final long stock, final long price, final long match, final char crossType)
    {
        header(crossTrade, offset, locate, timestamp)
            .shares(shares).stock(stock).crossPrice(price).matchNumber(match).crossType(crossType);
        return CrossTradeFlyweight.LENGTH;
    }

    public int brokenTrade(final int offset, final int locate, final long timestamp, final long match)
    {
        header(brokenTrade, offset, locate, timestamp).matchNumber(match);
        return BrokenTradeFlyweight.LENGTH;
    }

    public int systemEvent(final int offset, final long timestamp, final char code)
    {
        header(systemEvent, offset, 0, timestamp).eventCode(code);
        return SystemEventFlyweight.LENGTH;
    }

    public int stockDirectory(final int offset, final int locate, final long timestamp, final long stock,
        final long roundLot)
    {
        header(stockDirectory, offset, locate, timestamp)
            .stock(stock).marketCategory('Q').financialStatusIndicator('N').roundLotSize(roundLot)
            .roundLotsOnly('N').issueClassification('C').issueSubType(('Z' << 8) | ' ').authenticity('P')
            .shortSaleThresholdIndicator('N').ipoFlag(' ').luldReferencePriceTier('1').etpFlag('N')
            .etpLeverageFactor(0).inverseIndicator('N');
        return StockDirectoryFlyweight.LENGTH;
    }

    public int tradingAction(final int offset, final int locate, final long timestamp, final long stock,
        final char state, final int reason)
    {
        header(tradingAction, offset, locate, timestamp).stock(stock).tradingState(state).reserved(' ').reason(reason);
        return StockTradingActionFlyweight.LENGTH;
    }

    public int regSho(final int offset, final int locate, final long timestamp, final long stock, final char action)
    {
        header(regSho, offset, locate, timestamp).stock(stock).regShoAction(action);
        return RegShoRestrictionFlyweight.LENGTH;
    }

    public int participant(final int offset, final int locate, final long timestamp, final int mpid,
        final long stock, final char primary, final char mode, final char state)
    {
        header(participant, offset, locate, timestamp)
            .mpid(mpid).stock(stock).primaryMarketMaker(primary).marketMakerMode(mode).marketParticipantState(state);
        return MarketParticipantPositionFlyweight.LENGTH;
    }

    public int mwcbLevel(final int offset, final long timestamp, final long level1, final long level2,
        final long level3)
    {
        header(mwcbLevel, offset, 0, timestamp).level1(level1).level2(level2).level3(level3);
        return MwcbDeclineLevelFlyweight.LENGTH;
    }

    public int mwcbStatus(final int offset, final long timestamp, final char level)
    {
        header(mwcbStatus, offset, 0, timestamp).breachedLevel(level);
        return MwcbStatusFlyweight.LENGTH;
    }

    public int ipo(final int offset, final int locate, final long timestamp, final long stock,
        final long releaseSeconds, final char qualifier, final long price)
    {
        header(ipo, offset, locate, timestamp)
            .stock(stock).ipoQuotationReleaseTime(releaseSeconds).ipoQuotationReleaseQualifier(qualifier).ipoPrice(price);
        return IpoQuotingPeriodUpdateFlyweight.LENGTH;
    }

    public int luld(final int offset, final int locate, final long timestamp, final long stock,
        final long reference, final long upper, final long lower, final long extension)
    {
        header(luld, offset, locate, timestamp)
            .stock(stock).auctionCollarReferencePrice(reference).upperAuctionCollarPrice(upper)
            .lowerAuctionCollarPrice(lower).auctionCollarExtension(extension);
        return LuldAuctionCollarFlyweight.LENGTH;
    }

    public int operationalHalt(final int offset, final int locate, final long timestamp, final long stock,
        final char market, final char action)
    {
        header(operationalHalt, offset, locate, timestamp).stock(stock).marketCode(market).operationalHaltAction(action);
        return OperationalHaltFlyweight.LENGTH;
    }

    public int noii(final int offset, final int locate, final long timestamp, final long stock, final long paired,
        final long imbalance, final char direction, final long far, final long near, final long reference,
        final char crossType, final char variation)
    {
        header(noii, offset, locate, timestamp)
            .pairedShares(paired).imbalanceShares(imbalance).imbalanceDirection(direction).stock(stock)
            .farPrice(far).nearPrice(near).currentReferencePrice(reference).crossType(crossType)
            .priceVariationIndicator(variation);
        return NoiiFlyweight.LENGTH;
    }

    public int retail(final int offset, final int locate, final long timestamp, final long stock, final char flag)
    {
        header(retail, offset, locate, timestamp).stock(stock).interestFlag(flag);
        return RetailPriceImprovementFlyweight.LENGTH;
    }

    public int directListing(final int offset, final int locate, final long timestamp, final long stock,
        final char eligible, final long min, final long max, final long near, final long nearTime,
        final long lower, final long upper)
    {
        header(directListing, offset, locate, timestamp)
            .stock(stock).openEligibilityStatus(eligible).minimumAllowablePrice(min).maximumAllowablePrice(max)
            .nearExecutionPrice(near).nearExecutionTime(nearTime).lowerPriceRangeCollar(lower)
            .upperPriceRangeCollar(upper);
        return DirectListingCapitalRaiseFlyweight.LENGTH;
    }
}
