package io.mdgate.core.sim;

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
 * Writes complete ITCH 5.0 messages (header and body) through one preallocated flyweight per type. Every
 * method writes at {@code offset} and returns the message length. The tracking number is a stand-in for the
 * exchange's matching-engine partition: 0 for market-wide messages, 1 to 8 by stock locate otherwise.
 * Allocation-free. Not thread-safe.
 */
final class MessageComposer
{
    private final SystemEventFlyweight systemEvent = new SystemEventFlyweight();
    private final StockDirectoryFlyweight stockDirectory = new StockDirectoryFlyweight();
    private final StockTradingActionFlyweight tradingAction = new StockTradingActionFlyweight();
    private final RegShoRestrictionFlyweight regSho = new RegShoRestrictionFlyweight();
    private final MarketParticipantPositionFlyweight participant = new MarketParticipantPositionFlyweight();
    private final MwcbDeclineLevelFlyweight mwcbDecline = new MwcbDeclineLevelFlyweight();
    private final MwcbStatusFlyweight mwcbStatus = new MwcbStatusFlyweight();
    private final IpoQuotingPeriodUpdateFlyweight ipo = new IpoQuotingPeriodUpdateFlyweight();
    private final LuldAuctionCollarFlyweight collar = new LuldAuctionCollarFlyweight();
    private final OperationalHaltFlyweight operationalHalt = new OperationalHaltFlyweight();
    private final AddOrderFlyweight addOrder = new AddOrderFlyweight();
    private final AddOrderMpidFlyweight addOrderMpid = new AddOrderMpidFlyweight();
    private final OrderExecutedFlyweight executed = new OrderExecutedFlyweight();
    private final OrderExecutedWithPriceFlyweight executedWithPrice = new OrderExecutedWithPriceFlyweight();
    private final OrderCancelFlyweight cancel = new OrderCancelFlyweight();
    private final OrderDeleteFlyweight delete = new OrderDeleteFlyweight();
    private final OrderReplaceFlyweight replace = new OrderReplaceFlyweight();
    private final TradeFlyweight trade = new TradeFlyweight();
    private final CrossTradeFlyweight cross = new CrossTradeFlyweight();
    private final BrokenTradeFlyweight broken = new BrokenTradeFlyweight();
    private final NoiiFlyweight noii = new NoiiFlyweight();
    private final RetailPriceImprovementFlyweight retail = new RetailPriceImprovementFlyweight();
    private final DirectListingCapitalRaiseFlyweight directListing = new DirectListingCapitalRaiseFlyweight();

    private static int header(
        final ItchMessageFlyweight flyweight,
        final MutableDirectBuffer buffer,
        final int offset,
        final int locate,
        final long timestamp)
    {
        flyweight.wrapForEncode(buffer, offset);
        flyweight.stockLocate(locate).trackingNumber(locate == 0 ? 0 : 1 + (locate & 7)).timestamp(timestamp);
        return flyweight.length();
    }

    int systemEvent(final MutableDirectBuffer buffer, final int offset, final long ts, final char code)
    {
        final int length = header(systemEvent, buffer, offset, 0, ts);
        systemEvent.eventCode(code);
        return length;
    }

    int stockDirectory(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final char marketCategory, final char luldTier, final boolean etp)
    {
        final int length = header(stockDirectory, buffer, offset, locate, ts);
        stockDirectory.stock(stock).marketCategory(marketCategory).financialStatusIndicator('N')
            .roundLotSize(100).roundLotsOnly('N').issueClassification(etp ? 'Q' : 'C')
            .issueSubType(etp ? ('E' << 8 | 'T') : ('Z' << 8 | ' ')).authenticity('P')
            .shortSaleThresholdIndicator('N').ipoFlag('N').luldReferencePriceTier(luldTier)
            .etpFlag(etp ? 'Y' : 'N').etpLeverageFactor(etp ? 1 : 0).inverseIndicator('N');
        return length;
    }

    int tradingAction(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final char state, final int reason)
    {
        final int length = header(tradingAction, buffer, offset, locate, ts);
        tradingAction.stock(stock).tradingState(state).reserved(' ').reason(reason);
        return length;
    }

    int regSho(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final char action)
    {
        final int length = header(regSho, buffer, offset, locate, ts);
        regSho.stock(stock).regShoAction(action);
        return length;
    }

    int participantPosition(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final int mpid, final char primary, final char mode, final char state)
    {
        final int length = header(participant, buffer, offset, locate, ts);
        participant.mpid(mpid).stock(stock).primaryMarketMaker(primary).marketMakerMode(mode)
            .marketParticipantState(state);
        return length;
    }

    int mwcbDeclineLevel(
        final MutableDirectBuffer buffer, final int offset, final long ts, final long level1, final long level2,
        final long level3)
    {
        final int length = header(mwcbDecline, buffer, offset, 0, ts);
        mwcbDecline.level1(level1).level2(level2).level3(level3);
        return length;
    }

    int mwcbStatus(final MutableDirectBuffer buffer, final int offset, final long ts, final char breachedLevel)
    {
        final int length = header(mwcbStatus, buffer, offset, 0, ts);
        mwcbStatus.breachedLevel(breachedLevel);
        return length;
    }

    int ipoQuotingPeriodUpdate(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final long releaseSeconds, final char qualifier, final long ipoPrice)
    {
        final int length = header(ipo, buffer, offset, locate, ts);
        ipo.stock(stock).ipoQuotationReleaseTime(releaseSeconds).ipoQuotationReleaseQualifier(qualifier)
            .ipoPrice(ipoPrice);
        return length;
    }

    int luldAuctionCollar(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final long reference, final long upper, final long lower, final long extension)
    {
        final int length = header(collar, buffer, offset, locate, ts);
        collar.stock(stock).auctionCollarReferencePrice(reference).upperAuctionCollarPrice(upper)
            .lowerAuctionCollarPrice(lower).auctionCollarExtension(extension);
        return length;
    }

    int operationalHalt(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final char marketCode, final char action)
    {
        final int length = header(operationalHalt, buffer, offset, locate, ts);
        operationalHalt.stock(stock).marketCode(marketCode).operationalHaltAction(action);
        return length;
    }

    int addOrder(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long ref,
        final char side, final long shares, final long stock, final long price)
    {
        final int length = header(addOrder, buffer, offset, locate, ts);
        addOrder.orderReference(ref).side(side).shares(shares).stock(stock).price(price);
        return length;
    }

    int addOrderMpid(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long ref,
        final char side, final long shares, final long stock, final long price, final int attribution)
    {
        final int length = header(addOrderMpid, buffer, offset, locate, ts);
        addOrderMpid.orderReference(ref).side(side).shares(shares).stock(stock).price(price);
        addOrderMpid.attribution(attribution);
        return length;
    }

    int orderExecuted(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long ref,
        final long shares, final long match)
    {
        final int length = header(executed, buffer, offset, locate, ts);
        executed.orderReference(ref).executedShares(shares).matchNumber(match);
        return length;
    }

    int orderExecutedWithPrice(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long ref,
        final long shares, final long match, final char printable, final long price)
    {
        final int length = header(executedWithPrice, buffer, offset, locate, ts);
        executedWithPrice.orderReference(ref).executedShares(shares).matchNumber(match).printable(printable)
            .executionPrice(price);
        return length;
    }

    int orderCancel(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long ref,
        final long shares)
    {
        final int length = header(cancel, buffer, offset, locate, ts);
        cancel.orderReference(ref).cancelledShares(shares);
        return length;
    }

    int orderDelete(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long ref)
    {
        final int length = header(delete, buffer, offset, locate, ts);
        delete.orderReference(ref);
        return length;
    }

    int orderReplace(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long originalRef,
        final long newRef, final long shares, final long price)
    {
        final int length = header(replace, buffer, offset, locate, ts);
        replace.originalOrderReference(originalRef).newOrderReference(newRef).shares(shares).price(price);
        return length;
    }

    int trade(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final char side,
        final long shares, final long stock, final long price, final long match)
    {
        final int length = header(trade, buffer, offset, locate, ts);
        trade.orderReference(0).side(side).shares(shares).stock(stock).price(price).matchNumber(match);
        return length;
    }

    int crossTrade(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long shares,
        final long stock, final long price, final long match, final char crossType)
    {
        final int length = header(cross, buffer, offset, locate, ts);
        cross.shares(shares).stock(stock).crossPrice(price).matchNumber(match).crossType(crossType);
        return length;
    }

    int brokenTrade(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long match)
    {
        final int length = header(broken, buffer, offset, locate, ts);
        broken.matchNumber(match);
        return length;
    }

    int noii(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final long paired, final long imbalance, final char direction, final long farPrice, final long nearPrice,
        final long referencePrice, final char crossType, final char variation)
    {
        final int length = header(noii, buffer, offset, locate, ts);
        noii.pairedShares(paired).imbalanceShares(imbalance).imbalanceDirection(direction).stock(stock)
            .farPrice(farPrice).nearPrice(nearPrice).currentReferencePrice(referencePrice).crossType(crossType)
            .priceVariationIndicator(variation);
        return length;
    }

    int retailInterest(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final char flag)
    {
        final int length = header(retail, buffer, offset, locate, ts);
        retail.stock(stock).interestFlag(flag);
        return length;
    }

    int directListing(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int locate, final long stock,
        final char eligible, final long minPrice, final long maxPrice, final long nearPrice, final long nearTime,
        final long lowerCollar, final long upperCollar)
    {
        final int length = header(directListing, buffer, offset, locate, ts);
        directListing.stock(stock).openEligibilityStatus(eligible).minimumAllowablePrice(minPrice)
            .maximumAllowablePrice(maxPrice).nearExecutionPrice(nearPrice).nearExecutionTime(nearTime)
            .lowerPriceRangeCollar(lowerCollar).upperPriceRangeCollar(upperCollar);
        return length;
    }
}
