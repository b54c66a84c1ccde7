package io.mdgate.app.run;

import io.mdgate.app.config.GatewayConfig;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The core map checks {@code run} makes before it starts anything, and the pinning it uses. Start-up only.
 */
final class CoreMapCheck
{
    private CoreMapCheck()
    {
    }

    /**
     * @return the problems that refuse the start (empty when it may start); warnings are printed to {@code err}.
     */
    static List<String> check(final GatewayConfig config, final boolean strict, final PrintWriter err)
    {
        final List<String> problems = new ArrayList<>();
        final Set<String> placed = new HashSet<>();
        for (final GatewayConfig.Core core : config.cores())
        {
            for (final GatewayConfig.AgentRef agent : core.agents())
            {
                if (!placed.add(agent.toString()))
                {
                    problems.add("agent " + agent + " is on more than one core; keep it on one");
                }
            }
        }
        for (final GatewayConfig.AgentRef agent : config.requiredAgents())
        {
            if (!placed.remove(agent.toString()))
            {
                problems.add("agent " + agent + " is on no core; add it to a [[cores]] entry's agents");
            }
        }
        for (final String unknown : placed)
        {
            problems.add("agent " + unknown + " is not part of this configuration (no such port, queue or " +
                "enabled stage); remove it from [[cores]]");
        }
        return problems;
    }

    /** @return the pinner for real runs. */
    static CpuPinner pinner()
    {
        return CpuPinner.NONE;
    }
}
