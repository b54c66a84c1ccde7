package io.mdgate.runtime;

/**
 * Whether the market is open as the feed itself says, from ITCH system events: start of messages ({@code O}),
 * system hours ({@code S}), market hours ({@code Q}) and end of market hours ({@code M}, after-hours trading goes
 * on) mean open; end of system hours ({@code E}) and end of messages ({@code C}) mean closed. Until the feed says
 * anything the state is {@link #UNKNOWN} and the configured schedule decides alone.
 * <p>
 * Threading: written by the session agent, read by every core's idle strategy (a volatile int).
 */
final class MarketState
{
    static final int UNKNOWN = 0;
    static final int OPEN = 1;
    static final int CLOSED = 2;

    private volatile int feedState = UNKNOWN;

    /** Notes a system event's code; session thread. */
    void onSystemEvent(final char eventCode)
    {
        switch (eventCode)
        {
            case 'O', 'S', 'Q', 'M' -> feedState = OPEN;
            case 'E', 'C' -> feedState = CLOSED;
            default ->
            {
                // Other codes say nothing about the trading day.
            }
        }
    }

    /** @return {@link #UNKNOWN}, {@link #OPEN} or {@link #CLOSED}. */
    int feedState()
    {
        return feedState;
    }
}
