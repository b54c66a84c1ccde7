package io.mdgate.app.config;

import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.GatewayConfig.Idle;

import java.util.ArrayList;
import java.util.List;

/**
 * One edit of a core map, as {@code mdgate map} makes it: an agent moved to the core of a CPU. The agent leaves
 * every core it was on (a core left without agents disappears), joins the first core on that CPU or a new one at
 * the end; the idle strategy, when given, becomes that core's. Stateless and thread-safe.
 */
public final class CoreMapEdit
{
    private CoreMapEdit()
    {
    }

    /**
     * @param cores the core map.
     * @param agent the agent to move.
     * @param cpu   the CPU of the core it moves to.
     * @param idle  the idle strategy of that core, or null to keep the core's (busy-spin for a new core).
     * @return the new core map.
     */
    public static List<Core> move(final List<Core> cores, final AgentRef agent, final int cpu, final Idle idle)
    {
        Idle targetIdle = idle;
        final List<Core> edited = new ArrayList<>();
        for (final Core core : cores)
        {
            if (null == targetIdle && core.cpu() == cpu)
            {
                targetIdle = core.idle();
            }
            final List<AgentRef> agents = new ArrayList<>(core.agents());
            agents.removeIf(agent::equals);
            if (!agents.isEmpty())
            {
                edited.add(new Core(core.cpu(), agents, core.idle()));
            }
        }
        for (int i = 0; i < edited.size(); i++)
        {
            final Core core = edited.get(i);
            if (core.cpu() == cpu)
            {
                final List<AgentRef> agents = new ArrayList<>(core.agents());
                agents.add(agent);
                edited.set(i, new Core(cpu, agents, null == targetIdle ? core.idle() : targetIdle));
                return edited;
            }
        }
        edited.add(new Core(cpu, List.of(agent), null == targetIdle ? Idle.BUSY_SPIN : targetIdle));
        return edited;
    }

    /**
     * @param cores the core map.
     * @param cpu   a CPU of the map.
     * @param idle  its core's new idle strategy.
     * @return the new core map; unchanged when no core is on that CPU.
     */
    public static List<Core> idle(final List<Core> cores, final int cpu, final Idle idle)
    {
        final List<Core> edited = new ArrayList<>();
        for (final Core core : cores)
        {
            edited.add(core.cpu() == cpu ? new Core(cpu, core.agents(), idle) : core);
        }
        return edited;
    }
}
