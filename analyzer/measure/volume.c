#include "measure/volume.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

typedef struct fs_magic {
    unsigned long magic;
    const char *name;
} fs_magic_t;

/* Values from linux/magic.h and the filesystems' own sources, spelled out so the table
 * does not depend on which kernel headers are installed. ext2, ext3 and ext4 share one. */
static const fs_magic_t fs_magics[] = {
    {0xEF53, "ext4"},          {0x58465342, "xfs"},      {0x9123683E, "btrfs"},
    {0x01021994, "tmpfs"},     {0x858458f6, "ramfs"},    {0x6969, "nfs"},
    {0x794c7630, "overlay"},   {0x65735546, "fuse"},     {0x4d44, "vfat"},
    {0x2011BAB0, "exfat"},     {0x5346544e, "ntfs"},     {0x7366746e, "ntfs3"},
    {0xF2F52010, "f2fs"},      {0x2fc12fc1, "zfs"},      {0x01021997, "9p"},
    {0xca451a4e, "bcachefs"},  {0x73717368, "squashfs"}, {0xE0F5E1E2, "erofs"},
    {0xFF534D42, "cifs"},      {0xFE534D42, "smb2"},     {0x00c36400, "ceph"},
    {0x52654973, "reiserfs"},  {0x3434, "nilfs2"},       {0x9660, "iso9660"},
    {0x958458f6, "hugetlbfs"}, {0x6e736673, "nsfs"},     {0x7461636f, "ocfs2"},
    {0x47504653, "gpfs"},      {0x0bd00bd0, "lustre"},   {0x5a3c69f0, "aufs"},
};

const char *volume_fs_name(unsigned long magic)
{
    magic &= 0xffffffffUL; /* f_type is signed on some ABIs */
    for (size_t i = 0; i < sizeof fs_magics / sizeof fs_magics[0]; i++)
        if (fs_magics[i].magic == magic)
            return fs_magics[i].name;
    return NULL;
}

bool volume_fs_is_ram(const char *fs_type)
{
    return strcmp(fs_type, "tmpfs") == 0 || strcmp(fs_type, "ramfs") == 0;
}

int volume_space(const char *dir, uint64_t *free_bytes, uint64_t *total_bytes, cp_err_t *err)
{
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0)
        return cp_err_errno(err, CP_EIO, errno, "cannot read the free space of '%s'", dir);
    uint64_t unit = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
    *free_bytes = (uint64_t)sv.f_bavail * unit;
    *total_bytes = (uint64_t)sv.f_blocks * unit;
    return CP_OK;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo octal. */
static void unescape_mount_field(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* True when mount point mp contains path (path is mp itself or lies below it). */
static bool path_under(const char *path, const char *mp)
{
    size_t n = strlen(mp);
    if (strcmp(mp, "/") == 0)
        return true;
    return strncmp(path, mp, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* Finds the mount holding real_dir (device maj:min, longest mount point containing it)
 * and copies its source and mount point. Leaves them empty when nothing matches. */
static void find_mount(const char *real_dir, unsigned maj, unsigned min, volume_info_t *out)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (f == NULL)
        return;
    char *line = NULL;
    size_t cap = 0;
    size_t best_len = 0;
    bool best_dev_match = false;
    while (getline(&line, &cap, f) > 0) {
        /* id parent maj:min root mount_point options [optional...] - fstype source super */
        unsigned m1, m2;
        char mp[PATH_MAX];
        if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &m1, &m2, mp) != 3)
            continue;
        unescape_mount_field(mp);
        char *dash = strstr(line, " - ");
        if (dash == NULL || !path_under(real_dir, mp))
            continue;
        bool dev_match = m1 == maj && m2 == min;
        size_t len = strlen(mp);
        /* Prefer the mount whose device matches the directory's; among those, the deepest. */
        if ((dev_match && !best_dev_match) || (dev_match == best_dev_match && len >= best_len)) {
            char fstype[64], source[VOLUME_SOURCE_MAX];
            if (sscanf(dash + 3, "%63s %255s", fstype, source) != 2)
                continue;
            unescape_mount_field(source);
            snprintf(out->source, sizeof out->source, "%s", source);
            snprintf(out->mount_point, sizeof out->mount_point, "%s", mp);
            best_len = len;
            best_dev_match = dev_match;
        }
    }
    free(line);
    fclose(f);
}

/* Reads a small unsigned number from a sysfs file; false when absent or malformed. */
static bool read_sys_number(const char *path, unsigned long *value)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return false;
    bool ok = fscanf(f, "%lu", value) == 1;
    fclose(f);
    return ok;
}

/* A block device attribute from queue/, looking at the parent device for partitions. */
static bool read_queue_attr(unsigned maj, unsigned min, const char *attr, unsigned long *value)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u/queue/%s", maj, min, attr);
    if (read_sys_number(path, value))
        return true;
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u/../queue/%s", maj, min, attr);
    return read_sys_number(path, value);
}

int volume_inspect(const char *dir, volume_info_t *out, cp_err_t *err)
{
    volume_info_t v;
    memset(&v, 0, sizeof v);
    v.rotational = -1;
    struct statfs sf;
    struct stat st;
    if (statfs(dir, &sf) != 0 || stat(dir, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "cannot examine the volume of '%s'", dir);
    const char *name = volume_fs_name((unsigned long)sf.f_type);
    if (name != NULL)
        snprintf(v.fs_type, sizeof v.fs_type, "%s", name);
    else
        snprintf(v.fs_type, sizeof v.fs_type, "0x%lx", (unsigned long)sf.f_type & 0xffffffffUL);
    v.is_ram = volume_fs_is_ram(v.fs_type);
    int rc = volume_space(dir, &v.free_bytes, &v.total_bytes, err);
    if (rc != CP_OK)
        return rc;
    v.dev_major = major(st.st_dev);
    v.dev_minor = minor(st.st_dev);

    char real_dir[PATH_MAX];
    if (realpath(dir, real_dir) != NULL)
        find_mount(real_dir, v.dev_major, v.dev_minor, &v);
    if (v.dev_major != 0) { /* major 0: no block device (tmpfs, overlay, nfs, btrfs...) */
        unsigned long value;
        if (read_queue_attr(v.dev_major, v.dev_minor, "rotational", &value))
            v.rotational = value ? 1 : 0;
        if (read_queue_attr(v.dev_major, v.dev_minor, "logical_block_size", &value))
            v.logical_block_bytes = (uint32_t)value;
    }
    *out = v;
    return CP_OK;
}
