package io.mdgate.core.capture;

/**
 * An IPv4 address and UDP port, such as a feed line's multicast group and port ({@code 233.54.12.111:26477}).
 * Immutable and thread-safe. Parsing never resolves names.
 */
public final class UdpEndpoint
{
    private final int address;
    private final int port;

    /**
     * @param address IPv4 address as a big-endian int (233.54.12.111 is 0xE9360C6F).
     * @param port    UDP port, 0 to 65535.
     */
    public UdpEndpoint(final int address, final int port)
    {
        if (port < 0 || port > 0xFFFF)
        {
            throw new IllegalArgumentException("UDP port " + port + " is outside 0..65535");
        }
        this.address = address;
        this.port = port;
    }

    /**
     * @param text {@code a.b.c.d:port}, e.g. {@code 233.54.12.111:26477}.
     * @return the endpoint.
     * @throws IllegalArgumentException saying what is wrong and what the form should be.
     */
    public static UdpEndpoint parse(final String text)
    {
        final int colon = text.lastIndexOf(':');
        if (colon < 0)
        {
            throw invalid(text, "no ':' before the port");
        }
        final String[] octets = text.substring(0, colon).split("\\.", -1);
        if (octets.length != 4)
        {
            throw invalid(text, "the address needs four dot-separated numbers");
        }
        int address = 0;
        for (final String octet : octets)
        {
            address = (address << 8) | number(text, octet, 255, "address part");
        }
        return new UdpEndpoint(address, number(text, text.substring(colon + 1), 0xFFFF, "port"));
    }

    private static int number(final String text, final String digits, final int max, final String what)
    {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9'))
        {
            throw invalid(text, what + " '" + digits + "' is not a number");
        }
        final int value = Integer.parseInt(digits);
        if (value > max)
        {
            throw invalid(text, what + " " + value + " is above " + max);
        }
        return value;
    }

    private static IllegalArgumentException invalid(final String text, final String reason)
    {
        return new IllegalArgumentException(
            "'" + text + "' is not GROUP:PORT (" + reason + "); expected e.g. 233.54.12.111:26477");
    }

    /**
     * @param address IPv4 address as a big-endian int.
     * @param port    UDP port.
     * @return address and port packed in one long: an allocation-free key.
     */
    public static long key(final int address, final int port)
    {
        return ((address & 0xFFFF_FFFFL) << 16) | (port & 0xFFFF);
    }

    /** @return this endpoint as a {@link #key(int, int)}. */
    public long key()
    {
        return key(address, port);
    }

    /** @param key made by {@link #key(int, int)}. @return the endpoint. */
    public static UdpEndpoint fromKey(final long key)
    {
        return new UdpEndpoint((int)(key >>> 16), (int)(key & 0xFFFF));
    }

    public int address()
    {
        return address;
    }

    public int port()
    {
        return port;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof UdpEndpoint that && that.address == address && that.port == port;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(key());
    }

    @Override
    public String toString()
    {
        return (address >>> 24) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "." +
            (address & 0xFF) + ":" + port;
    }
}
