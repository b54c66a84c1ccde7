/**
 * The one JSON style of mdgate's tools, written through Jackson's streaming generator: compact (no space after
 * {@code :} or {@code ,}), keys in the order written, numbers as numbers. {@link io.mdgate.core.json.JsonText}
 * turns a writer's fields into one line of text; {@link io.mdgate.core.tick.TickJson} writes ticks in the same
 * style.
 * <p>
 * Threading: stateless helpers; a generator belongs to the thread that writes with it.
 */
package io.mdgate.core.json;
