package io.mdgate.runtime;

import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.ingress.DpdkIngress;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.socket.SocketIngress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/** Makes the {@link Ingress} of one port queue from the configuration. Start-up only. */
final class Ingresses
{
    private Ingresses()
    {
    }

    /**
     * @param cpu   the CPU of the core that runs the queue's agent (DPDK registers that thread as its lcore).
     * @param clock the gateway's clock: the socket ingress stamps packets with it and the DPDK ingress adds its offset
     *              to the CLOCK_MONOTONIC reading it stamps each burst with, so the later stages' latencies are measured
     *              on the same time base.
     * @return the ingress, not started (its agent starts it on its core).
     * @throws IllegalStateException when the port's settings cannot make an ingress, saying why.
     */
    static Ingress create(final GatewayConfig config, final GatewayConfig.Port port, final int queue, final int cpu,
        final MonotonicEpochClock clock)
    {
        if (queue != 0 || port.queues() != 1)
        {
            throw new IllegalStateException("port " + port.name() + " has queues = " + port.queues() + "; the " +
                "ingress receives on one queue per port: set queues = 1 (use a second port for more)");
        }
        final IngressLines lines = IngressLines.parse(lines(config, port));
        try
        {
            return switch (port.driver())
            {
                case SOCKET -> new SocketIngress(new SocketIngress.Context().lines(lines)
                    .interfaceName(port.interfaceName()).clock(clock).conclude());
                case DPDK -> new DpdkIngress(dpdkContext(config, port, lines, cpu).clock(clock));
            };
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("port " + port.name() + ": " + ex.getMessage(), ex);
        }
    }

    private static String lines(final GatewayConfig config, final GatewayConfig.Port port)
    {
        final StringJoiner text = new StringJoiner(",");
        for (final GatewayConfig.Line line : config.feed().lines())
        {
            if (line.portName().equals(port.name()))
            {
                text.add(line.name() + "=" + line.endpoint());
            }
        }
        return text.toString();
    }

    private static DpdkIngress.Context dpdkContext(final GatewayConfig config, final GatewayConfig.Port port,
        final IngressLines lines, final int cpu)
    {
        final DpdkIngress.Context context = new DpdkIngress.Context()
            .device(!port.vdev().isEmpty() ? port.vdev() : port.pci())
            .lines(lines)
            .lcores(Integer.toString(cpu))
            .receiveCpu(cpu);
        final List<String> extra = new ArrayList<>();
        final List<String> args = config.dpdk().ealArgs();
        for (int i = 0; i < args.size(); i++)
        {
            final String arg = args.get(i);
            if (("-m".equals(arg) || "--huge-dir".equals(arg)) && i + 1 < args.size())
            {
                final String value = args.get(++i);
                if ("-m".equals(arg))
                {
                    context.memoryMegabytes(Integer.parseInt(value));
                }
                else
                {
                    context.hugeDir(Path.of(value));
                }
            }
            else if (!"--no-huge".equals(arg) && !"--no-shconf".equals(arg))
            {
                extra.add(arg);
            }
        }
        return context.extraEalArguments(extra).conclude();
    }
}
