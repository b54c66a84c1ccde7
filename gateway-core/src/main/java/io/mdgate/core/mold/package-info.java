/**
 * MoldUDP64 framing: the downstream packets that carry ITCH messages (decoder and encoder), the re-request
 * packet a client sends to recover a gap, and the 10-byte session identifier.
 * <p>
 * The wire layout is documented once, in {@link io.mdgate.core.mold.MoldUdp64Descriptor}. The codecs are
 * flyweights over Agrona buffers: they allocate nothing per packet and report malformed input through return
 * codes and counters, never exceptions. Each instance is confined to one thread.
 */
package io.mdgate.core.mold;
