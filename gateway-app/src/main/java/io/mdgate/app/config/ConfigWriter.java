package io.mdgate.app.config;

import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.Durations;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Consumer;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.GatewayConfig.Line;
import io.mdgate.runtime.config.GatewayConfig.Port;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes configurations as TOML: a whole {@link GatewayConfig} in the documented layout ({@link #toToml}, for
 * generated configurations), or an existing file with only its core map replaced ({@link #replaceCores}, for
 * {@code mdgate map} edits, keeping every other line and comment as the operator wrote it). A file is only ever
 * written whole and valid: the new text is read back by {@link ConfigLoader} first, then it replaces the file
 * atomically. Stateless and thread-safe.
 */
public final class ConfigWriter
{
    private ConfigWriter()
    {
    }

    /**
     * @param config a configuration.
     * @return it as a TOML file with every key; {@link ConfigLoader#parse(String)} reads it back equal.
     */
    public static String toToml(final GatewayConfig config)
    {
        final StringBuilder toml = new StringBuilder();
        toml.append("[gateway]\n");
        key(toml, "name", config.gateway().name());
        key(toml, "counters_file", config.gateway().countersFile().toString());
        key(toml, "hlog_dir", config.gateway().hlogDir().toString());
        number(toml, "ring_bytes", config.gateway().ringBytes());
        number(toml, "keep_runs", config.gateway().keepRuns());

        toml.append("\n[feed]\n");
        key(toml, "session", config.feed().session());
        number(toml, "gap_wait_ms", config.feed().gapWaitMs());
        config.feed().retransmit().ifPresent((address) ->
            key(toml, "retransmit", address.getAddress().getHostAddress() + ":" + address.getPort()));
        number(toml, "stale_after_ms", config.feed().staleAfterMs());
        number(toml, "retry_interval_ms", config.feed().retryIntervalMs());
        for (final Line line : config.feed().lines())
        {
            toml.append("\n[[feed.lines]]\n");
            key(toml, "name", line.name());
            key(toml, "group", line.group().getHostAddress());
            number(toml, "port", line.port());
            key(toml, "port_name", line.portName());
        }

        toml.append("\n[dpdk]\n");
        strings(toml, "eal_args", config.dpdk().ealArgs());
        for (final Port port : config.ports())
        {
            toml.append("\n[[ports]]\n");
            key(toml, "name", port.name());
            key(toml, "driver", port.driver().label());
            key(toml, "vdev", port.vdev());
            key(toml, "pci", port.pci());
            key(toml, "interface", port.interfaceName());
            number(toml, "queues", port.queues());
        }

        toml.append("\n[journal]\n");
        toml.append("enabled = ").append(config.journal().enabled()).append('\n');
        key(toml, "dir", config.journal().dir().toString());
        key(toml, "roll_cycle", config.journal().rollCycle().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        number(toml, "retain_cycles", config.journal().retainCycles());
        number(toml, "min_free_mb", config.journal().minFreeMb());

        toml.append("\n[egress]\n");
        key(toml, "transport", config.egress().transport().label());
        key(toml, "shm_dir", config.egress().shmDir().toString());
        key(toml, "instance", config.egress().instance());
        key(toml, "shm_group", config.egress().shmGroup());
        number(toml, "mtu", config.egress().mtu());
        key(toml, "hugepages", config.egress().hugepages().name().toLowerCase(java.util.Locale.ROOT));
        if (null != config.egress().hugepageDir())
        {
            key(toml, "hugepage_dir", config.egress().hugepageDir().toString());
        }
        key(toml, "rdma_device", config.egress().rdmaDevice());
        key(toml, "rdma_address", config.egress().rdmaAddress());
        key(toml, "rdma_rc", config.egress().rdmaRc().toString());
        for (final Consumer consumer : config.egress().consumers())
        {
            toml.append("\n[[egress.consumers]]\n");
            key(toml, "name", consumer.name());
            key(toml, "token", consumer.token());
        }

        toml.append("\n[market_hours]\n");
        key(toml, "zone", config.marketHours().zone().getId());
        key(toml, "open", config.marketHours().open().toString());
        key(toml, "close", config.marketHours().close().toString());
        key(toml, "outside", "park:" + Durations.format(config.marketHours().outsidePark()));

        toml.append(coresToml(config.cores()));
        return toml.toString();
    }

    /**
     * @param cores a core map.
     * @return its {@code [[cores]]} tables, each preceded by a blank line.
     */
    public static String coresToml(final List<Core> cores)
    {
        final StringBuilder toml = new StringBuilder();
        for (final Core core : cores)
        {
            toml.append("\n[[cores]]\n");
            number(toml, "cpu", core.cpu());
            final List<String> agents = new ArrayList<>();
            for (final AgentRef agent : core.agents())
            {
                agents.add(agent.toString());
            }
            strings(toml, "agents", agents);
            key(toml, "idle", core.idle().toString());
        }
        return toml.toString();
    }

    /**
     * Replaces the core map of a configuration file's text: every {@code [[cores]]} table is taken out with its
     * comments (but not the comments after its last blank line, which introduce the table after it) and the new
     * ones are appended at the end.
     *
     * @param toml  the text of a valid configuration file.
     * @param cores the new core map.
     * @return the new text, every other line unchanged.
     * @throws ConfigException when the new text does not read back with exactly that core map.
     */
    public static String replaceCores(final String toml, final List<Core> cores)
    {
        final String[] lines = toml.split("\n", -1);
        final StringBuilder kept = new StringBuilder();
        final List<String> pending = new ArrayList<>();
        boolean inCores = false;
        for (int i = 0; i < lines.length; i++)
        {
            final String line = lines[i];
            final String trimmed = line.trim();
            if (trimmed.startsWith("["))
            {
                inCores = trimmed.replace(" ", "").startsWith("[[cores]]");
                if (!inCores)
                {
                    appendAll(kept, pending);
                }
                pending.clear();
                if (inCores)
                {
                    continue;
                }
            }
            if (inCores)
            {
                if (trimmed.isEmpty())
                {
                    pending.clear();
                    pending.add(line);
                }
                else if (trimmed.startsWith("#"))
                {
                    pending.add(line);
                }
                else
                {
                    pending.clear();
                }
                continue;
            }
            kept.append(line);
            if (i < lines.length - 1)
            {
                kept.append('\n');
            }
        }
        String text = kept.toString();
        while (text.endsWith("\n\n"))
        {
            text = text.substring(0, text.length() - 1);
        }
        if (!text.isEmpty() && !text.endsWith("\n"))
        {
            text = text + "\n";
        }
        final String result = text + coresToml(cores);
        final GatewayConfig check = ConfigLoader.parse(result, "the edited configuration");
        if (!Objects.equals(check.cores(), cores))
        {
            throw new ConfigException("the edited configuration", List.of("cores: the core map did not read back " +
                "as written (" + check.cores() + " instead of " + cores + "); the file was left unchanged"));
        }
        return result;
    }

    /**
     * Replaces a file with a configuration's text, atomically (a temporary file in the same directory, then a
     * rename), after checking that the text reads back.
     *
     * @param file the file.
     * @param toml the new text.
     * @throws ConfigException when the text is not a valid configuration (the file is left as it was).
     * @throws IOException     when the file cannot be written.
     */
    public static void write(final Path file, final String toml) throws IOException
    {
        ConfigLoader.parse(toml, file.toString());
        final Path absolute = file.toAbsolutePath();
        final Path temporary = absolute.resolveSibling("." + absolute.getFileName() + ".tmp");
        Files.writeString(temporary, toml, StandardCharsets.UTF_8);
        try
        {
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally
        {
            Files.deleteIfExists(temporary);
        }
    }

    private static void appendAll(final StringBuilder text, final List<String> lines)
    {
        for (final String line : lines)
        {
            text.append(line).append('\n');
        }
    }

    private static void key(final StringBuilder toml, final String key, final String value)
    {
        toml.append(key).append(" = ").append(quote(value)).append('\n');
    }

    private static void number(final StringBuilder toml, final String key, final long value)
    {
        toml.append(key).append(" = ").append(value).append('\n');
    }

    private static void strings(final StringBuilder toml, final String key, final List<String> values)
    {
        toml.append(key).append(" = [");
        for (int i = 0; i < values.size(); i++)
        {
            toml.append(0 == i ? "" : ", ").append(quote(values.get(i)));
        }
        toml.append("]\n");
    }

    /**
     * @param value any text.
     * @return it as a TOML basic string, quotes included.
     */
    static String quote(final String value)
    {
        final StringBuilder quoted = new StringBuilder("\"");
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if ('"' == c || '\\' == c)
            {
                quoted.append('\\').append(c);
            }
            else if (c < 0x20 || 0x7F == c)
            {
                quoted.append(String.format("\\u%04X", (int)c));
            }
            else
            {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }
}
