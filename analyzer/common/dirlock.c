#include "common/dirlock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static void lock_path(const char *dir, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", dir, DIRLOCK_NAME);
}

static long read_pid(int fd)
{
    char text[32] = "";
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    return strtol(text, NULL, 10);
}

int dirlock_acquire(const char *dir, dirlock_t *lock, cp_err_t *err)
{
    char path[PATH_MAX + 32];
    lock_path(dir, path, sizeof path);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot create the lock file %s", path);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        long pid = read_pid(fd);
        close(fd);
        return cp_err_set(err, CP_EUSAGE,
                          "'%s' is in use by another chokepoint process (pid %ld); wait for it "
                          "to finish",
                          dir, pid);
    }
    char text[32];
    int len = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len) {
        /* The PID is only for messages; the lock itself holds. */
    }
    lock->fd = fd;
    return CP_OK;
}

void dirlock_release(dirlock_t *lock)
{
    if (lock->fd >= 0)
        close(lock->fd);
    lock->fd = -1;
}

bool dirlock_held(const char *dir, long *pid)
{
    char path[PATH_MAX + 32];
    lock_path(dir, path, sizeof path);
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
