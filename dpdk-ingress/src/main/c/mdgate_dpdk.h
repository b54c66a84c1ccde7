/*
 * Shared definitions of libmdgate-dpdk, the JNI library behind io.mdgate.ingress.DpdkNative.
 */
#ifndef MDGATE_DPDK_H
#define MDGATE_DPDK_H

/*
 * The native ABI this library implements: the set of natives registered in JNI_OnLoad and their meaning.
 * Bump it together with DpdkNative.ABI_VERSION whenever a native is added, removed or changes meaning,
 * so that a stale library left on java.library.path is refused at load instead of misbehaving.
 */
#define MDGATE_DPDK_ABI_VERSION 1

#endif
