/*
 * Entry point of libmdgate-dpdk: registers the natives of io.mdgate.ingress.DpdkNative when the JVM loads the
 * library. Every native is a static function reached only through a RegisterNatives table, so the library
 * exports nothing but JNI_OnLoad.
 */
#include <jni.h>
#include <rte_errno.h>
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

/* DPDK's text for an errno, including its own codes (E_RTE_SECONDARY, E_RTE_NO_CONFIG). */
static jstring error_text0(JNIEnv *env, jclass clazz, jint errnum)
{
    (void)clazz;
    return (*env)->NewStringUTF(env, rte_strerror(errnum));
}

static const JNINativeMethod dpdk_native_methods[] = {
    { "abiVersion0", "()I", (void *)abi_version0 },
    { "rteVersion0", "()Ljava/lang/String;", (void *)rte_version0 },
    { "errorText0", "(I)Ljava/lang/String;", (void *)error_text0 },
};

static const struct mdg_natives mdg_base_natives = MDG_NATIVES(dpdk_native_methods);

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
    const struct mdg_natives *tables[] = { &mdg_base_natives, &mdg_eal_natives, &mdg_port_natives };
    jint registered = JNI_OK;
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && registered == JNI_OK; i++)
    {
        registered = (*env)->RegisterNatives(env, clazz, tables[i]->methods, tables[i]->count);
    }
    (*env)->DeleteLocalRef(env, clazz);

    return registered == JNI_OK ? JNI_VERSION_1_8 : JNI_ERR;
}
