/* target_dir.c - the operations of a directory target (TARGET_DIR): files are created in
 * the directory as temporary files (common/tempfile via measure/sink), read back with
 * open(2), its volume is inspected through common/sys, and the directory is locked while
 * measured. A directory on a RAM volume (tmpfs) is one of these too. */
#include "measure/target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int dir_check(const target_spec_t *t, cp_err_t *err)
{
    struct stat st;
    if (stat(t->dir, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "target '%s': cannot use directory '%s'",
                            t->name, t->dir);
    if (!S_ISDIR(st.st_mode)) {
        char forms[256];
        return cp_err_set(err, CP_EUSAGE, "target '%s': '%s' is not a directory; expected %s",
                          t->name, t->dir,
                          target_forms_text(forms, sizeof forms, ", or ",
                                            " with DIR a writable directory"));
    }
    if (access(t->dir, W_OK | X_OK) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "target '%s': directory '%s' is not writable",
                            t->name, t->dir);
    return CP_OK;
}

/* Where the target's files go: its emulated disk's mount point while one is up, else the
 * directory itself. */
static const char *volume_dir(const target_spec_t *t)
{
    return target_emulates_disk(t) ? t->disk_dir : t->dir;
}

static const char *dir_output_dir(const target_spec_t *t) { return volume_dir(t); }

static void dir_identity(const target_spec_t *t, char *buf, size_t cap)
{
    char resolved[PATH_MAX];
    snprintf(buf, cap, "%s", realpath(t->dir, resolved) != NULL ? resolved : t->dir);
}

static int dir_inspect(const target_spec_t *t, volume_info_t *out, cp_err_t *err)
{
    return volume_inspect(volume_dir(t), out, err);
}

static int dir_space(const target_spec_t *t, sys_space_t *out, cp_err_t *err)
{
    return sys_space_read(volume_dir(t), out, err);
}

static sink_t *dir_open_output(const target_spec_t *t, const char *prefix,
                               const sink_options_t *opts, cp_err_t *err)
{
    return sink_open_file(volume_dir(t), prefix, opts, err);
}

static sink_t *dir_open_kept(const target_spec_t *t, const char *prefix,
                             const sink_options_t *opts, uint64_t ram_limit, cp_err_t *err)
{
    (void)ram_limit;
    return sink_open_file(volume_dir(t), prefix, opts, err);
}

static int dir_open_read(const target_spec_t *t, const char *path, bool direct)
{
    (void)t;
    return open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (direct ? sys_direct_open_flag() : 0));
}

/* The directory's device numbers now; false when it cannot be examined. */
static bool device_of(const char *path, struct stat *st, unsigned *maj, unsigned *min)
{
    if (stat(path, st) != 0)
        return false;
    sys_devno_split(st->st_dev, maj, min);
    return true;
}

static int dir_still_there(const target_spec_t *t, const volume_info_t *v, cp_err_t *err)
{
    struct stat s;
    unsigned maj, min;
    if (!device_of(volume_dir(t), &s, &maj, &min))
        return cp_err_errno(err, CP_EIO, errno, "target '%s': directory '%s' is gone", t->name,
                            t->dir);
    if (!S_ISDIR(s.st_mode) || maj != v->dev_major || min != v->dev_minor)
        return cp_err_set(err, CP_EIO,
                          "target '%s': '%s' is no longer the directory on the volume first "
                          "examined (removed or unmounted?)",
                          t->name, t->dir);
    return CP_OK;
}

static bool dir_holds(const target_spec_t *t, const volume_info_t *v, const char *path)
{
    (void)t;
    struct stat s;
    unsigned maj, min;
    return device_of(path, &s, &maj, &min) && maj == v->dev_major && min == v->dev_minor;
}

const target_ops_t target_dir_ops = {
    .kind = TARGET_DIR,
    .has_volume = true,
    .cpu_ceiling = false,
    .in_ram = false, /* unless its volume is (volume_info_t.is_ram) */
    .place = NULL,   /* its name */
    .form = "[NAME=]DIR[@RATE]",
    .what = NULL, /* taught with its caps by each command's --help */
    .parse = NULL, /* the command line's [NAME=]DIR[@RATE] */
    .check = dir_check,
    .output_dir = dir_output_dir,
    .identity = dir_identity,
    .inspect = dir_inspect,
    .space = dir_space,
    .open_output = dir_open_output,
    .open_kept = dir_open_kept,
    .open_read = dir_open_read,
    .still_there = dir_still_there,
    .holds = dir_holds,
    .lock = target_lock_directory,
};
