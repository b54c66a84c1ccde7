package io.mdgate.core.itch;

/**
 * LULD Auction Collar ('J', 35 bytes): the price collars of a limit-up/limit-down reopening auction.
 * <pre>
 *   11 stock (8) 19 auctionCollarReferencePrice (Price(4)) 23 upperAuctionCollarPrice (Price(4))
 *   27 lowerAuctionCollarPrice (Price(4)) 31 auctionCollarExtension (u32)
 * </pre>
 */
public final class LuldAuctionCollarFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.LULD_AUCTION_COLLAR;
    public static final int LENGTH = 35;

    public static final int STOCK_OFFSET = 11;
    public static final int AUCTION_COLLAR_REFERENCE_PRICE_OFFSET = 19;
    public static final int UPPER_AUCTION_COLLAR_PRICE_OFFSET = 23;
    public static final int LOWER_AUCTION_COLLAR_PRICE_OFFSET = 27;
    public static final int AUCTION_COLLAR_EXTENSION_OFFSET = 31;

    @Override
    public byte type()
    {
        return TYPE;
    }

    @Override
    public int length()
    {
        return LENGTH;
    }

    /** @return packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public LuldAuctionCollarFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long auctionCollarReferencePrice()
    {
        return u32(AUCTION_COLLAR_REFERENCE_PRICE_OFFSET);
    }

    public LuldAuctionCollarFlyweight auctionCollarReferencePrice(final long value)
    {
        u32(AUCTION_COLLAR_REFERENCE_PRICE_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long upperAuctionCollarPrice()
    {
        return u32(UPPER_AUCTION_COLLAR_PRICE_OFFSET);
    }

    public LuldAuctionCollarFlyweight upperAuctionCollarPrice(final long value)
    {
        u32(UPPER_AUCTION_COLLAR_PRICE_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long lowerAuctionCollarPrice()
    {
        return u32(LOWER_AUCTION_COLLAR_PRICE_OFFSET);
    }

    public LuldAuctionCollarFlyweight lowerAuctionCollarPrice(final long value)
    {
        u32(LOWER_AUCTION_COLLAR_PRICE_OFFSET, value);
        return this;
    }

    public long auctionCollarExtension()
    {
        return u32(AUCTION_COLLAR_EXTENSION_OFFSET);
    }

    public LuldAuctionCollarFlyweight auctionCollarExtension(final long value)
    {
        u32(AUCTION_COLLAR_EXTENSION_OFFSET, value);
        return this;
    }
}
