/*
 * The shm transport (ShmTransport on the Java side): the control channel is a non-blocking Unix domain stream
 * socket carrying length-prefixed messages (UnixControlChannel), registered regions are files under the directory
 * whose first page holds the key (ShmRegionDescriptor), one-sided writes are release stores into the peer's
 * mapping, the shared tick log is mapped read-only, and the stream is a broadcast log file (BroadcastLogDescriptor).
 * Files are created rw-rw---- whatever the umask. The publisher's files may be on a hugetlbfs mount it names in
 * <instance>-hugepages; this library's own regions stay in the shm directory, where the publisher looks too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "mdgate/consumer.h"
#include "mdgate/protocol.h"
#include "memory.h"
#include "transport.h"

#define PAGE 4096
#define FILE_MODE 0660

typedef struct shm_stream
{
    uint8_t *mapping;
    size_t mapping_length;
    uint8_t *receive;
    int32_t stream_id;
    int32_t slot_count;
    int32_t slot_length;
    int32_t mtu;
    uint64_t next;
    int64_t loss;
} shm_stream;

typedef struct shm_transport
{
    mdg_transport base;
    char directory[160];
    char instance[64];
    int fd;
    int failure; /* why the channel went down: MDGATE_E_NOT_CONNECTED or MDGATE_E_PROTOCOL */
    int32_t max_message;
    uint8_t *in;
    size_t in_capacity;
    size_t in_length;
    uint8_t *out;
    size_t out_capacity;
    size_t out_length;
    int orphans_removed;
    shm_stream stream;
    char error[512];
} shm_transport;

static shm_transport *shm_of(mdg_transport *transport)
{
    return (shm_transport *)(void *)transport;
}

static int fail(shm_transport *shm, int code, const char *format, ...) __attribute__((format(printf, 3, 4)));

static int fail(shm_transport *shm, int code, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(shm->error, sizeof shm->error, format, args);
    va_end(args);
    return code;
}

static int file_name(const shm_transport *shm, char *out, size_t length, const char *suffix)
{
    const int written = snprintf(out, length, "%s/%s-%s", shm->directory, shm->instance, suffix);
    return written > 0 && (size_t)written < length ? 0 : -1;
}

static int64_t monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* ---- control channel ---- */

static void close_control(mdg_transport *transport)
{
    shm_transport *shm = shm_of(transport);
    if (shm->fd >= 0)
    {
        close(shm->fd);
        shm->fd = -1;
    }
    shm->in_length = 0;
    shm->out_length = 0;
}

static int connect_control(mdg_transport *transport, int64_t timeout_ns)
{
    shm_transport *shm = shm_of(transport);
    close_control(transport);
    shm->failure = MDGATE_E_NOT_CONNECTED;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    const int written = snprintf(address.sun_path, sizeof address.sun_path, "%s/%s-control.sock", shm->directory,
        shm->instance);
    if (written < 0 || (size_t)written >= sizeof address.sun_path)
    {
        return fail(shm, MDGATE_E_INVALID_ARGUMENT, "the control socket path %s/%s-control.sock is longer than the "
            "%zu bytes a Unix socket address holds: use a shorter directory or instance name", shm->directory,
            shm->instance, sizeof address.sun_path - 1);
    }
    const int64_t deadline = monotonic_ns() + (timeout_ns > 0 ? timeout_ns : 0);
    int last = 0;
    for (;;)
    {
        const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
        {
            return fail(shm, MDGATE_E_TRANSPORT, "socket(AF_UNIX): %s", strerror(errno));
        }
        if (connect(fd, (const struct sockaddr *)&address, sizeof address) == 0)
        {
            shm->fd = fd;
            shm->failure = 0;
            return MDGATE_OK;
        }
        last = errno;
        close(fd);
        if (monotonic_ns() >= deadline)
        {
            break;
        }
        const struct timespec pause = { 0, 10 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    return fail(shm, MDGATE_E_NO_PUBLISHER, "no publisher answers on %s (%s): start the publisher with the same shm "
        "directory and instance, or check the path", address.sun_path, strerror(last));
}

static void flush(shm_transport *shm)
{
    if (shm->out_length == 0 || shm->fd < 0)
    {
        return;
    }
    const ssize_t sent = send(shm->fd, shm->out, shm->out_length, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0)
    {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        {
            shm->failure = MDGATE_E_NOT_CONNECTED;
            close_control(&shm->base);
        }
        return;
    }
    memmove(shm->out, shm->out + sent, shm->out_length - (size_t)sent);
    shm->out_length -= (size_t)sent;
}

static int offer(mdg_transport *transport, const uint8_t *message, int32_t length)
{
    shm_transport *shm = shm_of(transport);
    if (shm->fd < 0)
    {
        return MDGATE_E_NOT_CONNECTED;
    }
    if (length < 0 || length > shm->max_message)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    const size_t frame = MDGATE_SHM_FRAME_HEADER_LENGTH + (size_t)length;
    if (shm->out_capacity - shm->out_length < frame)
    {
        flush(shm);
        if (shm->fd < 0)
        {
            return MDGATE_E_NOT_CONNECTED;
        }
        if (shm->out_capacity - shm->out_length < frame)
        {
            return MDGATE_E_BACK_PRESSURED;
        }
    }
    mdg_put32(shm->out + shm->out_length, (uint32_t)length);
    memcpy(shm->out + shm->out_length + MDGATE_SHM_FRAME_HEADER_LENGTH, message, (size_t)length);
    shm->out_length += frame;
    flush(shm);
    return shm->fd >= 0 ? MDGATE_OK : MDGATE_E_NOT_CONNECTED;
}

static int dispatch(shm_transport *shm, mdg_message_handler handler, void *context, int limit)
{
    size_t position = 0;
    int delivered = 0;
    while (delivered < limit && shm->fd >= 0 && shm->in_length - position >= MDGATE_SHM_FRAME_HEADER_LENGTH)
    {
        const int32_t length = (int32_t)mdg_get32(shm->in + position);
        if (length < 0 || length > shm->max_message)
        {
            /* A peer that breaks framing cannot be resynchronised. */
            shm->failure = MDGATE_E_PROTOCOL;
            snprintf(shm->error, sizeof shm->error, "the publisher sent a control frame of %d bytes (at most %d are "
                "accepted): not an mdgate publisher, or a broken one", length, shm->max_message);
            close_control(&shm->base);
            return delivered;
        }
        if (shm->in_length - position < MDGATE_SHM_FRAME_HEADER_LENGTH + (size_t)length)
        {
            break;
        }
        handler(context, shm->in + position + MDGATE_SHM_FRAME_HEADER_LENGTH, length);
        position += MDGATE_SHM_FRAME_HEADER_LENGTH + (size_t)length;
        delivered++;
    }
    if (shm->fd >= 0 && position > 0)
    {
        memmove(shm->in, shm->in + position, shm->in_length - position);
        shm->in_length -= position;
    }
    return delivered;
}

static int poll_control(mdg_transport *transport, mdg_message_handler handler, void *context, int limit)
{
    shm_transport *shm = shm_of(transport);
    if (shm->fd < 0)
    {
        return shm->failure != 0 ? shm->failure : MDGATE_E_NOT_CONNECTED;
    }
    flush(shm);
    int closed = 0;
    if (shm->fd >= 0 && shm->in_length < shm->in_capacity)
    {
        const ssize_t got = recv(shm->fd, shm->in + shm->in_length, shm->in_capacity - shm->in_length, MSG_DONTWAIT);
        if (got > 0)
        {
            shm->in_length += (size_t)got;
        }
        else if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        {
            closed = 1;
        }
    }
    const int delivered = shm->fd >= 0 ? dispatch(shm, handler, context, limit) : 0;
    if (closed && shm->fd >= 0)
    {
        if (shm->in_length > 0 && delivered == 0)
        {
            shm->failure = MDGATE_E_PROTOCOL;
            snprintf(shm->error, sizeof shm->error, "the publisher closed the connection in the middle of a control "
                "message (%zu bytes of it arrived)", shm->in_length);
        }
        else if (shm->failure == 0)
        {
            shm->failure = MDGATE_E_NOT_CONNECTED;
        }
        close_control(transport);
    }
    if (delivered > 0)
    {
        return delivered;
    }
    return shm->fd >= 0 ? 0 : (shm->failure != 0 ? shm->failure : MDGATE_E_NOT_CONNECTED);
}

static int32_t max_message_length(const mdg_transport *transport)
{
    return ((const shm_transport *)(const void *)transport)->max_message;
}

/* ---- regions ---- */

static size_t align_page(size_t length)
{
    return (length + PAGE - 1) & ~(size_t)(PAGE - 1);
}

/* Removes region files of the instance whose owner process is gone (a consumer killed before it could). */
static void remove_orphans(shm_transport *shm)
{
    DIR *directory = opendir(shm->directory);
    if (NULL == directory)
    {
        return;
    }
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s-region-", shm->instance);
    const size_t prefix_length = strlen(prefix);
    struct dirent *entry;
    while (NULL != (entry = readdir(directory)))
    {
        if (strncmp(entry->d_name, prefix, prefix_length) != 0)
        {
            continue;
        }
        char path[512];
        if (snprintf(path, sizeof path, "%s/%s", shm->directory, entry->d_name) >= (int)sizeof path)
        {
            continue;
        }
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
        {
            continue;
        }
        uint8_t header[40];
        const ssize_t got = pread(fd, header, sizeof header, 0);
        close(fd);
        if (got != (ssize_t)sizeof header ||
            mdg_get64(header + MDGATE_SHM_REGION_MAGIC_OFFSET) != MDGATE_SHM_REGION_MAGIC)
        {
            continue;
        }
        const int64_t owner = (int64_t)mdg_get64(header + MDGATE_SHM_REGION_OWNER_PID_OFFSET);
        if (owner > 0 && owner < INT32_MAX && kill((pid_t)owner, 0) != 0 && errno == ESRCH)
        {
            unlink(path);
        }
    }
    closedir(directory);
}

static int random_bytes(void *out, size_t length)
{
    return getrandom(out, length, 0) == (ssize_t)length ? 0 : -1;
}

static void prefault(uint8_t *mapping, size_t length)
{
    for (size_t i = 0; i < length; i += PAGE)
    {
        mapping[i] = 0;
    }
}

static int register_region(mdg_transport *transport, size_t length, mdg_local_region *region)
{
    shm_transport *shm = shm_of(transport);
    memset(region, 0, sizeof *region);
    if (length < 1 || length > (size_t)INT32_MAX - MDGATE_SHM_REGION_HEADER_LENGTH)
    {
        return fail(shm, MDGATE_E_INVALID_ARGUMENT, "a region of %zu bytes is out of range", length);
    }
    if (!shm->orphans_removed)
    {
        shm->orphans_removed = 1;
        remove_orphans(shm);
    }
    uint64_t address;
    uint32_t key;
    if (random_bytes(&address, sizeof address) != 0 || random_bytes(&key, sizeof key) != 0)
    {
        return fail(shm, MDGATE_E_TRANSPORT, "getrandom: %s", strerror(errno));
    }
    address &= (uint64_t)INT64_MAX;
    key |= 1;
    char suffix[48];
    snprintf(suffix, sizeof suffix, "region-%016llx", (unsigned long long)address);
    if (file_name(shm, region->path, sizeof region->path, suffix) != 0)
    {
        return fail(shm, MDGATE_E_INVALID_ARGUMENT, "the shm directory name is too long");
    }
    const int fd = open(region->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, FILE_MODE);
    if (fd < 0)
    {
        return fail(shm, MDGATE_E_TRANSPORT, "cannot create %s: %s (the shm directory must exist and be writable)",
            region->path, strerror(errno));
    }
    const size_t mapping_length = MDGATE_SHM_REGION_HEADER_LENGTH + align_page(length);
    void *mapping = MAP_FAILED;
    if (fchmod(fd, FILE_MODE) == 0 && ftruncate(fd, (off_t)mapping_length) == 0)
    {
        mapping = mmap(NULL, mapping_length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    const int saved = errno;
    close(fd);
    if (MAP_FAILED == mapping)
    {
        unlink(region->path);
        return fail(shm, MDGATE_E_NO_MEMORY, "cannot size or map %s (%zu bytes): %s", region->path, mapping_length,
            strerror(saved));
    }
    uint8_t *header = mapping;
    prefault(header, mapping_length);
    mdg_put64(header + MDGATE_SHM_REGION_ADDRESS_OFFSET, address);
    mdg_put32(header + MDGATE_SHM_REGION_KEY_OFFSET, key);
    mdg_put32(header + MDGATE_SHM_REGION_VERSION_OFFSET, MDGATE_SHM_REGION_VERSION);
    mdg_put64(header + MDGATE_SHM_REGION_LENGTH_OFFSET, length);
    mdg_put64(header + MDGATE_SHM_REGION_OWNER_PID_OFFSET, (uint64_t)getpid());
    mdg_store_release(header + MDGATE_SHM_REGION_MAGIC_OFFSET, MDGATE_SHM_REGION_MAGIC);
    region->mapping = mapping;
    region->mapping_length = mapping_length;
    region->base = header + MDGATE_SHM_REGION_HEADER_LENGTH;
    region->length = length;
    region->address = address;
    region->key = (int32_t)key;
    return MDGATE_OK;
}

static void release_region(mdg_transport *transport, mdg_local_region *region)
{
    (void)transport;
    if (NULL != region->mapping)
    {
        unlink(region->path);
        munmap(region->mapping, region->mapping_length);
    }
    memset(region, 0, sizeof *region);
}

static void *map_file(shm_transport *shm, const char *path, int writable, size_t minimum, size_t *length, int *code)
{
    const int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0)
    {
        *code = fail(shm, MDGATE_E_REGION, "cannot open %s: %s (is the publisher running with the same shm directory "
            "and instance, and is this user in its group?)", path, strerror(errno));
        return NULL;
    }
    struct stat status;
    if (fstat(fd, &status) != 0 || status.st_size < 0 || (size_t)status.st_size < minimum)
    {
        close(fd);
        *code = fail(shm, MDGATE_E_REGION, "%s holds %lld bytes, expected at least %zu", path,
            (long long)status.st_size, minimum);
        return NULL;
    }
    const int protection = writable ? PROT_READ | PROT_WRITE : PROT_READ;
    void *mapping = mmap(NULL, (size_t)status.st_size, protection, MAP_SHARED, fd, 0);
    const int saved = errno;
    close(fd);
    if (MAP_FAILED == mapping)
    {
        *code = fail(shm, MDGATE_E_NO_MEMORY, "cannot map %s: %s", path, strerror(saved));
        return NULL;
    }
    *length = (size_t)status.st_size;
    return mapping;
}

/*
 * Puts <hugepage directory>/<instance>-<suffix> in path when the publisher names a hugetlbfs directory in
 * <directory>/<instance>-hugepages and the file is there (ShmPlacement); returns 0 then, -1 otherwise.
 */
static int hugepage_file_name(const shm_transport *shm, char *out, size_t length, const char *suffix)
{
    char pointer[256];
    if (file_name(shm, pointer, sizeof pointer, "hugepages") != 0)
    {
        return -1;
    }
    const int fd = open(pointer, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        return -1;
    }
    char directory[200];
    const ssize_t got = read(fd, directory, sizeof directory - 1);
    close(fd);
    if (got <= 0)
    {
        return -1;
    }
    directory[got] = '\0';
    directory[strcspn(directory, "\n")] = '\0';
    const int written = snprintf(out, length, "%s/%s-%s", directory, shm->instance, suffix);
    return directory[0] == '/' && written > 0 && (size_t)written < length && access(out, F_OK) == 0 ? 0 : -1;
}

/*
 * Maps <instance>-<suffix> (read-only unless writable), at least minimum bytes, from the publisher's hugepage
 * directory when it has one and the file is there, else from the shm directory; NULL and *code when not.
 */
static void *map_instance_file(shm_transport *shm, const char *suffix, int writable, size_t minimum, char *path,
    size_t path_length, size_t *length, int *code)
{
    if (hugepage_file_name(shm, path, path_length, suffix) != 0 && file_name(shm, path, path_length, suffix) != 0)
    {
        *code = fail(shm, MDGATE_E_INVALID_ARGUMENT, "the shm directory name is too long");
        return NULL;
    }
    return map_file(shm, path, writable, minimum, length, code);
}

static int open_remote(mdg_transport *transport, uint64_t address, int32_t key, int64_t length,
    mdg_remote_region *region)
{
    shm_transport *shm = shm_of(transport);
    memset(region, 0, sizeof *region);
    if (length <= 0 || length > (int64_t)INT32_MAX - MDGATE_SHM_REGION_HEADER_LENGTH)
    {
        return fail(shm, MDGATE_E_PROTOCOL, "remote region length %lld is out of range", (long long)length);
    }
    char suffix[48];
    char path[256];
    snprintf(suffix, sizeof suffix, "region-%016llx", (unsigned long long)address);
    int code = 0;
    size_t mapped = 0;
    uint8_t *mapping = map_instance_file(shm, suffix, 1, MDGATE_SHM_REGION_HEADER_LENGTH + (size_t)length, path,
        sizeof path, &mapped, &code);
    if (NULL == mapping)
    {
        return code;
    }
    const char *problem = NULL;
    if (mdg_load_acquire(mapping + MDGATE_SHM_REGION_MAGIC_OFFSET) != MDGATE_SHM_REGION_MAGIC)
    {
        problem = "is not a registered region";
    }
    else if (mdg_get64(mapping + MDGATE_SHM_REGION_ADDRESS_OFFSET) != address ||
        (int32_t)mdg_get32(mapping + MDGATE_SHM_REGION_KEY_OFFSET) != key)
    {
        problem = "refuses the key (remote access error)";
    }
    else if ((int64_t)mdg_get64(mapping + MDGATE_SHM_REGION_LENGTH_OFFSET) < length)
    {
        problem = "is shorter than the key says";
    }
    if (NULL != problem)
    {
        munmap(mapping, mapped);
        return fail(shm, MDGATE_E_REGION, "%s %s", path, problem);
    }
    region->mapping = mapping;
    region->mapping_length = mapped;
    region->base = mapping + MDGATE_SHM_REGION_HEADER_LENGTH;
    region->length = (size_t)length;
    return MDGATE_OK;
}

static int write_long(mdg_transport *transport, mdg_remote_region *region, int32_t offset, int64_t value)
{
    (void)transport;
    if (NULL == region->base)
    {
        return MDGATE_E_NOT_CONNECTED;
    }
    if (offset < 0 || (offset & 7) != 0 || (size_t)offset + 8 > region->length)
    {
        return MDGATE_E_INVALID_ARGUMENT;
    }
    mdg_store_release(region->base + offset, (uint64_t)value);
    return MDGATE_OK;
}

static void close_remote(mdg_transport *transport, mdg_remote_region *region)
{
    (void)transport;
    if (NULL != region->mapping)
    {
        munmap(region->mapping, region->mapping_length);
    }
    memset(region, 0, sizeof *region);
}

static int open_shared_log(mdg_transport *transport, int32_t stream_id, mdg_mapped_file *log)
{
    shm_transport *shm = shm_of(transport);
    memset(log, 0, sizeof *log);
    char suffix[32];
    char path[256];
    snprintf(suffix, sizeof suffix, "ticks-%d", stream_id);
    int code = 0;
    size_t length = 0;
    const uint8_t *mapping = map_instance_file(shm, suffix, 0, 1, path, sizeof path, &length, &code);
    if (NULL == mapping)
    {
        return code;
    }
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < length; i += PAGE)
    {
        sink = (uint8_t)(sink + mapping[i]); /* touch each page by reading it: never write another's memory */
    }
    (void)sink;
    log->base = mapping;
    log->length = length;
    return MDGATE_OK;
}

static void close_mapped(mdg_transport *transport, mdg_mapped_file *file)
{
    (void)transport;
    if (NULL != file->base)
    {
        munmap((void *)(uintptr_t)file->base, file->length);
    }
    memset(file, 0, sizeof *file);
}

/* ---- the stream: a broadcast log file ---- */

static void close_stream(mdg_transport *transport)
{
    shm_stream *stream = &shm_of(transport)->stream;
    if (NULL != stream->mapping)
    {
        munmap(stream->mapping, stream->mapping_length);
    }
    free(stream->receive);
    memset(stream, 0, sizeof *stream);
}

static int open_stream(mdg_transport *transport, int32_t stream_id)
{
    shm_transport *shm = shm_of(transport);
    close_stream(transport);
    char suffix[32];
    char path[256];
    snprintf(suffix, sizeof suffix, "stream-%d", stream_id);
    int code = 0;
    size_t length = 0;
    uint8_t *mapping = map_instance_file(shm, suffix, 0, MDGATE_BCAST_HEADER_LENGTH, path, sizeof path, &length, &code);
    if (NULL == mapping)
    {
        return code;
    }
    const int32_t slots = (int32_t)mdg_get32(mapping + MDGATE_BCAST_SLOT_COUNT_OFFSET);
    const int32_t slot_length = (int32_t)mdg_get32(mapping + MDGATE_BCAST_SLOT_LENGTH_OFFSET);
    const int32_t mtu = (int32_t)mdg_get32(mapping + MDGATE_BCAST_MTU_OFFSET);
    const int valid = mdg_load_acquire(mapping + MDGATE_BCAST_MAGIC_OFFSET) == MDGATE_BCAST_MAGIC &&
        mdg_get32(mapping + MDGATE_BCAST_VERSION_OFFSET) == MDGATE_BCAST_VERSION &&
        (int32_t)mdg_get32(mapping + MDGATE_BCAST_STREAM_ID_OFFSET) == stream_id && slots > 0 &&
        (slots & (slots - 1)) == 0 && mtu > 0 && mtu <= 65536 &&
        slot_length == MDGATE_BCAST_SLOT_HEADER_LENGTH + ((mtu + 63) & ~63) &&
        (uint64_t)MDGATE_BCAST_HEADER_LENGTH + (uint64_t)slots * (uint64_t)slot_length <= length;
    if (!valid)
    {
        munmap(mapping, length);
        return fail(shm, MDGATE_E_REGION, "%s is not broadcast log version %d of stream %d", path,
            MDGATE_BCAST_VERSION, stream_id);
    }
    shm_stream *stream = &shm->stream;
    stream->receive = aligned_alloc(64, (size_t)((mtu + 63) & ~63));
    if (NULL == stream->receive)
    {
        munmap(mapping, length);
        return fail(shm, MDGATE_E_NO_MEMORY, "no memory for a %d-byte receive buffer", mtu);
    }
    stream->mapping = mapping;
    stream->mapping_length = length;
    stream->stream_id = stream_id;
    stream->slot_count = slots;
    stream->slot_length = slot_length;
    stream->mtu = mtu;
    stream->next = mdg_load_acquire(mapping + MDGATE_BCAST_TAIL_OFFSET);
    return MDGATE_OK;
}

static void stream_skip_ahead(shm_stream *stream)
{
    const uint64_t tail = mdg_load_acquire(stream->mapping + MDGATE_BCAST_TAIL_OFFSET);
    const uint64_t half = (uint64_t)stream->slot_count / 2;
    uint64_t resume = tail > half ? tail - half : 0;
    if (resume < stream->next + 1)
    {
        resume = stream->next + 1;
    }
    stream->loss += (int64_t)(resume - stream->next);
    stream->next = resume;
}

static int poll_stream(mdg_transport *transport, mdg_datagram_handler handler, void *context, int limit)
{
    shm_stream *stream = &shm_of(transport)->stream;
    if (NULL == stream->mapping)
    {
        return MDGATE_E_NOT_CONNECTED;
    }
    int delivered = 0;
    while (delivered < limit)
    {
        const uint64_t index = stream->next;
        const uint8_t *slot = stream->mapping + MDGATE_BCAST_HEADER_LENGTH +
            (size_t)(index & (uint64_t)(stream->slot_count - 1)) * (size_t)stream->slot_length;
        const uint64_t stamp = mdg_load_acquire(slot + MDGATE_BCAST_SLOT_STAMP_OFFSET);
        if (stamp == index + 1)
        {
            const int32_t length = (int32_t)(uint32_t)mdg_load_relaxed(slot + MDGATE_BCAST_SLOT_DATAGRAM_LENGTH_OFFSET);
            const int sane = length >= 0 && length <= stream->mtu;
            if (sane)
            {
                mdg_copy_shared(stream->receive, slot + MDGATE_BCAST_SLOT_HEADER_LENGTH, (size_t)((length + 7) & ~7));
            }
            mdg_load_fence();
            if (mdg_load_relaxed(slot + MDGATE_BCAST_SLOT_STAMP_OFFSET) != index + 1)
            {
                stream_skip_ahead(stream);
                continue;
            }
            stream->next = index + 1;
            if (sane)
            {
                handler(context, stream->receive, length);
                delivered++;
            }
        }
        else if ((stamp & ~MDGATE_BCAST_WRITING) > index + 1)
        {
            stream_skip_ahead(stream);
        }
        else
        {
            break;
        }
    }
    return delivered;
}

static int64_t stream_loss(const mdg_transport *transport)
{
    return ((const shm_transport *)(const void *)transport)->stream.loss;
}

static const char *error_text(const mdg_transport *transport)
{
    return ((const shm_transport *)(const void *)transport)->error;
}

static void destroy(mdg_transport *transport)
{
    shm_transport *shm = shm_of(transport);
    close_control(transport);
    close_stream(transport);
    free(shm->in);
    free(shm->out);
    free(shm);
}

static const mdg_transport_ops SHM_OPS = {
    .name = "shm",
    .connect_control = connect_control,
    .offer = offer,
    .poll = poll_control,
    .close_control = close_control,
    .max_message_length = max_message_length,
    .register_region = register_region,
    .release_region = release_region,
    .open_remote = open_remote,
    .write_long = write_long,
    .close_remote = close_remote,
    .open_shared_log = open_shared_log,
    .close_mapped = close_mapped,
    .open_stream = open_stream,
    .poll_stream = poll_stream,
    .stream_loss = stream_loss,
    .close_stream = close_stream,
    .error = error_text,
    .destroy = destroy,
};

int mdg_shm_transport_create(const char *directory, const char *instance, int32_t max_message_length,
    int32_t queue_length, mdg_transport **transport, char *error, size_t error_length)
{
    *transport = NULL;
    if (strlen(directory) >= sizeof((shm_transport *)0)->directory ||
        strlen(instance) >= sizeof((shm_transport *)0)->instance)
    {
        snprintf(error, error_length,
            "the shm directory (at most 159 bytes) or instance name (at most 63) is too long");
        return MDGATE_E_INVALID_ARGUMENT;
    }
    shm_transport *shm = calloc(1, sizeof *shm);
    const size_t capacity = (size_t)queue_length;
    if (NULL != shm)
    {
        shm->in = malloc(capacity);
        shm->out = malloc(capacity);
    }
    if (NULL == shm || NULL == shm->in || NULL == shm->out)
    {
        if (NULL != shm)
        {
            free(shm->in);
            free(shm->out);
        }
        free(shm);
        snprintf(error, error_length, "no memory for the control queues (2 x %d bytes)", queue_length);
        return MDGATE_E_NO_MEMORY;
    }
    shm->base.ops = &SHM_OPS;
    snprintf(shm->directory, sizeof shm->directory, "%s", directory);
    snprintf(shm->instance, sizeof shm->instance, "%s", instance);
    shm->fd = -1;
    shm->max_message = max_message_length;
    shm->in_capacity = capacity;
    shm->out_capacity = capacity;
    *transport = &shm->base;
    return MDGATE_OK;
}
