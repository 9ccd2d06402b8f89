/* volume.h - what a target directory's volume is: filesystem type, device, free space,
 * whether it is RAM or a spinning disk. Everything comes from common/sys (statfs/statvfs,
 * the mount table, /sys/dev/block) and stat; nothing is written. */
#ifndef CP_VOLUME_H
#define CP_VOLUME_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "common/sys.h"

#define VOLUME_FS_NAME_MAX 32
#define VOLUME_SOURCE_MAX 256

typedef struct volume_info {
    char fs_type[VOLUME_FS_NAME_MAX]; /* "ext4", "xfs", "tmpfs", ... or "0x1234abcd" */
    bool is_ram;                      /* tmpfs or ramfs: the data lives in memory */
    uint64_t free_bytes;              /* available to this user (f_bavail * f_frsize) */
    uint64_t total_bytes;             /* f_blocks * f_frsize */
    unsigned dev_major, dev_minor;    /* st_dev of the directory */
    char source[VOLUME_SOURCE_MAX];   /* mount source ("/dev/sda1", "tmpfs"); "" if unknown */
    char mount_point[PATH_MAX];       /* "" if unknown */
    char mount_options[SYS_MOUNT_OPTIONS_MAX]; /* "rw,relatime,..."; "" if unknown */
    int rotational;                   /* 1 spinning, 0 solid state, -1 unknown */
    uint32_t logical_block_bytes;     /* device logical block size; 0 if unknown */
} volume_info_t;

/* Describes the volume holding dir. Fills every field (unknowns as documented above).
 * Returns CP_EUSAGE naming dir when it cannot be examined (missing, no permission). */
int volume_inspect(const char *dir, volume_info_t *out, cp_err_t *err);

/* Current free (available) and total bytes of the volume holding dir (sys_space_read).
 * CP_EIO naming dir on failure. */
int volume_space(const char *dir, uint64_t *free_bytes, uint64_t *total_bytes, cp_err_t *err);

#endif
