package io.mdgate.egress.transport;

/**
 * What a registered memory region allows, as the access flags of a verbs memory registration.
 */
public enum RegionAccess
{
    /**
     * Only this process reads and writes it: a source of one-sided writes and sends
     * ({@code IBV_ACCESS_LOCAL_WRITE}). It has no remote key.
     */
    LOCAL,
    /**
     * A peer that holds its {@link RemoteKey} may write into it with one-sided writes
     * ({@code IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE}).
     */
    REMOTE_WRITE
}
