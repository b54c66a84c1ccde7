/*
 * Entry point of libdisni: JNI_OnLoad registers the natives of DiSNI's NativeDispatcher (RDMA-CM and verbs tables)
 * and NativeAffinity with the class loader that loaded the library. Also the error helpers and the affinity calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "disni.h"

#define DISPATCHER_CLASS "com/ibm/disni/verbs/impl/NativeDispatcher"
#define AFFINITY_CLASS "com/ibm/disni/util/NativeAffinity"

const char *disni_hint(int err)
{
    switch (err)
    {
    case ENODEV:
    case ENOENT:
    case ENOSYS:
    case EADDRNOTAVAIL:
        return "; no RDMA device: get one with Soft-RoCE (as root on a kernel with rdma_rxe: "
               "`modprobe rdma_rxe; rdma link add rxe0 type rxe netdev IFACE`), or run in the guest bed "
               "(`make test-softroce`)";
    case EACCES:
    case EPERM:
        return "; no permission on /dev/infiniband: run as a user with access to the RDMA devices";
    case ENOMEM:
        return "; memory registration may exceed the locked-memory limit: raise `ulimit -l` "
               "(or grant CAP_IPC_LOCK)";
    default:
        return "";
    }
}

void disni_throw(JNIEnv *env, const char *what, int err)
{
    char message[512];
    snprintf(message, sizeof(message), "disni: %s: %s (errno %d)%s", what, strerror(err), err, disni_hint(err));
    jclass clazz = (*env)->FindClass(env, "java/io/IOException");
    if (clazz != NULL)
    {
        (*env)->ThrowNew(env, clazz, message);
        (*env)->DeleteLocalRef(env, clazz);
    }
}

/* NativeAffinity._setAffinity(long): pins the calling thread to the CPUs of the bit mask (CPUs 0..63). */
static void set_affinity0(JNIEnv *env, jclass clazz, jlong mask)
{
    (void)clazz;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < 64; cpu++)
    {
        if (((uint64_t)mask >> cpu) & 1U)
        {
            CPU_SET(cpu, &set);
        }
    }
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
    {
        char what[96];
        snprintf(what, sizeof(what), "sched_setaffinity(mask 0x%llx)", (unsigned long long)mask);
        disni_throw(env, what, errno);
    }
}

/* NativeAffinity._getAffinity(): the calling thread's CPUs 0..63 as a bit mask, or -1 when it cannot be read. */
static jlong get_affinity0(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
    {
        return -1;
    }
    uint64_t mask = 0;
    for (int cpu = 0; cpu < 64; cpu++)
    {
        if (CPU_ISSET(cpu, &set))
        {
            mask |= (uint64_t)1 << cpu;
        }
    }
    return (jlong)mask;
}

static const JNINativeMethod affinity_methods[] = {
    { "_setAffinity", "(J)V", (void *)set_affinity0 },
    { "_getAffinity", "()J", (void *)get_affinity0 },
};

const struct disni_natives disni_affinity_natives = DISNI_NATIVES(AFFINITY_CLASS, affinity_methods);

/*
 * Registers every table whose class the loading class loader can see. NativeDispatcher is the one that matters;
 * a class loader without NativeAffinity (or the reverse) still gets the other. Fails the load when a table does
 * not match its class (a DiSNI of another version), so that the mismatch shows at load, not at first call.
 */
JNIEXPORT jint JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK)
    {
        return JNI_ERR;
    }
    const struct disni_natives *tables[] = { &disni_cm_natives, &disni_verbs_natives, &disni_affinity_natives };
    int registered = 0;
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
    {
        jclass clazz = (*env)->FindClass(env, tables[i]->class_name);
        if (clazz == NULL)
        {
            (*env)->ExceptionClear(env);
            continue;
        }
        const jint rc = (*env)->RegisterNatives(env, clazz, tables[i]->methods, tables[i]->count);
        (*env)->DeleteLocalRef(env, clazz);
        if (rc != JNI_OK)
        {
            return JNI_ERR;
        }
        registered++;
    }
    return registered > 0 ? JNI_VERSION_1_8 : JNI_ERR;
}
