/* disk_place.h - the private directory an emulated disk (measure/emulated_disk.h) lives in,
 * and taking down what it holds.
 *
 * Root does its disk work in a directory of its own inside the target's directory DIR:
 * DIR/.chokepoint-disk.PID-N, made by mkdirat (never one that was there), mode 0700 and
 * root's, opened once and then worked in through its descriptor only. It holds the image
 * (disk.img, created O_EXCL|O_NOFOLLOW), the mount point (mnt), a lock file (lock, held
 * with flock while the disk is up: a place whose lock can be taken is a dead process's)
 * and a record (record) of what was made: the image's device and inode and the loop
 * device over it. Taking a place down removes only what the record names, each checked
 * first: the throttle rule and the mount only of a loop device the kernel says the
 * recorded image backs, the image only when it is the recorded file. Nothing in DIR is
 * reached by a path another user could swap for a symlink. */
#ifndef CP_MEASURE_DISK_PLACE_H
#define CP_MEASURE_DISK_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/err.h"

#define DISK_PLACE_PREFIX ".chokepoint-disk."
#define DISK_PLACE_IMAGE "disk.img"
#define DISK_PLACE_MOUNT "mnt"

/* What a place holds, as its record says. */
typedef struct disk_record {
    uint64_t image_dev, image_ino; /* the image file; image_ino 0 until it is made */
    bool loop;                     /* a loop device was attached over it: */
    unsigned loop_major, loop_minor;
} disk_record_t;

/* One private directory, open. */
typedef struct disk_place {
    int dir_fd;         /* DIR */
    int fd;             /* the private directory */
    int lock_fd;        /* its lock file, locked */
    dev_t dev;          /* the private directory's device and inode */
    ino_t ino;
    bool capped;        /* this process set a throttle rule on the record's loop device */
    char name[64];      /* its name in DIR */
    disk_record_t record;
} disk_place_t;

#define DISK_PLACE_INIT {.dir_fd = -1, .fd = -1, .lock_fd = -1}

/* Opens the directory dir into *dir_fd and checks it and every directory above it (walked
 * through "..", so the directories that hold it, not the names in the path): none may be
 * writable by its group or by others without the sticky bit, since another user could
 * then rename what root makes there. CP_EUSAGE "'<directory>' is writable by other users
 * without the sticky bit" naming the first such directory, CP_EIO when dir cannot be
 * opened; *dir_fd is -1 then. */
int disk_place_check(const char *dir, int *dir_fd, cp_err_t *err);

/* Makes a new private directory in the directory open as dir_fd (dir names it in
 * messages): DISK_PLACE_PREFIX "<pid>-<n>" for the first n from index that is free (a name
 * already there, a planted symlink included, is passed over, never used), 0700, checked
 * to be this process's own and locked. Takes ownership of dir_fd (closed on failure).
 * CP_EIO saying why on failure, p then holding nothing. */
int disk_place_make(int dir_fd, const char *dir, size_t index, disk_place_t *p, cp_err_t *err);

/* Writes p->record into the place (replacing the one before). CP_EIO on failure. */
int disk_place_record(const disk_place_t *p, cp_err_t *err);

/* Opens name in the directory dir_fd as a place a dead chokepoint left: a directory (not a
 * symlink) on dir_fd's device, this user's, mode 0700, whose lock file is there and can be
 * locked now, with a record. True with p filled (dir_fd is duplicated into it); false,
 * with nothing open, for anything else: a live process's, a planted name, not ours. */
bool disk_place_open_stale(int dir_fd, const char *name, disk_place_t *p);

/* Takes down what p's record names, each only when checked: the throttle rule on the loop
 * device and the mount on mnt when the kernel says the loop device is backed by the
 * recorded image (the rule through sys_write_throttle_clear when p->capped, else
 * sys_write_throttle_remove), then mnt, the image when it is the recorded file, the record
 * and the lock file, then the private directory itself when it is still the one opened;
 * closes p's descriptors and leaves it DISK_PLACE_INIT. Safe on DISK_PLACE_INIT.
 * Async-signal-safe. */
void disk_place_take_down(disk_place_t *p);

#endif
