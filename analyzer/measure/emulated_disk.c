/* emulated_disk.c - the kernel-throttled disk that stands in for a TARGET@RATE
 * (emulated_disk.h): in a private directory (disk_place.h), image, loop device, mkfs.ext4,
 * mount, block throttle; and taking them down again, also from a second signal, from the
 * guardian of a killed process and for killed processes' leftovers. */
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
#include "measure/disk_place.h"

#define DISK_SLOTS 32
/* The image is sparse: it takes room on the volume only as the disk is written. Its size
 * bounds what one study can keep on the disk at once. */
#define DISK_MAX_BYTES (64ULL << 30)
#define DISK_MIN_BYTES (256ULL << 20)

/* One disk that is up: what a second signal, the guardian or emulated_disks_down takes
 * down. */
typedef struct disk_slot {
    atomic_bool live;
    disk_place_t place;
    char mount_dir[PATH_MAX];
} disk_slot_t;

static disk_slot_t slots[DISK_SLOTS];

/* Takes down slot s (measure/disk_place.h: the cap, the mount, whose loop device detaches
 * itself with it, the image and the private directory). Async-signal-safe. */
static void slot_take_down(disk_slot_t *s)
{
    if (!atomic_exchange(&s->live, false))
        return;
    disk_place_take_down(&s->place);
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

static disk_slot_t *free_slot(void)
{
    for (size_t i = 0; i < DISK_SLOTS; i++)
        if (!atomic_load(&slots[i].live))
            return &slots[i];
    return NULL;
}

/* (Re)starts the guardian over the disks up now, with the descriptors their take-down
 * works through; stops it when none is. */
static void guard_live_disks(void)
{
    int keep[DISK_SLOTS * 3];
    size_t n = 0;
    for (size_t i = 0; i < DISK_SLOTS; i++) {
        if (!atomic_load(&slots[i].live))
            continue;
        keep[n++] = slots[i].place.dir_fd;
        keep[n++] = slots[i].place.fd;
        keep[n++] = slots[i].place.lock_fd;
    }
    if (n > 0)
        sys_guardian_start(all_take_down, keep, n); /* a SIGKILL'd process's disks go too */
    else
        sys_guardian_stop();
}

/* ---- leftovers of killed processes ---- */

/* Removes from dir the disks of dead chokepoint processes (a private directory whose lock
 * can be taken: its record's cap, mount and image; measure/disk_place.h), the block
 * throttle's rules on loop devices no file backs, and dir's temporary files of dead
 * processes (tempfile_clean_stale). A symlink, a directory that is not root's own 0700
 * one, or one whose lock is held is left alone. */
static void remove_leftovers(const char *dir)
{
    int unbound = sys_write_throttle_clear_unbound();
    if (unbound > 0)
        cp_log_info("removed %d block throttle rule(s) left on loop devices no file backs",
                    unbound);
    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dir_fd >= 0 ? fdopendir(dir_fd) : NULL;
    if (d == NULL) {
        if (dir_fd >= 0)
            close(dir_fd);
        return;
    }
    int removed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        disk_place_t place;
        if (!disk_place_open_stale(dirfd(d), e->d_name, &place))
            continue;
        disk_place_take_down(&place);
        struct stat st;
        removed += fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0;
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

/* Creates the image in p (sparse, bytes long, O_EXCL|O_NOFOLLOW) and records it: its
 * descriptor, or -1 with err set. */
static int make_image(disk_place_t *p, unsigned long long bytes, cp_err_t *err)
{
    int fd = openat(p->fd, DISK_PLACE_IMAGE,
                    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        cp_err_errno(err, CP_EIO, errno, "cannot create the image in '%s'", p->name);
        return -1;
    }
    struct stat st;
    int rc = CP_OK;
    if (fstat(fd, &st) != 0) {
        rc = cp_err_errno(err, CP_EIO, errno, "cannot examine the image in '%s'", p->name);
    } else {
        p->record.image_dev = (uint64_t)st.st_dev;
        p->record.image_ino = (uint64_t)st.st_ino;
        rc = disk_place_record(p, err);
    }
    if (rc == CP_OK && ftruncate(fd, (off_t)bytes) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot size the image in '%s'", p->name);
    if (rc != CP_OK) {
        close(fd);
        return -1;
    }
    return fd;
}

/* An ext4 file system on the loop device dev (not on the image's name: the device is
 * bound to the image's descriptor). Its inode tables and journal are written now, so no
 * lazy initialisation writes through the cap later. */
static int make_file_system(const char *dev, cp_err_t *err)
{
    char device[64];
    snprintf(device, sizeof device, "%s", dev);
    char *argv[] = {"mkfs.ext4", "-q", "-F", "-m", "0", "-i", "1048576", "-J", "size=16",
                    "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0", "-L",
                    "chokepoint", device, NULL};
    return sys_run_quietly(argv, err);
}

/* Opens the root of the file system mounted on p's mount point to writers (mode 01777,
 * through a descriptor checked to be on loop device maj:min). */
static int open_to_writers(const disk_place_t *p, cp_err_t *err)
{
    int fd = openat(p->fd, DISK_PLACE_MOUNT, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    unsigned maj = 0, min = 0;
    if (fd >= 0 && fstat(fd, &st) == 0)
        sys_devno_split(st.st_dev, &maj, &min);
    int rc = fd >= 0 && maj == p->record.loop_major && min == p->record.loop_minor &&
                     fchmod(fd, 01777) == 0
                 ? CP_OK
                 : cp_err_errno(err, CP_EIO, errno, "cannot open the disk in '%s' to writers",
                                p->name);
    if (fd >= 0)
        close(fd);
    return rc;
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
    int dir_fd;
    if (disk_place_check(t->dir, &dir_fd, err) != CP_OK)
        return CP_EIO;
    unsigned long long bytes = 0;
    if (image_size(t->dir, &bytes, err) != CP_OK) {
        close(dir_fd);
        return CP_EIO;
    }
    disk_place_t *p = &s->place;
    if (disk_place_make(dir_fd, t->dir, index, p, err) != CP_OK)
        return CP_EIO;
    if ((size_t)snprintf(s->mount_dir, sizeof s->mount_dir, "%s/%s/%s", t->dir, p->name,
                         DISK_PLACE_MOUNT) >= sizeof s->mount_dir) {
        disk_place_take_down(p);
        return cp_err_set(err, CP_EIO, "the directory's path is too long");
    }
    atomic_store(&s->live, true); /* from here on, slot_take_down undoes it all */
    char dev[64];
    bool direct;
    int held = -1;
    int image_fd = make_image(p, bytes, err);
    int rc = image_fd >= 0 ? CP_OK : CP_EIO;
    if (rc == CP_OK)
        rc = sys_loop_attach(image_fd, p->name, dev, sizeof dev, &p->record.loop_major,
                             &p->record.loop_minor, &direct, &held, err);
    if (image_fd >= 0)
        close(image_fd); /* the loop device holds the image now */
    if (rc == CP_OK) {
        p->record.loop = true;
        rc = disk_place_record(p, err);
    }
    if (rc == CP_OK)
        rc = make_file_system(dev, err);
    if (rc == CP_OK && mkdirat(p->fd, DISK_PLACE_MOUNT, 0755) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot create the mount point in '%s'", p->name);
    if (rc == CP_OK)
        rc = sys_mount_fs_at(dev, p->fd, DISK_PLACE_MOUNT, "ext4", "", err);
    if (held >= 0)
        close(held); /* the mount holds the device now; unmounting detaches it */
    if (rc == CP_OK) {
        rc = sys_write_throttle_set(p->record.loop_major, p->record.loop_minor,
                                    (uint64_t)t->rate_cap_bps, err);
        p->capped = rc == CP_OK;
    }
    if (rc == CP_OK)
        rc = open_to_writers(p, err);
    if (rc != CP_OK) {
        slot_take_down(s);
        return rc;
    }
    snprintf(t->disk_dir, sizeof t->disk_dir, "%s", s->mount_dir);
    cp_log_info("target '%s': an emulated %.0f MB/s disk (ext4 on %s%s, %llu MiB sparse "
                "image in '%s/%s', writes capped by the kernel's block throttle)",
                t->name, t->rate_cap_bps / 1e6, dev, direct ? ", direct I/O" : "",
                bytes >> 20, t->dir, p->name);
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
    guard_live_disks();
}

void emulated_disks_down(target_spec_t *targets, size_t n)
{
    for (size_t i = 0; targets != NULL && i < n; i++) {
        target_spec_t *t = &targets[i];
        if (!target_emulates_disk(t))
            continue;
        for (size_t k = 0; k < DISK_SLOTS; k++)
            if (atomic_load(&slots[k].live) && strcmp(slots[k].mount_dir, t->disk_dir) == 0)
                slot_take_down(&slots[k]);
        t->disk_dir[0] = '\0';
    }
    guard_live_disks(); /* the guardian's copy must not hold disks that are down */
}
