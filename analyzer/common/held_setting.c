/* held_setting.c - owns the holders' record of a raised kernel setting: the lock files
 * that count live holders, the original value kept for the last one, and putting it back
 * (held_setting.h). */
#include "common/held_setting.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SETTING_VALUE_MAX 64

/* Reads up to cap - 1 bytes of path into buf, NUL-terminated; the count, or -1. Uses only
 * async-signal-safe calls. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return n;
}

/* Writes text to an existing file (a /proc/sys setting is never created); true when all of
 * it was taken. Async-signal-safe. */
static bool write_setting(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len;
    return close(fd) == 0 && ok;
}

/* Creates path holding text, only when it does not exist yet; true when it was written or
 * already there. */
static bool record_original(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno == EEXIST;
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len;
    if (close(fd) != 0 || !ok) {
        unlink(path);
        return false;
    }
    return true;
}

/* Takes the lock that serialises raising and releasing; its descriptor, or -1 when it
 * cannot be had within about two seconds (a signal handler must not wait for ever on a
 * lock its own interrupted thread holds). Async-signal-safe. */
static int lock_record(const char *lock_path)
{
    int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    for (int tries = 0; tries < 200; tries++) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return fd;
        if (errno != EWOULDBLOCK && errno != EINTR)
            break;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    close(fd);
    return -1;
}

/* True when no process but the caller (who holds no lock on it) holds path's shared lock.
 * Async-signal-safe. */
static bool no_live_holder(const char *holders_path)
{
    int fd = open(holders_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    bool none = flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd); /* drops the probe's lock with its descriptor */
    return none;
}

static bool fill_path(char *out, const char *dir, const char *name, const char *suffix)
{
    int n = snprintf(out, PATH_MAX, "%s/%s.%s", dir, name, suffix);
    return n > 0 && n < PATH_MAX;
}

/* Under no lock of the caller's: drops the hold fd (when >= 0) and, when no other live
 * process holds the setting, writes the recorded original back and removes the record.
 * Async-signal-safe. */
static void put_back(const held_setting_t *h, int fd)
{
    int lock = lock_record(h->lock_path);
    if (fd >= 0)
        close(fd);
    if (lock < 0)
        return;
    char original[SETTING_VALUE_MAX];
    if (no_live_holder(h->holders_path) &&
        read_small(h->original_path, original, sizeof original) > 0 &&
        write_setting(h->setting, original))
        unlink(h->original_path);
    close(lock);
}

int held_setting_raise(held_setting_t *h, const char *state_dir, const char *name,
                       const char *setting_path, const char *raised)
{
    if (atomic_load(&h->holder_fd) >= 0)
        return 1;
    if (strlen(setting_path) >= sizeof h->setting ||
        !fill_path(h->lock_path, state_dir, name, "lock") ||
        !fill_path(h->holders_path, state_dir, name, "holders") ||
        !fill_path(h->original_path, state_dir, name, "original"))
        return 0;
    strcpy(h->setting, setting_path);
    if (access(setting_path, W_OK) != 0)
        return 0; /* no such setting, or not root */
    if (mkdir(state_dir, 0755) != 0 && errno != EEXIST)
        return 0;
    int lock = lock_record(h->lock_path);
    if (lock < 0)
        return 0;
    char now[SETTING_VALUE_MAX], original[SETTING_VALUE_MAX];
    bool recorded = false;
    int fd = -1;
    /* A record whose holders are all gone (killed outright, guardian and all) is put back
     * first: the setting reads raised only because of them. */
    if (no_live_holder(h->holders_path) &&
        read_small(h->original_path, original, sizeof original) > 0 &&
        write_setting(setting_path, original))
        unlink(h->original_path);
    bool ok = read_small(setting_path, now, sizeof now) >= 0;
    /* The first live holder records the original. */
    if (ok && no_live_holder(h->holders_path) && strcmp(now, raised) != 0) {
        recorded = record_original(h->original_path, now);
        ok = recorded;
    }
    if (ok) {
        fd = open(h->holders_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        ok = fd >= 0 && flock(fd, LOCK_SH) == 0;
    }
    bool stored = ok;
    if (stored) /* held before the setting changes: a release from now on puts it back */
        atomic_store(&h->holder_fd, fd);
    if (ok && strcmp(now, raised) != 0)
        ok = write_setting(setting_path, raised);
    close(lock);
    if (ok)
        return 1;
    if (stored && atomic_exchange(&h->holder_fd, -1) < 0)
        return 0; /* a signal's release already put it back */
    if (fd >= 0 || recorded)
        put_back(h, fd); /* as if this process had held it and ended */
    return 0;
}

void held_setting_forget_in_child(held_setting_t *h)
{
    int fd = atomic_exchange(&h->holder_fd, -1);
    if (fd >= 0)
        close(fd); /* the parent's descriptor keeps the shared lock */
}

void held_setting_put_back_orphaned(const held_setting_t *h)
{
    if (h->lock_path[0] == '\0')
        return;
    /* The holder is dead, but a process killed outright closes its descriptors one by one:
     * its pipe may read as closed a moment before its hold on the holders' file goes. A
     * second of grace tells a dying holder from a live one (which keeps its hold). */
    for (int i = 0; i < 100 && !no_live_holder(h->holders_path); i++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    put_back(h, -1);
}

void held_setting_release(held_setting_t *h)
{
    int fd = atomic_exchange(&h->holder_fd, -1);
    if (fd >= 0)
        put_back(h, fd);
}
