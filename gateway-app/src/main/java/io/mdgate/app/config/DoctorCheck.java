package io.mdgate.app.config;

import java.util.Objects;

/**
 * One line of {@code mdgate doctor}: a host property, whether it is fine, what was found and what to do. Immutable.
 *
 * @param status ok, warn or fail.
 * @param name   the property, e.g. {@code hugepages}.
 * @param detail what was found.
 * @param action what to do about it; empty when nothing.
 */
public record DoctorCheck(Status status, String name, String detail, String action)
{
    /**
     * How a check came out.
     */
    public enum Status
    {
        /** Fine. */
        OK,
        /** Works, but not as an appliance should. */
        WARN,
        /** Cannot work. */
        FAIL
    }

    public DoctorCheck
    {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(action, "action");
    }

    static DoctorCheck ok(final String name, final String detail)
    {
        return new DoctorCheck(Status.OK, name, detail, "");
    }

    static DoctorCheck warn(final String name, final String detail, final String action)
    {
        return new DoctorCheck(Status.WARN, name, detail, action);
    }

    static DoctorCheck fail(final String name, final String detail, final String action)
    {
        return new DoctorCheck(Status.FAIL, name, detail, action);
    }
}
