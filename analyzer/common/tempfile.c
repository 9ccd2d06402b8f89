/* tempfile.c - temporary files and directories created beside their final place, renamed
 * in when complete, removed on failure or interrupt, and stale ones cleaned (tempfile.h). */
#include "common/tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "common/dirlock.h"
#include "common/log.h"
#include "common/sys.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>

static void clear(tempfile_t *t)
{
    t->fd = -1;
    t->lock_fd = -1;
    t->cleanup_id = -1;
    t->committed = false;
    t->replaced_s = 0;
    t->path[0] = '\0';
}

/* ---- leftovers of processes that died ---- */

long tempfile_name_pid(const char *name)
{
    static const char suffix[] = ".chokepoint-tmp";
    size_t len = strlen(name), slen = sizeof suffix - 1;
    if (len <= slen || strcmp(name + len - slen, suffix) != 0)
        return 0;
    /* "<prefix>.<pid>-<n>": back over <n>, the '-', then <pid> up to a '.' */
    size_t i = len - slen;
    size_t n_end = i;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == n_end || i == 0 || name[i - 1] != '-')
        return 0;
    size_t pid_end = --i;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == pid_end || i == 0 || name[i - 1] != '.' || pid_end - i > 9)
        return 0;
    return strtol(name + i, NULL, 10);
}

/* True when the lock on the regular file name in the directory parent can be taken now:
 * no live process holds it. Its lock goes with the descriptor. */
static bool lock_free(int parent, const char *name)
{
    int fd = openat(parent, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool free_now = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                    flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    return free_now;
}

/* True when a lock file inside the directory open as fd (its own, a target lock) is held
 * by a live process. */
static bool dir_lock_held(int fd)
{
    static const char *const locks[] = {TEMPFILE_DIR_LOCK, DIRLOCK_TARGET_NAME};
    for (size_t i = 0; i < sizeof locks / sizeof locks[0]; i++) {
        struct stat st;
        if (fstatat(fd, locks[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && !lock_free(fd, locks[i]))
            return true;
    }
    return false;
}

/* A dead process's temporary directory: unless a lock in it is held, the regular files
 * in it that are chokepoint's (temporary files, its locks), then the directory itself,
 * which stays (with whatever else it holds) when anything else is in it. */
static bool remove_stale_dir(int parent, const char *name, int *files, double *bytes)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    if (dir_lock_held(dirfd(d))) {
        closedir(d);
        return false;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if ((tempfile_name_pid(e->d_name) <= 0 && strcmp(e->d_name, DIRLOCK_TARGET_NAME) != 0 &&
             strcmp(e->d_name, TEMPFILE_DIR_LOCK) != 0) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
            (*files)++;
            *bytes += (double)st.st_size;
        }
    }
    closedir(d);
    return unlinkat(parent, name, AT_REMOVEDIR) == 0;
}

int tempfile_clean_stale(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int removed = tempfile_clean_stale_at(fd, dir);
    close(fd);
    return removed;
}

int tempfile_clean_stale_at(int dir_fd, const char *dir)
{
    /* A descriptor of its own for the listing: closedir closes it, not dir_fd. */
    int own = fcntl(dir_fd, F_DUPFD_CLOEXEC, 3);
    if (own < 0)
        return 0;
    DIR *d = fdopendir(own);
    if (d == NULL) {
        close(own);
        return 0;
    }
    rewinddir(d); /* the duplicate shares dir_fd's position */
    int removed = 0, dirs = 0;
    double bytes = 0;
    long last_pid = 0;
    bool other_pids = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = tempfile_name_pid(e->d_name);
        struct stat st;
        if (pid <= 0 || !sys_process_gone(pid) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) ||
            (S_ISREG(st.st_mode) && !lock_free(dirfd(d), e->d_name)))
            continue; /* a live process's file, a planted symlink, or not ours */
        int files = 0;
        bool gone = false;
        if (S_ISDIR(st.st_mode)) {
            gone = remove_stale_dir(dirfd(d), e->d_name, &files, &bytes);
            dirs += gone;
        } else if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
            files = 1;
            bytes += (double)st.st_size;
        }
        removed += files;
        if (files > 0 || gone) {
            other_pids = other_pids || (last_pid != 0 && pid != last_pid);
            last_pid = pid;
        }
    }
    closedir(d);
    char and_dirs[48] = "";
    if (dirs > 0)
        snprintf(and_dirs, sizeof and_dirs, " and %d director%s", dirs, dirs == 1 ? "y" : "ies");
    if (removed + dirs > 0)
        cp_log_warn("removed %d leftover temporary file%s (%.1f MB)%s of a chokepoint process "
                    "that died (pid %ld%s) from %s",
                    removed, removed == 1 ? "" : "s", bytes / 1e6, and_dirs, last_pid,
                    other_pids ? " and others" : "", dir);
    return removed + dirs;
}

/* Cleans each directory once per process, the first time a temporary file goes there. */
static void clean_stale_once(const char *dir)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char seen[32][PATH_MAX];
    static int n_seen;
    pthread_mutex_lock(&lock);
    bool done = false;
    for (int i = 0; i < n_seen && !done; i++)
        done = strcmp(seen[i], dir) == 0;
    if (!done && n_seen < 32)
        snprintf(seen[n_seen++], PATH_MAX, "%s", dir);
    pthread_mutex_unlock(&lock);
    if (!done)
        tempfile_clean_stale(dir);
}

int tempfile_open(tempfile_t *t, const char *dir, const char *prefix, int extra_flags,
                  cp_err_t *err)
{
    static atomic_uint counter;
    clear(t);
    t->open_errno = 0;
    if ((size_t)snprintf(t->dir, sizeof t->dir, "%s", dir) >= sizeof t->dir)
        return cp_err_set(err, CP_EUSAGE, "output directory path too long: %s", dir);
    clean_stale_once(dir);
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = atomic_fetch_add(&counter, 1);
        int len = snprintf(t->path, sizeof t->path, "%s/%s.%ld-%u.chokepoint-tmp", dir, prefix,
                           (long)getpid(), n);
        if (len < 0 || (size_t)len >= sizeof t->path) {
            t->path[0] = '\0';
            return cp_err_set(err, CP_EUSAGE, "output directory path too long: %s", dir);
        }
        t->fd = open(t->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | extra_flags,
                     0644);
        if (t->fd >= 0) {
            t->cleanup_id = cp_cleanup_track(t->path);
            /* Locked before anything is written: the lock says a live process owns it (on
             * a file system without locks it goes unlocked, and is never taken for
             * stale). Held on a descriptor of its own, which the caller does not close. */
            if (flock(t->fd, LOCK_EX | LOCK_NB) == 0)
                t->lock_fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 3);
            return CP_OK;
        }
        if (errno != EEXIST) {
            int saved = errno;
            /* Linux creates the file before it refuses O_DIRECT; the name is ours (unique
             * to this process), so remove it. */
            if (saved == EINVAL && (extra_flags & sys_direct_open_flag()) != 0)
                unlink(t->path);
            t->path[0] = '\0';
            t->open_errno = saved;
            return cp_err_errno(err, CP_EIO, saved, "cannot create a file in '%s'", dir);
        }
    }
    t->path[0] = '\0';
    return cp_err_set(err, CP_EIO, "cannot find a free temporary file name in %s", dir);
}

/* The locks of this process's directories made by tempfile_mkdir. */
#define DIR_LOCKS 16
static struct {
    char path[PATH_MAX];
    int fd;
} dir_locks[DIR_LOCKS];
static int n_dir_locks;
static pthread_mutex_t dir_locks_lock = PTHREAD_MUTEX_INITIALIZER;

/* Creates and locks TEMPFILE_DIR_LOCK in the new directory path, keeping its descriptor
 * until dir_lock_drop. Without room or locks the directory goes unlocked. */
static void dir_lock_take(const char *path)
{
    char lock[PATH_MAX + 32];
    snprintf(lock, sizeof lock, "%s/%s", path, TEMPFILE_DIR_LOCK);
    int fd = open(lock, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    pthread_mutex_lock(&dir_locks_lock);
    if (n_dir_locks < DIR_LOCKS && flock(fd, LOCK_EX | LOCK_NB) == 0) {
        snprintf(dir_locks[n_dir_locks].path, PATH_MAX, "%s", path);
        dir_locks[n_dir_locks++].fd = fd;
        fd = -1;
    }
    pthread_mutex_unlock(&dir_locks_lock);
    if (fd >= 0) {
        unlink(lock);
        close(fd);
    }
}

/* Removes and releases the lock of directory path, when this process holds one. */
static void dir_lock_drop(const char *path)
{
    pthread_mutex_lock(&dir_locks_lock);
    for (int i = 0; i < n_dir_locks; i++) {
        if (strcmp(dir_locks[i].path, path) != 0)
            continue;
        char lock[PATH_MAX + 32];
        snprintf(lock, sizeof lock, "%s/%s", path, TEMPFILE_DIR_LOCK);
        unlink(lock);
        close(dir_locks[i].fd);
        dir_locks[i] = dir_locks[--n_dir_locks];
        break;
    }
    pthread_mutex_unlock(&dir_locks_lock);
}

int tempfile_mkdir(const char *dir, const char *prefix, char *path, cp_err_t *err)
{
    static atomic_uint counter;
    path[0] = '\0';
    clean_stale_once(dir);
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = atomic_fetch_add(&counter, 1);
        int len = snprintf(path, PATH_MAX, "%s/%s.%ld-%u.chokepoint-tmp", dir, prefix,
                           (long)getpid(), n);
        if (len < 0 || len >= PATH_MAX) {
            path[0] = '\0';
            return cp_err_set(err, CP_EUSAGE, "directory path too long: %s", dir);
        }
        if (mkdir(path, 0700) == 0) {
            dir_lock_take(path);
            return CP_OK;
        }
        if (errno != EEXIST) {
            int saved = errno;
            path[0] = '\0';
            return cp_err_errno(err, CP_EIO, saved, "cannot create a directory in '%s'", dir);
        }
    }
    path[0] = '\0';
    return cp_err_set(err, CP_EIO, "cannot find a free temporary directory name in %s", dir);
}

void tempfile_rmdir(char *path)
{
    if (path[0] != '\0')
        dir_lock_drop(path);
    if (path[0] != '\0' && rmdir(path) != 0 && errno != ENOENT)
        cp_log_warn("cannot remove the temporary directory %s: %s", path, strerror(errno));
    path[0] = '\0';
}

int tempfile_move_no_replace(const char *from, const char *to)
{
    int e = sys_rename_no_replace(from, to);
    if (e == 0)
        return 0;
    if (e != EINVAL && e != ENOSYS && e != EOPNOTSUPP)
        return e;
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

void tempfile_keep_on_interrupt(tempfile_t *t, const char *final_path)
{
    if (t->path[0] == '\0' || t->committed || t->cleanup_id < 0)
        return;
    cp_cleanup_forget(t->cleanup_id);
    t->cleanup_id = cp_cleanup_track_promote(t->path, final_path);
}

/* Puts t's file at final_path, replacing a regular file there: the two are exchanged and
 * the old one, now at t->path, is removed, timed into t->replaced_s. A rename over the
 * old file would free its page cache and blocks inside the rename and, on ext4
 * (auto_da_alloc), start writing the new file back there. A file system without exchange
 * gets the rename. Returns 0 or an errno. */
static int replace_file(tempfile_t *t, const char *final_path)
{
    struct stat st;
    if (lstat(final_path, &st) == 0 && S_ISREG(st.st_mode) &&
        sys_rename_exchange(t->path, final_path) == 0) {
        double start = clock_now();
        if (unlink(t->path) != 0)
            cp_log_warn("cannot remove the replaced %s (now %s): %s", final_path, t->path,
                        strerror(errno));
        t->replaced_s = clock_now() - start;
        return 0;
    }
    return rename(t->path, final_path) == 0 ? 0 : errno;
}

int tempfile_commit(tempfile_t *t, const char *final_path, bool replace, cp_err_t *err)
{
    if (t->fd >= 0) {
        int closed = close(t->fd);
        t->fd = -1;
        if (closed != 0)
            return cp_err_errno(err, CP_EIO, errno, "closing %s", t->path);
    }
    if (replace) {
        int rc = replace_file(t, final_path);
        if (rc != 0)
            return cp_err_errno(err, CP_EIO, rc, "cannot move the output into place as %s",
                                final_path);
    } else {
        int rc = tempfile_move_no_replace(t->path, final_path);
        if (rc == EEXIST)
            return cp_err_set(err, CP_EUSAGE, "output '%s' exists; use --force to replace it",
                              final_path);
        if (rc != 0)
            return cp_err_errno(err, CP_EIO, rc, "cannot move the output into place as %s",
                                final_path);
    }
    t->committed = true;
    cp_cleanup_forget(t->cleanup_id);
    t->cleanup_id = -1;
    if (t->lock_fd >= 0)
        close(t->lock_fd); /* no longer a temporary file */
    t->lock_fd = -1;
    int dfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return CP_OK;
}

void tempfile_discard(tempfile_t *t)
{
    if (t->fd >= 0)
        close(t->fd);
    if (!t->committed && t->path[0] != '\0') {
        if (t->cleanup_id >= 0)
            cp_cleanup_unlink(t->cleanup_id);
        else
            unlink(t->path); /* the registry was full: remove it ourselves */
    } else {
        cp_cleanup_forget(t->cleanup_id);
    }
    if (t->lock_fd >= 0)
        close(t->lock_fd); /* after the removal: until then it is a live process's */
    clear(t);
}

int tempfile_split_path(const char *path, char *dir, char *base, cp_err_t *err)
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

int tempfile_check_destination(const char *path, bool replace, cp_err_t *err)
{
    char dir[PATH_MAX], base[PATH_MAX];
    if (strlen(path) >= PATH_MAX - 64)
        return cp_err_set(err, CP_EUSAGE, "output path too long: %.64s...", path);
    int rc = tempfile_split_path(path, dir, base, err);
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
