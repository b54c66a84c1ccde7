package io.mdgate.egress.transport;

/**
 * What a peer needs to write into a registered region: the verbs triple of remote address, remote key and length.
 * Sent to the peer in control messages as three fixed-size fields. Over {@code shm} the address is the region's
 * 64-bit identity (it names its file) and the key is checked when the peer opens it, as an HCA checks an rkey.
 *
 * @param address the region's remote address (verbs: the virtual address registered; shm: its identity).
 * @param key     the remote key (verbs: the MR's rkey; shm: a random 32-bit key stored in the region).
 * @param length  bytes the peer may write, from offset 0.
 */
public record RemoteKey(long address, int key, long length)
{
    @Override
    public String toString()
    {
        return "RemoteKey{address=0x" + Long.toHexString(address) + ", key=0x" + Integer.toHexString(key) +
            ", length=" + length + "}";
    }
}
