package io.mdgate.core.itch;

import org.agrona.DirectBuffer;

/**
 * Decodes one ITCH 5.0 message at a time and dispatches it to an {@link ItchMessageHandler} through a
 * preallocated flyweight per type. Bad input is a return code and a counter, never an exception: an unknown
 * type byte is {@link #UNKNOWN_TYPE}, a length that disagrees with the type is {@link #LENGTH_MISMATCH}.
 * Allocation-free. Not thread-safe: one decoder per thread.
 */
public final class ItchMessageDecoder
{
    /** The message was decoded and handed to the handler. */
    public static final int OK = 0;
    /** The first byte is not one of the 23 ITCH 5.0 types. */
    public static final int UNKNOWN_TYPE = -1;
    /**
     * The length given for the message is not the length its type has, or the message would not lie inside the
     * buffer (checked here so that no handler can read past it, even with Agrona's bounds checks disabled).
     */
    public static final int LENGTH_MISMATCH = -2;

    private final SystemEventFlyweight systemEvent = new SystemEventFlyweight();
    private final StockDirectoryFlyweight stockDirectory = new StockDirectoryFlyweight();
    private final StockTradingActionFlyweight stockTradingAction = new StockTradingActionFlyweight();
    private final RegShoRestrictionFlyweight regShoRestriction = new RegShoRestrictionFlyweight();
    private final MarketParticipantPositionFlyweight marketParticipantPosition = new MarketParticipantPositionFlyweight();
    private final MwcbDeclineLevelFlyweight mwcbDeclineLevel = new MwcbDeclineLevelFlyweight();
    private final MwcbStatusFlyweight mwcbStatus = new MwcbStatusFlyweight();
    private final IpoQuotingPeriodUpdateFlyweight ipoQuotingPeriodUpdate = new IpoQuotingPeriodUpdateFlyweight();
    private final LuldAuctionCollarFlyweight luldAuctionCollar = new LuldAuctionCollarFlyweight();
    private final OperationalHaltFlyweight operationalHalt = new OperationalHaltFlyweight();
    private final AddOrderFlyweight addOrder = new AddOrderFlyweight();
    private final AddOrderMpidFlyweight addOrderMpid = new AddOrderMpidFlyweight();
    private final OrderExecutedFlyweight orderExecuted = new OrderExecutedFlyweight();
    private final OrderExecutedWithPriceFlyweight orderExecutedWithPrice = new OrderExecutedWithPriceFlyweight();
    private final OrderCancelFlyweight orderCancel = new OrderCancelFlyweight();
    private final OrderDeleteFlyweight orderDelete = new OrderDeleteFlyweight();
    private final OrderReplaceFlyweight orderReplace = new OrderReplaceFlyweight();
    private final TradeFlyweight trade = new TradeFlyweight();
    private final CrossTradeFlyweight crossTrade = new CrossTradeFlyweight();
    private final BrokenTradeFlyweight brokenTrade = new BrokenTradeFlyweight();
    private final NoiiFlyweight noii = new NoiiFlyweight();
    private final RetailPriceImprovementFlyweight retailPriceImprovement = new RetailPriceImprovementFlyweight();
    private final DirectListingCapitalRaiseFlyweight directListingCapitalRaise = new DirectListingCapitalRaiseFlyweight();

    private long decodedCount;
    private long unknownTypeCount;
    private long lengthMismatchCount;

    /**
     * @param buffer  holding the message.
     * @param offset  of its type byte.
     * @param length  of the message as framed (MoldUDP64 block length or file length prefix).
     * @param handler to receive the message.
     * @return {@link #OK}, {@link #UNKNOWN_TYPE} or {@link #LENGTH_MISMATCH}; malformed input never throws.
     */
    public int decode(final DirectBuffer buffer, final int offset, final int length, final ItchMessageHandler handler)
    {
        if (length < 1 || offset < 0 || length > buffer.capacity() - offset)
        {
            lengthMismatchCount++;
            return LENGTH_MISMATCH;
        }
        final byte type = buffer.getByte(offset);
        final int expected = ItchMessageType.lengthOf(type);
        if (expected == 0)
        {
            unknownTypeCount++;
            return UNKNOWN_TYPE;
        }
        if (expected != length)
        {
            lengthMismatchCount++;
            return LENGTH_MISMATCH;
        }

        switch (type)
        {
            case 'A':
                addOrder.wrap(buffer, offset);
                handler.onAddOrder(addOrder);
                break;
            case 'D':
                orderDelete.wrap(buffer, offset);
                handler.onOrderDelete(orderDelete);
                break;
            case 'U':
                orderReplace.wrap(buffer, offset);
                handler.onOrderReplace(orderReplace);
                break;
            case 'E':
                orderExecuted.wrap(buffer, offset);
                handler.onOrderExecuted(orderExecuted);
                break;
            case 'X':
                orderCancel.wrap(buffer, offset);
                handler.onOrderCancel(orderCancel);
                break;
            default:
                return decodeOther(type, buffer, offset, handler);
        }
        decodedCount++;
        return OK;
    }

    /**
     * Every type but the five order events that make up most of a day. Kept out of {@link #decode} so that its
     * bytecode stays small enough for the JIT to inline it into the caller's loop (HotSpot inlines a hot call of up
     * to 325 bytes; the whole switch was 840), which lets a handler's field reads be compiled with the caller's work.
     */
    private int decodeOther(
        final byte type, final DirectBuffer buffer, final int offset, final ItchMessageHandler handler)
    {
        switch (type)
        {
            case 'S':
                systemEvent.wrap(buffer, offset);
                handler.onSystemEvent(systemEvent);
                break;
            case 'R':
                stockDirectory.wrap(buffer, offset);
                handler.onStockDirectory(stockDirectory);
                break;
            case 'H':
                stockTradingAction.wrap(buffer, offset);
                handler.onStockTradingAction(stockTradingAction);
                break;
            case 'Y':
                regShoRestriction.wrap(buffer, offset);
                handler.onRegShoRestriction(regShoRestriction);
                break;
            case 'L':
                marketParticipantPosition.wrap(buffer, offset);
                handler.onMarketParticipantPosition(marketParticipantPosition);
                break;
            case 'V':
                mwcbDeclineLevel.wrap(buffer, offset);
                handler.onMwcbDeclineLevel(mwcbDeclineLevel);
                break;
            case 'W':
                mwcbStatus.wrap(buffer, offset);
                handler.onMwcbStatus(mwcbStatus);
                break;
            case 'K':
                ipoQuotingPeriodUpdate.wrap(buffer, offset);
                handler.onIpoQuotingPeriodUpdate(ipoQuotingPeriodUpdate);
                break;
            case 'J':
                luldAuctionCollar.wrap(buffer, offset);
                handler.onLuldAuctionCollar(luldAuctionCollar);
                break;
            case 'h':
                operationalHalt.wrap(buffer, offset);
                handler.onOperationalHalt(operationalHalt);
                break;
            case 'F':
                addOrderMpid.wrap(buffer, offset);
                handler.onAddOrderMpid(addOrderMpid);
                break;
            case 'C':
                orderExecutedWithPrice.wrap(buffer, offset);
                handler.onOrderExecutedWithPrice(orderExecutedWithPrice);
                break;
            case 'P':
                trade.wrap(buffer, offset);
                handler.onTrade(trade);
                break;
            case 'Q':
                crossTrade.wrap(buffer, offset);
                handler.onCrossTrade(crossTrade);
                break;
            case 'B':
                brokenTrade.wrap(buffer, offset);
                handler.onBrokenTrade(brokenTrade);
                break;
            case 'I':
                noii.wrap(buffer, offset);
                handler.onNoii(noii);
                break;
            case 'N':
                retailPriceImprovement.wrap(buffer, offset);
                handler.onRetailPriceImprovement(retailPriceImprovement);
                break;
            case 'O':
                directListingCapitalRaise.wrap(buffer, offset);
                handler.onDirectListingCapitalRaise(directListingCapitalRaise);
                break;
            default:
                unknownTypeCount++;
                return UNKNOWN_TYPE;
        }
        decodedCount++;
        return OK;
    }

    public long decodedCount()
    {
        return decodedCount;
    }

    public long unknownTypeCount()
    {
        return unknownTypeCount;
    }

    public long lengthMismatchCount()
    {
        return lengthMismatchCount;
    }

    /** @return messages refused for either reason. */
    public long malformedCount()
    {
        return unknownTypeCount + lengthMismatchCount;
    }
}
