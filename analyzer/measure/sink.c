#include "measure/sink.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "measure/throttle.h"

#define DIRECT_STAGE_BYTES (8u << 20)
#define DIRECT_ALIGN_DEFAULT 4096u

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
    int fd;
    int cleanup_id;
    bool committed;
    char dir[PATH_MAX];
    char temp_path[PATH_MAX];
    unsigned char *stage; /* aligned staging buffer for O_DIRECT */
    size_t stage_len;
    size_t align;
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
    return s->opts.volume_label ? s->opts.volume_label : s->dir;
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
    return rc;
}

static int mem_finish(sink_t *s, cp_err_t *err)
{
    (void)s;
    (void)err;
    return CP_OK;
}

static void mem_close(sink_t *s) { (void)s; }

static const sink_ops_t mem_ops = {mem_write, mem_finish, mem_close};

/* ---- file sink ---- */

static int write_all(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    const unsigned char *p = buf;
    while (len > 0) {
        ssize_t n = write(s->fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return cp_err_errno(err, CP_EIO, errno, "writing to volume '%s' (%s)",
                                volume_label(s), s->temp_path);
        if (n == 0)
            return cp_err_set(err, CP_EIO, "writing to volume '%s' (%s): wrote nothing",
                              volume_label(s), s->temp_path);
        p += n;
        len -= (size_t)n;
    }
    return CP_OK;
}

static int file_write(sink_t *s, const void *buf, size_t len, cp_err_t *err)
{
    int rc = pace(s, len, err);
    if (rc != CP_OK)
        return rc;
    s->bytes += len;
    if (s->stage == NULL)
        return write_all(s, buf, len, err);
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
    if (s->fd < 0)
        return CP_OK;
    int rc = CP_OK;
    if (s->stage != NULL && s->stage_len > 0) {
        size_t whole = s->stage_len / s->align * s->align;
        rc = write_all(s, s->stage, whole, err);
        if (rc == CP_OK && whole < s->stage_len) {
            /* The unaligned tail cannot go through O_DIRECT: write it buffered. */
            int flags = fcntl(s->fd, F_GETFL);
            if (flags < 0 || fcntl(s->fd, F_SETFL, flags & ~O_DIRECT) < 0)
                rc = cp_err_errno(err, CP_EIO, errno, "clearing O_DIRECT on %s", s->temp_path);
            else
                rc = write_all(s, s->stage + whole, s->stage_len - whole, err);
        }
        s->stage_len = 0;
    }
    if (rc == CP_OK && s->effective_sync != SYNC_NONE && fsync(s->fd) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "fsync on volume '%s' (%s)", volume_label(s),
                          s->temp_path);
    if (close(s->fd) != 0 && rc == CP_OK)
        rc = cp_err_errno(err, CP_EIO, errno, "closing %s on volume '%s'", s->temp_path,
                          volume_label(s));
    s->fd = -1;
    return rc;
}

static void file_close(sink_t *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    if (!s->committed && s->temp_path[0] != '\0') {
        if (s->cleanup_id >= 0)
            cp_cleanup_unlink(s->cleanup_id);
        else
            unlink(s->temp_path); /* the registry was full: remove it ourselves */
    } else {
        cp_cleanup_forget(s->cleanup_id);
    }
    s->cleanup_id = -1;
    free(s->stage);
}

static const sink_ops_t file_ops = {file_write, file_finish, file_close};

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
    s->fd = -1;
    s->cleanup_id = -1;
    return s;
}

sink_t *sink_open_mem(const sink_options_t *opts, cp_err_t *err)
{
    sink_t *s = sink_new(opts, err);
    if (s != NULL)
        s->ops = &mem_ops;
    return s;
}

/* O_DIRECT alignment for files in dir: statx's STATX_DIOALIGN where the kernel reports it,
 * otherwise 4096 (a multiple of every common logical block size). */
static size_t direct_alignment(int fd)
{
#ifdef STATX_DIOALIGN
    struct statx stx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN) &&
        stx.stx_dio_offset_align > 0) {
        size_t a = stx.stx_dio_offset_align;
        if (stx.stx_dio_mem_align > a)
            a = stx.stx_dio_mem_align;
        return a < DIRECT_ALIGN_DEFAULT ? DIRECT_ALIGN_DEFAULT : a;
    }
#else
    (void)fd;
#endif
    return DIRECT_ALIGN_DEFAULT;
}

/* Creates the temporary file. Returns CP_OK, a negative CP_E* code with err set, or a
 * positive errno from open() (err untouched, so the caller can retry without O_DIRECT). */
static int open_unique(sink_t *s, const char *dir, const char *prefix, int extra_flags,
                       cp_err_t *err)
{
    static atomic_uint counter;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = atomic_fetch_add(&counter, 1);
        int len = snprintf(s->temp_path, sizeof s->temp_path, "%s/%s.%ld-%u.chokepoint-tmp",
                           dir, prefix, (long)getpid(), n);
        if (len < 0 || (size_t)len >= sizeof s->temp_path)
            return cp_err_set(err, CP_EUSAGE, "output directory path too long: %s", dir);
        s->fd = open(s->temp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | extra_flags,
                     0644);
        if (s->fd >= 0) {
            s->cleanup_id = cp_cleanup_track(s->temp_path);
            return CP_OK;
        }
        if (errno != EEXIST) {
            int saved = errno;
            /* Linux creates the file before it refuses O_DIRECT; the name is ours (unique
             * to this process), so remove it. */
            if (saved == EINVAL && (extra_flags & O_DIRECT))
                unlink(s->temp_path);
            s->temp_path[0] = '\0';
            return saved;
        }
    }
    s->temp_path[0] = '\0';
    return cp_err_set(err, CP_EIO, "cannot find a free temporary file name in %s", dir);
}

sink_t *sink_open_file(const char *dir, const char *prefix, const sink_options_t *opts,
                       cp_err_t *err)
{
    sink_t *s = sink_new(opts, err);
    if (s == NULL)
        return NULL;
    s->ops = &file_ops;
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    int rc = open_unique(s, dir, prefix, opts->sync == SYNC_DIRECT ? O_DIRECT : 0, err);
    if (rc == EINVAL && opts->sync == SYNC_DIRECT) {
        /* Say it once per directory, not once per run of a sweep (sinks are opened from
         * one thread). */
        static char warned_dir[PATH_MAX];
        if (strcmp(warned_dir, dir) != 0) {
            cp_log_warn("volume '%s' refuses O_DIRECT; falling back to buffered writes + fsync",
                        volume_label(s));
            snprintf(warned_dir, sizeof warned_dir, "%s", dir);
        }
        s->effective_sync = SYNC_FSYNC;
        rc = open_unique(s, dir, prefix, 0, err);
    }
    if (rc > 0)
        cp_err_errno(err, CP_EIO, rc, "cannot create a file in '%s' (volume '%s')", dir,
                     volume_label(s));
    if (rc != CP_OK) {
        free(s);
        return NULL;
    }
    if (s->effective_sync == SYNC_DIRECT) {
        s->align = direct_alignment(s->fd);
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

int sink_split_path(const char *path, char *dir, char *base, cp_err_t *err)
{
    size_t len = strlen(path);
    if (len == 0)
        return cp_err_set(err, CP_EUSAGE, "empty output file name");
    if (len >= PATH_MAX)
        return cp_err_set(err, CP_EUSAGE, "output path too long: %.64s...", path);
    if (path[len - 1] == '/')
        return cp_err_set(err, CP_EUSAGE, "output '%s' names a directory; expected a file",
                          path);
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        strcpy(dir, ".");
        strcpy(base, path);
    } else if (slash == path) {
        strcpy(dir, "/");
        strcpy(base, slash + 1);
    } else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
        strcpy(base, slash + 1);
    }
    return CP_OK;
}

int sink_check_destination(const char *path, bool replace, cp_err_t *err)
{
    char dir[PATH_MAX], base[PATH_MAX];
    if (strlen(path) >= PATH_MAX - 64)
        return cp_err_set(err, CP_EUSAGE, "output path too long: %.64s...", path);
    int rc = sink_split_path(path, dir, base, err);
    if (rc != CP_OK)
        return rc;
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return cp_err_set(err, CP_EUSAGE, "output '%s' is a directory", path);
        if (!replace)
            return cp_err_set(err, CP_EUSAGE, "output '%s' exists; use --force to replace it",
                              path);
        if (!S_ISREG(st.st_mode))
            return cp_err_set(err, CP_EUSAGE,
                              "output '%s' exists and is not a regular file; refusing to "
                              "replace it",
                              path);
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cp_err_set(err, CP_EUSAGE, "output '%s': directory '%s' does not exist", path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return cp_err_set(err, CP_EUSAGE, "output '%s': directory '%s' is not writable", path,
                          dir);
    return CP_OK;
}

/* Renames from to to unless to exists: renameat2(RENAME_NOREPLACE) where the filesystem
 * has it, else link + unlink (link never replaces), else, for filesystems with neither
 * (FAT without hard links on old kernels), a check then rename. Returns 0 or an errno. */
static int move_no_replace(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
        return errno;
    if (link(from, to) == 0) {
        unlink(from);
        return 0;
    }
    if (errno != EPERM && errno != EOPNOTSUPP)
        return errno;
    struct stat st;
    if (lstat(to, &st) == 0)
        return EEXIST;
    return rename(from, to) == 0 ? 0 : errno;
}

void sink_keep_on_interrupt(sink_t *s, const char *final_path)
{
    if (s->ops != &file_ops || s->cleanup_id < 0)
        return;
    cp_cleanup_forget(s->cleanup_id);
    s->cleanup_id = cp_cleanup_track_promote(s->temp_path, final_path);
}

int sink_commit(sink_t *s, const char *final_path, bool replace, cp_err_t *err)
{
    if (s->ops != &file_ops)
        return CP_OK;
    if (replace) {
        if (rename(s->temp_path, final_path) != 0)
            return cp_err_errno(err, CP_EIO, errno, "cannot move the output into place as %s",
                                final_path);
    } else {
        int rc = move_no_replace(s->temp_path, final_path);
        if (rc == EEXIST)
            return cp_err_set(err, CP_EUSAGE, "output '%s' exists; use --force to replace it",
                              final_path);
        if (rc != 0)
            return cp_err_errno(err, CP_EIO, rc, "cannot move the output into place as %s",
                                final_path);
    }
    s->committed = true;
    cp_cleanup_forget(s->cleanup_id);
    s->cleanup_id = -1;
    int dfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return CP_OK;
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
    return s->ops == &file_ops ? s->temp_path : NULL;
}

uint64_t sink_bytes(const sink_t *s) { return s->bytes; }

sync_mode_t sink_effective_sync(const sink_t *s) { return s->effective_sync; }

double sink_throttle_seconds(const sink_t *s) { return s->throttle_s; }
