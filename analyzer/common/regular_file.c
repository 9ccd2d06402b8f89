/* regular_file.c - data files opened as regular files, never blocking (regular_file.h). */
#include "common/regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symlink";
    return "not a file";
}

int regular_file_open(const char *path, regular_file_name_t how, int *fd, cp_err_t *err)
{
    *fd = -1;
    int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (how == REGULAR_FILE_OWN ? O_NOFOLLOW : 0);
    int got = open(path, flags);
    if (got < 0) {
        int e = errno;
        struct stat st;
        int rc;
        if (e == ELOOP && how == REGULAR_FILE_OWN && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
            rc = cp_err_set(err, CP_EDATA, "%s: is a symlink, not a regular file", path);
        else
            rc = cp_err_errno(err, e == ENOENT || e == EACCES || e == ENOTDIR ? CP_EUSAGE : CP_EIO,
                              e, "%s: cannot open", path);
        errno = e;
        return rc;
    }
    struct stat st;
    if (fstat(got, &st) != 0) {
        int e = errno;
        close(got);
        int rc = cp_err_errno(err, CP_EIO, e, "%s: cannot open", path);
        errno = e;
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        close(got);
        int rc = cp_err_set(err, CP_EDATA, "%s: is %s, not a regular file", path,
                            kind_of(st.st_mode));
        errno = EINVAL;
        return rc;
    }
    /* O_NONBLOCK means nothing to a regular file's reads; cleared all the same, so the
     * descriptor is an ordinary one for whoever reads it. */
    int fl = fcntl(got, F_GETFL);
    if (fl >= 0)
        fcntl(got, F_SETFL, fl & ~O_NONBLOCK);
    *fd = got;
    return CP_OK;
}

/* "PATH: larger than N MiB (or N bytes), the most chokepoint reads of such a file" as
 * CP_EDATA. */
static int too_large(const char *path, size_t max, cp_err_t *err)
{
    errno = EFBIG;
    bool mib = max % ((size_t)1 << 20) == 0;
    return cp_err_set(err, CP_EDATA, "%s: larger than %zu %s, the most chokepoint reads of "
                      "such a file", path, mib ? max >> 20 : max, mib ? "MiB" : "bytes");
}

int regular_file_read_at_most(const char *path, regular_file_name_t how, size_t max,
                              char **data, size_t *len, long *owner_uid, cp_err_t *err)
{
    *data = NULL;
    *len = 0;
    int fd;
    int rc = regular_file_open(path, how, &fd, err);
    if (rc != CP_OK)
        return rc;
    struct stat st;
    bool stated = fstat(fd, &st) == 0;
    if (owner_uid != NULL)
        *owner_uid = stated ? (long)st.st_uid : -1;
    if (stated && st.st_size > 0 && (unsigned long long)st.st_size > max) {
        close(fd);
        return too_large(path, max, err);
    }
    char *buf = NULL;
    size_t have = 0, cap = 0;
    for (;;) {
        if (cp_interrupted()) {
            rc = cp_err_set(err, CP_EINTR, "interrupted");
            break;
        }
        /* Room for one byte past max, so a file that grew while read is seen to. */
        if (cap - have < 65536 + 1 && cap < max + 2) {
            size_t grown_cap = cap ? cap * 2 : 1 << 16;
            if (grown_cap > max + 2 || grown_cap < cap)
                grown_cap = max + 2;
            char *grown = realloc(buf, grown_cap);
            if (grown == NULL) {
                rc = cp_err_set(err, CP_ENOMEM, "%s: out of memory reading it", path);
                break;
            }
            buf = grown;
            cap = grown_cap;
        }
        ssize_t n = read(fd, buf + have, cap - have - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot read", path);
            break;
        }
        if (n == 0)
            break;
        have += (size_t)n;
        if (have > max) {
            rc = too_large(path, max, err);
            break;
        }
    }
    int e = errno;
    close(fd);
    if (rc != CP_OK) {
        free(buf);
        errno = e;
        return rc;
    }
    if (buf == NULL && (buf = malloc(1)) == NULL)
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory reading it", path);
    buf[have] = '\0';
    *data = buf;
    *len = have;
    return CP_OK;
}

int regular_file_read(const char *path, regular_file_name_t how, char **data, size_t *len,
                      long *owner_uid, cp_err_t *err)
{
    return regular_file_read_at_most(path, how, REGULAR_FILE_TABLE_MAX, data, len, owner_uid,
                                     err);
}
