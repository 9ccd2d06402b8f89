/* owned_dir.h - a directory chokepoint writes generated files into (a results directory,
 * plot-data/, history's and compare's plot directories), held open by descriptor.
 *
 * The directory is either made by this call (mkdir: nobody else's), or, when it exists
 * already, must be a directory (never a symlink, O_NOFOLLOW), owned by the caller (the
 * effective uid) and writable by nobody else: not by others, and by its group only when
 * that is the caller's own (effective) group. Anything else is refused with one line
 * saying why and what to do. Files inside are then created by descriptor (openat with
 * O_CREAT|O_EXCL|O_NOFOLLOW relative to the directory's descriptor) and renamed into place
 * within it, so renaming or swapping the directory's name for a symlink afterwards
 * cannot send them anywhere else. Opening an existing one removes the temporary files a
 * killed chokepoint left there (tempfile_clean_stale). */
#ifndef CP_OWNED_DIR_H
#define CP_OWNED_DIR_H

#include <limits.h>
#include <stdbool.h>

#include "common/err.h"

typedef struct owned_dir {
    int fd;              /* O_RDONLY|O_DIRECTORY|O_CLOEXEC, or -1 */
    bool made;           /* this process made it */
    char path[PATH_MAX]; /* for messages and for what is printed */
} owned_dir_t;

#define OWNED_DIR_INIT {.fd = -1}

/* Opens the directory path (making it, mode 0755 less the umask, when create and it is
 * missing) as described above. CP_OK with d->fd open; otherwise d->fd is -1 and:
 * CP_EUSAGE "'PATH' is a symlink; ...", "... is owned by uid N, not by you ...", "...
 * is writable by other users ...", "... is not a directory", or that it is missing
 * (without create); CP_EIO when it cannot be made or opened for another reason. */
int owned_dir_open(owned_dir_t *d, const char *path, bool create, cp_err_t *err);

/* The same for name (one component) inside parent: d->path is "PARENT/NAME". */
int owned_dir_open_in(owned_dir_t *d, const owned_dir_t *parent, const char *name,
                      bool create, cp_err_t *err);

/* Checks an open directory descriptor by the rules above (shown names it). CP_EUSAGE
 * naming it otherwise. */
int owned_dir_check(int fd, const char *shown, cp_err_t *err);

/* Closes d (no-op when not open). */
void owned_dir_close(owned_dir_t *d);

/* A file being written inside an owned_dir_t, under a temporary name
 * "<name>.<pid>-<n>.chokepoint-tmp" (removed by an interrupt's cleanup, and by
 * common/tempfile's leftovers rule after a kill), until owned_file_commit renames it to
 * name. */
typedef struct owned_file {
    int fd;              /* O_RDWR, or -1 once closed */
    int cleanup_id;      /* common/cleanup slot, or -1 */
    const owned_dir_t *dir;
    char temp_name[NAME_MAX + 1];
    char name[NAME_MAX + 1];
} owned_file_t;

#define OWNED_FILE_INIT {.fd = -1, .cleanup_id = -1}

/* Creates name's temporary file in dir (O_RDWR|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, mode
 * 0644). CP_OK with f->fd open; CP_EUSAGE for a name too long, CP_EIO naming the
 * directory when the file cannot be created. */
int owned_file_open(owned_file_t *f, const owned_dir_t *dir, const char *name, cp_err_t *err);

/* Closes f->fd if open (CP_EIO when close reports a failed write) and renames the
 * temporary file to its name inside the same directory: replacing a regular file there
 * only with replace, else CP_EUSAGE "output 'DIR/NAME' exists; use --force to replace
 * it"; never replacing a directory or a symlink. On failure the temporary file stays
 * until owned_file_discard. */
int owned_file_commit(owned_file_t *f, bool replace, cp_err_t *err);

/* Closes and removes the temporary file unless committed. Safe to call twice. */
void owned_file_discard(owned_file_t *f);

/* Whether name exists inside dir (as anything, symlinks included). */
bool owned_dir_has(const owned_dir_t *dir, const char *name);

#endif
