/**
 * The gateway's configuration (TOML) and its core map, as the runtime takes them: the immutable
 * {@link io.mdgate.runtime.config.GatewayConfig} records, {@link io.mdgate.runtime.config.ConfigLoader} that reads
 * and validates a file, reporting every problem at once, the host's CPU and NIC layout
 * ({@link io.mdgate.runtime.config.HostTopology}), the core-map checks
 * ({@link io.mdgate.runtime.config.CoreMapValidator}) and thread pinning
 * ({@link io.mdgate.runtime.config.ThreadPinning}). Every key is described in docs/CONFIGURATION.md.
 * <p>
 * The loader lives here, beside the records, because it is what makes a {@code GatewayConfig} valid: the records
 * only check that nothing is missing, while the loader checks every value and the references between sections (and
 * refuses af_xdp on the interface the re-requests go out on, {@link io.mdgate.runtime.config.RetransmitPath}). A
 * program that embeds the runtime thus gets from a file exactly the configuration {@code mdgate run} gets. What only
 * the operator's commands need stays in gateway-app's {@code io.mdgate.app.config}: the commands {@code map},
 * {@code cores}, {@code ports} and {@code doctor}, the host checks of {@code doctor} and the edits of a file's core
 * map.
 */
package io.mdgate.runtime.config;
