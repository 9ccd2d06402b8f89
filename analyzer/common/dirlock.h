/* dirlock.h - one writer per directory: a study holds "<dir>/.chokepoint.lock" (flock,
 * with its PID written inside) while it writes a results directory, so a second study on
 * the same directory is refused, and a directory whose meta.json says "running" while
 * nobody holds the lock is known to be abandoned (its process died). The kernel drops the
 * lock when the process dies, whatever killed it. */
#ifndef CP_DIRLOCK_H
#define CP_DIRLOCK_H

#include <stdbool.h>

#include "common/err.h"

#define DIRLOCK_NAME ".chokepoint.lock"

typedef struct dirlock {
    int fd; /* -1 when not held */
} dirlock_t;

#define DIRLOCK_INIT {.fd = -1}

/* Takes dir's lock. CP_EUSAGE "'<dir>' is in use by another chokepoint process (pid N)"
 * when a live process holds it; CP_EIO when the lock file cannot be created. */
int dirlock_acquire(const char *dir, dirlock_t *lock, cp_err_t *err);

/* Releases the lock (the file stays, harmless). Safe on a lock not held. */
void dirlock_release(dirlock_t *lock);

/* True when a live process (this one included) holds dir's lock; *pid (may be NULL) is the
 * PID written in the file, 0 when unknown. */
bool dirlock_held(const char *dir, long *pid);

#endif
