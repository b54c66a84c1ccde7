package io.mdgate.app.demo;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("netns")
class DemoNetworkTest
{
    @Test
    void shouldJoinTwoNamespacesWithAVethAndRemoveThemOnClose()
    {
        final String reason = DemoNetwork.unavailableReason();
        if (null != reason)
        {
            System.out.println("DemoNetworkTest skipped: " + reason);
        }
        Assumptions.assumeTrue(null == reason, reason);
        final String suffix = "t" + ProcessHandle.current().pid();
        final DemoNetwork network = DemoNetwork.create(suffix);
        try
        {
            assertTrue(DemoNetwork.exists(network.exchangeNamespace()));
            assertTrue(DemoNetwork.exists(network.gatewayNamespace()));
            final String gateway = DemoNetwork.run(List.of("ip", "-n", network.gatewayNamespace(), "-br", "addr",
                "show", "dev", network.gatewayInterface()));
            assertTrue(gateway.contains(DemoNetwork.GATEWAY_ADDRESS + "/24") && gateway.contains("UP"), gateway);
            final String route = DemoNetwork.run(List.of("ip", "-n", network.exchangeNamespace(), "route", "get",
                "233.54.12.111"));
            assertTrue(route.contains("dev " + network.exchangeInterface()), "multicast leaves by the veth: " + route);
        }
        finally
        {
            network.close();
        }
        assertFalse(DemoNetwork.exists(network.exchangeNamespace()));
        assertFalse(DemoNetwork.exists(network.gatewayNamespace()));
        network.close();
    }
}
