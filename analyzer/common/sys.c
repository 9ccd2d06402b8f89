/* sys.c - the Linux implementation of sys.h. */
#include "common/sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
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

bool sys_fs_is_ram(const char *fs_type)
{
    return strcmp(fs_type, "tmpfs") == 0 || strcmp(fs_type, "ramfs") == 0;
}

uint64_t sys_space_margin(uint64_t total_bytes)
{
    uint64_t margin = total_bytes / 100u * SYS_SPACE_MARGIN_PERCENT;
    return margin < SYS_SPACE_MARGIN_MIN_BYTES ? SYS_SPACE_MARGIN_MIN_BYTES : margin;
}

void sys_space_make(uint64_t free_bytes, uint64_t total_bytes, sys_space_t *out)
{
    out->free_bytes = free_bytes;
    out->total_bytes = total_bytes;
    out->margin_bytes = sys_space_margin(total_bytes);
    out->usable_bytes = free_bytes > out->margin_bytes ? free_bytes - out->margin_bytes : 0;
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

bool sys_space_fits(const sys_space_t *space, uint64_t bytes)
{
    return bytes <= space->usable_bytes;
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
    if (fdatasync(fd) != 0 && errno != EINVAL)
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

/* ---- where time went: pressure stalls and run-queue delay ------------------------------ */

bool sys_parse_pressure(const char *text, double *some_us, double *full_us)
{
    double unused_full;
    if (full_us == NULL)
        full_us = &unused_full;
    *some_us = NAN;
    *full_us = NAN;
    for (const char *line = text; line != NULL && *line != '\0';) {
        const char *total = strstr(line, "total=");
        const char *end = strchr(line, '\n');
        if (total != NULL && (end == NULL || total < end)) {
            char *stop;
            double us = strtod(total + 6, &stop);
            if (stop != total + 6) {
                if (strncmp(line, "some ", 5) == 0)
                    *some_us = us;
                else if (strncmp(line, "full ", 5) == 0)
                    *full_us = us;
            }
        }
        line = end != NULL ? end + 1 : NULL;
    }
    return !isnan(*some_us);
}

bool sys_pressure_read(const char *resource, double *some_us, double *full_us)
{
    char name[64];
    snprintf(name, sizeof name, "pressure/%s", resource);
    char *text = sys_read_proc(name, 0);
    bool ok = text != NULL && sys_parse_pressure(text, some_us, full_us);
    if (text == NULL) {
        *some_us = NAN;
        if (full_us != NULL)
            *full_us = NAN;
    }
    free(text);
    return ok;
}

bool sys_parse_schedstat(const char *text, uint64_t *on_cpu_ns, uint64_t *wait_ns)
{
    unsigned long long on_cpu, wait;
    if (text == NULL || sscanf(text, "%llu %llu", &on_cpu, &wait) != 2)
        return false;
    if (on_cpu_ns != NULL)
        *on_cpu_ns = on_cpu;
    *wait_ns = wait;
    return true;
}

bool sys_parse_task_stat(const char *text, uint64_t *blkio_ticks)
{
    const char *p = text != NULL ? strrchr(text, ')') : NULL;
    if (p == NULL)
        return false;
    p++;
    /* After the name come field 3 (state) onwards: field 42 is the 40th of them. */
    for (int field = 3; field < 42; field++) {
        while (*p == ' ')
            p++;
        if (*p == '\0' || *p == '\n')
            return false;
        while (*p != ' ' && *p != '\0' && *p != '\n')
            p++;
    }
    char *end;
    errno = 0;
    unsigned long long ticks = strtoull(p, &end, 10);
    if (end == p || errno != 0 || (*end != ' ' && *end != '\n' && *end != '\0'))
        return false;
    *blkio_ticks = ticks;
    return true;
}

/* Reads one thread's accounting from "dir/TID/"; false when the thread is gone. */
static bool read_task_account(const char *dir, const char *tid_name, sys_task_account_t *out)
{
    char path[900];
    snprintf(path, sizeof path, "%s/%.255s/schedstat", dir, tid_name);
    char *text = sys_read_file(path, 256);
    bool ok = text != NULL && sys_parse_schedstat(text, &out->run_ns, &out->wait_ns);
    free(text);
    if (!ok)
        return false;
    snprintf(path, sizeof path, "%s/%.255s/stat", dir, tid_name);
    text = sys_read_file(path, 2048);
    ok = text != NULL && sys_parse_task_stat(text, &out->blkio_ticks);
    free(text);
    return ok;
}

int sys_task_accounts(long pid, sys_task_account_t *out, size_t cap)
{
    char dir[600];
    if (pid == 0)
        snprintf(dir, sizeof dir, "%s/self/task", sys_proc_root());
    else
        snprintf(dir, sizeof dir, "%s/%ld/task", sys_proc_root(), pid);
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    bool any_tried = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && (size_t)n < cap) {
        char *end;
        long tid = strtol(e->d_name, &end, 10);
        if (e->d_name[0] == '.' || *end != '\0' || tid <= 0)
            continue;
        if (read_task_account(dir, e->d_name, &out[n])) {
            out[n].tid = tid;
            out[n].tgid = pid == 0 ? (long)getpid() : pid;
            n++;
        } else if (!any_tried) {
            closedir(d);
            return -1; /* no schedstat at all (CONFIG_SCHED_INFO off), or the process ended */
        }
        any_tried = true;
    }
    closedir(d);
    return n;
}

/* Appends the children named in each thread's "<proc root>/PID/task/TID/children" to
 * out[n..cap) when not there already; returns the new count. */
static int append_children(long pid, long *out, int n, int cap)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%ld/task", sys_proc_root(), pid);
    DIR *d = opendir(dir);
    if (d == NULL)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[900];
        snprintf(path, sizeof path, "%s/%s/children", dir, e->d_name);
        char *text = sys_read_file(path, 1 << 16);
        for (char *s = text; s != NULL && *s != '\0';) {
            char *end;
            long child = strtol(s, &end, 10);
            if (end == s)
                break;
            s = end;
            bool known = false;
            for (int i = 0; i < n && !known; i++)
                known = out[i] == child;
            if (!known && child > 0 && n < cap)
                out[n++] = child;
        }
        free(text);
    }
    closedir(d);
    return n;
}

double sys_thread_system_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return NAN;
    return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int sys_process_tree(long root, long *out, int cap)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%ld/task", sys_proc_root(), root);
    if (root <= 0 || cap < 1 || access(dir, F_OK) != 0)
        return -1;
    int n = 0;
    out[n++] = root;
    for (int i = 0; i < n; i++) /* breadth first: out[] grows as children are found */
        n = append_children(out[i], out, n, cap);
    return n;
}

#define DELAYACCT_SYSCTL "/proc/sys/kernel/task_delayacct"
/* Where the holders of a raised setting are counted (common/held_setting.h): a RAM file
 * system, so a record never outlives a reboot that reset the setting. */
#define CP_STATE_DIR "/run/chokepoint"

bool sys_delayacct_is_on(void)
{
    char *text = sys_read_file(DELAYACCT_SYSCTL, 32);
    bool on = text != NULL && text[0] == '1';
    free(text);
    return on;
}

bool sys_delayacct_enable(void)
{
    static int state = -1; /* -1 not tried; 0 off; 1 on */
    static held_setting_t held = HELD_SETTING_INIT;
    if (state >= 0)
        return state == 1;
    state = 0;
    if (access(DELAYACCT_SYSCTL, F_OK) != 0)
        return false; /* no delay accounting in this kernel */
    /* Held, not just set: another chokepoint that ends first must not turn it off under
     * this one, and the last to end puts the original back (also one a killed process
     * left raised). Not root: the machine-wide pressure figures stand in. */
    if (held_setting_raise(&held, CP_STATE_DIR, "task_delayacct", DELAYACCT_SYSCTL, "1\n") == 1) {
        if (cp_cleanup_remember_setting(&held) != 0)
            held_setting_release(&held); /* cannot be put back at exit: leave it as found */
        else
            state = 1;
    }
    if (state == 0 && sys_delayacct_is_on())
        state = 1; /* someone else turned it on */
    return state == 1;
}

/* ---- write-back throttling (tracefs) ---------------------------------------------------- */

/* The thread-group id of a trace line recorded with record-tgid: the number in the
 * parentheses before the CPU ("zstd-4242 (4240) [001] ..."); -1 when there is none. */
static long trace_line_tgid(const char *line, const char *event)
{
    const char *cpu = NULL;
    for (const char *p = line; p < event; p++)
        if (*p == '[')
            cpu = p;
    const char *open = NULL;
    for (const char *p = line; cpu != NULL && p < cpu; p++)
        if (*p == '(')
            open = p;
    if (open == NULL)
        return -1;
    char *end;
    long tgid = strtol(open + 1, &end, 10);
    while (*end == ' ')
        end++;
    return *end == ')' && tgid > 0 ? tgid : -1;
}

double sys_parse_dirty_pauses(const char *text, const long *tgids, size_t n)
{
    double ms = 0;
    for (const char *line = text; line != NULL && *line != '\0';) {
        const char *eol = strchr(line, '\n');
        size_t len = eol != NULL ? (size_t)(eol - line) : strlen(line);
        char buf[1024];
        if (line[0] != '#' && len < sizeof buf) {
            memcpy(buf, line, len);
            buf[len] = '\0';
            const char *event = strstr(buf, " balance_dirty_pages: ");
            const char *pause = event != NULL ? strstr(event, " pause=") : NULL;
            long tgid = event != NULL ? trace_line_tgid(buf, event) : -1;
            bool ours = false;
            for (size_t i = 0; i < n && tgid > 0; i++)
                ours = ours || tgids[i] == tgid;
            long value;
            if (ours && pause != NULL && sscanf(pause, " pause=%ld", &value) == 1 && value > 0)
                ms += (double)value;
        }
        line = eol != NULL ? eol + 1 : NULL;
    }
    return ms / 1000.0;
}

struct sys_dirty_trace {
    char dir[128]; /* the instance */
};

static const char *tracefs_root(void)
{
    static const char *roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        char path[160];
        snprintf(path, sizeof path, "%s/events/writeback/balance_dirty_pages", roots[i]);
        if (access(path, F_OK) == 0)
            return roots[i];
    }
    return NULL;
}

static bool write_text(const char *dir, const char *name, const char *text)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len;
    return close(fd) == 0 && ok;
}

/* Removes the instances of processes that no longer exist (killed before they could). */
static void remove_stale_instances(const char *root)
{
    char dir[200];
    snprintf(dir, sizeof dir, "%s/instances", root);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        long pid;
        if (sscanf(e->d_name, "chokepoint-%ld", &pid) == 1 && pid > 0 && kill(pid, 0) != 0 &&
            errno == ESRCH) {
            char path[480];
            snprintf(path, sizeof path, "%s/%.255s", dir, e->d_name);
            rmdir(path);
        }
    }
    if (d != NULL)
        closedir(d);
}

sys_dirty_trace_t *sys_dirty_trace_start(void)
{
    const char *root = tracefs_root();
    if (root == NULL || access(root, W_OK) != 0)
        return NULL;
    remove_stale_instances(root);
    sys_dirty_trace_t *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    snprintf(t->dir, sizeof t->dir, "%s/instances/chokepoint-%ld", root, (long)getpid());
    if (mkdir(t->dir, 0700) != 0 && errno != EEXIST) {
        free(t);
        return NULL;
    }
    if (!write_text(t->dir, "trace", "") || !write_text(t->dir, "options/record-tgid", "1") ||
        !write_text(t->dir, "events/writeback/balance_dirty_pages/enable", "1")) {
        rmdir(t->dir);
        free(t);
        return NULL;
    }
    return t;
}

/* True when any CPU's buffer of the instance lost events. */
static bool trace_overran(const char *dir)
{
    long cpus = sysconf(_SC_NPROCESSORS_CONF);
    for (long cpu = 0; cpu < cpus; cpu++) {
        char path[200];
        snprintf(path, sizeof path, "%s/per_cpu/cpu%ld/stats", dir, cpu);
        char *text = sys_read_file(path, 4096);
        const char *overrun = text != NULL ? strstr(text, "overrun:") : NULL;
        long lost = 0;
        if (overrun != NULL)
            sscanf(overrun, "overrun: %ld", &lost);
        free(text);
        if (lost > 0)
            return true;
    }
    return false;
}

double sys_dirty_trace_stop(sys_dirty_trace_t *t, const long *tgids, size_t n)
{
    if (t == NULL)
        return NAN;
    write_text(t->dir, "events/writeback/balance_dirty_pages/enable", "0");
    char path[200];
    snprintf(path, sizeof path, "%s/trace", t->dir);
    char *text = sys_read_file(path, 0);
    double pause_s = text != NULL && !trace_overran(t->dir)
                         ? sys_parse_dirty_pauses(text, tgids, n) : NAN;
    free(text);
    rmdir(t->dir);
    free(t);
    return pause_s;
}
