package io.mdgate.egress.protocol;

import io.mdgate.core.tick.sbe.EventType;

/**
 * Which ticks of an instrument a subscription takes. Every view takes the instrument's non-order ticks (trades,
 * trading status, instrument, imbalance, ...) and its {@code TOP_OF_BOOK} ticks; market-wide ticks (instrument 0:
 * system events, {@code GAP}, {@code SESSION}) reach every consumer whatever its views.
 * <ul>
 *   <li>{@link #ALL}: everything, order events and {@code LEVEL} ticks included (the default, as before views);</li>
 *   <li>{@link #TOP}: neither order events nor {@code LEVEL} ticks;</li>
 *   <li>{@link #DEPTH}: {@code LEVEL} ticks, no order events;</li>
 *   <li>{@link #ORDERS}: order events ({@code ADD}, {@code EXECUTE}, {@code EXECUTE_WITH_PRICE}, {@code CANCEL},
 *       {@code DELETE}, {@code REPLACE}), no {@code LEVEL} ticks.</li>
 * </ul>
 * A view travels as one byte ({@link #code()}, {@link ControlMessageDescriptor}); 0 is {@link #ALL}, so a message
 * from before views means what it always did. Filtering is a mask test: {@link #mask()} against
 * {@link #classOf(byte)}. Immutable; safe from any thread; {@link #classOf} does not allocate.
 */
public enum SubscriptionView
{
    ALL(0, SubscriptionView.OTHER | SubscriptionView.ORDER | SubscriptionView.LEVEL),
    TOP(1, SubscriptionView.OTHER),
    DEPTH(2, SubscriptionView.OTHER | SubscriptionView.LEVEL),
    ORDERS(3, SubscriptionView.OTHER | SubscriptionView.ORDER);

    /** Class of every tick that is neither an order event nor a LEVEL tick. */
    public static final int OTHER = 1;
    /** Class of the order events. */
    public static final int ORDER = 2;
    /** Class of the LEVEL ticks. */
    public static final int LEVEL = 4;
    /** Mask of every class: what a market-wide tick is always given. */
    public static final int EVERY_CLASS = OTHER | ORDER | LEVEL;

    private static final SubscriptionView[] BY_CODE = { ALL, TOP, DEPTH, ORDERS };
    private static final byte[] CLASSES = classes();

    private final int code;
    private final int mask;

    SubscriptionView(final int code, final int mask)
    {
        this.code = code;
        this.mask = mask;
    }

    /** @return the byte that carries this view in SUBSCRIBE and SUBSCRIPTION. */
    public int code()
    {
        return code;
    }

    /** @return the tick classes this view takes ({@link #OTHER}, {@link #ORDER}, {@link #LEVEL}). */
    public int mask()
    {
        return mask;
    }

    /** @return whether this view takes ticks of that event type. */
    public boolean takes(final byte eventType)
    {
        return (mask & classOf(eventType)) != 0;
    }

    /** @return the view of a code, or null for a code no view has (a malformed message). */
    public static SubscriptionView of(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** @return the view whose {@link #mask()} is {@code mask}, or null. */
    public static SubscriptionView ofMask(final int mask)
    {
        for (final SubscriptionView view : BY_CODE)
        {
            if (view.mask == mask)
            {
                return view;
            }
        }
        return null;
    }

    /** @return the class of a tick's event type: {@link #ORDER}, {@link #LEVEL} or {@link #OTHER}. */
    public static int classOf(final byte eventType)
    {
        return CLASSES[eventType & 0xFF];
    }

    /**
     * @param view a view's code.
     * @return its name, or {@code invalid(<code>)}, for messages.
     */
    public static String describe(final int view)
    {
        final SubscriptionView known = of(view);
        return null == known ? "invalid(" + view + ")" : known.name();
    }

    private static byte[] classes()
    {
        final byte[] classes = new byte[256];
        java.util.Arrays.fill(classes, (byte)OTHER);
        for (final EventType type : new EventType[] {
            EventType.ADD, EventType.EXECUTE, EventType.EXECUTE_WITH_PRICE, EventType.CANCEL, EventType.DELETE,
            EventType.REPLACE })
        {
            classes[type.value()] = (byte)ORDER;
        }
        classes[EventType.LEVEL.value()] = (byte)LEVEL;
        return classes;
    }
}
