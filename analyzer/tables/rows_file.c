/* rows_file.c - measured rows appended and fdatasynced one by one, in place or beside
 * the final name, under a lock (rows_file.h). */
#include "tables/rows_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/sys.h"
#include "common/tempfile.h"

struct rows_file {
    rows_file_placement_t placement;
    bool force, to_stdout, keep_empty;
    int fd;
    int cleanup_id;            /* ROWS_BESIDE: promoted to path on a second signal */
    char path[PATH_MAX];       /* the final name */
    char rows_path[PATH_MAX];  /* where rows go: path or path.partial */
    FILE *stream;              /* memstream collecting one row */
    char *buffer;
    size_t buffer_len;
    size_t rows;
};

static void sync_parent_dir(const char *path)
{
    char dir[PATH_MAX], base[PATH_MAX];
    if (tempfile_split_path(path, dir, base, NULL) != CP_OK)
        return;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
}

static bool is_stdout(const char *path) { return path == NULL || strcmp(path, "-") == 0; }

/* Cuts an unfinished last line (no '\n': the write of a row cut by a crash). */
static int trim_torn_tail(int fd, const char *path, cp_err_t *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot examine %s", path);
    off_t end = st.st_size;
    char c;
    while (end > 0) {
        if (pread(fd, &c, 1, end - 1) != 1)
            return cp_err_errno(err, CP_EIO, errno, "cannot read %s", path);
        if (c == '\n')
            break;
        end--;
    }
    if (end != st.st_size && ftruncate(fd, end) != 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot cut the unfinished last line of %s",
                            path);
    return CP_OK;
}

static int lock_or_refuse(int fd, const char *path, cp_err_t *err)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return CP_OK;
    if (errno == EWOULDBLOCK)
        return cp_err_set(err, CP_EUSAGE,
                          "'%s' is being written by another chokepoint process; wait for it or "
                          "choose another file",
                          path);
    return CP_OK; /* a file system without flock: nothing to lock with */
}

/* ROWS_BESIDE: an existing FILE.partial is a live writer's (refused) or a stopped one's
 * (its rows are results: refused unless force, then replaced). */
static int open_partial(rows_file_t *f, cp_err_t *err)
{
    int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND;
    f->fd = open(f->rows_path, flags, 0644);
    if (f->fd >= 0 || errno != EEXIST)
        return f->fd >= 0 ? CP_OK
                          : cp_err_errno(err, CP_EIO, errno, "cannot create %s", f->rows_path);
    int old = open(f->rows_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (old < 0)
        return cp_err_set(err, CP_EUSAGE, "'%s' exists and is not a regular file", f->rows_path);
    int rc = lock_or_refuse(old, f->rows_path, err);
    close(old);
    if (rc != CP_OK)
        return rc;
    if (!f->force)
        return cp_err_set(err, CP_EUSAGE,
                          "'%s' holds the rows of an earlier command that stopped; rename it "
                          "to keep them, or remove it (or give --force)",
                          f->rows_path);
    if (unlink(f->rows_path) != 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot remove %s", f->rows_path);
    f->fd = open(f->rows_path, flags, 0644);
    return f->fd >= 0 ? CP_OK : cp_err_errno(err, CP_EIO, errno, "cannot create %s", f->rows_path);
}

static int open_rows(rows_file_t *f, cp_err_t *err)
{
    if (f->placement == ROWS_BESIDE)
        return open_partial(f, err);
    int flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_APPEND; /* read: the torn tail */
    if (f->placement == ROWS_IN_PLACE)
        flags |= O_EXCL;
    f->fd = open(f->rows_path, flags, 0644);
    if (f->fd < 0)
        return errno == EEXIST ? cp_err_set(err, CP_EUSAGE, "'%s' exists", f->rows_path)
                               : cp_err_errno(err, CP_EIO, errno, "cannot open %s", f->rows_path);
    return CP_OK;
}

static int write_all(int fd, const char *p, size_t len, const char *path, cp_err_t *err)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            return cp_err_errno(err, e == ENOSPC ? CP_ENOSPC : CP_EIO, e, "writing %s", path);
        }
        p += n;
        len -= (size_t)n;
    }
    return CP_OK;
}

/* Writes what the stream holds (one write) and syncs it. */
static int append_pending(rows_file_t *f, cp_err_t *err)
{
    if (fflush(f->stream) != 0)
        return cp_err_errno(err, CP_EIO, errno, "writing %s", f->to_stdout ? "stdout" : f->rows_path);
    if (f->to_stdout)
        return CP_OK;
    int rc = write_all(f->fd, f->buffer, f->buffer_len, f->rows_path, err);
    rewind(f->stream);
    if (rc == CP_OK && sys_datasync(f->fd) != 0 && errno != EINVAL)
        rc = cp_err_errno(err, CP_EIO, errno, "fdatasync of %s", f->rows_path);
    return rc;
}

rows_file_t *rows_file_open(const char *path, rows_file_placement_t placement, bool force,
                            const char *header, cp_err_t *err)
{
    rows_file_t *f = calloc(1, sizeof *f);
    if (f == NULL) {
        cp_err_set(err, CP_ENOMEM, "out of memory");
        return NULL;
    }
    f->fd = -1;
    f->cleanup_id = -1;
    f->placement = placement;
    f->force = force;
    int rc = CP_OK;
    if (is_stdout(path)) {
        f->to_stdout = true;
        f->stream = stdout;
    } else {
        snprintf(f->path, sizeof f->path, "%s", path);
        if (placement == ROWS_BESIDE) {
            rc = tempfile_check_destination(path, force, err);
            if (rc == CP_OK && (size_t)snprintf(f->rows_path, sizeof f->rows_path, "%s%s", path,
                                                ROWS_FILE_PARTIAL_SUFFIX) >= sizeof f->rows_path)
                rc = cp_err_set(err, CP_EUSAGE, "output path too long: %.64s...", path);
        } else {
            snprintf(f->rows_path, sizeof f->rows_path, "%s", path);
        }
        bool created = false;
        if (rc == CP_OK) {
            rc = open_rows(f, err);
            created = rc == CP_OK;
        }
        if (rc == CP_OK)
            rc = lock_or_refuse(f->fd, f->rows_path, err);
        if (rc != CP_OK && created && placement != ROWS_IN_PLACE_APPEND)
            unlink(f->rows_path); /* ours, just created, holding nothing */
        if (rc == CP_OK && placement == ROWS_IN_PLACE_APPEND)
            rc = trim_torn_tail(f->fd, f->rows_path, err);
        if (rc == CP_OK && placement == ROWS_BESIDE)
            f->cleanup_id = cp_cleanup_track_promote(f->rows_path, f->path);
        if (rc == CP_OK) {
            f->stream = open_memstream(&f->buffer, &f->buffer_len);
            if (f->stream == NULL)
                rc = cp_err_set(err, CP_ENOMEM, "out of memory");
        }
    }
    struct stat st;
    bool empty = f->to_stdout || (rc == CP_OK && fstat(f->fd, &st) == 0 && st.st_size == 0);
    if (rc == CP_OK && empty && header != NULL) {
        fputs(header, f->stream);
        rc = append_pending(f, err);
    }
    if (rc != CP_OK) {
        f->rows = 0;
        rows_file_close(f, NULL);
        return NULL;
    }
    return f;
}

FILE *rows_file_stream(rows_file_t *f) { return f->stream; }

int rows_file_commit_row(rows_file_t *f, cp_err_t *err)
{
    int rc = append_pending(f, err);
    if (rc == CP_OK)
        f->rows++;
    return rc;
}

void rows_file_keep_empty(rows_file_t *f) { f->keep_empty = true; }

size_t rows_file_rows(const rows_file_t *f) { return f->rows; }

const char *rows_file_path(const rows_file_t *f) { return f->to_stdout ? "" : f->rows_path; }

int rows_file_close(rows_file_t *f, cp_err_t *err)
{
    if (f == NULL)
        return CP_OK;
    int rc = CP_OK;
    if (f->to_stdout) {
        free(f);
        return CP_OK;
    }
    if (f->stream != NULL)
        fclose(f->stream);
    free(f->buffer);
    if (f->placement == ROWS_BESIDE && f->fd >= 0) {
        cp_cleanup_forget(f->cleanup_id);
        if (f->rows == 0 && !f->keep_empty) {
            unlink(f->rows_path);
        } else {
            int e = f->force ? (rename(f->rows_path, f->path) == 0 ? 0 : errno)
                             : tempfile_move_no_replace(f->rows_path, f->path);
            if (e == EEXIST)
                rc = cp_err_set(err, CP_EUSAGE, "output '%s' exists; the rows stay in %s",
                                f->path, f->rows_path);
            else if (e != 0)
                rc = cp_err_errno(err, CP_EIO, e, "cannot move %s into place; the rows stay there",
                                  f->rows_path);
            else
                sync_parent_dir(f->path);
        }
    }
    if (f->fd >= 0)
        close(f->fd); /* after the rename: the lock covers it */
    free(f);
    return rc;
}
