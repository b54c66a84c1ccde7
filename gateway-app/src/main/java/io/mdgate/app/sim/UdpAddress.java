package io.mdgate.app.sim;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 address and UDP port, parsed from {@code a.b.c.d:port}. The address is kept as a big-endian int
 * (233.54.12.111 = 0xE9360C6F), as the pcap writer takes it. Immutable.
 */
public record UdpAddress(int ip, int port)
{
    /**
     * @param text such as {@code 233.54.12.111:26477}.
     * @return the address.
     * @throws IllegalArgumentException saying what is wrong and what would be right.
     */
    public static UdpAddress parse(final String text)
    {
        final int colon = text.lastIndexOf(':');
        if (colon < 0)
        {
            throw new IllegalArgumentException("'" + text + "' is not ADDRESS:PORT, e.g. 233.54.12.111:26477");
        }
        final String[] octets = text.substring(0, colon).split("\\.", -1);
        if (octets.length != 4)
        {
            throw new IllegalArgumentException("'" + text + "' needs an IPv4 address such as 233.54.12.111");
        }
        int ip = 0;
        for (final String octet : octets)
        {
            final int value = number(octet, 255, text);
            ip = (ip << 8) | value;
        }
        return new UdpAddress(ip, number(text.substring(colon + 1), 65_535, text));
    }

    private static int number(final String digits, final int max, final String text)
    {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(Character::isDigit))
        {
            throw new IllegalArgumentException("'" + text + "' is not ADDRESS:PORT, e.g. 233.54.12.111:26477");
        }
        final int value = Integer.parseInt(digits);
        if (value > max)
        {
            throw new IllegalArgumentException("'" + text + "': " + value + " is above " + max);
        }
        return value;
    }

    public boolean isMulticast()
    {
        return (ip >>> 28) == 0xE;
    }

    public InetSocketAddress socketAddress()
    {
        try
        {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {
                (byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8), (byte)ip }), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("four bytes are always an IPv4 address", ex);
        }
    }

    @Override
    public String toString()
    {
        return (ip >>> 24) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF) + ":" + port;
    }
}
