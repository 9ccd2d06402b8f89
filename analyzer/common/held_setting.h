/* held_setting.h - a kernel setting (a file such as /proc/sys/kernel/task_delayacct) that
 * chokepoint processes raise while they measure and that goes back to its original value
 * when the last of them ends, however many run at once and even when some were killed.
 *
 * The kernel counts the holders: each holds a shared flock(2) on STATE_DIR/NAME.holders for
 * as long as it holds the setting, and a process that dies drops its lock with its
 * descriptors. The original value waits in STATE_DIR/NAME.original until the last live
 * holder writes it back, so a holder killed with SIGKILL leaves the setting raised only
 * until its guardian, when it has one, puts it back (held_setting_put_back_orphaned), or
 * else until the next chokepoint that holds it starts (a record no live process holds is
 * put back first). STATE_DIR/NAME.lock serialises raising and
 * releasing. Without it, a process that ended first put the setting back under another
 * that was still measuring. */
#ifndef CP_HELD_SETTING_H
#define CP_HELD_SETTING_H

#include <limits.h>
#include <stdatomic.h>

/* One process's hold on one setting. Initialise with HELD_SETTING_INIT (not with zeros: fd
 * 0 would read as held); the paths are filled by held_setting_raise. */
typedef struct held_setting {
    atomic_int holder_fd; /* the shared lock on NAME.holders; -1 when not held */
    char setting[PATH_MAX];
    char lock_path[PATH_MAX];
    char holders_path[PATH_MAX];
    char original_path[PATH_MAX];
} held_setting_t;

#define HELD_SETTING_INIT {-1, "", "", "", ""}

/* Holds setting_path at the value raised (e.g. "1\n") for this process: records the
 * setting's present value as the original (unless a live earlier holder already did: a
 * record whose holders are all gone is put back first; or it already reads raised with no
 * original recorded: then someone else
 * chose it and nothing is put back), writes raised, and takes this process's shared lock.
 * state_dir is created (0755) when missing. Returns 1 when held, 0 when it cannot be (no
 * such setting, not allowed to write it or state_dir: the caller goes on without it; the
 * setting is then unchanged). Not async-signal-safe; call it before the threads start. */
int held_setting_raise(held_setting_t *h, const char *state_dir, const char *name,
                       const char *setting_path, const char *raised);

/* Drops this process's hold; when no other live process holds the setting, writes the
 * recorded original back and removes the record. Safe on HELD_SETTING_INIT, twice, and
 * from a signal handler (only open, flock, read, write, unlink and close). */
void held_setting_release(held_setting_t *h);

/* In a child just forked that will not exec (an exec closes it by itself): closes the
 * child's copy of the hold without touching the parent's, so the child does not count as
 * a holder after the parent ends. Async-signal-safe. */
void held_setting_forget_in_child(held_setting_t *h);

/* For a process that does not hold h but outlives its holder (the guardian of one killed
 * outright): when no live process holds the setting, writes the recorded original back
 * and removes the record, as the last holder's release would have. Nothing when h was
 * never raised or another holder lives (a holder still closing its descriptors as it dies
 * is waited for up to a second). Async-signal-safe. */
void held_setting_put_back_orphaned(const held_setting_t *h);

#endif
