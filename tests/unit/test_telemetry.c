/* Telemetry: the /proc parsers it uses (common/sys.h) on fixed texts with hand-computed
 * deltas, a fake /proc root, unknown fields for targets without a block device, and a live
 * 64 MiB write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "measure/telemetry.h"
#include "common/sys_linux_parse.h"

#define EPS 1e-9

/* cmocka 1.1 has no double comparison; this one prints both values. */
#define assert_near(got, want)                                                              \
    do {                                                                                    \
        double got_ = (got), want_ = (want);                                                \
        if (!(fabs(got_ - want_) <= EPS))                                                   \
            fail_msg("%s = %.12g, expected %.12g", #got, got_, want_);                      \
    } while (0)

/* ---- /proc/stat -------------------------------------------------------------------- */

static const char stat_start[] =
    "cpu  1000 10 500 8000 100 5 15 0 7 0\n"
    "cpu0 500 5 250 4000 50 2 7 0 3 0\n"
    "cpu1 500 5 250 4000 50 3 8 0 4 0\n"
    "intr 123456 0 0\n"
    "ctxt 99\n";

/* +600 user, +20 nice, +200 system, +900 idle, +200 iowait, +10 irq, +30 softirq,
 * +40 steal: total 2000 jiffies; user 620, sys 240, iowait 200, idle 900. */
static const char stat_end[] =
    "cpu  1600 30 700 8900 300 15 45 40 9 0\n"
    "cpu0 800 15 350 4450 150 7 22 20 4 0\n"
    "cpu1 800 15 350 4450 150 8 23 20 5 0\n"
    "intr 123999 0 0\n";

static void test_parse_stat_reads_aggregate_line(void **state)
{
    (void)state;
    sys_cpu_times_t t;
    cp_err_t err = {0};
    assert_int_equal(sys_parse_cpu_stat(stat_start, &t, &err), 0);
    assert_int_equal(t.user, 1000);
    assert_int_equal(t.nice, 10);
    assert_int_equal(t.system, 500);
    assert_int_equal(t.idle, 8000);
    assert_int_equal(t.iowait, 100);
    assert_int_equal(t.irq, 5);
    assert_int_equal(t.softirq, 15);
    assert_int_equal(t.steal, 0);
}

static void test_parse_stat_old_kernel_four_fields(void **state)
{
    (void)state;
    sys_cpu_times_t t;
    assert_int_equal(sys_parse_cpu_stat("cpu 1 2 3 4\n", &t, NULL), 0);
    assert_int_equal(t.idle, 4);
    assert_int_equal(t.iowait, 0);
    assert_int_equal(t.steal, 0);
}

static void test_parse_stat_rejects_missing_or_short_line(void **state)
{
    (void)state;
    sys_cpu_times_t t;
    cp_err_t err = {0};
    assert_int_equal(sys_parse_cpu_stat("cpu0 1 2 3 4\nintr 5\n", &t, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "cpu"));
    cp_err_clear(&err);
    assert_int_equal(sys_parse_cpu_stat("cpu  1 2 x\n", &t, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "at least 4"));
    assert_int_equal(sys_parse_cpu_stat("", &t, NULL), CP_EDATA);
}

static void test_cpu_shares_from_known_deltas(void **state)
{
    (void)state;
    sys_cpu_times_t a, b;
    assert_int_equal(sys_parse_cpu_stat(stat_start, &a, NULL), 0);
    assert_int_equal(sys_parse_cpu_stat(stat_end, &b, NULL), 0);
    telemetry_sample_t s;
    memset(&s, 0, sizeof s);
    telemetry_cpu_shares(&a, &b, &s);
    assert_true(s.have_cpu);
    assert_near(s.cpu_user_share, 620.0 / 2000.0);
    assert_near(s.cpu_sys_share, 240.0 / 2000.0);
    assert_near(s.cpu_iowait_share, 200.0 / 2000.0);
    assert_near(s.cpu_idle_share, 900.0 / 2000.0);
    assert_near(s.cpu_steal_share, 40.0 / 2000.0);
}

static void test_cpu_shares_iowait_going_backwards_counts_zero(void **state)
{
    (void)state;
    sys_cpu_times_t a = {.user = 100, .idle = 100, .iowait = 50};
    sys_cpu_times_t b = {.user = 150, .idle = 250, .iowait = 40};
    telemetry_sample_t s;
    telemetry_cpu_shares(&a, &b, &s);
    assert_true(s.have_cpu);
    assert_near(s.cpu_user_share, 50.0 / 200.0);
    assert_near(s.cpu_idle_share, 150.0 / 200.0);
    assert_near(s.cpu_iowait_share, 0.0);
}

static void test_cpu_shares_unknown_when_no_time_passed(void **state)
{
    (void)state;
    sys_cpu_times_t a = {.user = 100, .idle = 100};
    telemetry_sample_t s;
    telemetry_cpu_shares(&a, &a, &s);
    assert_false(s.have_cpu);
    assert_true(isnan(s.cpu_user_share));
    assert_true(isnan(s.cpu_idle_share));
}

/* ---- /proc/diskstats --------------------------------------------------------------- */

/* Kernel 5.5+ (17 counters), a 4.18-style line (15) and a pre-4.18 line (11). */
static const char diskstats_start[] =
    "   7       0 loop0 120 0 960 10 0 0 0 0 0 4 10 0 0 0 0 0 0\n"
    "   8       0 sda 5000 100 400000 3000 7000 300 1000000 9000 0 12000 15000 0 0 0 0 2 1\n"
    "   8       1 sda1 4000 90 300000 2500 6000 250 800000 8000 0 11000 14000 0 0 0 0\n"
    " 253       0 dm-0 100 0 800 5 200 0 1600 40 0 30 45\n"
    " 254       0 vda 30481 6923 2391922 6513 12329 6672 871392 3130 0 4724 10081 "
    "4807 26 128056 322 1941 115\n";

/* sda1: +200000 sectors written (102400000 bytes), +1500 ms io_ticks.
 * dm-0: +2048 sectors (1 MiB), +100 ms. */
static const char diskstats_end[] =
    "   7       0 loop0 120 0 960 10 0 0 0 0 0 4 10 0 0 0 0 0 0\n"
    "   8       0 sda 5000 100 400000 3000 7500 300 1200000 9800 0 13500 17000 0 0 0 0 2 1\n"
    "   8       1 sda1 4000 90 300000 2500 6500 250 1000000 8800 0 12500 16000 0 0 0 0\n"
    " 253       0 dm-0 100 0 800 5 230 0 3648 50 0 130 55\n"
    " 254       0 vda 30481 6923 2391922 6513 12329 6672 871392 3130 0 4724 10081 "
    "4807 26 128056 322 1941 115\n";

static void test_parse_diskstats_picks_the_partition_line(void **state)
{
    (void)state;
    sys_disk_counters_t c;
    cp_err_t err = {0};
    assert_int_equal(sys_parse_diskstats(diskstats_start, 8, 1, &c, &err), 0);
    assert_string_equal(c.name, "sda1");
    assert_int_equal(c.major, 8);
    assert_int_equal(c.minor, 1);
    assert_int_equal(c.sectors_written, 800000);
    assert_int_equal(c.io_ticks_ms, 11000);

    assert_int_equal(sys_parse_diskstats(diskstats_start, 8, 0, &c, &err), 0);
    assert_string_equal(c.name, "sda");
    assert_int_equal(c.sectors_written, 1000000);

    assert_int_equal(sys_parse_diskstats(diskstats_start, 253, 0, &c, &err), 0);
    assert_string_equal(c.name, "dm-0");
    assert_int_equal(c.sectors_written, 1600);
    assert_int_equal(c.io_ticks_ms, 30);
}

static void test_parse_diskstats_missing_or_truncated_line(void **state)
{
    (void)state;
    sys_disk_counters_t c;
    cp_err_t err = {0};
    assert_int_equal(sys_parse_diskstats(diskstats_start, 8, 2, &c, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "8:2"));
    cp_err_clear(&err);
    /* Pre-2.6.25 partition lines had only 4 counters. */
    assert_int_equal(sys_parse_diskstats("   8  1 sda1 10 20 30 40\n", 8, 1, &c, &err),
                     CP_EDATA);
    assert_non_null(strstr(err.msg, ":1:"));
    assert_int_equal(sys_parse_diskstats("", 8, 1, &c, NULL), CP_EDATA);
}

static void test_disk_delta_bytes_and_busy_share(void **state)
{
    (void)state;
    sys_disk_counters_t a, b;
    assert_int_equal(sys_parse_diskstats(diskstats_start, 8, 1, &a, NULL), 0);
    assert_int_equal(sys_parse_diskstats(diskstats_end, 8, 1, &b, NULL), 0);
    telemetry_sample_t s;
    memset(&s, 0, sizeof s);
    telemetry_disk_delta(&a, &b, 2.0, &s);
    assert_true(s.have_disk);
    assert_string_equal(s.device, "sda1");
    assert_int_equal(s.dev_written_bytes, 102400000);
    assert_near(s.dev_busy_share, 1500.0 / 2000.0);

    assert_int_equal(sys_parse_diskstats(diskstats_start, 253, 0, &a, NULL), 0);
    assert_int_equal(sys_parse_diskstats(diskstats_end, 253, 0, &b, NULL), 0);
    telemetry_disk_delta(&a, &b, 0.5, &s);
    assert_int_equal(s.dev_written_bytes, 1048576);
    assert_near(s.dev_busy_share, 100.0 / 500.0);
}

static void test_disk_delta_caps_busy_and_rejects_backwards(void **state)
{
    (void)state;
    sys_disk_counters_t a = {.name = "loop3", .sectors_written = 10, .io_ticks_ms = 0};
    sys_disk_counters_t b = {.name = "loop3", .sectors_written = 20, .io_ticks_ms = 1010};
    telemetry_sample_t s;
    telemetry_disk_delta(&a, &b, 1.0, &s);
    assert_true(s.have_disk);
    assert_near(s.dev_busy_share, 1.0);
    /* A re-attached loop device starts its counters again from zero. */
    telemetry_disk_delta(&b, &a, 1.0, &s);
    assert_false(s.have_disk);
    assert_true(isnan(s.dev_busy_share));
    assert_non_null(strstr(s.disk_note, "backwards"));
}

/* ---- start/stop against a fake /proc ---------------------------------------------- */

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

static void remove_fake(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/stat", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/diskstats", dir);
    unlink(path);
    rmdir(dir);
}

static void test_start_stop_on_fake_proc(void **state)
{
    (void)state;
    char dir[] = "telemetry-proc-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    unsigned maj = major(st.st_dev), min = minor(st.st_dev);
    bool block = maj != 0;

    /* The directory's own device gets a line: +4096 sectors, +250 ms busy. */
    char disk[512];
    snprintf(disk, sizeof disk, " 1 3 ram3 0 0 0 0 0 0 0 0 0 0 0\n"
                                " %u %u fakedev 1 0 8 1 10 0 1000 5 0 300 400\n", maj, min);
    write_text(dir, "stat", stat_start);
    write_text(dir, "diskstats", disk);
    telemetry_set_proc_root(dir);

    cp_err_t err = {0};
    telemetry_t *t = telemetry_start(dir, &err);
    assert_non_null(t);
    snprintf(disk, sizeof disk, " %u %u fakedev 1 0 8 1 20 0 5096 9 0 550 700\n", maj, min);
    write_text(dir, "stat", stat_end);
    write_text(dir, "diskstats", disk);
    telemetry_sample_t s;
    assert_int_equal(telemetry_stop(t, &s), 0);
    telemetry_free(t);
    telemetry_set_proc_root(NULL);

    assert_true(s.have_cpu);
    assert_near(s.cpu_user_share, 0.31);
    assert_near(s.cpu_idle_share, 0.45);
    if (block) {
        assert_true(s.have_disk);
        assert_string_equal(s.device, "fakedev");
        assert_int_equal(s.dev_written_bytes, 4096u * 512u);
        assert_true(s.dev_busy_share >= 0.0 && s.dev_busy_share <= 1.0);
    } else {
        fprintf(stderr, "note: %s has an anonymous device; disk part not checked\n", dir);
    }
    assert_true(s.wall_s >= 0.0);
    remove_fake(dir);
}

static void test_missing_proc_files_make_fields_unknown(void **state)
{
    (void)state;
    char dir[] = "telemetry-empty-XXXXXX";
    assert_non_null(mkdtemp(dir));
    telemetry_set_proc_root(dir);
    cp_err_t err = {0};
    telemetry_t *t = telemetry_start(".", &err);
    assert_non_null(t);
    assert_int_equal(err.code, CP_OK);
    telemetry_sample_t s;
    assert_int_equal(telemetry_stop(t, &s), 0);
    telemetry_free(t);
    telemetry_set_proc_root(NULL);
    rmdir(dir);

    assert_false(s.have_cpu);
    assert_true(isnan(s.cpu_user_share));
    assert_false(s.have_disk);
    assert_true(isnan(s.dev_busy_share));
    assert_non_null(strstr(s.disk_note, "diskstats"));
    assert_true(s.max_rss_bytes > 0); /* getrusage does not depend on /proc */
}

/* ---- the real machine ------------------------------------------------------------- */

static void test_memory_target_has_no_disk(void **state)
{
    (void)state;
    telemetry_t *t = telemetry_start(NULL, NULL);
    assert_non_null(t);
    telemetry_sample_t s;
    assert_int_equal(telemetry_stop(t, &s), 0);
    telemetry_free(t);
    assert_false(s.have_disk);
    assert_string_equal(s.disk_note, "memory target");
    assert_true(isnan(s.dev_busy_share));
}

static void test_tmpfs_has_no_block_device(void **state)
{
    (void)state;
    struct statfs fs;
    if (statfs("/dev/shm", &fs) != 0 || fs.f_type != 0x01021994 /* TMPFS_MAGIC */) {
        fprintf(stderr, "skip: /dev/shm is not tmpfs here\n");
        skip();
    }
    telemetry_device_t dev;
    cp_err_t err = {0};
    assert_int_equal(telemetry_block_device("/dev/shm", &dev, &err), CP_EIO);
    assert_non_null(strstr(err.msg, "no block device"));
    telemetry_t *t = telemetry_start("/dev/shm", NULL);
    telemetry_sample_t s;
    assert_int_equal(telemetry_stop(t, &s), 0);
    telemetry_free(t);
    assert_false(s.have_disk);
    assert_non_null(strstr(s.disk_note, "tmpfs"));
}

/* Writes 64 MiB with fsync into the working directory's volume; the device must have
 * seen at least that many bytes written. */
static void test_live_write_shows_on_device(void **state)
{
    (void)state;
    telemetry_device_t dev;
    cp_err_t err = {0};
    if (telemetry_block_device(".", &dev, &err) != 0) {
        fprintf(stderr, "skip: %s\n", err.msg);
        skip();
    }
    enum { CHUNK = 1 << 20, CHUNKS = 64 };
    char *buf = malloc(CHUNK);
    assert_non_null(buf);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < CHUNK; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = (char)x;
    }
    char path[] = "telemetry-live-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);

    telemetry_t *t = telemetry_start(".", &err);
    assert_non_null(t);
    for (int i = 0; i < CHUNKS; i++)
        assert_int_equal(write(fd, buf, CHUNK), CHUNK);
    assert_int_equal(fsync(fd), 0);
    /* The mid-run reading counts the fsync'd bytes, and never more than the stop does. */
    uint64_t so_far = 0;
    assert_true(telemetry_disk_written(t, &so_far));
    assert_true(so_far >= (uint64_t)CHUNKS * CHUNK);
    telemetry_sample_t s;
    assert_int_equal(telemetry_stop(t, &s), 0);
    assert_true(s.dev_written_bytes >= so_far);
    telemetry_free(t);
    close(fd);
    unlink(path);
    free(buf);

    fprintf(stderr, "live: device %s wrote %.1f MiB, busy %.2f, cpu user %.2f sys %.2f "
                    "iowait %.2f idle %.2f, wall %.3f s\n",
            s.device, (double)s.dev_written_bytes / 1048576.0, s.dev_busy_share,
            s.cpu_user_share, s.cpu_sys_share, s.cpu_iowait_share, s.cpu_idle_share,
            s.wall_s);
    assert_true(s.have_disk);
    assert_string_equal(s.device, dev.name);
    assert_true(s.dev_written_bytes >= (uint64_t)CHUNKS * CHUNK);
    assert_true(s.dev_busy_share > 0.0 && s.dev_busy_share <= 1.0);
    assert_true(s.have_cpu);
    /* Every jiffy is in one share, steal (a VM's hypervisor) included. */
    double sum = s.cpu_user_share + s.cpu_sys_share + s.cpu_iowait_share + s.cpu_idle_share +
                 s.cpu_steal_share;
    assert_true(fabs(sum - 1.0) <= EPS);
    assert_true(s.cpu_user_s + s.cpu_sys_s > 0.0);
    assert_true(s.max_rss_bytes >= (uint64_t)CHUNK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_stat_reads_aggregate_line),
        cmocka_unit_test(test_parse_stat_old_kernel_four_fields),
        cmocka_unit_test(test_parse_stat_rejects_missing_or_short_line),
        cmocka_unit_test(test_cpu_shares_from_known_deltas),
        cmocka_unit_test(test_cpu_shares_iowait_going_backwards_counts_zero),
        cmocka_unit_test(test_cpu_shares_unknown_when_no_time_passed),
        cmocka_unit_test(test_parse_diskstats_picks_the_partition_line),
        cmocka_unit_test(test_parse_diskstats_missing_or_truncated_line),
        cmocka_unit_test(test_disk_delta_bytes_and_busy_share),
        cmocka_unit_test(test_disk_delta_caps_busy_and_rejects_backwards),
        cmocka_unit_test(test_start_stop_on_fake_proc),
        cmocka_unit_test(test_missing_proc_files_make_fields_unknown),
        cmocka_unit_test(test_memory_target_has_no_disk),
        cmocka_unit_test(test_tmpfs_has_no_block_device),
        cmocka_unit_test(test_live_write_shows_on_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
