/*
 * Shared declarations of libdisni, the project's own native half of DiSNI 2.1 (com.ibm.disni), over rdma-core
 * (libibverbs + librdmacm). DiSNI's Java classes load it with System.loadLibrary("disni") and call the natives of
 * com.ibm.disni.verbs.impl.NativeDispatcher (and of com.ibm.disni.util.NativeAffinity); JNI_OnLoad registers them
 * from the tables below, so no symbol follows the Java_* naming.
 *
 * The contract, as DiSNI's Java side uses it:
 * - every rdma-core object (event channel, cm id, context, pd, comp channel, cq, qp, mr) travels to Java as its
 *   pointer in a jlong, the "object id"; Java treats a negative id as "none";
 * - natives declared to throw IOException throw one that names the call and the errno text; the int-returning
 *   teardown calls return 0 or a negative errno;
 * - the stateful verb calls (SVCPostSend, SVCPostRecv, SVCPollCq) hand over the address of a buffer they wrote
 *   (or read) with the layouts below; the send work request layout is DiSNI's own (72 bytes), translated into
 *   struct ibv_send_wr at post time; receive work requests, scatter/gather entries and work completions have the
 *   layout of rdma-core's structs, which the build asserts.
 */
#ifndef MDGATE_DISNI_H
#define MDGATE_DISNI_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* NativeDispatcher.JVERBS_VERSION: DiSNI 2.1 refuses a library that reports another version. */
#define DISNI_JVERBS_VERSION 32

/* DiSNI's serialized send work request (NatIbvSendWR.writeBack): the Java side writes these at a stride of 72. */
struct disni_send_wr
{
    uint64_t wr_id;
    uint64_t next;        /* address of the next disni_send_wr, 0 ends the list */
    uint64_t sg_list;     /* address of num_sge entries laid out as struct ibv_sge */
    uint32_t num_sge;
    uint32_t opcode;      /* enum ibv_wr_opcode */
    uint32_t send_flags;  /* enum ibv_send_flags */
    uint32_t imm_data;    /* already in network order, as Java wrote it */
    uint64_t remote_addr; /* NatIbvSendWR.REMOTEADDR_OFFSET = 40 */
    uint32_t rkey;        /* NatIbvSendWR.RKEY_OFFSET = 48 */
    uint32_t reserved;
    uint8_t unused[16];
};

#define DISNI_SEND_WR_SIZE 72
#define DISNI_REMOTE_ADDR_OFFSET 40
#define DISNI_RKEY_OFFSET 48

/* SockAddrIn.CSIZE: the Java side allocates address buffers of this size; IPv4 (struct sockaddr_in) inside. */
#define DISNI_SOCKADDR_SIZE 28

struct disni_natives
{
    const char *class_name;
    const JNINativeMethod *methods;
    jint count;
};

#define DISNI_NATIVES(name, table) { (name), (table), (jint)(sizeof(table) / sizeof((table)[0])) }

/* Throws java.io.IOException "disni: <what>: <strerror(err)> (errno <err>)<hint>"; returns 0 for "return 0". */
void disni_throw(JNIEnv *env, const char *what, int err);

/* What to tell someone whose call failed with err: a device, permission or memlock hint, or "". */
const char *disni_hint(int err);

extern const struct disni_natives disni_cm_natives;
extern const struct disni_natives disni_verbs_natives;
extern const struct disni_natives disni_affinity_natives;

#endif
