/*
 * Shared definitions of libmdgate-dpdk, the JNI library behind io.mdgate.ingress.DpdkNative.
 *
 * Every JNI native is a static function of the file that implements it, reached only through that file's
 * RegisterNatives table (declared here and registered by JNI_OnLoad). Helpers shared between files carry the
 * mdg_ prefix and stay hidden (-fvisibility=hidden): the library exports nothing but JNI_OnLoad.
 */
#ifndef MDGATE_DPDK_H
#define MDGATE_DPDK_H

#include <jni.h>

/*
 * The native ABI this library implements: the set of natives registered in JNI_OnLoad and their meaning, and the
 * layouts shared with Java (RxBurstDescriptor, DpdkStatsDescriptor). Bump it together with DpdkNative.ABI_VERSION
 * whenever one of them changes, so that a stale library left on java.library.path is refused at load instead of
 * misbehaving.
 */
#define MDGATE_DPDK_ABI_VERSION 5

/* One file's natives, for JNI_OnLoad. */
struct mdg_natives
{
    const JNINativeMethod *methods;
    jint count;
};

#define MDG_NATIVES(table) { (table), (jint)(sizeof(table) / sizeof((table)[0])) }

extern const struct mdg_natives mdg_eal_natives;
extern const struct mdg_natives mdg_port_natives;

/*
 * DPDK's log, captured while EAL starts and while a port is set up, so that a start-up error can quote DPDK's
 * own words. Between begin and end, every DPDK log line goes to memory instead of stderr; end keeps the text for
 * mdg_log_last() and sends later log lines to stderr (never to stdout, which carries the CLI's JSON).
 */
void mdg_log_capture_begin(void);
void mdg_log_capture_end(void);
jstring mdg_log_last(JNIEnv *env);

#endif
