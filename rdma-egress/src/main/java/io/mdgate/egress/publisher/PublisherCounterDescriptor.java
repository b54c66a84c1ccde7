package io.mdgate.egress.publisher;

import io.mdgate.core.counters.CounterAllocator;
import io.mdgate.core.counters.CounterDescriptor;
import io.mdgate.core.counters.CounterType;

/**
 * The counters of an {@link EgressPublisher}, labelled {@code egress.<suffix>}, allocated once when the publisher is
 * built from the {@link CounterAllocator} of its {@link PublisherContext} and updated on the publisher's thread where
 * each event happens. docs/OPERATIONS.md says what each means.
 * <p>
 * Immutable; any thread.
 */
public enum PublisherCounterDescriptor implements CounterDescriptor
{
    /** Live ticks published. */
    TICKS_PUBLISHED("ticks_published", CounterType.TOTAL),
    /** The last gateway sequence published. */
    LAST_SEQUENCE("last_sequence", CounterType.POSITION),
    /** Consumers connected and authenticated now. */
    CONSUMERS("consumers", CounterType.LEVEL),
    /** Multicast datagrams sent. */
    DATAGRAMS("datagrams", CounterType.TOTAL),
    /** Multicast stream heartbeats sent. */
    HEARTBEATS("heartbeats", CounterType.TOTAL),
    /** Times a live tick's sequence did not follow the previous one. */
    INPUT_GAPS("input_gaps", CounterType.TOTAL),
    /** Times a consumer fell a whole ring behind. */
    LAPS("laps", CounterType.TOTAL),
    /** Resynchronisations asked by consumers. */
    RESYNCS("resyncs", CounterType.TOTAL),
    /** Recovery requests received. */
    RECOVERY_REQUESTS("recovery_requests", CounterType.TOTAL),
    /** Ticks sent again from the recovery source. */
    RECOVERED_TICKS("recovered_ticks", CounterType.TOTAL),
    /** Ticks asked for that the recovery source did not hold. */
    TICKS_MISSING_FROM_SOURCE("ticks_missing_from_source", CounterType.TOTAL),
    /** Connections refused for an unknown consumer name or a wrong token. */
    AUTHENTICATION_FAILURES("authentication_failures", CounterType.TOTAL),
    /** Connections refused for any reason, authentication included. */
    REJECTED("rejected", CounterType.TOTAL),
    /** Sessions closed because their consumer stopped sending heartbeats. */
    TIMED_OUT("timed_out", CounterType.TOTAL),
    /** Connections closed because no valid HELLO arrived in time (by the publisher or the transport). */
    HELLO_TIMEOUTS("hello_timeouts", CounterType.TOTAL),
    /** Connections closed at once because too many were waiting for their HELLO. */
    CONNECTIONS_OVER_LIMIT("connections_over_limit", CounterType.TOTAL),
    /** Connections closed before their HELLO because their first message broke the framing. */
    CONNECTIONS_MALFORMED("connections_malformed", CounterType.TOTAL),
    /** Connection requests the transport dropped because their requester had given up before they were taken. */
    CONNECTIONS_STALE("connections_stale", CounterType.TOTAL),
    /** Refusals not logged because enough distinct ones were logged already. */
    REFUSALS_NOT_LOGGED("refusals_not_logged", CounterType.TOTAL),
    /** Connections handed to the publisher by the transport. */
    CONNECTIONS_ACCEPTED("connections_accepted", CounterType.TOTAL),
    /** Consumers welcomed. */
    CONSUMERS_WELCOMED("consumers_welcomed", CounterType.TOTAL),
    /** Sessions whose consumer disconnected. */
    SESSIONS_DISCONNECTED("sessions_disconnected", CounterType.TOTAL),
    /** One-sided writes into a consumer's region that failed. */
    RING_WRITE_FAILURES("ring_write_failures", CounterType.TOTAL),
    /** Top-of-book table writes. */
    TABLE_WRITES("table_writes", CounterType.TOTAL),
    /** Live ticks copied into consumers' rings, one per tick and consumer that takes it. */
    RING_TICKS_STAGED("ring_ticks_staged", CounterType.TOTAL),
    /** Ticks written into the shared log, one per tick whatever the number of its readers. */
    SHARED_LOG_TICKS("shared_log_ticks", CounterType.TOTAL),
    /** Control messages refused as malformed. */
    MALFORMED_CONTROL_MESSAGES("malformed_control_messages", CounterType.TOTAL),
    /** Depth table writes. */
    DEPTH_WRITES("depth_writes", CounterType.TOTAL),
    /** SUBSCRIBE or UNSUBSCRIBE messages refused because their view byte names no view. */
    INVALID_VIEWS("invalid_views", CounterType.TOTAL),
    /** Late-join snapshots sent whole (SNAPSHOT answered with its ticks and SNAPSHOT_END). */
    SNAPSHOTS_SENT("snapshots_sent", CounterType.TOTAL),
    /** Ticks sent in snapshots. */
    SNAPSHOT_TICKS("snapshot_ticks", CounterType.TOTAL),
    /** SNAPSHOT requests refused: malformed, or a snapshot larger than snapshotTicks. */
    SNAPSHOTS_REFUSED("snapshots_refused", CounterType.TOTAL);

    /** The prefix of every label. */
    public static final String PREFIX = "egress.";

    private final String labelSuffix;
    private final int typeId;

    PublisherCounterDescriptor(final String labelSuffix, final int typeId)
    {
        this.labelSuffix = labelSuffix;
        this.typeId = typeId;
    }

    @Override
    public String labelSuffix()
    {
        return labelSuffix;
    }

    @Override
    public int typeId()
    {
        return typeId;
    }
}
