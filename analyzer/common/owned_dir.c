/* owned_dir.c - directories chokepoint writes into, checked and held by descriptor, and
 * the files made inside them by descriptor (owned_dir.h). */
#include "common/owned_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/tempfile.h"

int owned_dir_check(int fd, const char *shown, cp_err_t *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return cp_err_errno(err, CP_EIO, errno, "'%s': cannot inspect", shown);
    if (!S_ISDIR(st.st_mode))
        return cp_err_set(err, CP_EUSAGE, "'%s' is not a directory", shown);
    if (st.st_uid != geteuid())
        return cp_err_set(err, CP_EUSAGE, "'%s' is owned by uid %u, not by you (uid %u): "
                          "chokepoint writes only into a directory of your own; give "
                          "another directory or remove it", shown, (unsigned)st.st_uid,
                          (unsigned)geteuid());
    if ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != getegid()))
        return cp_err_set(err, CP_EUSAGE, "'%s' is writable by other users (mode %04o): "
                          "chokepoint writes only into a directory nobody else can change; "
                          "chmod go-w it or give another directory", shown,
                          (unsigned)(st.st_mode & 07777));
    return CP_OK;
}

/* The open of name in parent (AT_FDCWD for a path), shown as shown. */
static int open_at(owned_dir_t *d, int parent, const char *name, const char *shown,
                   bool create, cp_err_t *err)
{
    d->fd = -1;
    d->made = false;
    if ((size_t)snprintf(d->path, sizeof d->path, "%s", shown) >= sizeof d->path)
        return cp_err_set(err, CP_EUSAGE, "%.64s...: path too long", shown);
    if (create) {
        if (mkdirat(parent, name, 0755) == 0)
            d->made = true;
        else if (errno != EEXIST)
            return cp_err_errno(err, errno == ENOENT || errno == ENOTDIR ? CP_EUSAGE : CP_EIO,
                                errno, "'%s': cannot create", shown);
    }
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        struct stat st;
        if ((e == ELOOP || e == ENOTDIR) && fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(st.st_mode))
            return cp_err_set(err, CP_EUSAGE, "'%s' is a symlink: chokepoint writes only into "
                              "a directory itself, never through a link; remove it or give "
                              "the directory it points to", shown);
        if (e == ENOTDIR)
            return cp_err_set(err, CP_EUSAGE, "'%s' exists and is not a directory", shown);
        return cp_err_errno(err, e == ENOENT || e == EACCES ? CP_EUSAGE : CP_EIO, e,
                            "'%s': cannot open the directory", shown);
    }
    int rc = owned_dir_check(fd, shown, err);
    if (rc != CP_OK) {
        close(fd);
        return rc;
    }
    d->fd = fd;
    /* What a killed chokepoint left in it (its temporary files) goes, as tempfile_open's
     * first file in a directory does. */
    if (!d->made)
        tempfile_clean_stale_at(fd, shown);
    return CP_OK;
}

int owned_dir_open(owned_dir_t *d, const char *path, bool create, cp_err_t *err)
{
    /* "DIR/" would resolve a symlink DIR whatever O_NOFOLLOW says: its name without the
     * trailing slashes is opened. */
    char name[PATH_MAX];
    if ((size_t)snprintf(name, sizeof name, "%s", path) >= sizeof name) {
        d->fd = -1;
        return cp_err_set(err, CP_EUSAGE, "%.64s...: path too long", path);
    }
    for (size_t n = strlen(name); n > 1 && name[n - 1] == '/'; n--)
        name[n - 1] = '\0';
    return open_at(d, AT_FDCWD, name, name, create, err);
}

int owned_dir_open_in(owned_dir_t *d, const owned_dir_t *parent, const char *name,
                      bool create, cp_err_t *err)
{
    char shown[PATH_MAX];
    if (strchr(name, '/') != NULL || name[0] == '\0' || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0)
        return cp_err_set(err, CP_EUSAGE, "'%s': not a name of a directory inside '%s'", name,
                          parent->path);
    if ((size_t)snprintf(shown, sizeof shown, "%s/%s", parent->path, name) >= sizeof shown)
        return cp_err_set(err, CP_EUSAGE, "%.64s...: path too long", parent->path);
    return open_at(d, parent->fd, name, shown, create, err);
}

void owned_dir_close(owned_dir_t *d)
{
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
}

bool owned_dir_has(const owned_dir_t *dir, const char *name)
{
    struct stat st;
    return fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* ---- files inside ---- */

int owned_file_open(owned_file_t *f, const owned_dir_t *dir, const char *name, cp_err_t *err)
{
    static unsigned counter;
    *f = (owned_file_t)OWNED_FILE_INIT;
    f->dir = dir;
    if ((size_t)snprintf(f->name, sizeof f->name, "%s", name) >= sizeof f->name ||
        strchr(name, '/') != NULL)
        return cp_err_set(err, CP_EUSAGE, "%s/%s: not a file name", dir->path, name);
    for (int tries = 0; tries < 100; tries++) {
        if ((size_t)snprintf(f->temp_name, sizeof f->temp_name, "%.200s.%ld-%u.chokepoint-tmp",
                             name, (long)getpid(), counter++) >= sizeof f->temp_name)
            return cp_err_set(err, CP_EUSAGE, "%s/%s: name too long", dir->path, name);
        f->fd = openat(dir->fd, f->temp_name,
                       O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (f->fd >= 0)
            break;
        if (errno != EEXIST)
            return cp_err_errno(err, CP_EIO, errno, "cannot create a file in '%s'", dir->path);
    }
    if (f->fd < 0)
        return cp_err_set(err, CP_EIO, "cannot create a file in '%s': 100 names taken",
                          dir->path);
    char full[PATH_MAX];
    if ((size_t)snprintf(full, sizeof full, "%s/%s", dir->path, f->temp_name) < sizeof full)
        f->cleanup_id = cp_cleanup_track(full);
    return CP_OK;
}

int owned_file_commit(owned_file_t *f, bool replace, cp_err_t *err)
{
    int dfd = f->dir->fd;
    if (f->fd >= 0) {
        int closed = close(f->fd);
        f->fd = -1;
        if (closed != 0)
            return cp_err_errno(err, CP_EIO, errno, "%s/%s: cannot write", f->dir->path,
                                f->name);
    }
    struct stat st;
    bool exists = fstatat(dfd, f->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && !replace)
        return cp_err_set(err, CP_EUSAGE, "output '%s/%s' exists; use --force to replace it",
                          f->dir->path, f->name);
    if (exists && !S_ISREG(st.st_mode))
        return cp_err_set(err, CP_EUSAGE, "output '%s/%s' exists and is not a regular file; "
                          "remove it first", f->dir->path, f->name);
    if (!exists) {
        /* A link never replaces: a name taken since the check above is not lost. */
        if (linkat(dfd, f->temp_name, dfd, f->name, 0) == 0) {
            unlinkat(dfd, f->temp_name, 0);
            goto done;
        }
        if (errno == EEXIST)
            return cp_err_set(err, CP_EUSAGE, "output '%s/%s' exists; use --force to replace "
                              "it", f->dir->path, f->name);
        /* A file system without hard links: the check above is what there is. */
    }
    if (renameat(dfd, f->temp_name, dfd, f->name) != 0)
        return cp_err_errno(err, CP_EIO, errno, "%s/%s: cannot rename into place",
                            f->dir->path, f->name);
done:
    cp_cleanup_forget(f->cleanup_id);
    f->cleanup_id = -1;
    f->temp_name[0] = '\0';
    fsync(dfd);
    return CP_OK;
}

void owned_file_discard(owned_file_t *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    if (f->temp_name[0] != '\0' && f->dir != NULL)
        unlinkat(f->dir->fd, f->temp_name, 0);
    f->temp_name[0] = '\0';
    cp_cleanup_forget(f->cleanup_id);
    f->cleanup_id = -1;
}
