/* dirlock.c - the lock file that keeps one chokepoint process at a time in a directory
 * (dirlock.h). */
#include "common/dirlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"

static long read_pid(int fd)
{
    char text[32] = "";
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    return strtol(text, NULL, 10);
}

/* True when fd is still the file at path: a holder that removes its lock file on release
 * may have unlinked it between our open and our flock, and a lock on a file no longer
 * in the directory locks nothing (the next process creates a new one). */
static bool still_linked(int fd, const char *path)
{
    struct stat by_fd, by_path;
    return fstat(fd, &by_fd) == 0 && lstat(path, &by_path) == 0 && by_fd.st_dev == by_path.st_dev &&
           by_fd.st_ino == by_path.st_ino;
}

int dirlock_take(const char *dir, const char *name, bool remove_on_release, dirlock_t *lock,
                 long *holder, cp_err_t *err)
{
    *lock = (dirlock_t)DIRLOCK_INIT;
    if (holder != NULL)
        *holder = 0;
    char path[sizeof lock->path];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return cp_err_set(err, CP_EIO, "cannot create a lock file in %s: path too long", dir);
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
        fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
            return cp_err_errno(err, CP_EIO, errno, "cannot create the lock file %s", path);
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) {
                long pid = read_pid(fd);
                close(fd);
                if (holder != NULL)
                    *holder = pid;
                char who[32] = "";
                if (pid > 0)
                    snprintf(who, sizeof who, " (pid %ld)", pid);
                return cp_err_set(err, CP_EUSAGE,
                                  "'%s' is in use by another chokepoint process%s", dir, who);
            }
            cp_log_warn("cannot lock %s (%s): another chokepoint process could use '%s' at "
                        "the same time", path, strerror(errno), dir);
            break;
        }
        if (!still_linked(fd, path)) {
            close(fd);
            fd = -1;
        }
    }
    if (fd < 0)
        return cp_err_set(err, CP_EIO, "cannot take the lock file %s: it keeps being replaced",
                          path);
    char text[32];
    int len = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len) {
        /* The PID is only for messages; the lock itself holds. */
    }
    lock->fd = fd;
    snprintf(lock->path, sizeof lock->path, "%s", path);
    lock->remove_on_release = remove_on_release;
    if (remove_on_release)
        lock->cleanup_id = cp_cleanup_track(path);
    return CP_OK;
}

int dirlock_acquire(const char *dir, dirlock_t *lock, cp_err_t *err)
{
    cp_err_t mine = {0};
    int rc = dirlock_take(dir, DIRLOCK_NAME, true, lock, NULL, &mine);
    if (rc == CP_EUSAGE)
        return cp_err_set(err, rc, "%s; wait for it to finish", mine.msg);
    if (rc != CP_OK)
        return cp_err_set(err, rc, "%s", mine.msg);
    return CP_OK;
}

void dirlock_release(dirlock_t *lock)
{
    if (lock->fd >= 0 && lock->remove_on_release) {
        /* Removed while still held: a process that opened the old file meanwhile finds it
         * unlinked once it gets the lock, and starts again on a new one. */
        unlink(lock->path);
        cp_cleanup_forget(lock->cleanup_id);
    }
    if (lock->fd >= 0)
        close(lock->fd);
    *lock = (dirlock_t)DIRLOCK_INIT;
}

bool dirlock_held(const char *dir, long *pid)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, DIRLOCK_NAME);
    if (pid != NULL)
        *pid = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool held = false;
    if (flock(fd, LOCK_SH | LOCK_NB) != 0) {
        held = errno == EWOULDBLOCK;
    } else {
        flock(fd, LOCK_UN);
    }
    if (pid != NULL)
        *pid = read_pid(fd);
    close(fd);
    /* Our own lock is on another open file description: flock refuses us too, so a
     * process asking about its own directory reads "held", as it should. */
    return held;
}
