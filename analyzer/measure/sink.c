/* sink.c - the sinks (sink.h) behind a table of write/finish/close operations: a file on a
 * volume (buffered or O_DIRECT through an aligned stage), a memory sink that counts (and
 * optionally hashes) what it is given, and a RAM file (memfd) that keeps it. */
#include "measure/sink.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/sys.h"
#include "common/tempfile.h"
#include "measure/throttle.h"

#define DIRECT_STAGE_BYTES (8u << 20)
#define DIRECT_ALIGN_DEFAULT 4096u
/* Buffered writes hand the kernel at most this many bytes per write(2), as the zstd CLI
 * does (about 64 KiB). The kernel sizes a new page-cache folio by the write's length
 * (ext4 large folios): a multi-megabyte write takes 2 MiB folios, which only high-order
 * free memory can give, the memory a virtual machine's free page reporting has handed
 * back to its host, so every 4 KiB of it faults on the host inside the copy. 64 KiB
 * pieces cost 1.8x less system time per byte there, and no more where the memory was
 * freed a moment ago (docs/method.md, "The write path"). */
#define BUFFERED_PIECE_BYTES ((size_t)64 << 10)

typedef struct sink_ops {
    int (*write)(sink_t *s, const void *buf, size_t len, cp_err_t *err);
    int (*finish)(sink_t *s, cp_err_t *err);
    void (*close)(sink_t *s);
} sink_ops_t;

struct sink {
    const sink_ops_t *ops;
    sink_options_t opts;
    sync_mode_t effective_sync;
    throttle_t throttle;
    double throttle_s;
    uint64_t bytes;
    /* file sinks only */
    tempfile_t tf;
    unsigned char *stage; /* aligned staging buffer for O_DIRECT */
    size_t stage_len;
    size_t align;
    XXH3_state_t *hash;   /* hashing memory sinks */
    uint64_t limit;       /* RAM file sinks: at most this many bytes (0: no limit) */
    bool limit_reached;   /* a write was refused for passing it */
};

const char *sync_mode_name(sync_mode_t mode)
{
    switch (mode) {
    case SYNC_DIRECT: return "direct";
    case SYNC_NONE: return "none";
    default: return "fsync";
    }
}

int sync_mode_parse(const char *text, sync_mode_t *out, cp_err_t *err)
{
    static const sync_mode_t modes[] = {SYNC_FSYNC, SYNC_DIRECT, SYNC_NONE};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (text != NULL && strcmp(text, sync_mode_name(modes[i])) == 0) {
            *out = modes[i];
            return CP_OK;
        }
    return cp_err_set(err, CP_EUSAGE, "bad sync mode '%s': expected fsync, direct or none",
                      text ? text : "");
}

static const char *volume_label(const sink_t *s)
{
    return s->opts.volume_label ? s->opts.volume_label : s->tf.dir;
}

/* Waits in the emulated rate cap. A capped write can wait long, so an interrupt that
 * arrives meanwhile ends it with CP_EINTR; uncapped sinks (result files written while
 * unwinding after an interrupt) are never refused. */
static int pace(sink_t *s, size_t len, cp_err_t *err)
{
    if (s->throttle.rate_bps <= 0)
        return CP_OK;
    s->throttle_s += throttle_wait(&s->throttle, len);
    if (cp_interrupted())
        return cp_err_set(err, CP_EINTR, "interrupted while writing to volume '%s'",
                          volume_label(s));
    return CP_OK;
}

/* ---- memory sink ---- */

static int mem_write(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    (void)buf;
    int rc = pace(s, len, err);
    if (rc == CP_OK)
        s->bytes += len;
    if (rc == CP_OK && s->hash != NULL)
        XXH3_64bits_update(s->hash, buf, len);
    return rc;
}

static int mem_finish(sink_t *s, cp_err_t *err)
{
    (void)s;
    (void)err;
    return CP_OK;
}

static void mem_close(sink_t *s) { XXH3_freeState(s->hash); }

static const sink_ops_t mem_ops = {mem_write, mem_finish, mem_close};

/* ---- file sink ---- */

static int write_all(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    const unsigned char *p = buf;
    while (len > 0) {
        ssize_t n = write(s->tf.fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return cp_err_errno(err, CP_EIO, errno, "writing to volume '%s' (%s)",
                                volume_label(s), s->tf.path);
        if (n == 0)
            return cp_err_set(err, CP_EIO, "writing to volume '%s' (%s): wrote nothing",
                              volume_label(s), s->tf.path);
        p += n;
        len -= (size_t)n;
    }
    return CP_OK;
}

/* write_all in pieces of BUFFERED_PIECE_BYTES: the page-cache path. */
static int write_buffered(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    const unsigned char *p = buf;
    int rc = CP_OK;
    while (len > 0 && rc == CP_OK) {
        size_t take = len < BUFFERED_PIECE_BYTES ? len : BUFFERED_PIECE_BYTES;
        rc = write_all(s, p, take, err);
        p += take;
        len -= take;
    }
    return rc;
}

static int file_write(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    int rc = pace(s, len, err);
    if (rc != CP_OK)
        return rc;
    s->bytes += len;
    if (s->stage == NULL)
        return write_buffered(s, buf, len, err);
    /* O_DIRECT: gather into the aligned stage and write only whole stages. */
    const unsigned char *p = buf;
    while (len > 0) {
        size_t room = DIRECT_STAGE_BYTES - s->stage_len;
        size_t take = len < room ? len : room;
        memcpy(s->stage + s->stage_len, p, take);
        s->stage_len += take;
        p += take;
        len -= take;
        if (s->stage_len == DIRECT_STAGE_BYTES) {
            rc = write_all(s, s->stage, s->stage_len, err);
            if (rc != CP_OK)
                return rc;
            s->stage_len = 0;
        }
    }
    return CP_OK;
}

static int file_finish(sink_t *s, cp_err_t *err)
{
    if (s->tf.fd < 0)
        return CP_OK;
    int rc = CP_OK;
    if (s->stage != NULL && s->stage_len > 0) {
        size_t whole = s->stage_len / s->align * s->align;
        rc = write_all(s, s->stage, whole, err);
        if (rc == CP_OK && whole < s->stage_len) {
            /* The unaligned tail cannot go through O_DIRECT: write it buffered. */
            int refused = sys_direct_set(s->tf.fd, false);
            if (refused != 0)
                rc = cp_err_errno(err, CP_EIO, refused, "clearing O_DIRECT on %s", s->tf.path);
            else
                rc = write_all(s, s->stage + whole, s->stage_len - whole, err);
        }
        s->stage_len = 0;
    }
    if (rc == CP_OK && s->effective_sync != SYNC_NONE && fsync(s->tf.fd) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "fsync on volume '%s' (%s)", volume_label(s),
                          s->tf.path);
    if (close(s->tf.fd) != 0 && rc == CP_OK)
        rc = cp_err_errno(err, CP_EIO, errno, "closing %s on volume '%s'", s->tf.path,
                          volume_label(s));
    s->tf.fd = -1;
    return rc;
}

static void file_close(sink_t *s)
{
    tempfile_discard(&s->tf);
    free(s->stage);
}

static const sink_ops_t file_ops = {file_write, file_finish, file_close};

/* ---- RAM file sink (memfd) ---- */

static int ram_write(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    if (s->limit_reached || (s->limit > 0 && s->bytes + len > s->limit)) {
        /* Counted, not kept: the caller learns how much room the whole file needs. */
        s->limit_reached = true;
        s->bytes += len;
        return CP_OK;
    }
    int rc = pace(s, len, err);
    if (rc == CP_OK)
        rc = write_buffered(s, buf, len, err);
    if (rc == CP_OK)
        s->bytes += len;
    return rc;
}

static int ram_finish(sink_t *s, cp_err_t *err)
{
    if (s->limit_reached)
        return cp_err_set(err, CP_ENOMEM, "the file kept in memory needs %.1f MB, past its "
                          "%.1f MB limit", (double)s->bytes / 1e6, (double)s->limit / 1e6);
    return CP_OK; /* the file stays open: it is the only thing that keeps the bytes */
}

static void ram_close(sink_t *s)
{
    if (s->tf.fd >= 0)
        close(s->tf.fd);
    s->tf.fd = -1;
}

static const sink_ops_t ram_ops = {ram_write, ram_finish, ram_close};

static sink_t *sink_new(const sink_options_t *opts, cp_err_t *err)
{
    sink_t *s = calloc(1, sizeof *s);
    if (s == NULL) {
        cp_err_set(err, CP_ENOMEM, "out of memory opening an output");
        return NULL;
    }
    s->opts = *opts;
    s->effective_sync = opts->sync;
    s->throttle = throttle_make(opts->rate_cap_bps);
    s->tf = (tempfile_t)TEMPFILE_INIT;
    return s;
}

sink_t *sink_open_mem(const sink_options_t *opts, cp_err_t *err)
{
    sink_t *s = sink_new(opts, err);
    if (s != NULL)
        s->ops = &mem_ops;
    return s;
}

sink_t *sink_open_mem_hashing(const sink_options_t *opts, cp_err_t *err)
{
    sink_t *s = sink_open_mem(opts, err);
    if (s == NULL)
        return NULL;
    s->hash = XXH3_createState();
    if (s->hash == NULL) {
        free(s);
        cp_err_set(err, CP_ENOMEM, "out of memory opening an output");
        return NULL;
    }
    XXH3_64bits_reset(s->hash);
    return s;
}

sink_t *sink_open_ram(const char *name, const sink_options_t *opts, uint64_t limit_bytes,
                      cp_err_t *err)
{
    sink_t *s = sink_new(opts, err);
    if (s == NULL)
        return NULL;
    s->ops = &ram_ops;
    s->limit = limit_bytes;
    s->effective_sync = SYNC_NONE;
    s->tf.fd = sys_ram_file_create(name, s->tf.path, sizeof s->tf.path);
    if (s->tf.fd < 0) {
        cp_err_errno(err, CP_EIO, errno, "cannot create a file in memory for %s", name);
        free(s);
        return NULL;
    }
    return s;
}

bool sink_limit_reached(const sink_t *s) { return s->limit_reached; }

uint64_t sink_hash(const sink_t *s)
{
    return s->hash != NULL ? XXH3_64bits_digest(s->hash) : 0;
}

/* O_DIRECT alignment for fd: what the kernel reports (sys_direct_alignment), otherwise
 * 4096 (a multiple of every common logical block size); never below 4096. */
static size_t direct_alignment(int fd)
{
    size_t a = sys_direct_alignment(fd);
    return a < DIRECT_ALIGN_DEFAULT ? DIRECT_ALIGN_DEFAULT : a;
}

sink_t *sink_open_file(const char *dir, const char *prefix, const sink_options_t *opts,
                       cp_err_t *err)
{
    sink_t *s = sink_new(opts, err);
    if (s == NULL)
        return NULL;
    s->ops = &file_ops;
    cp_err_t open_err = {0};
    int open_flags = opts->sync == SYNC_DIRECT ? sys_direct_open_flag() : 0;
    int rc = tempfile_open(&s->tf, dir, prefix, open_flags, &open_err);
    if (rc != CP_OK && s->tf.open_errno == EINVAL && opts->sync == SYNC_DIRECT) {
        /* Say it once per directory, not once per run of a sweep (sinks are opened from
         * one thread). */
        static char warned_dir[PATH_MAX];
        if (strcmp(warned_dir, dir) != 0) {
            cp_log_warn("volume '%s' refuses O_DIRECT; falling back to buffered writes + fsync",
                        volume_label(s));
            snprintf(warned_dir, sizeof warned_dir, "%s", dir);
        }
        s->effective_sync = SYNC_FSYNC;
        cp_err_clear(&open_err);
        rc = tempfile_open(&s->tf, dir, prefix, 0, &open_err);
    }
    if (rc != CP_OK && s->tf.open_errno != 0)
        cp_err_errno(err, CP_EIO, s->tf.open_errno, "cannot create a file in '%s' (volume '%s')",
                     dir, volume_label(s));
    else if (rc != CP_OK)
        cp_err_set(err, rc, "%s", open_err.msg);
    if (rc != CP_OK) {
        free(s);
        return NULL;
    }
    if (s->effective_sync == SYNC_DIRECT) {
        s->align = direct_alignment(s->tf.fd);
        if (posix_memalign((void **)&s->stage, s->align, DIRECT_STAGE_BYTES) != 0) {
            s->stage = NULL;
            cp_err_set(err, CP_ENOMEM, "out of memory for the O_DIRECT buffer");
            sink_close(s);
            return NULL;
        }
    }
    return s;
}

int sink_write(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    return s->ops->write(s, buf, len, err);
}

int sink_finish(sink_t *s, cp_err_t *err) { return s->ops->finish(s, err); }

void sink_keep_on_interrupt(sink_t *s, const char *final_path)
{
    if (s->ops == &file_ops)
        tempfile_keep_on_interrupt(&s->tf, final_path);
}

int sink_commit(sink_t *s, const char *final_path, bool replace, cp_err_t *err)
{
    if (s->ops != &file_ops)
        return CP_OK;
    return tempfile_commit(&s->tf, final_path, replace, err);
}

void sink_close(sink_t *s)
{
    if (s == NULL)
        return;
    s->ops->close(s);
    free(s);
}

const char *sink_temp_path(const sink_t *s)
{
    return s->ops == &file_ops || s->ops == &ram_ops ? s->tf.path : NULL;
}

uint64_t sink_bytes(const sink_t *s) { return s->bytes; }

sync_mode_t sink_effective_sync(const sink_t *s) { return s->effective_sync; }

double sink_throttle_seconds(const sink_t *s) { return s->throttle_s; }

double sink_replaced_seconds(const sink_t *s)
{
    return s->ops == &file_ops ? s->tf.replaced_s : 0;
}
