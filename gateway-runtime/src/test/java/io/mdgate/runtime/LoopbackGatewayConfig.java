package io.mdgate.runtime;

import java.nio.file.Path;

/** Test support: the TOML of a gateway receiving two lines on {@code lo} through kernel sockets, everything in one directory. */
public final class LoopbackGatewayConfig
{
    private LoopbackGatewayConfig()
    {
    }

    public static String toml(final Path dir, final String name, final String groupA, final String groupB,
        final int retransmitPort, final String coresToml)
    {
        final String[] a = groupA.split(":");
        final String[] b = groupB.split(":");
        return """
            [gateway]
            name = "%s"
            counters_file = "%s"
            hlog_dir = "%s"
            ring_bytes = 8388608

            [feed]
            gap_wait_ms = 2
            retry_interval_ms = 50
            retransmit = "127.0.0.1:%d"
            stale_after_ms = 2000

            [[feed.lines]]
            name = "A"
            group = "%s"
            port = %s
            port_name = "p0"

            [[feed.lines]]
            name = "B"
            group = "%s"
            port = %s
            port_name = "p0"

            [[ports]]
            name = "p0"
            driver = "socket"
            interface = "lo"

            [journal]
            enabled = true
            dir = "%s"

            [egress]
            transport = "shm"
            shm_dir = "%s"
            instance = "%s"

            [[egress.consumers]]
            name = "c1"
            token = "token-1"

            [[egress.consumers]]
            name = "c2"
            token = "token-2"

            [market_hours]
            zone = "America/New_York"
            open = "09:25"
            close = "16:05"
            outside = "park:1ms"

            %s
            """.formatted(name, dir.resolve("counters"), dir.resolve("hlog"), retransmitPort, a[0], a[1], b[0], b[1],
            dir.resolve("journal"), dir.resolve("shm"), name, coresToml);
    }

    /** Run-to-completion on one thread that backs off when idle, and housekeeping on the other CPU. */
    public static String oneCore()
    {
        return """
            [[cores]]
            cpu = 0
            agents = ["egress", "journal", "session", "ingress:p0:0"]
            idle = "backoff"

            [[cores]]
            cpu = 1
            agents = ["housekeeping"]
            idle = "sleep:1ms"
            """;
    }

    /** Two cores, gentle on a shared machine: receive + session on one, the rest on the other. */
    public static String twoCores()
    {
        return """
            [[cores]]
            cpu = 0
            agents = ["ingress:p0:0", "session"]
            idle = "backoff"

            [[cores]]
            cpu = 1
            agents = ["journal", "egress", "housekeeping"]
            idle = "backoff"
            """;
    }
}
