/**
 * The gateway's configuration file (TOML) and its core map: the immutable {@link io.mdgate.app.config.GatewayConfig}
 * records, {@link io.mdgate.app.config.ConfigLoader} that reads and validates a file, reporting every problem at once,
 * {@link io.mdgate.app.config.ConfigWriter} for edits of the core map, the host's CPU and NIC layout
 * ({@link io.mdgate.app.config.HostTopology}), the core-map checks ({@link io.mdgate.app.config.CoreMapValidator}),
 * thread pinning ({@link io.mdgate.app.config.ThreadPinning}) and the operator commands {@code map}, {@code cores},
 * {@code ports} and {@code doctor}. Every key is described in docs/CONFIGURATION.md.
 */
package io.mdgate.runtime.config;
