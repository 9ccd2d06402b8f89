/* tempfile.h - the one way chokepoint writes a named file: into a fresh temporary file
 * beside it, renamed into place only when complete. A failed or interrupted command never
 * leaves a half-written file and never clobbers an existing one (unless asked to).
 *
 * The temporary file is "<dir>/<prefix>.<pid>-<n>.chokepoint-tmp", created with
 * O_EXCL|O_NOFOLLOW (so it is always ours, never a planted symlink), locked (flock) for as
 * long as it is a temporary file, and registered with common/cleanup so an interrupt
 * removes it. Typical use:
 *
 *     tempfile_t t = TEMPFILE_INIT;
 *     rc = tempfile_open(&t, dir, prefix, 0, err);
 *     ... write(t.fd, ...), or fdopen(t.fd) and fclose (then set t.fd = -1) ...
 *     if (rc == CP_OK) rc = tempfile_commit(&t, final_path, replace, err);
 *     tempfile_discard(&t);   // always: removes the file unless committed
 *
 * One thread uses a tempfile_t. The struct is the caller's (on the stack or inside its own
 * object); nothing in it is heap-allocated. */
#ifndef CP_TEMPFILE_H
#define CP_TEMPFILE_H

#include <limits.h>
#include <stdbool.h>

#include "common/err.h"

typedef struct tempfile {
    int fd;               /* open O_WRONLY, or -1; the caller may close it and set -1 */
    int lock_fd;          /* the same open file, holding its flock until commit or discard
                           * (a file whose lock can be taken is a dead process's), or -1 */
    int cleanup_id;       /* slot in common/cleanup, or -1 */
    bool committed;       /* renamed into place: discard keeps it */
    double replaced_s;    /* after a commit that replaced a file: seconds removing the old one */
    int open_errno;       /* after a failed tempfile_open: open()'s errno, else 0 */
    char dir[PATH_MAX];   /* the directory holding the file (fsynced on commit) */
    char path[PATH_MAX];  /* the temporary file's path; "" when there is none */
} tempfile_t;

/* A tempfile_t that holds nothing; tempfile_discard on it is a no-op. */
#define TEMPFILE_INIT {.fd = -1, .lock_fd = -1, .cleanup_id = -1}

/* Creates a new temporary file in dir named "<prefix>.<pid>-<n>.chokepoint-tmp", opened
 * O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC|extra_flags with mode 0644, and registers it
 * for removal on interrupt. Returns CP_OK with t->fd open and t->path set. On failure t
 * holds no file (t->fd is -1, t->path ""), and: CP_EUSAGE when the path would be too long;
 * CP_EIO "cannot create a file in '<dir>'" when open() fails, with that errno kept in
 * t->open_errno so the caller can retry (O_DIRECT refused: EINVAL) or reword the message
 * (call cp_err_clear first); CP_EIO when 100 names in a row were taken. */
int tempfile_open(tempfile_t *t, const char *dir, const char *prefix, int extra_flags,
                  cp_err_t *err);

/* Closes t->fd if still open (CP_EIO when close fails; no fsync: the caller syncs the
 * data as it needs), then renames the file to final_path and fsyncs the directory. With
 * replace, an existing regular final_path is replaced atomically: exchanged with the
 * temporary file (renameat2 RENAME_EXCHANGE, else a rename over it), then removed, with
 * the seconds of that removal (freeing its page cache and blocks) in t->replaced_s.
 * Without replace an existing final_path is left alone and CP_EUSAGE "output
 * '<final_path>' exists; use --force to replace it" returned. CP_EIO naming final_path
 * when the rename fails. On failure the temporary file stays (tempfile_discard removes
 * it). */
int tempfile_commit(tempfile_t *t, const char *final_path, bool replace, cp_err_t *err);

/* Marks the temporary file as results worth keeping: if the process is killed by a second
 * SIGINT/SIGTERM before tempfile_commit, it is linked to final_path instead of deleted.
 * No effect when t holds no file. */
void tempfile_keep_on_interrupt(tempfile_t *t, const char *final_path);

/* Closes t->fd if open and removes the temporary file unless committed; leaves t holding
 * nothing (TEMPFILE_INIT). Safe to call twice and after any tempfile_open, failed or not. */
void tempfile_discard(tempfile_t *t);

/* Renames from to to unless to exists: renameat2(RENAME_NOREPLACE) where the filesystem
 * has it, else link + unlink (link never replaces), else a check then rename (for
 * filesystems with neither). Returns 0 or an errno (EEXIST when to exists). */
int tempfile_move_no_replace(const char *from, const char *to);

/* ---- leftovers ---- */

/* The PID in a temporary file's name "<prefix>.<pid>-<n>.chokepoint-tmp", or 0 when name
 * is not one. Pure. */
long tempfile_name_pid(const char *name);

/* Removes from dir the temporary files and directories of chokepoint processes that
 * died: a regular file whose lock (flock) can be taken, and a directory made by
 * tempfile_mkdir none of whose locks (its own, a target lock) is held, with the regular
 * files chokepoint left in it (temporary files, its locks; a directory holding anything
 * else stays). The lock decides, since a process in another PID namespace sharing the
 * directory (/dev/shm) may have a PID that names no process here; a PID that names a
 * running process here keeps its files too. Never a symlink, never this process's.
 * Logs one line when it removed any. Returns how many files and directories.
 * tempfile_open and tempfile_mkdir call it the first time they create something in a
 * directory. */
int tempfile_clean_stale(const char *dir);

/* tempfile_clean_stale inside the directory open as dir_fd (which stays open and the
 * caller's), every name taken relative to it: what it removes is in the directory the
 * caller checked, whatever the path dir (shown in the log line) names by then. */
int tempfile_clean_stale_at(int dir_fd, const char *dir);

/* ---- temporary directories ---- */

/* Creates a new directory (mode 0700) in dir named "<prefix>.<pid>-<n>.chokepoint-tmp",
 * its path into path (PATH_MAX bytes), after removing the leftovers of dead processes
 * from dir (tempfile_clean_stale, once per directory). It holds a lock file of its own
 * (TEMPFILE_DIR_LOCK, locked until tempfile_rmdir). It is not registered for removal
 * on interrupt: its owner empties it and calls tempfile_rmdir; after a kill the next
 * command creating something in dir removes it. CP_EUSAGE when the path would be too
 * long, CP_EIO when mkdir fails; path is "" then. */
int tempfile_mkdir(const char *dir, const char *prefix, char *path, cp_err_t *err);

/* The lock file inside a directory made by tempfile_mkdir. */
#define TEMPFILE_DIR_LOCK ".chokepoint-tmp.lock"

/* Removes the directory path made by tempfile_mkdir, empty but for its lock (released
 * and removed first), warning when it cannot, and sets path to "". No-op on "". */
void tempfile_rmdir(char *path);

/* ---- output paths ---- */

/* Splits path into its directory ("." when there is none) and final component, into
 * buffers of PATH_MAX bytes. CP_EUSAGE for an empty path, one too long, or one ending in
 * '/' (a directory, not a file name). err may be NULL. */
int tempfile_split_path(const char *path, char *dir, char *base, cp_err_t *err);

/* Checks that a file may be committed at path: the path is not too long, its directory
 * exists and is writable, and path does not exist, or (with replace) is a regular file,
 * never a directory, symlink or device. CP_EUSAGE naming the path and the fault otherwise.
 * Every command that writes a named output checks this before it starts. */
int tempfile_check_destination(const char *path, bool replace, cp_err_t *err);

#endif
