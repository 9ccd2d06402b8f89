/* dirlock.h - one chokepoint process at a time in a directory, through a lock file in it
 * (flock, with the holder's PID written inside for the messages). Two lock files, so a
 * results directory can also be its own study's target (run's default 'local'):
 *
 *   DIRLOCK_NAME        a study holds it while it writes a results directory, so a second
 *                       study on the same directory is refused, and a directory whose
 *                       meta.json says "running" while nobody holds the lock is known to be
 *                       abandoned (its process died). The file is removed on release:
 *                       a finished results directory holds only its results.
 *   DIRLOCK_TARGET_NAME a command holds it on each directory it measures (measure/target.h,
 *                       target_lock_all), so two never time the same target at once. The
 *                       file is removed on release: the user's directory is left as found.
 *
 * The kernel drops a lock when its process dies, whatever killed it, so a lock file left
 * by a killed process never blocks: the next command takes it over. */
#ifndef CP_DIRLOCK_H
#define CP_DIRLOCK_H

#include <limits.h>
#include <stdbool.h>

#include "common/err.h"

#define DIRLOCK_NAME ".chokepoint.lock"
#define DIRLOCK_TARGET_NAME ".chokepoint-target.lock"

typedef struct dirlock {
    int fd;                   /* -1 when not held */
    bool remove_on_release;   /* the file goes when the lock is released */
    int cleanup_id;           /* its slot in common/cleanup then (a second signal removes
                                 it too), or -1 */
    char path[PATH_MAX + 32]; /* the lock file; "" when not held */
} dirlock_t;

#define DIRLOCK_INIT {.fd = -1, .cleanup_id = -1}

/* Takes the lock file name (DIRLOCK_NAME or DIRLOCK_TARGET_NAME) in dir, without waiting,
 * and writes this process's PID into it. With remove_on_release the file is removed by
 * dirlock_release (and on a second signal). When a live process holds it, and only then:
 * CP_EUSAGE "'<dir>' is in use by another chokepoint process (pid N)" ("(pid N)" left out
 * when the file holds none yet), *holder (may be NULL) being that PID or 0. CP_EIO when
 * the file cannot be created. On a filesystem without locks (flock refused) the directory
 * is used unlocked, with a warning. */
int dirlock_take(const char *dir, const char *name, bool remove_on_release, dirlock_t *lock,
                 long *holder, cp_err_t *err);

/* A results directory's lock: dirlock_take(dir, DIRLOCK_NAME, true, ...) (removed on
 * release) with the message "...; wait for it to finish". */
int dirlock_acquire(const char *dir, dirlock_t *lock, cp_err_t *err);

/* Releases the lock, removing the file when it was taken with remove_on_release. Safe on a
 * lock not held. */
void dirlock_release(dirlock_t *lock);

/* True when a live process (this one included) holds dir's results lock (DIRLOCK_NAME);
 * *pid (may be NULL) is the PID written in the file, 0 when unknown. */
bool dirlock_held(const char *dir, long *pid);

#endif
