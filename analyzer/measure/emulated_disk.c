/* emulated_disk.c - the kernel-throttled disk that stands in for a TARGET@RATE
 * (emulated_disk.h): image, mkfs.ext4, loop device, mount, block throttle; and taking
 * them down again, also from a second signal and for killed processes' leftovers. */
#include "measure/emulated_disk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/sys.h"
#include "common/tempfile.h"

#define DISK_PREFIX ".chokepoint-disk."
#define DISK_SLOTS 32
/* The image is sparse: it takes room on the volume only as the disk is written. Its size
 * bounds what one study can keep on the disk at once. */
#define DISK_MAX_BYTES (64ULL << 30)
#define DISK_MIN_BYTES (256ULL << 20)

/* One disk that is up: what a second signal or emulated_disks_down takes down. */
typedef struct disk_slot {
    atomic_bool live;
    unsigned major, minor;
    char image[PATH_MAX];
    char mount_dir[PATH_MAX];
    int image_cleanup; /* cp_cleanup_track slot of the image */
} disk_slot_t;

static disk_slot_t slots[DISK_SLOTS];

/* Takes down slot s: the cap first, so nothing waits on throttled writes, then the mount
 * (the loop device detaches itself with it), its directory and the image.
 * Async-signal-safe. */
static void slot_take_down(disk_slot_t *s)
{
    if (!atomic_exchange(&s->live, false))
        return;
    sys_write_throttle_clear(s->major, s->minor);
    sys_unmount_detached(s->mount_dir);
    rmdir(s->mount_dir);
    unlink(s->image);
}

/* Every disk down (async-signal-safe): in this process from a second signal, which first
 * tells the guardian (sys_guardian_start) not to act, or in the guardian, with the copy of
 * the slots it was forked with, once this process died without taking them down. */
static void all_take_down(void)
{
    sys_guardian_disarm();
    for (size_t i = 0; i < DISK_SLOTS; i++)
        slot_take_down(&slots[i]);
}

static bool any_live(void)
{
    for (size_t i = 0; i < DISK_SLOTS; i++)
        if (atomic_load(&slots[i].live))
            return true;
    return false;
}

static disk_slot_t *free_slot(void)
{
    for (size_t i = 0; i < DISK_SLOTS; i++)
        if (!atomic_load(&slots[i].live))
            return &slots[i];
    return NULL;
}

/* ---- leftovers of killed processes ---- */

/* The process id in a leftover's name ".chokepoint-disk.PID-N[.img]", or 0. */
static long leftover_pid(const char *name)
{
    if (strncmp(name, DISK_PREFIX, strlen(DISK_PREFIX)) != 0)
        return 0;
    char *end;
    long pid = strtol(name + strlen(DISK_PREFIX), &end, 10);
    return pid > 0 && *end == '-' ? pid : 0;
}

/* Removes the disks of dead chokepoint processes from dir (their caps, mounts and images)
 * and their temporary files (tempfile_clean_stale). */
static void remove_leftovers(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    int removed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long pid = leftover_pid(e->d_name);
        if (!sys_process_gone(pid))
            continue;
        char path[PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
            continue;
        size_t len = strlen(path);
        if (len > 4 && strcmp(path + len - 4, ".img") == 0) {
            unsigned maj, min;
            if (sys_loop_of_image(path, &maj, &min))
                sys_write_throttle_clear(maj, min);
            removed += unlink(path) == 0;
        } else {
            /* Still mounted (on another device than dir's): that device is the loop
             * device its cap was set on. */
            struct stat st, parent;
            unsigned maj, min;
            if (stat(path, &st) == 0 && stat(dir, &parent) == 0 && st.st_dev != parent.st_dev) {
                sys_devno_split(st.st_dev, &maj, &min);
                sys_write_throttle_clear(maj, min);
            }
            sys_unmount_detached(path);
            removed += rmdir(path) == 0;
        }
    }
    closedir(d);
    if (removed > 0)
        cp_log_info("removed %d leftover(s) of an emulated disk from '%s'", removed, dir);
    /* Without its disk the target held chokepoint's temporary files itself: a killed
     * process's are removed as they would be when one is written there. */
    tempfile_clean_stale(dir);
}

/* ---- bringing one disk up ---- */

/* The image's size: the directory's usable room, at most DISK_MAX_BYTES, in whole MiB.
 * CP_EIO when under DISK_MIN_BYTES. */
static int image_size(const char *dir, unsigned long long *bytes, cp_err_t *err)
{
    sys_space_t space;
    if (sys_space_read(dir, &space, err) != CP_OK)
        return CP_EIO;
    unsigned long long size = space.usable_bytes < DISK_MAX_BYTES ? space.usable_bytes
                                                                  : DISK_MAX_BYTES;
    size &= ~((1ULL << 20) - 1);
    if (size < DISK_MIN_BYTES)
        return cp_err_set(err, CP_EIO, "%llu MiB free in '%s', under the %llu MiB it needs",
                          size >> 20, dir, DISK_MIN_BYTES >> 20);
    *bytes = size;
    return CP_OK;
}

/* Creates s->image (sparse, bytes long) and an ext4 file system in it. Its inode tables
 * and journal are written now, so no lazy initialisation writes through the cap later. */
static int make_image(disk_slot_t *s, unsigned long long bytes, cp_err_t *err)
{
    int fd = open(s->image, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot create '%s'", s->image);
    s->image_cleanup = cp_cleanup_track(s->image);
    int e = ftruncate(fd, (off_t)bytes) == 0 ? 0 : errno;
    close(fd);
    if (e != 0)
        return cp_err_errno(err, CP_EIO, e, "cannot size '%s'", s->image);
    char *argv[] = {"mkfs.ext4", "-q", "-F", "-m", "0", "-i", "1048576", "-J", "size=16",
                    "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0", "-L",
                    "chokepoint", s->image, NULL};
    return sys_run_quietly(argv, err);
}

/* Brings up a disk capped at cap_bps for target t in slot s. On failure what was made is
 * taken down again and err says why. */
static int disk_up(target_spec_t *t, disk_slot_t *s, size_t index, cp_err_t *err)
{
    if (!SYS_HAVE_LOOP || !SYS_HAVE_BLKIO_THROTTLE)
        return cp_err_set(err, CP_EIO,
                          "this system has no loop devices or block throttle to emulate it with");
    if (geteuid() != 0)
        return cp_err_set(err, CP_EIO,
                          "it needs root (a loop device, a mount and the kernel's block "
                          "throttle)");
    unsigned long long bytes = 0;
    if (image_size(t->dir, &bytes, err) != CP_OK)
        return CP_EIO;
    if ((size_t)snprintf(s->mount_dir, sizeof s->mount_dir, "%s/%s%ld-%zu", t->dir,
                         DISK_PREFIX, (long)getpid(), index) >= sizeof s->mount_dir - 4)
        return cp_err_set(err, CP_EIO, "the directory's path is too long");
    memcpy(s->image, s->mount_dir, strlen(s->mount_dir));
    strcpy(s->image + strlen(s->mount_dir), ".img");
    s->image_cleanup = -1;
    char dev[64];
    bool direct;
    int held = -1;
    int rc = make_image(s, bytes, err);
    if (rc == CP_OK)
        rc = sys_loop_attach(s->image, dev, sizeof dev, &s->major, &s->minor, &direct, &held,
                             err);
    if (rc == CP_OK && mkdir(s->mount_dir, 0755) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot create '%s'", s->mount_dir);
    if (rc == CP_OK)
        atomic_store(&s->live, true); /* from here on, slot_take_down undoes it all */
    if (rc == CP_OK)
        rc = sys_mount_fs(dev, s->mount_dir, "ext4", "", err);
    if (held >= 0)
        close(held); /* the mount holds the device now; unmounting detaches it */
    if (rc == CP_OK)
        rc = sys_write_throttle_set(s->major, s->minor, (uint64_t)t->rate_cap_bps, err);
    if (rc == CP_OK && chmod(s->mount_dir, 01777) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot open '%s' to writers", s->mount_dir);
    if (rc != CP_OK) {
        if (atomic_load(&s->live))
            slot_take_down(s);
        else
            unlink(s->image);
        cp_cleanup_forget(s->image_cleanup);
        return rc;
    }
    snprintf(t->disk_dir, sizeof t->disk_dir, "%s", s->mount_dir);
    cp_log_info("target '%s': an emulated %.0f MB/s disk (ext4 on %s%s, %llu MiB sparse "
                "image in '%s', writes capped by the kernel's block throttle)",
                t->name, t->rate_cap_bps / 1e6, dev, direct ? ", direct I/O" : "",
                bytes >> 20, t->dir);
    return CP_OK;
}

void emulated_disks_up(target_spec_t *targets, size_t n, bool direct_writes, char *why,
                       size_t why_cap)
{
    if (why != NULL && why_cap > 0)
        why[0] = '\0';
    bool registered = false;
    for (size_t i = 0; i < n; i++) {
        target_spec_t *t = &targets[i];
        if (!target_ops_for(t)->has_volume || !(t->rate_cap_bps > 0.0) || target_emulates_disk(t))
            continue;
        if (direct_writes)
            continue; /* O_DIRECT writes meet a cap one by one: pacing them is the physics */
        remove_leftovers(t->dir);
        if (!registered) {
            cp_cleanup_on_abort(all_take_down);
            registered = true;
        }
        disk_slot_t *s = free_slot();
        cp_err_t err = {0};
        int rc = s == NULL ? cp_err_set(&err, CP_EIO, "too many emulated disks at once")
                           : disk_up(t, s, (size_t)(s - slots), &err);
        if (rc == CP_OK)
            continue;
        cp_log_warn("target '%s': no emulated disk (%s); chokepoint paces each write at "
                    "%.0f MB/s instead, as O_DIRECT onto such a disk would go, without a "
                    "page cache or write-back",
                    t->name, err.msg, t->rate_cap_bps / 1e6);
        if (why != NULL && why[0] == '\0')
            snprintf(why, why_cap, "%s", err.msg);
    }
    if (any_live())
        sys_guardian_start(all_take_down); /* a SIGKILL'd process's disks go too */
}

void emulated_disks_down(target_spec_t *targets, size_t n)
{
    for (size_t i = 0; targets != NULL && i < n; i++) {
        target_spec_t *t = &targets[i];
        if (!target_emulates_disk(t))
            continue;
        for (size_t k = 0; k < DISK_SLOTS; k++)
            if (atomic_load(&slots[k].live) && strcmp(slots[k].mount_dir, t->disk_dir) == 0) {
                slot_take_down(&slots[k]);
                cp_cleanup_forget(slots[k].image_cleanup);
            }
        t->disk_dir[0] = '\0';
    }
    if (!any_live())
        sys_guardian_stop();
}
