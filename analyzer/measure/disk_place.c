/* disk_place.c - the private directory of an emulated disk: checked, made, recorded, found
 * again after a kill, and emptied of what its record names (disk_place.h). */
#include "measure/disk_place.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sys.h"

#define PLACE_LOCK "lock"
#define PLACE_RECORD "record"
#define RECORD_MAX 256

/* The first `up` components of canon cut off its end: the directory `up` levels above. */
static void path_above(const char *canon, int up, char *out, size_t cap)
{
    snprintf(out, cap, "%s", canon);
    for (int i = 0; i < up; i++) {
        char *slash = strrchr(out, '/');
        if (slash == NULL)
            break;
        if (slash == out) {
            out[1] = '\0';
            break;
        }
        *slash = '\0';
    }
}

int disk_place_check(const char *dir, int *dir_fd, cp_err_t *err)
{
    *dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*dir_fd < 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot open '%s'", dir);
    int cur = dup(*dir_fd);
    for (int level = 0; cur >= 0; level++) {
        struct stat st, up;
        int parent = -1;
        if (fstat(cur, &st) != 0)
            break;
        if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0) {
            char canon[PATH_MAX], named[PATH_MAX];
            if (realpath(dir, canon) == NULL)
                snprintf(canon, sizeof canon, "%s", dir);
            path_above(canon, level, named, sizeof named);
            close(cur);
            close(*dir_fd);
            *dir_fd = -1;
            return cp_err_set(err, CP_EUSAGE,
                              "'%s' is writable by other users without the sticky bit, so "
                              "they could rename what root makes in it",
                              named);
        }
        parent = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(cur);
        cur = -1;
        if (parent < 0 || fstat(parent, &up) != 0) {
            if (parent >= 0)
                close(parent);
            break;
        }
        if (up.st_dev == st.st_dev && up.st_ino == st.st_ino) { /* "/": its own parent */
            close(parent);
            return CP_OK;
        }
        cur = parent;
    }
    if (cur >= 0)
        close(cur);
    close(*dir_fd);
    *dir_fd = -1;
    return cp_err_errno(err, CP_EIO, errno, "cannot examine the directories holding '%s'", dir);
}

/* True when the directory open as fd is this user's own, mode 0700, on device dev. */
static bool private_dir(int fd, dev_t dev, struct stat *st)
{
    return fstat(fd, st) == 0 && S_ISDIR(st->st_mode) && st->st_uid == geteuid() &&
           (st->st_mode & 07777) == 0700 && st->st_dev == dev;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

int disk_place_make(int dir_fd, const char *dir, size_t index, disk_place_t *p, cp_err_t *err)
{
    *p = (disk_place_t)DISK_PLACE_INIT;
    p->dir_fd = dir_fd;
    struct stat parent, st;
    if (fstat(dir_fd, &parent) != 0) {
        int e = errno;
        close_fd(&p->dir_fd);
        return cp_err_errno(err, CP_EIO, e, "cannot examine '%s'", dir);
    }
    int made = -1;
    for (size_t n = index; n < index + 1000 && made != 0; n++) {
        snprintf(p->name, sizeof p->name, DISK_PLACE_PREFIX "%ld-%zu", (long)getpid(), n);
        made = mkdirat(dir_fd, p->name, 0700) == 0 ? 0 : errno;
        if (made != 0 && made != EEXIST) {
            close_fd(&p->dir_fd);
            return cp_err_errno(err, CP_EIO, made, "cannot create a directory in '%s'", dir);
        }
    }
    if (made != 0) {
        close_fd(&p->dir_fd);
        return cp_err_set(err, CP_EIO, "no free name for a directory in '%s'", dir);
    }
    p->fd = openat(dir_fd, p->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    bool own = p->fd >= 0 && fchmod(p->fd, 0700) == 0 && private_dir(p->fd, parent.st_dev, &st);
    if (own) {
        p->dev = st.st_dev;
        p->ino = st.st_ino;
        p->lock_fd = openat(p->fd, PLACE_LOCK, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                            0600);
        own = p->lock_fd >= 0 && flock(p->lock_fd, LOCK_EX | LOCK_NB) == 0;
    }
    if (!own) {
        int e = errno;
        char name[sizeof p->name];
        memcpy(name, p->name, sizeof name);
        disk_place_take_down(p);
        return cp_err_errno(err, CP_EIO, e, "cannot make '%s/%s' a directory of its own", dir,
                            name);
    }
    return CP_OK;
}

int disk_place_record(const disk_place_t *p, cp_err_t *err)
{
    char text[RECORD_MAX];
    const disk_record_t *r = &p->record;
    int len = snprintf(text, sizeof text, "chokepoint emulated disk\nimage %llu %llu\n",
                       (unsigned long long)r->image_dev, (unsigned long long)r->image_ino);
    if (r->loop)
        len += snprintf(text + len, sizeof text - (size_t)len, "loop %u %u\n", r->loop_major,
                        r->loop_minor);
    int fd = openat(p->fd, PLACE_RECORD, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                    0600);
    bool ok = fd >= 0 && write(fd, text, (size_t)len) == len;
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    return ok ? CP_OK : cp_err_errno(err, CP_EIO, e, "cannot write the record of '%s'", p->name);
}

/* Reads the record of the place open as fd into r. False when it is missing or not one. */
static bool read_record(int fd, disk_record_t *r)
{
    int rfd = openat(fd, PLACE_RECORD, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (rfd < 0)
        return false;
    char text[RECORD_MAX];
    struct stat st;
    ssize_t n = fstat(rfd, &st) == 0 && S_ISREG(st.st_mode) ? read(rfd, text, sizeof text - 1)
                                                              : -1;
    close(rfd);
    if (n <= 0)
        return false;
    text[n] = '\0';
    *r = (disk_record_t){0};
    unsigned long long dev, ino;
    const char *image = strstr(text, "\nimage ");
    if (strncmp(text, "chokepoint emulated disk\n", 25) != 0 || image == NULL ||
        sscanf(image, "\nimage %llu %llu", &dev, &ino) != 2)
        return false;
    r->image_dev = dev;
    r->image_ino = ino;
    const char *loop = strstr(text, "\nloop ");
    r->loop = loop != NULL && sscanf(loop, "\nloop %u %u", &r->loop_major, &r->loop_minor) == 2;
    return true;
}

bool disk_place_open_stale(int dir_fd, const char *name, disk_place_t *p)
{
    *p = (disk_place_t)DISK_PLACE_INIT;
    struct stat parent, st;
    if (strncmp(name, DISK_PLACE_PREFIX, strlen(DISK_PLACE_PREFIX)) != 0 ||
        strlen(name) >= sizeof p->name || fstat(dir_fd, &parent) != 0)
        return false;
    p->fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (p->fd < 0 || !private_dir(p->fd, parent.st_dev, &st)) {
        close_fd(&p->fd);
        return false;
    }
    p->dev = st.st_dev;
    p->ino = st.st_ino;
    p->lock_fd = openat(p->fd, PLACE_LOCK, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat lock;
    if (p->lock_fd < 0 || fstat(p->lock_fd, &lock) != 0 || !S_ISREG(lock.st_mode) ||
        lock.st_uid != geteuid() || flock(p->lock_fd, LOCK_EX | LOCK_NB) != 0 ||
        !read_record(p->fd, &p->record)) {
        close_fd(&p->lock_fd);
        close_fd(&p->fd);
        return false;
    }
    p->dir_fd = dup(dir_fd);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p->dir_fd >= 0 || (disk_place_take_down(p), false);
}

void disk_place_take_down(disk_place_t *p)
{
    const disk_record_t *r = &p->record;
    if (p->fd >= 0) {
        bool loop_ours = r->loop && r->image_ino != 0 &&
                         sys_loop_backed_by(r->loop_major, r->loop_minor, r->image_dev,
                                            r->image_ino);
        /* The cap first, so nothing waits on throttled writes; then the mount, whose loop
         * device then detaches itself. */
        if (loop_ours && p->capped)
            sys_write_throttle_clear(r->loop_major, r->loop_minor);
        else if (loop_ours)
            sys_write_throttle_remove(r->loop_major, r->loop_minor);
        p->capped = false;
        struct stat st;
        unsigned maj = 0, min = 0;
        int mnt = openat(p->fd, DISK_PLACE_MOUNT, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (mnt >= 0 && fstat(mnt, &st) == 0)
            sys_devno_split(st.st_dev, &maj, &min);
        if (loop_ours && maj == r->loop_major && min == r->loop_minor)
            sys_unmount_at(p->fd, DISK_PLACE_MOUNT);
        if (mnt >= 0)
            close(mnt);
        unlinkat(p->fd, DISK_PLACE_MOUNT, AT_REMOVEDIR); /* refused while still mounted */
        if (fstatat(p->fd, DISK_PLACE_IMAGE, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode) && (uint64_t)st.st_ino == r->image_ino &&
            (uint64_t)st.st_dev == r->image_dev)
            unlinkat(p->fd, DISK_PLACE_IMAGE, 0);
        unlinkat(p->fd, PLACE_RECORD, 0);
        if (p->lock_fd >= 0)
            unlinkat(p->fd, PLACE_LOCK, 0);
    }
    close_fd(&p->lock_fd);
    struct stat st;
    if (p->dir_fd >= 0 && p->fd >= 0 && p->name[0] != '\0' &&
        fstatat(p->dir_fd, p->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
        st.st_dev == p->dev && st.st_ino == p->ino)
        unlinkat(p->dir_fd, p->name, AT_REMOVEDIR);
    close_fd(&p->fd);
    close_fd(&p->dir_fd);
    *p = (disk_place_t)DISK_PLACE_INIT;
}
