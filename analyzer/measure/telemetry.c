/* telemetry.c - what the machine did during a run (telemetry.h): the CPU times, disk
 * counters and pressure stalls common/sys reads at a start and a stop, the target's block
 * device, and the shares and rates between them. */
#include "measure/telemetry.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common/clock.h"
#include "common/sys.h"

struct telemetry {
    double start_wall_s;
    cpu_usage_t start_usage;
    bool have_cpu;
    sys_cpu_times_t cpu;
    bool have_disk;
    telemetry_device_t device;
    sys_disk_counters_t disk;
    char disk_note[256];
    /* pressure-stall totals at the start, microseconds (NAN: no PSI) */
    double psi_io_some_us, psi_io_full_us, psi_cpu_some_us;
};

/* Copies src into dst[cap], truncating; dst is always terminated. */
static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void telemetry_set_proc_root(const char *dir) { sys_set_proc_root(dir); }

/* ---- deltas ----------------------------------------------------------------------- */

static uint64_t forward_delta(uint64_t start, uint64_t end)
{
    return end >= start ? end - start : 0;
}

void telemetry_cpu_shares(const sys_cpu_times_t *start, const sys_cpu_times_t *end,
                          telemetry_sample_t *out)
{
    uint64_t user = forward_delta(start->user, end->user) +
                    forward_delta(start->nice, end->nice);
    uint64_t sys = forward_delta(start->system, end->system) +
                   forward_delta(start->irq, end->irq) +
                   forward_delta(start->softirq, end->softirq);
    uint64_t idle = forward_delta(start->idle, end->idle);
    uint64_t iowait = forward_delta(start->iowait, end->iowait);
    uint64_t steal = forward_delta(start->steal, end->steal);
    uint64_t total = user + sys + idle + iowait + steal;
    if (total == 0) {
        out->have_cpu = false;
        out->cpu_user_share = out->cpu_sys_share = NAN;
        out->cpu_iowait_share = out->cpu_idle_share = out->cpu_steal_share = NAN;
        return;
    }
    out->have_cpu = true;
    out->cpu_steal_share = (double)steal / (double)total;
    out->cpu_user_share = (double)user / (double)total;
    out->cpu_sys_share = (double)sys / (double)total;
    out->cpu_iowait_share = (double)iowait / (double)total;
    out->cpu_idle_share = (double)idle / (double)total;
}

static void disk_unknown(telemetry_sample_t *out, const char *note)
{
    out->have_disk = false;
    out->dev_written_bytes = 0;
    out->dev_busy_share = NAN;
    copy_text(out->disk_note, sizeof out->disk_note, note);
}

void telemetry_disk_delta(const sys_disk_counters_t *start,
                          const sys_disk_counters_t *end, double wall_s,
                          telemetry_sample_t *out)
{
    copy_text(out->device, sizeof out->device, end->name);
    if (end->sectors_written < start->sectors_written || end->io_ticks_ms < start->io_ticks_ms) {
        disk_unknown(out, "device counters went backwards (device re-attached?)");
        return;
    }
    if (!(wall_s > 0)) {
        disk_unknown(out, "no time elapsed");
        return;
    }
    out->have_disk = true;
    out->disk_note[0] = '\0';
    out->dev_written_bytes = (end->sectors_written - start->sectors_written) * 512u;
    double busy = (double)(end->io_ticks_ms - start->io_ticks_ms) / (wall_s * 1000.0);
    /* io_ticks advance in jiffy steps, so a fully busy device can read slightly over 1. */
    out->dev_busy_share = busy > 1.0 ? 1.0 : busy;
}

/* ---- device lookup ---------------------------------------------------------------- */

static int device_from_diskstats(unsigned major, unsigned minor, telemetry_device_t *out,
                                 cp_err_t *err)
{
    sys_disk_counters_t c;
    int rc = sys_disk_counters_read(major, minor, &c, err);
    if (rc != 0)
        return rc == CP_EDATA ? CP_EIO : rc;
    out->major = major;
    out->minor = minor;
    copy_text(out->name, sizeof out->name, c.name);
    return 0;
}

int telemetry_block_device(const char *dir, telemetry_device_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(dir, &st) != 0)
        return cp_err_errno(err, CP_EIO, errno, "%s", dir);
    unsigned maj, min;
    sys_devno_split(st.st_dev, &maj, &min);
    if (maj != 0)
        return device_from_diskstats(maj, min, out, err);

    /* Anonymous device number: tmpfs, overlay, NFS have no block device, but btrfs and
     * some others do, named as the mount source. */
    sys_mount_t m;
    int rc = sys_mount_by_devno(maj, min, &m, NULL);
    if (rc == CP_EIO)
        return cp_err_set(err, CP_EIO, "%s: no block device (cannot read mountinfo)", dir);
    if (rc != CP_OK)
        return cp_err_set(err, CP_EIO, "%s: no block device (anonymous device %u:%u)", dir, maj,
                          min);
    struct stat src;
    if (m.source[0] != '/' || stat(m.source, &src) != 0 || !S_ISBLK(src.st_mode))
        return cp_err_set(err, CP_EIO, "%s: no block device (%s filesystem)", dir, m.fstype);
    sys_devno_split(src.st_rdev, &maj, &min);
    return device_from_diskstats(maj, min, out, err);
}

/* ---- start / stop ----------------------------------------------------------------- */

static bool read_cpu_times(sys_cpu_times_t *out) { return sys_cpu_times_read(out, NULL) == 0; }

static bool read_disk(const telemetry_device_t *dev, sys_disk_counters_t *out)
{
    return sys_disk_counters_read(dev->major, dev->minor, out, NULL) == 0;
}

telemetry_t *telemetry_start(const char *target_dir, cp_err_t *err)
{
    telemetry_t *t = calloc(1, sizeof *t);
    if (t == NULL) {
        cp_err_set(err, CP_ENOMEM, "telemetry: out of memory");
        return NULL;
    }
    if (target_dir == NULL) {
        copy_text(t->disk_note, sizeof t->disk_note, "memory target");
    } else {
        cp_err_t why = {0};
        if (telemetry_block_device(target_dir, &t->device, &why) != 0)
            copy_text(t->disk_note, sizeof t->disk_note, why.msg);
        else if (!read_disk(&t->device, &t->disk))
            snprintf(t->disk_note, sizeof t->disk_note, "diskstats: cannot read device %s",
                     t->device.name);
        else
            t->have_disk = true;
    }
    t->have_cpu = read_cpu_times(&t->cpu);
    t->start_usage = clock_cpu_usage();
    sys_pressure_read("io", &t->psi_io_some_us, &t->psi_io_full_us);
    sys_pressure_read("cpu", &t->psi_cpu_some_us, NULL);
    t->start_wall_s = clock_now();
    return t;
}

/* Seconds between two cumulative stall totals in microseconds; NAN when unknown. */
static double pressure_delta_s(double start_us, double end_us)
{
    if (isnan(start_us) || isnan(end_us) || end_us < start_us)
        return NAN;
    return (end_us - start_us) / 1e6;
}

int telemetry_stop(telemetry_t *t, telemetry_sample_t *out)
{
    double wall_end = clock_now();
    cpu_usage_t usage = clock_cpu_usage();
    memset(out, 0, sizeof *out);
    out->wall_s = wall_end - t->start_wall_s;
    out->cpu_user_s = usage.user_s - t->start_usage.user_s;
    out->cpu_sys_s = usage.sys_s - t->start_usage.sys_s;
    out->max_rss_bytes = usage.max_rss_bytes;
    out->online_cpus = sys_online_cpus();

    sys_cpu_times_t cpu_end;
    if (t->have_cpu && read_cpu_times(&cpu_end)) {
        telemetry_cpu_shares(&t->cpu, &cpu_end, out);
    } else {
        out->have_cpu = false;
        out->cpu_user_share = out->cpu_sys_share = NAN;
        out->cpu_iowait_share = out->cpu_idle_share = out->cpu_steal_share = NAN;
    }

    /* Machine-wide stall totals grow monotonically; a total missing at either end, or one
     * that went backwards, is unknown. */
    double io_some, io_full, cpu_some;
    sys_pressure_read("io", &io_some, &io_full);
    sys_pressure_read("cpu", &cpu_some, NULL);
    out->psi_io_some_s = pressure_delta_s(t->psi_io_some_us, io_some);
    out->psi_io_full_s = pressure_delta_s(t->psi_io_full_us, io_full);
    out->psi_cpu_some_s = pressure_delta_s(t->psi_cpu_some_us, cpu_some);

    sys_disk_counters_t disk_end;
    if (!t->have_disk) {
        disk_unknown(out, t->disk_note);
    } else if (!read_disk(&t->device, &disk_end)) {
        copy_text(out->device, sizeof out->device, t->device.name);
        disk_unknown(out, "device disappeared from diskstats during the run");
    } else {
        telemetry_disk_delta(&t->disk, &disk_end, out->wall_s, out);
    }
    return 0;
}

void telemetry_free(telemetry_t *t)
{
    free(t);
}

bool telemetry_disk_written(const telemetry_t *t, uint64_t *bytes)
{
    sys_disk_counters_t now;
    if (t == NULL || !t->have_disk || !read_disk(&t->device, &now) ||
        now.sectors_written < t->disk.sectors_written)
        return false;
    *bytes = (now.sectors_written - t->disk.sectors_written) * 512u;
    return true;
}
