package io.mdgate.egress.transport.shm;

/**
 * Whether the {@code shm} transport puts the files it creates on 2 MiB hugepages (a hugetlbfs mount). Immutable.
 */
public enum HugepageMode
{
    /** On a hugetlbfs mount when the host has one with free pages; otherwise regular pages, counted and warned. */
    AUTO,
    /** Regular pages in the transport's directory, as before hugepages were supported. */
    OFF,
    /** On a hugetlbfs mount or not at all: the transport refuses to start without one. */
    REQUIRED;

    /**
     * @return the mode {@code text} names ({@code auto}, {@code off}, {@code required}, any case).
     * @throws IllegalArgumentException naming the three when it is none of them.
     */
    public static HugepageMode of(final String text)
    {
        for (final HugepageMode mode : values())
        {
            if (mode.name().equalsIgnoreCase(text))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("hugepages must be \"auto\", \"off\" or \"required\", was '" + text + "'");
    }
}
