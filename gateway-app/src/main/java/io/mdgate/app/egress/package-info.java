/**
 * The egress commands: {@code mdgate publish} (a generated ITCH session through decode, books and normalizer into
 * the egress publisher) and {@code mdgate consume} (a consumer that prints ticks or live statistics), over the
 * transport chosen with {@code --transport}.
 */
package io.mdgate.app.egress;
