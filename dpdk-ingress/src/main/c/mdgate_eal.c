/*
 * EAL start-up (once per process), the capture of DPDK's log during start-up, and the registration and pinning
 * of the receive thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "mdgate_dpdk.h"

#define MAX_EAL_ARGS 64

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *capture_stream;
static char *capture_text;
static size_t capture_length;
static char *last_log;

static pthread_mutex_t eal_lock = PTHREAD_MUTEX_INITIALIZER;
static int eal_result = 1; /* 1: never tried; 0: initialised; negative: the -errno of the one attempt */

void mdg_log_capture_begin(void)
{
    pthread_mutex_lock(&log_lock);
    capture_text = NULL;
    capture_length = 0;
    capture_stream = open_memstream(&capture_text, &capture_length);
    if (capture_stream != NULL)
    {
        rte_openlog_stream(capture_stream);
    }
}

void mdg_log_capture_end(void)
{
    /* stderr, not EAL's default console stream, which writes to stdout (and the CLI's stdout is its JSON). */
    rte_openlog_stream(stderr);
    if (capture_stream != NULL)
    {
        fclose(capture_stream);
        capture_stream = NULL;
        free(last_log);
        last_log = capture_text;
        capture_text = NULL;
    }
    pthread_mutex_unlock(&log_lock);
}

jstring mdg_log_last(JNIEnv *env)
{
    pthread_mutex_lock(&log_lock);
    const jstring text = (*env)->NewStringUTF(env, last_log == NULL ? "" : last_log);
    pthread_mutex_unlock(&log_lock);
    return text;
}

/*
 * EAL prints to the process's stdout and stderr as well as to its log: getopt's complaint about an option and the
 * whole EAL usage after it. The CLI's stdout is data (JSON), so during rte_eal_init both descriptors point at a
 * memory file, and what it held, up to the usage, goes into the captured log instead. Nothing else of this
 * process prints while EAL starts: start-up is single-threaded.
 */
struct console_capture
{
    int file;
    int saved_out;
    int saved_err;
};

static void console_capture_begin(struct console_capture *capture)
{
    fflush(stdout);
    fflush(stderr);
    capture->file = memfd_create("mdgate-eal-console", MFD_CLOEXEC);
    capture->saved_out = capture->file < 0 ? -1 : dup(STDOUT_FILENO);
    capture->saved_err = capture->file < 0 ? -1 : dup(STDERR_FILENO);
    if (capture->saved_out >= 0 && capture->saved_err >= 0)
    {
        dup2(capture->file, STDOUT_FILENO);
        dup2(capture->file, STDERR_FILENO);
    }
}

/* Restores stdout and stderr and writes what EAL printed, without its usage, to the log capture. */
static void console_capture_end(struct console_capture *capture)
{
    fflush(stdout);
    fflush(stderr);
    if (capture->saved_out >= 0 && capture->saved_err >= 0)
    {
        dup2(capture->saved_out, STDOUT_FILENO);
        dup2(capture->saved_err, STDERR_FILENO);
    }
    if (capture->saved_out >= 0)
    {
        close(capture->saved_out);
    }
    if (capture->saved_err >= 0)
    {
        close(capture->saved_err);
    }
    if (capture->file < 0)
    {
        return;
    }
    char text[4096];
    const ssize_t length = pread(capture->file, text, sizeof(text) - 1, 0);
    close(capture->file);
    if (length <= 0 || capture_stream == NULL)
    {
        return;
    }
    text[length] = '\0';
    char *usage = strstr(text, "\nUsage:");
    if (usage != NULL)
    {
        usage[1] = '\0';
    }
    else if (strncmp(text, "Usage:", 6) == 0)
    {
        text[0] = '\0';
    }
    fputs(text, capture_stream);
}

/* Copies Java's arguments into strings EAL may keep for the life of the process, so they are never freed. */
static int copy_arguments(JNIEnv *env, jobjectArray args, char **argv, int max)
{
    const jsize argc = (*env)->GetArrayLength(env, args);
    if (argc < 1 || argc > max)
    {
        return -E2BIG;
    }
    for (jsize i = 0; i < argc; i++)
    {
        const jstring arg = (jstring)(*env)->GetObjectArrayElement(env, args, i);
        const char *chars = arg == NULL ? NULL : (*env)->GetStringUTFChars(env, arg, NULL);
        if (chars == NULL)
        {
            return -EINVAL;
        }
        argv[i] = strdup(chars);
        (*env)->ReleaseStringUTFChars(env, arg, chars);
        (*env)->DeleteLocalRef(env, arg);
        if (argv[i] == NULL)
        {
            return -ENOMEM;
        }
    }
    return argc;
}

/*
 * Initialises EAL with args (args[0] is the program name). EAL can start once per process: a second call returns
 * the first call's result without trying again (a retry after a failure fails anyway, with -EALREADY). The calling
 * thread becomes the main lcore, pinned to its CPU. Returns 0 or a -errno; DPDK's own words are in lastLog0.
 */
static jint eal_init0(JNIEnv *env, jclass clazz, jobjectArray args)
{
    (void)clazz;
    pthread_mutex_lock(&eal_lock);
    if (eal_result <= 0)
    {
        const jint result = eal_result;
        pthread_mutex_unlock(&eal_lock);
        return result;
    }
    char *argv[MAX_EAL_ARGS + 1] = { NULL };
    const int argc = copy_arguments(env, args, argv, MAX_EAL_ARGS);
    if (argc < 0)
    {
        pthread_mutex_unlock(&eal_lock);
        return argc;
    }
    struct console_capture console;
    mdg_log_capture_begin();
    console_capture_begin(&console);
    const int parsed = rte_eal_init(argc, argv);
    const int error = rte_errno;
    console_capture_end(&console);
    mdg_log_capture_end();
    eal_result = parsed < 0 ? -(error == 0 ? EINVAL : error) : 0;
    const jint result = eal_result;
    pthread_mutex_unlock(&eal_lock);
    return result;
}

/* 1 when EAL is initialised in this process, 0 when never tried, the failed attempt's -errno otherwise. */
static jint eal_state0(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    pthread_mutex_lock(&eal_lock);
    const jint state = eal_result == 0 ? 1 : eal_result == 1 ? 0 : eal_result;
    pthread_mutex_unlock(&eal_lock);
    return state;
}

static jstring last_log0(JNIEnv *env, jclass clazz)
{
    (void)clazz;
    return mdg_log_last(env);
}

/*
 * Makes the calling thread a receive thread: pins it to cpu (when cpu >= 0), then registers it with EAL when it
 * is not an EAL thread already, so it has an lcore id and with it a mempool cache. Returns the lcore id or a
 * -errno.
 */
static jint thread_register0(JNIEnv *env, jclass clazz, jint cpu)
{
    (void)env;
    (void)clazz;
    if (cpu >= 0)
    {
        if (cpu >= CPU_SETSIZE)
        {
            return -EINVAL;
        }
        rte_cpuset_t cpus;
        CPU_ZERO(&cpus);
        CPU_SET(cpu, &cpus);
        if (rte_thread_set_affinity(&cpus) != 0)
        {
            return -EINVAL;
        }
    }
    if (rte_lcore_id() == LCORE_ID_ANY && rte_thread_register() != 0)
    {
        return -(rte_errno == 0 ? EINVAL : rte_errno);
    }
    return (jint)rte_lcore_id();
}

/* Gives back the lcore id of a thread registered by thread_register0; EAL's own threads keep theirs. */
static void thread_unregister0(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    const unsigned lcore = rte_lcore_id();
    if (lcore != LCORE_ID_ANY && rte_eal_lcore_role(lcore) == ROLE_NON_EAL)
    {
        rte_thread_unregister();
    }
}

/* The CPU the calling thread runs on now, for checking the pinning. */
static jint current_cpu0(JNIEnv *env, jclass clazz)
{
    (void)env;
    (void)clazz;
    return sched_getcpu();
}

static const JNINativeMethod eal_methods[] = {
    { "ealInit0", "([Ljava/lang/String;)I", (void *)eal_init0 },
    { "ealState0", "()I", (void *)eal_state0 },
    { "lastLog0", "()Ljava/lang/String;", (void *)last_log0 },
    { "threadRegister0", "(I)I", (void *)thread_register0 },
    { "threadUnregister0", "()V", (void *)thread_unregister0 },
    { "currentCpu0", "()I", (void *)current_cpu0 },
};

const struct mdg_natives mdg_eal_natives = MDG_NATIVES(eal_methods);
