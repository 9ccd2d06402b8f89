/* volume.c - describing a target directory's volume (volume.h) from common/sys: file
 * system, device numbers, mount, free space, rotational or not. */
#include "measure/volume.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/sys.h"

int volume_space(const char *dir, uint64_t *free_bytes, uint64_t *total_bytes, cp_err_t *err)
{
    sys_space_t space;
    int rc = sys_space_read(dir, &space, err);
    *free_bytes = space.free_bytes;
    *total_bytes = space.total_bytes;
    return rc;
}

int volume_inspect(const char *dir, volume_info_t *out, cp_err_t *err)
{
    volume_info_t v;
    memset(&v, 0, sizeof v);
    v.rotational = -1;
    struct stat st;
    int rc = sys_fs_type(dir, v.fs_type, sizeof v.fs_type, err);
    if (rc != CP_OK)
        return rc;
    if (stat(dir, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "cannot examine the volume of '%s'", dir);
    v.is_ram = sys_fs_is_ram(v.fs_type);
    rc = volume_space(dir, &v.free_bytes, &v.total_bytes, err);
    if (rc != CP_OK)
        return rc;
    sys_devno_split(st.st_dev, &v.dev_major, &v.dev_minor);

    sys_mount_t m;
    if (sys_mount_of_path(dir, &m, NULL) == CP_OK) {
        snprintf(v.source, sizeof v.source, "%.*s", (int)sizeof v.source - 1, m.source);
        snprintf(v.mount_point, sizeof v.mount_point, "%s", m.target);
        snprintf(v.mount_options, sizeof v.mount_options, "%s", m.options);
    }
    sys_volume_queue(v.dev_major, v.dev_minor, &v.rotational, &v.logical_block_bytes);
    *out = v;
    return CP_OK;
}
