package io.mdgate.app.demo;

import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.GatewayConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoConfigTest
{
    private static final List<DemoConsumer.Spec> CONSUMERS = List.of(
        new DemoConsumer.Spec("fast1", "t1", DeliveryPath.RING, false),
        new DemoConsumer.Spec("slow", "t\"2", DeliveryPath.RING, true));

    @Test
    void shouldWriteAConfigurationTheLoaderAcceptsForTheDpdkIngressInNamespaces()
    {
        final DemoConfig demo = new DemoConfig(IngressMode.NETNS_DPDK, "mdg123g", "233.54.12.111:26477",
            "233.49.196.111:26477", "10.79.0.1:26478", Path.of("/tmp/demo-x"), "mdgate-demo-123", CONSUMERS,
            List.of(0, 1), DemoConfig.CoreMap.RUN_TO_COMPLETION);

        final GatewayConfig config = ConfigLoader.parse(demo.toToml());

        assertEquals("demo", config.gateway().name());
        assertEquals(Path.of("/tmp/demo-x/counters"), config.gateway().countersFile());
        assertEquals(Path.of("/tmp/demo-x/hlog"), config.gateway().hlogDir());
        assertEquals(Path.of("/tmp/demo-x/journal"), config.journal().dir());
        assertEquals(GatewayConfig.Driver.DPDK, config.ports().get(0).driver());
        assertEquals("net_af_packet0,iface=mdg123g,framecnt=32768", config.ports().get(0).vdev());
        assertEquals(DemoConfig.EAL_ARGS, config.dpdk().ealArgs());
        assertEquals(2, config.feed().lines().size());
        assertEquals("/10.79.0.1:26478", config.feed().retransmit().orElseThrow().toString());
        assertEquals(50, config.feed().retryIntervalMs());
        assertEquals("mdgate-demo-123", config.egress().instance());
        assertEquals(List.of("fast1", "slow"), config.egress().consumers().stream().map(GatewayConfig.Consumer::name)
            .toList());
        assertEquals("t\"2", config.egress().consumers().get(1).token());
        assertEquals(2, config.cores().size());
        assertEquals(1, config.cores().get(0).cpu(), "the gateway on the last CPU");
        assertEquals(4, config.cores().get(0).agents().size(), "ingress, session, journal, egress: run-to-completion");
        assertEquals(GatewayConfig.IdleKind.BUSY_SPIN, config.cores().get(0).idle().kind());
        assertEquals(config.requiredAgents().size(),
            config.cores().stream().mapToInt(c -> c.agents().size()).sum(), "every agent placed once");
    }

    @Test
    void shouldUseOneSocketPortAndOneBackingOffThreadOnTheOnlyCpuOfASingleCpuHost()
    {
        final DemoConfig demo = new DemoConfig(IngressMode.LOOPBACK_SOCKET, "lo", "233.54.12.111:26477",
            "233.49.196.111:26477", "127.0.0.1:26478", Path.of("/tmp/demo-y"), "mdgate-demo-9", CONSUMERS, List.of(3),
            DemoConfig.CoreMap.RUN_TO_COMPLETION);

        final String toml = demo.toToml();
        final GatewayConfig config = ConfigLoader.parse(toml);

        assertEquals(GatewayConfig.Driver.SOCKET, config.ports().get(0).driver());
        assertEquals("lo", config.ports().get(0).interfaceName());
        assertEquals(1, config.cores().size(), "one thread runs everything");
        assertEquals(3, config.cores().get(0).cpu());
        assertEquals(GatewayConfig.IdleKind.BACKOFF, config.cores().get(0).idle().kind(), "it shares the CPU");
        assertEquals(config.requiredAgents().size(),
            config.cores().stream().mapToInt(c -> c.agents().size()).sum(), "every agent placed once");
        assertTrue(toml.startsWith("# mdgate demo gateway"), toml);
    }

    @Test
    void shouldPutIngressAndSessionOnASpinningLastCpuAndJournalAndEgressOnTheFirstInThePipelineMap()
    {
        final DemoConfig demo = new DemoConfig(IngressMode.NETNS_DPDK, "mdg1g", "233.54.12.111:26477",
            "233.49.196.111:26477", "10.79.0.1:26478", Path.of("/tmp/demo-z"), "mdgate-demo-1", CONSUMERS,
            List.of(0, 1, 2), DemoConfig.CoreMap.PIPELINE);

        final GatewayConfig config = ConfigLoader.parse(demo.toToml());

        assertEquals(2, config.cores().size());
        assertEquals(2, config.cores().get(0).cpu(), "packets are taken on the last CPU");
        assertEquals(List.of("ingress:p0:0", "session"), names(config.cores().get(0)));
        assertEquals(GatewayConfig.IdleKind.BUSY_SPIN, config.cores().get(0).idle().kind());
        assertEquals(0, config.cores().get(1).cpu());
        assertEquals(List.of("journal", "egress", "housekeeping"), names(config.cores().get(1)));
        assertEquals(GatewayConfig.IdleKind.BACKOFF, config.cores().get(1).idle().kind(), "it shares its CPU");
        assertEquals(List.of(0, 1), demo.otherCpus(), "the simulator and the consumers keep off the last CPU");
    }

    @Test
    void shouldRefuseThePipelineMapOnASingleCpuHost()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new DemoConfig(
            IngressMode.LOOPBACK_SOCKET, "lo", "233.54.12.111:26477", "233.49.196.111:26477", "127.0.0.1:26478",
            Path.of("/tmp/demo-w"), "mdgate-demo-2", CONSUMERS, List.of(0), DemoConfig.CoreMap.PIPELINE));

        assertTrue(refused.getMessage().contains("needs two CPUs"), refused.getMessage());
    }

    @Test
    void shouldLeaveTheOnlyCpuOfASingleCpuHostSharedRatherThanPinTheOthersAnywhere()
    {
        final DemoConfig demo = new DemoConfig(IngressMode.LOOPBACK_SOCKET, "lo", "233.54.12.111:26477",
            "233.49.196.111:26477", "127.0.0.1:26478", Path.of("/tmp/demo-v"), "mdgate-demo-3", CONSUMERS,
            List.of(5), DemoConfig.CoreMap.RUN_TO_COMPLETION);

        assertEquals(List.of(), demo.otherCpus());
    }

    @Test
    void shouldParseTheCoreMapNamesTheOptionTakesAndRefuseOthers()
    {
        assertEquals(DemoConfig.CoreMap.RUN_TO_COMPLETION, DemoConfig.CoreMap.parse("run-to-completion"));
        assertEquals(DemoConfig.CoreMap.PIPELINE, DemoConfig.CoreMap.parse("pipeline"));
        assertEquals("run-to-completion", DemoConfig.CoreMap.RUN_TO_COMPLETION.optionName());
        assertThrows(IllegalArgumentException.class, () -> DemoConfig.CoreMap.parse("RUN_TO_COMPLETION"));
    }

    private static List<String> names(final GatewayConfig.Core core)
    {
        return core.agents().stream().map(Object::toString).toList();
    }
}
