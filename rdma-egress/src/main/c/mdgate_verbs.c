/*
 * Entry point of libmdgate-verbs: registers the natives of io.mdgate.egress.transport.verbs.VerbsNative, and the
 * base natives: ABI version, the struct sizes the Java side relies on, error texts, device listing, the memlock
 * limit, opening a device (the verbs context librdmacm uses, a protection domain) and memory registration.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "mdgate_verbs.h"

#define VERBS_NATIVE_CLASS "io/mdgate/egress/transport/verbs/VerbsNative"

static __thread char last_error[512];

void mdg_set_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof(last_error), format, args);
    va_end(args);
}

const char *mdg_last_error(void)
{
    return last_error;
}

int mdg_parse_ipv4(const char *ip, int port, struct sockaddr_in *out)
{
    memset(out, 0, sizeof(*out));
    out->sin_family = AF_INET;
    out->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, ip, &out->sin_addr) != 1)
    {
        mdg_set_error("'%s' is not an IPv4 address", ip);
        return -EINVAL;
    }
    return 0;
}

int mdg_set_nonblocking(int fd)
{
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    {
        return -errno;
    }
    return 0;
}

int mdg_wait_event(struct rdma_event_channel *channel, int timeout_ms, struct rdma_cm_event **event)
{
    struct pollfd pfd = { .fd = channel->fd, .events = POLLIN, .revents = 0 };
    int ready;
    do
    {
        ready = poll(&pfd, 1, timeout_ms);
    }
    while (ready < 0 && errno == EINTR);
    if (ready < 0)
    {
        return -errno;
    }
    if (ready == 0)
    {
        return -ETIMEDOUT;
    }
    if (rdma_get_cm_event(channel, event) != 0)
    {
        return -errno;
    }
    return 0;
}

static jint abi_version0(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    return MDGATE_VERBS_ABI_VERSION;
}

/* The sizes of the rdma-core structs and of this library's own layouts, compared with VerbsNative.STRUCT_SIZES. */
static void struct_sizes0(JNIEnv *env, jclass clazz, jintArray out)
{
    (void)clazz;
    const jint sizes[] = {
        (jint)sizeof(struct ibv_send_wr),
        (jint)sizeof(struct ibv_recv_wr),
        (jint)sizeof(struct ibv_sge),
        (jint)sizeof(struct ibv_wc),
        (jint)sizeof(struct sockaddr_in),
        MDG_FRAME_HEADER,
        MDG_FRAME_ALIGN,
        MDG_GRH_LENGTH,
        MDG_BOUNCE_MAX,
    };
    const jsize n = (*env)->GetArrayLength(env, out);
    const jsize count = (jsize)(sizeof(sizes) / sizeof(sizes[0]));
    (*env)->SetIntArrayRegion(env, out, 0, n < count ? n : count, sizes);
}

static jstring error_text0(JNIEnv *env, jclass clazz, jint errnum)
{
    (void)clazz;
    return (*env)->NewStringUTF(env, strerror(errnum));
}

static jstring last_error0(JNIEnv *env, jclass clazz)
{
    (void)clazz;
    return (*env)->NewStringUTF(env, last_error);
}

/* Names of the RDMA devices, comma separated ("" when there are none), or null with the reason in last_error. */
static jstring devices0(JNIEnv *env, jclass clazz)
{
    (void)clazz;
    int count = 0;
    errno = 0;
    struct ibv_device **list = ibv_get_device_list(&count);
    if (list == NULL)
    {
        const int err = errno;
        mdg_set_error("ibv_get_device_list: %s (errno %d)", strerror(err), err);
        return NULL;
    }
    char names[1024];
    size_t used = 0;
    names[0] = '\0';
    for (int i = 0; i < count; i++)
    {
        const int n = snprintf(names + used, sizeof(names) - used, "%s%s", i == 0 ? "" : ",",
            ibv_get_device_name(list[i]));
        if (n < 0 || (size_t)n >= sizeof(names) - used)
        {
            break;
        }
        used += (size_t)n;
    }
    ibv_free_device_list(list);
    return (*env)->NewStringUTF(env, names);
}

/* The soft RLIMIT_MEMLOCK in bytes, -1 when unlimited. */
static jlong memlock_limit0(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    struct rlimit limit;
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0)
    {
        return -2;
    }
    return limit.rlim_cur == RLIM_INFINITY ? -1 : (jlong)limit.rlim_cur;
}

static uint32_t mtu_bytes(enum ibv_mtu mtu)
{
    switch (mtu)
    {
        case IBV_MTU_256: return 256;
        case IBV_MTU_512: return 512;
        case IBV_MTU_1024: return 1024;
        case IBV_MTU_2048: return 2048;
        case IBV_MTU_4096: return 4096;
        default: return 0;
    }
}

/*
 * Opens device `name` as librdmacm sees it (so queue pairs of RDMA-CM ids resolved to it can use its protection
 * domain). info: [0] active MTU bytes, [1] port state, [2] max_qp_wr, [3] max_sge. Returns a handle or -errno.
 */
static jlong device_open0(JNIEnv *env, jclass clazz, jstring jname, jint port, jintArray info)
{
    (void)clazz;
    const char *name = (*env)->GetStringUTFChars(env, jname, NULL);
    if (name == NULL)
    {
        return -ENOMEM;
    }
    jlong result;
    int count = 0;
    errno = 0;
    struct ibv_context **devices = rdma_get_devices(&count);
    struct mdg_dev *dev = NULL;
    if (devices == NULL || count == 0)
    {
        const int err = errno != 0 ? errno : ENODEV;
        mdg_set_error("rdma_get_devices found no RDMA device (%s)", strerror(err));
        if (devices != NULL)
        {
            rdma_free_devices(devices);
        }
        result = -ENODEV;
        goto out;
    }
    struct ibv_context *ctx = NULL;
    for (int i = 0; i < count; i++)
    {
        if (strcmp(ibv_get_device_name(devices[i]->device), name) == 0)
        {
            ctx = devices[i];
        }
    }
    if (ctx == NULL)
    {
        char names[512];
        size_t used = 0;
        names[0] = '\0';
        for (int i = 0; i < count && used < sizeof(names) - 1; i++)
        {
            const int n = snprintf(names + used, sizeof(names) - used, "%s%s", i == 0 ? "" : ",",
                ibv_get_device_name(devices[i]->device));
            used = n < 0 ? used : used + (size_t)n;
        }
        mdg_set_error("no RDMA device named %s (there are: %s)", name, names);
        rdma_free_devices(devices);
        result = -ENODEV;
        goto out;
    }
    struct ibv_port_attr port_attr;
    const int queried = ibv_query_port(ctx, (uint8_t)port, &port_attr);
    if (queried != 0)
    {
        mdg_set_error("ibv_query_port %s port %d: %s", name, port, strerror(queried));
        rdma_free_devices(devices);
        result = -queried;
        goto out;
    }
    struct ibv_device_attr device_attr;
    const int attr = ibv_query_device(ctx, &device_attr);
    if (attr != 0)
    {
        mdg_set_error("ibv_query_device %s: %s", name, strerror(attr));
        rdma_free_devices(devices);
        result = -attr;
        goto out;
    }
    dev = calloc(1, sizeof(*dev));
    if (dev == NULL)
    {
        rdma_free_devices(devices);
        result = -ENOMEM;
        goto out;
    }
    dev->ctx = ctx;
    dev->cm_devices = devices;
    dev->port = (uint8_t)port;
    dev->active_mtu = mtu_bytes(port_attr.active_mtu);
    dev->pd = ibv_alloc_pd(ctx);
    if (dev->pd == NULL)
    {
        const int err = errno != 0 ? errno : ENOMEM;
        mdg_set_error("ibv_alloc_pd on %s: %s", name, strerror(err));
        rdma_free_devices(devices);
        free(dev);
        result = -err;
        goto out;
    }
    const jint values[] = { (jint)dev->active_mtu, (jint)port_attr.state, device_attr.max_qp_wr, device_attr.max_sge };
    (*env)->SetIntArrayRegion(env, info, 0, 4, values);
    result = (jlong)(uintptr_t)dev;
out:
    (*env)->ReleaseStringUTFChars(env, jname, name);
    return result;
}

static jint device_close0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    struct mdg_dev *dev = (struct mdg_dev *)(uintptr_t)handle;
    const int result = ibv_dealloc_pd(dev->pd);
    rdma_free_devices(dev->cm_devices);
    free(dev);
    return -result;
}

/* Registers [address, address + length); keys: [0] lkey, [1] rkey. Returns a handle or -errno. */
static jlong reg_mr0(JNIEnv *env, jclass clazz, jlong handle, jlong address, jlong length, jboolean remote_write,
    jintArray keys)
{
    (void)clazz;
    struct mdg_dev *dev = (struct mdg_dev *)(uintptr_t)handle;
    int access = IBV_ACCESS_LOCAL_WRITE;
    if (remote_write)
    {
        access |= IBV_ACCESS_REMOTE_WRITE;
    }
    struct ibv_mr *mr = ibv_reg_mr(dev->pd, (void *)(uintptr_t)address, (size_t)length, access);
    if (mr == NULL)
    {
        const int err = errno != 0 ? errno : ENOMEM;
        mdg_set_error("ibv_reg_mr of %lld bytes: %s", (long long)length, strerror(err));
        return -err;
    }
    const jint values[] = { (jint)mr->lkey, (jint)mr->rkey };
    (*env)->SetIntArrayRegion(env, keys, 0, 2, values);
    return (jlong)(uintptr_t)mr;
}

static jint dereg_mr0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    return -ibv_dereg_mr((struct ibv_mr *)(uintptr_t)handle);
}

/* The device's verbs context, as librdmacm holds it: what another verbs library's id on this device must share. */
static jlong device_context0(JNIEnv *env, jclass clazz, jlong handle)
{
    (void)env;
    (void)clazz;
    return (jlong)(uintptr_t)((struct mdg_dev *)(uintptr_t)handle)->ctx;
}

/*
 * Anonymous memory on 2 MiB pages (MAP_HUGETLB), pre-faulted: the address, or -errno (ENOMEM: no free hugepages,
 * EINVAL: a length that is not a multiple of 2 MiB). Registered memory on hugepages needs fewer translation
 * entries in the device and in the CPU.
 */
static jlong map_huge0(JNIEnv *env, jclass clazz, jlong length)
{
    (void)env;
    (void)clazz;
    void *address = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);
    if (address == MAP_FAILED)
    {
        const int err = errno;
        mdg_set_error("mmap of %lld bytes on 2 MiB pages: %s", (long long)length, strerror(err));
        return -err;
    }
    return (jlong)(uintptr_t)address;
}

static jint unmap0(JNIEnv *env, jclass clazz, jlong address, jlong length)
{
    (void)env;
    (void)clazz;
    return munmap((void *)(uintptr_t)address, (size_t)length) == 0 ? 0 : -errno;
}

static const JNINativeMethod device_methods[] = {
    { "abiVersion0", "()I", (void *)abi_version0 },
    { "structSizes0", "([I)V", (void *)struct_sizes0 },
    { "errorText0", "(I)Ljava/lang/String;", (void *)error_text0 },
    { "lastError0", "()Ljava/lang/String;", (void *)last_error0 },
    { "devices0", "()Ljava/lang/String;", (void *)devices0 },
    { "memlockLimit0", "()J", (void *)memlock_limit0 },
    { "deviceOpen0", "(Ljava/lang/String;I[I)J", (void *)device_open0 },
    { "deviceClose0", "(J)I", (void *)device_close0 },
    { "regMr0", "(JJJZ[I)J", (void *)reg_mr0 },
    { "deregMr0", "(J)I", (void *)dereg_mr0 },
    { "deviceContext0", "(J)J", (void *)device_context0 },
    { "mapHuge0", "(J)J", (void *)map_huge0 },
    { "unmap0", "(JJ)I", (void *)unmap0 },
};

const struct mdg_natives mdg_device_natives = MDG_NATIVES(device_methods);

JNIEXPORT jint JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env = NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK)
    {
        return JNI_ERR;
    }
    jclass clazz = (*env)->FindClass(env, VERBS_NATIVE_CLASS);
    if (clazz == NULL)
    {
        return JNI_ERR;
    }
    const struct mdg_natives *tables[] = { &mdg_device_natives, &mdg_rc_natives, &mdg_ud_natives };
    jint registered = JNI_OK;
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && registered == JNI_OK; i++)
    {
        registered = (*env)->RegisterNatives(env, clazz, tables[i]->methods, tables[i]->count);
    }
    (*env)->DeleteLocalRef(env, clazz);
    return registered == JNI_OK ? JNI_VERSION_1_8 : JNI_ERR;
}
