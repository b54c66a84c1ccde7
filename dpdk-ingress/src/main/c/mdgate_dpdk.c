/*
 * Entry point of libmdgate-dpdk: registers the natives of io.mdgate.ingress.DpdkNative when the JVM loads
 * the library. Every native is a static function reached only through the RegisterNatives table, so the
 * library exports nothing but JNI_OnLoad.
 */
#include <jni.h>
#include <rte_version.h>

#include "mdgate_dpdk.h"

#define DPDK_NATIVE_CLASS "io/mdgate/ingress/DpdkNative"

static jint abi_version0(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    return MDGATE_DPDK_ABI_VERSION;
}

/* The version of the DPDK runtime actually loaded (librte_eal), not of the headers we compiled against. */
static jstring rte_version0(JNIEnv *env, jclass clazz)
{
    (void)clazz;
    return (*env)->NewStringUTF(env, rte_version());
}

static const JNINativeMethod dpdk_native_methods[] = {
    { "abiVersion0", "()I", (void *)abi_version0 },
    { "rteVersion0", "()Ljava/lang/String;", (void *)rte_version0 },
};

JNIEXPORT jint JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK)
    {
        return JNI_ERR;
    }

    /* On failure the pending NoClassDefFoundError or NoSuchMethodError reaches System.load's caller. */
    jclass clazz = (*env)->FindClass(env, DPDK_NATIVE_CLASS);
    if (clazz == NULL)
    {
        return JNI_ERR;
    }
    const jint count = (jint)(sizeof(dpdk_native_methods) / sizeof(dpdk_native_methods[0]));
    const jint registered = (*env)->RegisterNatives(env, clazz, dpdk_native_methods, count);
    (*env)->DeleteLocalRef(env, clazz);

    return registered == JNI_OK ? JNI_VERSION_1_8 : JNI_ERR;
}
