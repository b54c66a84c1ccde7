package io.mdgate.egress.protocol;

import io.mdgate.core.tick.sbe.TickEncoder;

/**
 * Offsets of the tick fields egress reads without a full decoder (the SBE schema in gateway-core is the source of
 * truth; these are checked against the generated codec by the tests).
 */
public final class TickLayout
{
    public static final int LENGTH = TickEncoder.BLOCK_LENGTH;
    public static final int GATEWAY_SEQUENCE_OFFSET = TickEncoder.gatewaySequenceEncodingOffset();
    public static final int EXCHANGE_TIMESTAMP_OFFSET = TickEncoder.exchangeTimestampEncodingOffset();
    public static final int RECEIVE_TIMESTAMP_OFFSET = TickEncoder.receiveTimestampEncodingOffset();
    public static final int ORDER_REFERENCE_OFFSET = TickEncoder.orderReferenceEncodingOffset();
    public static final int MATCH_OR_NEW_REFERENCE_OFFSET = TickEncoder.matchOrNewReferenceEncodingOffset();
    public static final int PRICE_OFFSET = TickEncoder.priceEncodingOffset();
    public static final int QUANTITY_OFFSET = TickEncoder.quantityEncodingOffset();
    public static final int INSTRUMENT_ID_OFFSET = TickEncoder.instrumentIdEncodingOffset();
    public static final int FLAGS_OFFSET = TickEncoder.flagsEncodingOffset();
    public static final int EVENT_TYPE_OFFSET = TickEncoder.eventTypeEncodingOffset();
    public static final int SIDE_OFFSET = TickEncoder.sideEncodingOffset();
    /** Bit of {@code flags} set on a tick sent from the recovery source rather than live. */
    public static final short REPLAYED_FLAG = 1 << 7;
    /** TickFlags {@code snapshot}: the tick is part of a late-join snapshot, carrying the snapshot's sequence. */
    public static final short SNAPSHOT_FLAG = 1 << 10;
    /** Instrument id of market-wide events, which every consumer receives. */
    public static final int MARKET_WIDE = 0;
    /** Largest instrument id (uint16). */
    public static final int MAX_INSTRUMENT_ID = 0xFFFF;

    private TickLayout()
    {
    }
}
