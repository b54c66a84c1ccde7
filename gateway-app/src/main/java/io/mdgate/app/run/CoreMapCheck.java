package io.mdgate.app.run;

import io.mdgate.runtime.CpuPinner;
import io.mdgate.runtime.config.CoreMapValidator;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.HostTopology;
import io.mdgate.runtime.config.ThreadPinning;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The core map checks {@code run} makes before it starts anything ({@link CoreMapValidator} against this host), and
 * the pinning it uses ({@link ThreadPinning}: {@code sched_setaffinity}, verified). Start-up only.
 */
final class CoreMapCheck
{
    private CoreMapCheck()
    {
    }

    /**
     * @param strict refuse warnings too.
     * @return the findings that refuse the start (empty when it may start); warnings are printed to {@code err}.
     */
    static List<String> check(final GatewayConfig config, final boolean strict, final PrintWriter err)
    {
        final List<String> refusals = new ArrayList<>();
        for (final CoreMapValidator.Finding finding : CoreMapValidator.validate(config, HostTopology.local(), strict))
        {
            if (finding.severity() == CoreMapValidator.Severity.ERROR)
            {
                refusals.add(finding.toString());
            }
            else
            {
                err.println("mdgate run: " + finding);
            }
        }
        err.flush();
        return refusals;
    }

    /** @return the pinner for real runs: pins and checks that the thread runs only on its CPU. */
    static CpuPinner pinner()
    {
        return new CpuPinner()
        {
            @Override
            public void pin(final int cpu)
            {
                ThreadPinning.pin(cpu);
            }

            @Override
            public boolean holds(final int cpu)
            {
                return ThreadPinning.isPinnedTo(cpu);
            }

            @Override
            public boolean placesOtherThreads()
            {
                return true;
            }

            @Override
            public int threadId()
            {
                return ThreadPinning.threadId();
            }
        };
    }
}
