package io.mdgate.core.itch;

/**
 * Notes which callback the decoder chose and the flyweight it passed, so a test can check both the dispatch
 * and every field.
 */
final class RecordingItchHandler implements ItchMessageHandler
{
    String callback;
    ItchMessageFlyweight message;
    int calls;

    private void record(final String name, final ItchMessageFlyweight flyweight)
    {
        callback = name;
        message = flyweight;
        calls++;
    }

    @Override
    public void onSystemEvent(final SystemEventFlyweight message)
    {
        record("onSystemEvent", message);
    }

    @Override
    public void onStockDirectory(final StockDirectoryFlyweight message)
    {
        record("onStockDirectory", message);
    }

    @Override
    public void onStockTradingAction(final StockTradingActionFlyweight message)
    {
        record("onStockTradingAction", message);
    }

    @Override
    public void onRegShoRestriction(final RegShoRestrictionFlyweight message)
    {
        record("onRegShoRestriction", message);
    }

    @Override
    public void onMarketParticipantPosition(final MarketParticipantPositionFlyweight message)
    {
        record("onMarketParticipantPosition", message);
    }

    @Override
    public void onMwcbDeclineLevel(final MwcbDeclineLevelFlyweight message)
    {
        record("onMwcbDeclineLevel", message);
    }

    @Override
    public void onMwcbStatus(final MwcbStatusFlyweight message)
    {
        record("onMwcbStatus", message);
    }

    @Override
    public void onIpoQuotingPeriodUpdate(final IpoQuotingPeriodUpdateFlyweight message)
    {
        record("onIpoQuotingPeriodUpdate", message);
    }

    @Override
    public void onLuldAuctionCollar(final LuldAuctionCollarFlyweight message)
    {
        record("onLuldAuctionCollar", message);
    }

    @Override
    public void onOperationalHalt(final OperationalHaltFlyweight message)
    {
        record("onOperationalHalt", message);
    }

    @Override
    public void onAddOrder(final AddOrderFlyweight message)
    {
        record("onAddOrder", message);
    }

    @Override
    public void onAddOrderMpid(final AddOrderMpidFlyweight message)
    {
        record("onAddOrderMpid", message);
    }

    @Override
    public void onOrderExecuted(final OrderExecutedFlyweight message)
    {
        record("onOrderExecuted", message);
    }

    @Override
    public void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight message)
    {
        record("onOrderExecutedWithPrice", message);
    }

    @Override
    public void onOrderCancel(final OrderCancelFlyweight message)
    {
        record("onOrderCancel", message);
    }

    @Override
    public void onOrderDelete(final OrderDeleteFlyweight message)
    {
        record("onOrderDelete", message);
    }

    @Override
    public void onOrderReplace(final OrderReplaceFlyweight message)
    {
        record("onOrderReplace", message);
    }

    @Override
    public void onTrade(final TradeFlyweight message)
    {
        record("onTrade", message);
    }

    @Override
    public void onCrossTrade(final CrossTradeFlyweight message)
    {
        record("onCrossTrade", message);
    }

    @Override
    public void onBrokenTrade(final BrokenTradeFlyweight message)
    {
        record("onBrokenTrade", message);
    }

    @Override
    public void onNoii(final NoiiFlyweight message)
    {
        record("onNoii", message);
    }

    @Override
    public void onRetailPriceImprovement(final RetailPriceImprovementFlyweight message)
    {
        record("onRetailPriceImprovement", message);
    }

    @Override
    public void onDirectListingCapitalRaise(final DirectListingCapitalRaiseFlyweight message)
    {
        record("onDirectListingCapitalRaise", message);
    }
}
