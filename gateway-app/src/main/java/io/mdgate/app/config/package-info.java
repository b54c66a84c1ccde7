/**
 * The operator commands over a configuration file and this host: {@code map} (checks the core map, and edits it
 * through {@link io.mdgate.app.config.ConfigWriter}), {@code cores}, {@code ports} and {@code doctor}. The
 * configuration model, its loader and the core-map checks they use are gateway-runtime's
 * {@code io.mdgate.runtime.config}. Every key is described in docs/CONFIGURATION.md.
 * <p>
 * Threading: each command runs on the calling thread.
 */
package io.mdgate.app.config;
