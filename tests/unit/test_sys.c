/* test_sys.c - the system layer through its header: the free-space margin arithmetic, file
 * system names, the mount table (libmount) read from a fake /proc, escapes included, the
 * pressure-stall and schedstat readers on captured text, and the renames in one step, a
 * stat's mtime and an error's text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/sys.h"
#include "common/sys_linux_parse.h"

#define MiB (1ull << 20)

static void test_margin_is_64mib_or_one_percent(void **state)
{
    (void)state;
    assert_int_equal(sys_space_margin(0), 64 * MiB);
    assert_int_equal(sys_space_margin(200 * MiB), 64 * MiB);
    /* 1% of 6400 MiB is exactly the floor; above it the percentage wins. */
    assert_int_equal(sys_space_margin(6400 * MiB), 64 * MiB);
    assert_int_equal(sys_space_margin(100000 * MiB), 1000 * MiB);
}

static void test_usable_space_keeps_the_margin(void **state)
{
    (void)state;
    sys_space_t s;
    /* Small volume: the 64 MiB floor applies. */
    sys_space_make(100 * MiB, 200 * MiB, &s);
    assert_int_equal(s.margin_bytes, 64 * MiB);
    assert_int_equal(s.usable_bytes, 36 * MiB);
    assert_true(sys_space_fits(&s, 36 * MiB));
    assert_false(sys_space_fits(&s, 36 * MiB + 1));
    sys_space_make(64 * MiB, 200 * MiB, &s);
    assert_int_equal(s.usable_bytes, 0);
    assert_true(sys_space_fits(&s, 0));
    assert_false(sys_space_fits(&s, 1));
    sys_space_make(10 * MiB, 200 * MiB, &s);
    assert_int_equal(s.usable_bytes, 0);
    /* Large volume: 1% of the total. */
    sys_space_make(50000 * MiB, 100000 * MiB, &s);
    assert_int_equal(s.usable_bytes, 49000 * MiB);
}

static void test_space_of_the_working_directory(void **state)
{
    (void)state;
    sys_space_t s;
    cp_err_t err = {0};
    assert_int_equal(sys_space_read(".", &s, &err), CP_OK);
    assert_true(s.free_bytes <= s.total_bytes);
    assert_int_equal(s.margin_bytes, sys_space_margin(s.total_bytes));
    assert_int_equal(sys_space_read("no-such-dir-for-test-sys", &s, &err), CP_EIO);
    assert_non_null(strstr(err.msg, "no-such-dir-for-test-sys"));
}

static void test_fs_names(void **state)
{
    (void)state;
    assert_string_equal(sys_fs_name(0xEF53), "ext4");
    assert_string_equal(sys_fs_name(0x01021994), "tmpfs");
    assert_string_equal(sys_fs_name(0x58465342), "xfs");
    assert_string_equal(sys_fs_name(0x9123683E), "btrfs");
    assert_null(sys_fs_name(0x12345678));
    assert_true(sys_fs_is_ram("tmpfs"));
    assert_true(sys_fs_is_ram("ramfs"));
    assert_false(sys_fs_is_ram("ext4"));
}

/* ---- the mount table from a fake /proc ------------------------------------------------ */

typedef struct fake_proc {
    char root[64];
    char self[128];
    char mountinfo[192];
} fake_proc_t;

static void fake_proc_make(fake_proc_t *f, const char *text)
{
    snprintf(f->root, sizeof f->root, "test-sys-proc-XXXXXX");
    assert_non_null(mkdtemp(f->root));
    snprintf(f->self, sizeof f->self, "%s/self", f->root);
    assert_int_equal(mkdir(f->self, 0755), 0);
    snprintf(f->mountinfo, sizeof f->mountinfo, "%s/mountinfo", f->self);
    FILE *out = fopen(f->mountinfo, "w");
    assert_non_null(out);
    assert_true(fputs(text, out) >= 0);
    assert_int_equal(fclose(out), 0);
    sys_set_proc_root(f->root);
}

static void fake_proc_remove(fake_proc_t *f)
{
    sys_set_proc_root(NULL);
    unlink(f->mountinfo);
    rmdir(f->self);
    rmdir(f->root);
}

static const char mountinfo[] =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24683656k\n"
    "31 27 0:35 / /srv rw,relatime shared:1 master:2 - btrfs /dev/sdb1 rw,ssd\n"
    "32 27 0:36 / /mnt/my\\040disk rw - ext4 /dev/my\\040disk rw\n"
    "33 27 0:37 / /merged rw - overlay overlay rw,lowerdir=/a\n"
    "34 27 0:38 / /mnt/back\\134slash\\011tab rw - ext4 /dev/sdc1 rw\n";

static void test_mount_by_devno_decodes_escapes(void **state)
{
    (void)state;
    fake_proc_t f;
    fake_proc_make(&f, mountinfo);
    sys_mount_t m;
    cp_err_t err = {0};
    assert_int_equal(sys_mount_by_devno(0, 35, &m, &err), CP_OK);
    assert_string_equal(m.fstype, "btrfs");
    assert_string_equal(m.source, "/dev/sdb1");
    assert_string_equal(m.target, "/srv");
    assert_string_equal(m.options, "rw,relatime,ssd"); /* the mount's and the fs's */
    assert_int_equal(sys_mount_by_devno(0, 36, &m, &err), CP_OK);
    assert_string_equal(m.source, "/dev/my disk");
    assert_string_equal(m.target, "/mnt/my disk");
    assert_int_equal(sys_mount_by_devno(0, 38, &m, &err), CP_OK);
    assert_string_equal(m.target, "/mnt/back\\slash\ttab");
    assert_int_equal(sys_mount_by_devno(0, 23, &m, &err), CP_OK);
    assert_string_equal(m.fstype, "tmpfs");
    assert_int_equal(sys_mount_by_devno(0, 99, &m, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "0:99"));
    fake_proc_remove(&f);
}

/* Writes path into out as mountinfo spells it: space, tab, newline, backslash as \ooo. */
static void mountinfo_escape(const char *path, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = path; *p && o + 5 < cap; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\')
            o += (size_t)snprintf(out + o, cap - o, "\\%03o", (unsigned char)*p);
        else
            out[o++] = *p;
    }
    out[o] = '\0';
}

static void test_mount_of_a_path_with_a_space(void **state)
{
    (void)state;
    char base[] = "test-sys-mnt-XXXXXX";
    assert_non_null(mkdtemp(base));
    char dir[PATH_MAX], inner[PATH_MAX + 8], real[PATH_MAX], escaped[2 * PATH_MAX];
    snprintf(dir, sizeof dir, "%s/my disk", base);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(inner, sizeof inner, "%s/inner", dir);
    assert_int_equal(mkdir(inner, 0755), 0);
    assert_non_null(realpath(dir, real));
    mountinfo_escape(real, escaped, sizeof escaped);

    /* "/" and the directory with a space: the deeper one holds inner/. */
    char *text = NULL;
    assert_true(asprintf(&text,
                         "1 0 0:90 / / rw - ext4 /dev/root rw\n"
                         "2 1 0:91 / %s rw - xfs /dev/my\\040disk rw\n",
                         escaped) > 0);
    fake_proc_t f;
    fake_proc_make(&f, text);
    free(text);
    sys_mount_t m;
    cp_err_t err = {0};
    assert_int_equal(sys_mount_of_path(inner, &m, &err), CP_OK);
    assert_string_equal(m.target, real);
    assert_string_equal(m.source, "/dev/my disk");
    assert_string_equal(m.fstype, "xfs");
    /* Outside it: the root mount. */
    assert_int_equal(sys_mount_of_path(base, &m, &err), CP_OK);
    assert_string_equal(m.target, "/");
    assert_int_equal(sys_mount_of_path("no-such-dir-for-test-sys", &m, &err), CP_EUSAGE);
    fake_proc_remove(&f);
    rmdir(inner);
    rmdir(dir);
    rmdir(base);
}

static void test_mount_of_the_live_working_directory(void **state)
{
    (void)state;
    sys_mount_t m;
    cp_err_t err = {0};
    if (access("/proc/self/mountinfo", R_OK) != 0)
        skip(); /* no /proc in this sandbox */
    assert_int_equal(sys_mount_of_path(".", &m, &err), CP_OK);
    assert_true(m.target[0] == '/');
    assert_true(m.fstype[0] != '\0');
}

static void test_read_proc_file_whole_and_capped(void **state)
{
    (void)state;
    fake_proc_t f;
    fake_proc_make(&f, mountinfo);
    char *all = sys_read_proc("self/mountinfo", 0);
    assert_non_null(all);
    assert_string_equal(all, mountinfo);
    char *head = sys_read_proc("self/mountinfo", 10);
    assert_non_null(head);
    assert_int_equal(strlen(head), 10);
    assert_null(sys_read_proc("no-such-file", 0));
    free(all);
    free(head);
    fake_proc_remove(&f);
}

/* Captured from Linux 6.18 (io, cpu with its "full" line) and 5.10 (cpu without one). */
static const char pressure_io[] = "some avg10=0.00 avg60=0.12 avg300=0.05 total=8123456\n"
                                  "full avg10=0.00 avg60=0.10 avg300=0.04 total=7000001\n";
static const char pressure_cpu_old[] = "some avg10=1.25 avg60=0.80 avg300=0.31 total=42\n";

static void test_pressure_totals(void **state)
{
    (void)state;
    double some, full;
    assert_true(sys_parse_pressure(pressure_io, &some, &full));
    assert_true(some == 8123456.0 && full == 7000001.0);
    assert_true(sys_parse_pressure(pressure_io, &some, NULL)); /* full not wanted */
    assert_true(some == 8123456.0);
    assert_true(sys_parse_pressure(pressure_cpu_old, &some, &full));
    assert_true(some == 42.0 && isnan(full));
    assert_false(sys_parse_pressure("full avg10=0.00 total=5\n", &some, &full));
    assert_false(sys_parse_pressure("", &some, &full));
}

static void test_schedstat_wait(void **state)
{
    (void)state;
    uint64_t on_cpu = 0, wait = 0;
    assert_true(sys_parse_schedstat("2417396811 310229743 5531\n", &on_cpu, &wait));
    assert_int_equal(on_cpu, 2417396811ull);
    assert_int_equal(wait, 310229743ull);
    assert_false(sys_parse_schedstat("2417396811\n", NULL, &wait));
    assert_false(sys_parse_schedstat(NULL, NULL, &wait));
}

/* A task's stat line as Linux 6.18 prints it, for a thread named "zstd (w) 1": the name's
 * spaces and parentheses must not shift the fields; field 42 (delayacct_blkio_ticks) is
 * 37. */
static const char task_stat[] =
    "4242 (zstd (w) 1) S 4240 4240 31 34816 4240 4194368 2101 0 0 0 512 96 0 0 20 0 4 0 "
    "2201443 1124073472 25432 18446744073709551615 1 1 0 0 0 0 0 0 16386 0 0 0 -1 1 0 0 "
    "37 0 0 0 0 0 0 0 0 0 0\n";

static void test_task_stat_blkio_ticks(void **state)
{
    (void)state;
    uint64_t ticks = 0;
    assert_true(sys_parse_task_stat(task_stat, &ticks));
    assert_int_equal(ticks, 37ull);
    /* cut after field 41: too short */
    assert_false(sys_parse_task_stat("1 (a) S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
                                     "0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", &ticks));
    assert_false(sys_parse_task_stat("no parentheses", &ticks));
    assert_false(sys_parse_task_stat(NULL, &ticks));
}

/* Captured from a 6.18 instance with record-tgid (the tail of each line shortened): dd
 * (tgid 588) paused 8 + 12 ms, one event that did not sleep (pause=0), one of another
 * process (tgid 700, 30 ms), one line of another event. */
static const char dirty_trace[] =
    "# tracer: nop\n"
    "#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "              dd-588     (    588) [001] .N... 22016.789711: balance_dirty_pages: bdi "
    "254:0: limit=4096 setpoint=3584 dirty=3116 dirtied=256 dirtied_pause=32 paused=0 "
    "pause=0 period=4 think=0 cgroup_ino=1\n"
    "              dd-588     (    588) [001] .N... 22016.791975: balance_dirty_pages: bdi "
    "254:0: limit=4096 dirtied_pause=32 paused=0 pause=8 period=8 think=0 cgroup_ino=1\n"
    "  writer (a) b-591     (    588) [000] ..... 22016.842402: balance_dirty_pages: bdi "
    "254:0: limit=4096 dirtied_pause=32 paused=0 pause=12 period=8 think=-4 cgroup_ino=1\n"
    "            zstd-701     (    700) [000] ..... 22016.850000: balance_dirty_pages: bdi "
    "254:0: limit=4096 dirtied_pause=32 paused=0 pause=30 period=8 think=0 cgroup_ino=1\n"
    "              dd-588     (    588) [001] ..... 22016.900000: global_dirty_state: "
    "dirty=3000 pause=99\n";

static void test_dirty_pauses_summed_per_process(void **state)
{
    (void)state;
    const long dd = 588, both[] = {588, 700}, none = 1;
    assert_true(fabs(sys_parse_dirty_pauses(dirty_trace, &dd, 1) - 0.020) < 1e-12);
    assert_true(fabs(sys_parse_dirty_pauses(dirty_trace, both, 2) - 0.050) < 1e-12);
    assert_true(sys_parse_dirty_pauses(dirty_trace, &none, 1) == 0.0);
    assert_true(sys_parse_dirty_pauses("", &dd, 1) == 0.0);
}

/* A fake /proc with self/task/{101,102}/{schedstat,stat} and pressure/io: the readers sum
 * what the files say. */
static void test_task_waits_and_pressure_from_files(void **state)
{
    (void)state;
    fake_proc_t f;
    fake_proc_make(&f, mountinfo);
    char path[256];
    snprintf(path, sizeof path, "%s/task", f.self);
    assert_int_equal(mkdir(path, 0755), 0);
    const long tids[] = {101, 102};
    const char *texts[] = {"5 1000000000 3\n", "7 250000000 9\n"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/task/%ld", f.self, tids[i]);
        assert_int_equal(mkdir(path, 0755), 0);
        snprintf(path, sizeof path, "%s/task/%ld/schedstat", f.self, tids[i]);
        FILE *out = fopen(path, "w");
        assert_non_null(out);
        fputs(texts[i], out);
        assert_int_equal(fclose(out), 0);
        snprintf(path, sizeof path, "%s/task/%ld/stat", f.self, tids[i]);
        out = fopen(path, "w");
        assert_non_null(out);
        fputs(task_stat, out); /* 37 ticks each */
        assert_int_equal(fclose(out), 0);
    }
    sys_task_account_t accounts[8];
    int n = sys_task_accounts(0, accounts, 8);
    assert_int_equal(n, 2);
    uint64_t waits = 0, ticks = 0;
    for (int i = 0; i < n; i++) {
        assert_true(accounts[i].tid == 101 || accounts[i].tid == 102);
        waits += accounts[i].wait_ns;
        ticks += accounts[i].blkio_ticks;
    }
    assert_int_equal(waits, 1250000000ull);
    assert_int_equal(ticks, 74ull);

    snprintf(path, sizeof path, "%s/pressure", f.root);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/pressure/io", f.root);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(pressure_io, out);
    assert_int_equal(fclose(out), 0);
    double some, full;
    assert_true(sys_pressure_read("io", &some, &full));
    assert_true(some == 8123456.0 && full == 7000001.0);
    assert_false(sys_pressure_read("cpu", &some, &full)); /* no such file: unknown */
    assert_true(isnan(some) && isnan(full));

    unlink(path);
    snprintf(path, sizeof path, "%s/pressure", f.root);
    rmdir(path);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/task/%ld/schedstat", f.self, tids[i]);
        unlink(path);
        snprintf(path, sizeof path, "%s/task/%ld/stat", f.self, tids[i]);
        unlink(path);
        snprintf(path, sizeof path, "%s/task/%ld", f.self, tids[i]);
        rmdir(path);
    }
    snprintf(path, sizeof path, "%s/task", f.self);
    rmdir(path);
    fake_proc_remove(&f);
}

/* Writes text to "<root>/<pid>/task/<tid>/children", making the directories. */
static void write_children(const char *root, long pid, long tid, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%ld", root, pid);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%ld/task", root, pid);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%ld/task/%ld", root, pid, tid);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%ld/task/%ld/children", root, pid, tid);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(text, out);
    assert_int_equal(fclose(out), 0);
}

/* A command's process tree: the guardian 100 (two threads, one child each), the shell 200
 * that forked 400, a program 300 with no children; 500 is no process. */
static void test_process_tree_follows_children(void **state)
{
    (void)state;
    fake_proc_t f;
    fake_proc_make(&f, mountinfo);
    write_children(f.root, 100, 100, "200 ");
    write_children(f.root, 100, 101, "300 200 ");
    write_children(f.root, 200, 200, "400 ");
    write_children(f.root, 300, 300, "");
    write_children(f.root, 400, 400, "");
    long pids[8];
    assert_int_equal(sys_process_tree(100, pids, 8), 4);
    assert_int_equal(pids[0], 100);
    long seen = 0;
    for (int i = 1; i < 4; i++)
        seen += pids[i];
    assert_int_equal(seen, 200 + 300 + 400);
    assert_int_equal(pids[3], 400); /* breadth first: the grandchild last */
    assert_int_equal(sys_process_tree(100, pids, 2), 2); /* cut at the capacity */
    assert_int_equal(sys_process_tree(200, pids, 8), 2);
    assert_int_equal(sys_process_tree(500, pids, 8), -1);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s/100 %s/200 %s/300 %s/400", f.root, f.root, f.root,
             f.root);
    assert_int_equal(system(cmd), 0);
    fake_proc_remove(&f);
}

/* A device number split into the numbers /proc/diskstats and /sys/dev/block use. */
static void test_devno_split_matches_makedev(void **state)
{
    (void)state;
    unsigned maj = 0, min = 0;
    sys_devno_split(makedev(8, 17), &maj, &min);
    assert_int_equal(maj, 8);
    assert_int_equal(min, 17);
    sys_devno_split(makedev(0, 52), &maj, &min);
    assert_int_equal(maj, 0); /* anonymous: no block device */
    assert_int_equal(min, 52);
}

/* A RAM file is readable by the path it names while it is open. */
static void test_ram_file_readable_by_its_path(void **state)
{
    (void)state;
    char path[PATH_MAX];
    int fd = sys_ram_file_create("test-ram-file", path, sizeof path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "kept", 4), 4);
    char *text = sys_read_file(path, 0);
    assert_non_null(text);
    assert_string_equal(text, "kept");
    free(text);
    close(fd);
}

/* Writes text into dir/name; returns the path in buf. */
static const char *put_file(const char *dir, const char *name, const char *text, char *buf,
                            size_t cap)
{
    snprintf(buf, cap, "%s/%s", dir, name);
    FILE *f = fopen(buf, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return buf;
}

/* A rename that must not replace refuses an existing file (EEXIST) and moves onto a free
 * name; an exchange swaps two files (or says the file system cannot); a stat's mtime is
 * its st_mtim; an error's text is the C library's. */
static void test_renames_mtime_and_error_text(void **state)
{
    (void)state;
    char dir[] = "/tmp/cp-sys-rename-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
    put_file(dir, "a", "A", a, sizeof a);
    put_file(dir, "b", "B", b, sizeof b);
    snprintf(c, sizeof c, "%s/c", dir);
    int e = sys_rename_no_replace(a, b);
    if (e == EINVAL || e == ENOSYS || e == EOPNOTSUPP) {
        unlink(a);
        unlink(b);
        rmdir(dir);
        skip(); /* this file system cannot rename without replacing */
    }
    assert_int_equal(e, EEXIST);
    assert_int_equal(sys_rename_no_replace(a, c), 0);
    assert_int_equal(access(a, F_OK), -1);
    e = sys_rename_exchange(c, b);
    if (e == 0) {
        char *text = sys_read_file(b, 0);
        assert_non_null(text);
        assert_string_equal(text, "A");
        free(text);
    } else {
        assert_true(e == EINVAL || e == ENOSYS || e == EOPNOTSUPP);
    }
    struct stat st;
    assert_int_equal(stat(b, &st), 0);
    struct timespec m = sys_stat_mtime(&st);
    assert_true(m.tv_sec == st.st_mtim.tv_sec && m.tv_nsec == st.st_mtim.tv_nsec);
    char text[128];
    assert_string_equal(sys_strerror(ENOENT, text, sizeof text), strerror(ENOENT));
    unlink(b);
    unlink(c);
    rmdir(dir);
}

/* The machine's figures are there, and the direct-I/O switch answers 0 or an errno. */
static void test_machine_figures(void **state)
{
    (void)state;
    assert_true(sys_online_cpus() >= 1);
    assert_true(sys_usable_cpus() >= 1);
    assert_true(sys_usable_cpus() <= sys_online_cpus());
    assert_true(sys_page_size() >= 4096);
    assert_true(sys_clock_ticks_per_second() > 0);
    assert_true(sys_phys_mem_bytes() > 0);
    assert_true(sys_thread_id() > 0);
    assert_non_null(sys_ram_dir());
    assert_true(sys_direct_open_flag() != 0);
    char path[] = "/tmp/test_sys_direct.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    int on = sys_direct_set(fd, true);
    assert_true(on == 0 || on == EINVAL);
    assert_int_equal(sys_direct_set(fd, false), 0);
    close(fd);
    unlink(path);
}

/* The CPU times and a device's counters come from <proc root>/stat and /diskstats; a
 * missing file is CP_EIO, a missing device CP_EDATA. */
static void test_cpu_times_and_disk_counters_from_files(void **state)
{
    (void)state;
    fake_proc_t f;
    fake_proc_make(&f, "");
    char path[PATH_MAX + 32];
    sys_cpu_times_t cpu;
    sys_disk_counters_t disk;
    cp_err_t err = {0};
    assert_int_equal(sys_cpu_times_read(&cpu, &err), CP_EIO);
    snprintf(path, sizeof path, "%s/stat", f.root);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs("cpu  100 2 30 400 5 6 7 8 0 0\ncpu0 100 2 30 400 5 6 7 8 0 0\n", out);
    fclose(out);
    assert_int_equal(sys_cpu_times_read(&cpu, &err), 0);
    assert_int_equal(cpu.user, 100);
    assert_int_equal(cpu.idle, 400);
    assert_int_equal(cpu.steal, 8);
    snprintf(path, sizeof path, "%s/diskstats", f.root);
    out = fopen(path, "w");
    assert_non_null(out);
    fputs(" 254 0 vda 10 0 80 5 20 0 160 9 0 33 14\n 254 1 vda1 1 0 8 1 2 0 16 1 0 3 2\n",
          out);
    fclose(out);
    assert_int_equal(sys_disk_counters_read(254, 1, &disk, &err), 0);
    assert_string_equal(disk.name, "vda1");
    assert_int_equal(disk.sectors_written, 16);
    assert_int_equal(disk.io_ticks_ms, 3);
    cp_err_clear(&err);
    assert_int_equal(sys_disk_counters_read(8, 0, &disk, &err), CP_EDATA);
    unlink(path);
    snprintf(path, sizeof path, "%s/stat", f.root);
    unlink(path);
    fake_proc_remove(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_margin_is_64mib_or_one_percent),
        cmocka_unit_test(test_usable_space_keeps_the_margin),
        cmocka_unit_test(test_space_of_the_working_directory),
        cmocka_unit_test(test_fs_names),
        cmocka_unit_test(test_mount_by_devno_decodes_escapes),
        cmocka_unit_test(test_mount_of_a_path_with_a_space),
        cmocka_unit_test(test_mount_of_the_live_working_directory),
        cmocka_unit_test(test_read_proc_file_whole_and_capped),
        cmocka_unit_test(test_pressure_totals),
        cmocka_unit_test(test_schedstat_wait),
        cmocka_unit_test(test_task_stat_blkio_ticks),
        cmocka_unit_test(test_dirty_pauses_summed_per_process),
        cmocka_unit_test(test_task_waits_and_pressure_from_files),
        cmocka_unit_test(test_process_tree_follows_children),
        cmocka_unit_test(test_devno_split_matches_makedev),
        cmocka_unit_test(test_ram_file_readable_by_its_path),
        cmocka_unit_test(test_renames_mtime_and_error_text),
        cmocka_unit_test(test_machine_figures),
        cmocka_unit_test(test_cpu_times_and_disk_counters_from_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
