package io.mdgate.app.config;

import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.GatewayConfig.Driver;

import java.util.List;
import java.util.Optional;

/**
 * How many MiB of hugepages a configuration's DPDK ports need: the EAL's {@code -m} or {@code --socket-mem}, none
 * with {@code --no-huge} or without DPDK ports. Stateless.
 */
final class HugepageNeed
{
    private HugepageNeed()
    {
    }

    /**
     * @param config the configuration, if one was given.
     * @return the MiB needed, 0 when none.
     */
    static long mebibytes(final Optional<GatewayConfig> config)
    {
        if (config.isEmpty() || config.get().ports().stream().noneMatch((p) -> Driver.DPDK == p.driver()))
        {
            return 0;
        }
        final List<String> args = config.get().dpdk().ealArgs();
        if (args.contains("--no-huge"))
        {
            return 0;
        }
        long total = 0;
        for (int i = 0; i + 1 < args.size(); i++)
        {
            if ("-m".equals(args.get(i)))
            {
                total += parse(args.get(i + 1));
            }
            else if ("--socket-mem".equals(args.get(i)))
            {
                for (final String perNode : args.get(i + 1).split(","))
                {
                    total += parse(perNode);
                }
            }
        }
        return total;
    }

    private static long parse(final String mebibytes)
    {
        try
        {
            return Math.max(0, Long.parseLong(mebibytes.trim()));
        }
        catch (final NumberFormatException ex)
        {
            return 0;
        }
    }
}
