/**
 * The commands over a running gateway: {@code run} (parses its arguments, loads the configuration and checks the
 * core map against this host, then starts gateway-runtime's {@link io.mdgate.runtime.Gateway} and stops it on
 * SIGTERM, Ctrl-C or {@code --duration}), {@code stat} and {@code errors} (read its counters file, live or after it
 * stopped). The gateway itself, its agents and the counters file are in gateway-runtime ({@code io.mdgate.runtime}).
 * <p>
 * Threading: each command runs on the calling thread; the gateway's cores run on threads of their own.
 */
package io.mdgate.app.run;
