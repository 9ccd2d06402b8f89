/* sys_linux.c - the Linux implementation of sys.h's files, volumes and machine: /proc and
 * /sys reads, the mount table (libmount), statfs magic numbers, free space (statvfs),
 * O_DIRECT and the page cache, RAM files (memfd), CPUs and memory, the parent-death
 * signal. The threads' accounting is in sys_linux_tasks.c; the portable rules in sys.c. */
#include "common/sys.h"
#include "common/sys_linux_parse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <libmount.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/cleanup.h"

/* ---- /proc and /sys ------------------------------------------------------------------- */

static char proc_root[512] = "/proc";

/* Copies src into dst[cap], truncating; dst is always terminated. */
static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void sys_set_proc_root(const char *dir)
{
    copy_text(proc_root, sizeof proc_root, dir != NULL ? dir : "/proc");
}

const char *sys_proc_root(void) { return proc_root; }

char *sys_read_file(const char *path, size_t max_bytes)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return NULL;
    size_t cap = 8192, len = 0;
    if (max_bytes > 0 && cap > max_bytes + 1)
        cap = max_bytes + 1;
    char *buf = malloc(cap);
    while (buf != NULL) {
        size_t want = cap - len - 1;
        if (max_bytes > 0 && want > max_bytes - len)
            want = max_bytes - len;
        size_t n = want > 0 ? fread(buf + len, 1, want, f) : 0;
        len += n;
        if (n == 0 || (max_bytes > 0 && len >= max_bytes))
            break;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (buf != NULL && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf != NULL)
        buf[len] = '\0';
    return buf;
}

char *sys_read_proc(const char *name, size_t max_bytes)
{
    char path[1024];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", proc_root, name) >= sizeof path)
        return NULL;
    return sys_read_file(path, max_bytes);
}

bool sys_read_number(const char *path, unsigned long *value)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return false;
    bool ok = fscanf(f, "%lu", value) == 1;
    fclose(f);
    return ok;
}

bool sys_block_queue_attr(unsigned major, unsigned minor, const char *attr,
                          unsigned long *value)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u/queue/%s", major, minor, attr);
    if (sys_read_number(path, value))
        return true;
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u/../queue/%s", major, minor, attr);
    return sys_read_number(path, value);
}

/* ---- the mount table ------------------------------------------------------------------ */

static int read_mount_table(struct libmnt_table **out, cp_err_t *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/self/mountinfo", proc_root);
    *out = mnt_new_table_from_file(path);
    if (*out == NULL)
        return cp_err_set(err, CP_EIO, "%s: cannot read the mount table", path);
    return CP_OK;
}

static void fill_mount(struct libmnt_fs *fs, sys_mount_t *out)
{
    dev_t dev = mnt_fs_get_devno(fs);
    const char *type = mnt_fs_get_fstype(fs), *source = mnt_fs_get_source(fs),
               *target = mnt_fs_get_target(fs);
    out->major = major(dev);
    out->minor = minor(dev);
    copy_text(out->fstype, sizeof out->fstype, type ? type : "");
    copy_text(out->source, sizeof out->source, source ? source : "");
    copy_text(out->target, sizeof out->target, target ? target : "");
    char *options = mnt_fs_strdup_options(fs); /* the VFS's and the file system's, merged */
    copy_text(out->options, sizeof out->options, options ? options : "");
    free(options);
}

int sys_mount_by_devno(unsigned major_no, unsigned minor_no, sys_mount_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    struct libmnt_table *tb;
    int rc = read_mount_table(&tb, err);
    if (rc != CP_OK)
        return rc;
    struct libmnt_fs *fs = mnt_table_find_devno(tb, makedev(major_no, minor_no),
                                                MNT_ITER_FORWARD);
    if (fs != NULL)
        fill_mount(fs, out);
    mnt_unref_table(tb);
    if (fs == NULL)
        return cp_err_set(err, CP_EDATA, "mountinfo: no mount with device %u:%u", major_no,
                          minor_no);
    return CP_OK;
}

/* True when mount point mp contains path (path is mp itself or lies below it). */
static bool path_under(const char *path, const char *mp)
{
    size_t n = strlen(mp);
    if (strcmp(mp, "/") == 0)
        return true;
    return strncmp(path, mp, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int sys_mount_of_path(const char *path, sys_mount_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    char real[PATH_MAX];
    struct stat st;
    if (realpath(path, real) == NULL || stat(real, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "cannot resolve '%s'", path);
    struct libmnt_table *tb;
    int rc = read_mount_table(&tb, err);
    if (rc != CP_OK)
        return rc;
    struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
    struct libmnt_fs *fs, *best = NULL;
    size_t best_len = 0;
    bool best_dev_match = false;
    while (it != NULL && mnt_table_next_fs(tb, it, &fs) == 0) {
        const char *mp = mnt_fs_get_target(fs);
        if (mp == NULL || !path_under(real, mp))
            continue;
        bool dev_match = mnt_fs_get_devno(fs) == st.st_dev;
        size_t len = strlen(mp);
        if ((dev_match && !best_dev_match) || (dev_match == best_dev_match && len >= best_len)) {
            best = fs;
            best_len = len;
            best_dev_match = dev_match;
        }
    }
    if (best != NULL)
        fill_mount(best, out);
    mnt_free_iter(it);
    mnt_unref_table(tb);
    if (best == NULL)
        return cp_err_set(err, CP_EDATA, "mountinfo: no mount contains '%s'", real);
    return CP_OK;
}

/* ---- file systems and free space ------------------------------------------------------ */

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

const char *sys_fs_name(unsigned long magic)
{
    magic &= 0xffffffffUL; /* f_type is signed on some ABIs */
    for (size_t i = 0; i < sizeof fs_magics / sizeof fs_magics[0]; i++)
        if (fs_magics[i].magic == magic)
            return fs_magics[i].name;
    return NULL;
}

int sys_fs_type(const char *path, char *out, size_t cap, cp_err_t *err)
{
    struct statfs sf;
    if (statfs(path, &sf) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "cannot examine the volume of '%s'", path);
    const char *name = sys_fs_name((unsigned long)sf.f_type);
    if (name != NULL)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "0x%lx", (unsigned long)sf.f_type & 0xffffffffUL);
    return CP_OK;
}

int sys_space_read(const char *dir, sys_space_t *out, cp_err_t *err)
{
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0) {
        sys_space_make(0, 0, out);
        return cp_err_errno(err, CP_EIO, errno, "cannot read the free space of '%s'", dir);
    }
    uint64_t unit = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
    sys_space_make((uint64_t)sv.f_bavail * unit, (uint64_t)sv.f_blocks * unit, out);
    return CP_OK;
}

/* ---- O_DIRECT and the page cache ------------------------------------------------------ */

size_t sys_direct_alignment(int fd)
{
#ifdef STATX_DIOALIGN
    struct statx stx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
        (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0) {
        size_t align = stx.stx_dio_offset_align;
        if (stx.stx_dio_mem_align > align)
            align = stx.stx_dio_mem_align;
        return align;
    }
#else
    (void)fd;
#endif
    return 0;
}

int sys_cache_evict(int fd, bool *advised)
{
    *advised = false;
    /* Dirty pages cannot be evicted; write them back first. */
    if (sys_datasync(fd) != 0 && errno != EINVAL)
        return errno;
    *advised = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    return 0;
}

double sys_cache_resident_fraction(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0)
        return -1.0;
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return -1.0;
    long page = sysconf(_SC_PAGESIZE);
    size_t pages = (len + (size_t)page - 1) / (size_t)page;
    unsigned char *vec = malloc(pages);
    double fraction = -1.0;
    if (vec != NULL && mincore(map, len, vec) == 0) {
        size_t resident = 0;
        for (size_t i = 0; i < pages; i++)
            resident += vec[i] & 1u;
        fraction = (double)resident / (double)pages;
    }
    free(vec);
    munmap(map, len);
    return fraction;
}

bool sys_mem_available(uint64_t *bytes)
{
    char *text = sys_read_proc("meminfo", 0);
    const char *line = text != NULL ? strstr(text, "MemAvailable:") : NULL;
    unsigned long long kib = 0;
    bool ok = line != NULL && sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    free(text);
    if (ok)
        *bytes = (uint64_t)kib * 1024;
    return ok;
}

int sys_datasync(int fd) { return fdatasync(fd); }

int sys_rename_no_replace(const char *from, const char *to)
{
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0 ? 0 : errno;
}

int sys_rename_exchange(const char *a, const char *b)
{
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0 ? 0 : errno;
}

struct timespec sys_stat_mtime(const struct stat *st) { return st->st_mtim; }

const char *sys_strerror(int errnum, char *buf, size_t cap)
{
    return strerror_r(errnum, buf, cap);
}

int sys_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

void sys_advise_sequential(int fd)
{
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

void sys_std_fds_guard(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        /* The lowest free number: fd itself, as 0..fd-1 are open by now. */
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (got >= 0 && got != fd)
            close(got);
    }
}

bool sys_executable_dir(char *dir, size_t cap)
{
    if (cap < 2)
        return false;
    ssize_t len = readlink("/proc/self/exe", dir, cap - 1);
    if (len <= 0)
        return false;
    dir[len] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        return false;
    *slash = '\0';
    return true;
}

/* ---- memory --------------------------------------------------------------------------- */

#define HUGE_PAGE_BYTES ((size_t)2 << 20)

void *sys_alloc_large(size_t n)
{
    if (n < HUGE_PAGE_BYTES)
        return malloc(n);
    void *buf = NULL;
    if (posix_memalign(&buf, HUGE_PAGE_BYTES, n) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    /* Only the whole huge pages inside the buffer can be backed by one; advice, so a
     * refusal (THP compiled out, EINVAL) changes nothing. */
    (void)madvise(buf, n / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES, MADV_HUGEPAGE);
#endif
    return buf;
}

/* ---- the machine ------------------------------------------------------------------------ */

int sys_online_cpus(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 0;
}

int sys_usable_cpus(void)
{
    cpu_set_t set;
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

uint64_t sys_phys_mem_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

long sys_page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? page : 0;
}

long sys_clock_ticks_per_second(void)
{
    long ticks = sysconf(_SC_CLK_TCK);
    return ticks > 0 ? ticks : 0;
}

long sys_thread_id(void) { return (long)syscall(SYS_gettid); }

/* ---- processes, devices, RAM files ------------------------------------------------------ */

bool sys_die_with_parent(int sig) { return prctl(PR_SET_PDEATHSIG, sig) == 0; }

void sys_devno_split(dev_t dev, unsigned *major_no, unsigned *minor_no)
{
    *major_no = major(dev);
    *minor_no = minor(dev);
}

const char *sys_ram_dir(void) { return "/dev/shm"; }

int sys_direct_open_flag(void) { return O_DIRECT; }

int sys_direct_set(int fd, bool on)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, on ? flags | O_DIRECT : flags & ~O_DIRECT) < 0)
        return errno;
    return 0;
}

int sys_ram_file_create(const char *name, char *path, size_t cap)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0)
        snprintf(path, cap, "/proc/%ld/fd/%d", (long)getpid(), fd);
    return fd;
}

/* ---- CPU time and disk counters --------------------------------------------------------- */

int sys_parse_cpu_stat(const char *text, sys_cpu_times_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    const char *line = text;
    while (line != NULL && *line != '\0') {
        if (strncmp(line, "cpu ", 4) == 0)
            break;
        line = strchr(line, '\n');
        if (line != NULL)
            line++;
    }
    if (line == NULL || *line == '\0')
        return cp_err_set(err, CP_EDATA, "/proc/stat: no aggregate 'cpu' line");

    uint64_t *fields[] = {&out->user, &out->nice, &out->system, &out->idle,
                          &out->iowait, &out->irq, &out->softirq, &out->steal};
    const char *p = line + 4;
    size_t n = 0;
    while (n < sizeof fields / sizeof fields[0]) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p < '0' || *p > '9')
            break;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno != 0)
            return cp_err_set(err, CP_EDATA, "/proc/stat: 'cpu' field %zu out of range", n + 1);
        *fields[n++] = (uint64_t)v;
        p = end;
    }
    if (n < 4)
        return cp_err_set(err, CP_EDATA,
                          "/proc/stat: 'cpu' line has %zu numbers, expected at least 4", n);
    return 0;
}

int sys_parse_diskstats(const char *text, unsigned major, unsigned minor,
                        sys_disk_counters_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    unsigned lineno = 0;
    for (const char *line = text; line != NULL && *line != '\0';) {
        lineno++;
        const char *next = strchr(line, '\n');
        unsigned maj, min;
        char name[64];
        int used = 0;
        if (sscanf(line, "%u %u %63s%n", &maj, &min, name, &used) == 3 && maj == major &&
            min == minor) {
            /* After the name: reads, reads merged, sectors read, ms reading, writes,
             * writes merged, sectors written, ms writing, in flight, io_ticks, ... */
            unsigned long long v[10];
            const char *p = line + used;
            int k = 0;
            for (; k < 10; k++) {
                while (*p == ' ' || *p == '\t')
                    p++;
                if (*p < '0' || *p > '9')
                    break;
                char *end;
                v[k] = strtoull(p, &end, 10);
                p = end;
            }
            if (k < 10)
                return cp_err_set(err, CP_EDATA,
                                  "/proc/diskstats:%u: device %u:%u has %d counters, "
                                  "expected at least 10", lineno, major, minor, k);
            out->major = maj;
            out->minor = min;
            copy_text(out->name, sizeof out->name, name);
            out->sectors_written = (uint64_t)v[6];
            out->io_ticks_ms = (uint64_t)v[9];
            return 0;
        }
        line = next != NULL ? next + 1 : NULL;
    }
    return cp_err_set(err, CP_EDATA, "/proc/diskstats: no line for device %u:%u", major,
                      minor);
}

int sys_cpu_times_read(sys_cpu_times_t *out, cp_err_t *err)
{
    char *text = sys_read_proc("stat", 0);
    if (text == NULL)
        return cp_err_set(err, CP_EIO, "%s/stat: cannot read", sys_proc_root());
    int rc = sys_parse_cpu_stat(text, out, err);
    free(text);
    return rc;
}

int sys_disk_counters_read(unsigned major, unsigned minor, sys_disk_counters_t *out,
                           cp_err_t *err)
{
    char *text = sys_read_proc("diskstats", 0);
    if (text == NULL)
        return cp_err_set(err, CP_EIO, "%s/diskstats: cannot read", sys_proc_root());
    int rc = sys_parse_diskstats(text, major, minor, out, err);
    free(text);
    return rc;
}

bool sys_process_gone(long pid)
{
    return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}
