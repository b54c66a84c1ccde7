package io.mdgate.egress.transport.verbs;

/**
 * What a send or RDMA Write needs of a local registered region to point its scatter/gather entry at it: the
 * address and the local key. Both region kinds of the verbs transport have them (the project's library's and
 * DiSNI's); a write takes its source from a region of the same library as its connection.
 */
interface RegisteredMemory
{
    long address();

    int lkey();
}
