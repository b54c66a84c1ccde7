package io.mdgate.ingress;

import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.FeedLines;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which (IPv4 destination, UDP port) pairs an ingress keeps, and the feed line each one feeds: parsed from
 * {@code A=233.54.12.111:26477,B=233.49.196.111:26477}. Line names are {@code A}, {@code B} and {@code RECOVERY}
 * ({@link FeedLines}); several pairs may feed the same line, a pair may appear only once. Destinations are usually
 * multicast groups (joined by the ingress); a unicast destination is allowed (e.g. for re-request answers) and is
 * never joined.
 * <p>
 * Immutable and thread-safe.
 */
public final class IngressLines
{
    /** Most (destination, port) pairs one ingress accepts. */
    public static final int MAX_ENTRIES = 16;

    private static final String[] NAMES = { "A", "B", "RECOVERY" };

    private final UdpEndpoint[] endpoints;
    private final int[] lines;

    private IngressLines(final UdpEndpoint[] endpoints, final int[] lines)
    {
        this.endpoints = endpoints;
        this.lines = lines;
    }

    /**
     * @param text {@code LINE=GROUP:PORT} entries separated by commas, e.g.
     *             {@code A=233.54.12.111:26477,B=233.49.196.111:26477}.
     * @return the mapping.
     * @throws IllegalArgumentException saying what is wrong and what the form should be.
     */
    public static IngressLines parse(final String text)
    {
        if (null == text || text.isBlank())
        {
            throw invalid(String.valueOf(text), "no line given");
        }
        final List<UdpEndpoint> endpoints = new ArrayList<>();
        final List<Integer> lines = new ArrayList<>();
        for (final String entry : text.split(",", -1))
        {
            final int equals = entry.indexOf('=');
            if (equals < 0)
            {
                throw invalid(text, "'" + entry.trim() + "' has no '=' between line and GROUP:PORT");
            }
            lines.add(lineOf(text, entry.substring(0, equals).trim()));
            try
            {
                endpoints.add(UdpEndpoint.parse(entry.substring(equals + 1).trim()));
            }
            catch (final IllegalArgumentException ex)
            {
                throw invalid(text, ex.getMessage());
            }
        }
        return of(endpoints, lines);
    }

    /**
     * @param lineA line A's destination.
     * @param lineB line B's destination.
     * @return the two-line mapping.
     */
    public static IngressLines of(final UdpEndpoint lineA, final UdpEndpoint lineB)
    {
        return of(List.of(lineA, lineB), List.of(FeedLines.A, FeedLines.B));
    }

    private static IngressLines of(final List<UdpEndpoint> endpoints, final List<Integer> lines)
    {
        final String text = describe(endpoints, lines);
        if (endpoints.size() > MAX_ENTRIES)
        {
            throw invalid(text, endpoints.size() + " entries, at most " + MAX_ENTRIES + " are accepted");
        }
        for (int i = 0; i < endpoints.size(); i++)
        {
            if (endpoints.indexOf(endpoints.get(i)) != i)
            {
                throw invalid(text, endpoints.get(i) + " is given twice; each GROUP:PORT feeds one line");
            }
            if (endpoints.get(i).port() == 0)
            {
                throw invalid(text, endpoints.get(i) + " has port 0, which no datagram is sent to");
            }
        }
        return new IngressLines(
            endpoints.toArray(new UdpEndpoint[0]), lines.stream().mapToInt(Integer::intValue).toArray());
    }

    private static int lineOf(final String text, final String name)
    {
        for (int line = 0; line < NAMES.length; line++)
        {
            if (NAMES[line].equals(name.toUpperCase(Locale.ROOT)))
            {
                return line;
            }
        }
        throw invalid(text, "'" + name + "' is not a line; lines are A, B and RECOVERY");
    }

    private static IllegalArgumentException invalid(final String text, final String reason)
    {
        return new IllegalArgumentException("'" + text + "' is not a list of lines (" + reason +
            "); expected e.g. A=233.54.12.111:26477,B=233.49.196.111:26477");
    }

    /**
     * @param line one of {@link FeedLines}.
     * @return its name: {@code A}, {@code B} or {@code RECOVERY}.
     */
    public static String name(final int line)
    {
        return NAMES[line];
    }

    /** @return lines an ingress can feed: {@link FeedLines#A}, {@link FeedLines#B}, {@link FeedLines#RECOVERY}. */
    public static int lineCount()
    {
        return NAMES.length;
    }

    /** @return the number of (destination, port) pairs. */
    public int size()
    {
        return endpoints.length;
    }

    /** @param index 0 to {@link #size()} - 1. @return that pair's destination and port. */
    public UdpEndpoint endpoint(final int index)
    {
        return endpoints[index];
    }

    /** @param index 0 to {@link #size()} - 1. @return the line that pair feeds, one of {@link FeedLines}. */
    public int line(final int index)
    {
        return lines[index];
    }

    /**
     * @param address IPv4 destination as a big-endian int.
     * @param port    UDP destination port.
     * @return the line the pair feeds, or -1 when it is not configured.
     */
    public int lineOf(final int address, final int port)
    {
        for (int i = 0; i < endpoints.length; i++)
        {
            if (endpoints[i].address() == address && endpoints[i].port() == port)
            {
                return lines[i];
            }
        }
        return -1;
    }

    /**
     * @param index 0 to {@link #size()} - 1.
     * @return true when that destination is an IPv4 multicast group (224.0.0.0/4), which the ingress joins.
     */
    public boolean isMulticast(final int index)
    {
        return (endpoints[index].address() >>> 28) == 0xE;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof IngressLines that &&
            Arrays.equals(endpoints, that.endpoints) && Arrays.equals(lines, that.lines);
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(endpoints) + Arrays.hashCode(lines);
    }

    /** @return the form {@link #parse(String)} reads, e.g. {@code A=233.54.12.111:26477,B=233.49.196.111:26477}. */
    @Override
    public String toString()
    {
        return describe(Arrays.asList(endpoints), Arrays.stream(lines).boxed().toList());
    }

    private static String describe(final List<UdpEndpoint> endpoints, final List<Integer> lines)
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < endpoints.size(); i++)
        {
            sb.append(i == 0 ? "" : ",").append(NAMES[lines.get(i)]).append('=').append(endpoints.get(i));
        }
        return sb.toString();
    }
}
