package io.mdgate.core.itch;

/**
 * Receives decoded ITCH 5.0 messages from {@link ItchMessageDecoder}, one callback per type. The flyweight passed
 * is only valid during the call. Every method does nothing by default, so a handler implements what it needs.
 */
public interface ItchMessageHandler
{
    /** @param message a 'S' message. */
    default void onSystemEvent(final SystemEventFlyweight message)
    {
    }

    /** @param message a 'R' message. */
    default void onStockDirectory(final StockDirectoryFlyweight message)
    {
    }

    /** @param message a 'H' message. */
    default void onStockTradingAction(final StockTradingActionFlyweight message)
    {
    }

    /** @param message a 'Y' message. */
    default void onRegShoRestriction(final RegShoRestrictionFlyweight message)
    {
    }

    /** @param message a 'L' message. */
    default void onMarketParticipantPosition(final MarketParticipantPositionFlyweight message)
    {
    }

    /** @param message a 'V' message. */
    default void onMwcbDeclineLevel(final MwcbDeclineLevelFlyweight message)
    {
    }

    /** @param message a 'W' message. */
    default void onMwcbStatus(final MwcbStatusFlyweight message)
    {
    }

    /** @param message a 'K' message. */
    default void onIpoQuotingPeriodUpdate(final IpoQuotingPeriodUpdateFlyweight message)
    {
    }

    /** @param message a 'J' message. */
    default void onLuldAuctionCollar(final LuldAuctionCollarFlyweight message)
    {
    }

    /** @param message a 'h' message. */
    default void onOperationalHalt(final OperationalHaltFlyweight message)
    {
    }

    /** @param message a 'A' message. */
    default void onAddOrder(final AddOrderFlyweight message)
    {
    }

    /** @param message a 'F' message. */
    default void onAddOrderMpid(final AddOrderMpidFlyweight message)
    {
    }

    /** @param message a 'E' message. */
    default void onOrderExecuted(final OrderExecutedFlyweight message)
    {
    }

    /** @param message a 'C' message. */
    default void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight message)
    {
    }

    /** @param message a 'X' message. */
    default void onOrderCancel(final OrderCancelFlyweight message)
    {
    }

    /** @param message a 'D' message. */
    default void onOrderDelete(final OrderDeleteFlyweight message)
    {
    }

    /** @param message a 'U' message. */
    default void onOrderReplace(final OrderReplaceFlyweight message)
    {
    }

    /** @param message a 'P' message. */
    default void onTrade(final TradeFlyweight message)
    {
    }

    /** @param message a 'Q' message. */
    default void onCrossTrade(final CrossTradeFlyweight message)
    {
    }

    /** @param message a 'B' message. */
    default void onBrokenTrade(final BrokenTradeFlyweight message)
    {
    }

    /** @param message a 'I' message. */
    default void onNoii(final NoiiFlyweight message)
    {
    }

    /** @param message a 'N' message. */
    default void onRetailPriceImprovement(final RetailPriceImprovementFlyweight message)
    {
    }

    /** @param message a 'O' message. */
    default void onDirectListingCapitalRaise(final DirectListingCapitalRaiseFlyweight message)
    {
    }
}
