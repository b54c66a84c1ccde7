package io.mdgate.journal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where the feed stood when the journal was last written to: what a restarted gateway needs to resume the MoldUDP64
 * session it had been journaling, without delivering an exchange message twice ({@link TickJournal#resumePoint()}).
 * Computed from the tick queue alone, at open: the last tick journaled (a record torn by a crash is never visible)
 * and the SESSION tick that started its session. Ticks are journaled one by one, so a crash can fall between the ticks
 * of one exchange message: the point is then at that message, which the restarted gateway normalizes again, handing
 * on only the ticks after the {@code partialTicks} already journaled. Immutable; safe from any thread (the name is
 * copied in and out).
 *
 * @param nextGatewaySequence   the gateway sequence of the next tick: one after the last journaled.
 * @param sessionNumber         the gateway's number of the session (the last tick's {@code sessionId}).
 * @param sessionName           the session's 10-byte MoldUDP64 name, from its SESSION tick.
 * @param nextExchangeSequence  one past the last exchange message journaled whole in the session: the last tick's
 *                              exchange sequence + 1; for a GAP tick its first lost sequence + the number lost; for a
 *                              SESSION tick its own exchange sequence (the first the session expects); with partial
 *                              ticks, the exchange sequence they carry (that message is to be normalized again).
 * @param lastExchangeTimestamp the last tick's exchange time: no later tick may be earlier.
 * @param sessionStartSequence  the gateway sequence of the session's SESSION tick: the books of the session are
 *                              rebuilt from there ({@link TickJournal#replaySession}).
 * @param partialTicks          ticks at the end of the journal of a message whose last tick (flagged
 *                              {@code lastInMessage}) never made it: 0 after a clean stop and after most crashes.
 *                              The books are rebuilt without them; the journal and the egress keep them.
 */
public record ResumePoint(
    long nextGatewaySequence,
    int sessionNumber,
    byte[] sessionName,
    long nextExchangeSequence,
    long lastExchangeTimestamp,
    long sessionStartSequence,
    int partialTicks)
{
    /** Bytes of a MoldUDP64 session name. */
    public static final int SESSION_NAME_LENGTH = 10;

    /**
     * @throws IllegalArgumentException when the name is not 10 bytes.
     */
    public ResumePoint
    {
        if (sessionName == null || sessionName.length != SESSION_NAME_LENGTH)
        {
            throw new IllegalArgumentException("a MoldUDP64 session name has " + SESSION_NAME_LENGTH + " bytes");
        }
        if (partialTicks < 0)
        {
            throw new IllegalArgumentException("partial ticks cannot be negative: " + partialTicks);
        }
        sessionName = sessionName.clone();
    }

    /** A point at a message boundary: no partial ticks. */
    public ResumePoint(final long nextGatewaySequence, final int sessionNumber, final byte[] sessionName,
        final long nextExchangeSequence, final long lastExchangeTimestamp, final long sessionStartSequence)
    {
        this(nextGatewaySequence, sessionNumber, sessionName, nextExchangeSequence, lastExchangeTimestamp,
            sessionStartSequence, 0);
    }

    /** @return a copy of the session's 10-byte name. */
    @Override
    public byte[] sessionName()
    {
        return sessionName.clone();
    }

    /** @return the session name as ASCII, for logs. */
    public String sessionNameText()
    {
        return new String(sessionName, StandardCharsets.US_ASCII);
    }

    /** @return the last gateway sequence of the session journaled: the end of the range to rebuild the books from. */
    public long lastGatewaySequence()
    {
        return nextGatewaySequence - 1;
    }

    /**
     * @return the gateway sequence a resumed normalizer starts from: {@link #nextGatewaySequence()}, less the
     * partial ticks, which it makes again under the same sequences (and does not publish again).
     */
    public long firstRenormalizedSequence()
    {
        return nextGatewaySequence - partialTicks;
    }

    /** @return the last gateway sequence of a whole message: the books are rebuilt up to here. */
    public long lastWholeMessageSequence()
    {
        return lastGatewaySequence() - partialTicks;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ResumePoint that && nextGatewaySequence == that.nextGatewaySequence &&
            sessionNumber == that.sessionNumber && Arrays.equals(sessionName, that.sessionName) &&
            nextExchangeSequence == that.nextExchangeSequence &&
            lastExchangeTimestamp == that.lastExchangeTimestamp && sessionStartSequence == that.sessionStartSequence &&
            partialTicks == that.partialTicks;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(nextGatewaySequence) * 31 + Arrays.hashCode(sessionName);
    }

    @Override
    public String toString()
    {
        return "session " + sessionNumber + " '" + sessionNameText() + "' from tick " + sessionStartSequence +
            ": next exchange sequence " + nextExchangeSequence + ", next gateway sequence " + nextGatewaySequence +
            ", last exchange time " + lastExchangeTimestamp +
            (partialTicks == 0 ? "" : ", " + partialTicks + " tick(s) of that message journaled before its last");
    }
}
