package io.mdgate.ingress;

/**
 * The arrays {@code portOpen0} takes ({@code src/main/c/mdgate_port.c}): the port settings in a fixed order, and
 * the line table as (IPv4 destination, UDP port, line) triples. Stateless.
 */
final class PortSettings
{
    static final int MBUFS = 0;
    static final int MBUF_CACHE = 1;
    static final int RX_DESCRIPTORS = 2;
    static final int TX_DESCRIPTORS = 3;
    static final int HW_TIMESTAMPS = 4;
    static final int IGMP = 5;
    static final int IGMP_SOURCE = 6;
    static final int LENGTH = 7;

    private PortSettings()
    {
    }

    static int[] of(final DpdkIngress.Context context)
    {
        final int[] settings = new int[LENGTH];
        settings[MBUFS] = context.mbufs();
        settings[MBUF_CACHE] = context.mbufCache();
        settings[RX_DESCRIPTORS] = context.rxDescriptors();
        settings[TX_DESCRIPTORS] = context.txDescriptors();
        settings[HW_TIMESTAMPS] = context.hardwareTimestamps() ? 1 : 0;
        settings[IGMP] = context.igmp() ? 1 : 0;
        settings[IGMP_SOURCE] = context.igmpSourceAddress();
        return settings;
    }

    static int[] lineTable(final DpdkIngress.Context context)
    {
        final IngressLines lines = context.lines();
        final int[] table = new int[3 * lines.size()];
        for (int i = 0; i < lines.size(); i++)
        {
            table[3 * i] = lines.endpoint(i).address();
            table[3 * i + 1] = lines.endpoint(i).port();
            table[3 * i + 2] = lines.line(i);
        }
        return table;
    }
}
