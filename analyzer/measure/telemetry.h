/* telemetry.h - what the machine did during one run: CPU shares from /proc/stat, the
 * target device's written bytes and busy time from /proc/diskstats, the machine's pressure
 * stalls from /proc/pressure, and this process's CPU seconds and peak memory from
 * getrusage.
 *
 * Usage: telemetry_start just before the timed region, telemetry_stop just after it. Both
 * read snapshots; the sample is the difference. Telemetry that cannot be read (no /proc, a
 * directory on tmpfs, overlay or NFS with no block device of its own) is never an error
 * for the run: the affected fields are reported as unknown (NaN, and have_* false). */
#ifndef CP_TELEMETRY_H
#define CP_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/sys.h"

/* The block device that holds a directory. */
typedef struct telemetry_device {
    unsigned major, minor;
    char name[64]; /* kernel name as in /proc/diskstats: "vda", "sda2", "dm-0", "loop3" */
} telemetry_device_t;

typedef struct telemetry_sample {
    /* Whole-machine CPU shares of all jiffies between start and stop (sum to ~1):
     * user includes nice (and guest time, which the kernel counts in user), sys includes
     * irq and softirq; steal counts in the total only. NaN when unknown. */
    bool have_cpu;
    double cpu_user_share, cpu_sys_share, cpu_iowait_share, cpu_idle_share;
    double cpu_steal_share; /* taken by the hypervisor: the five shares sum to 1 */
    /* The target's block device: bytes written (sectors x 512) and the share of wall time
     * it was busy (io_ticks / wall, capped at 1). Unknown (false, 0, NaN) for the memory
     * target and for directories without a block device; disk_note then says why. */
    bool have_disk;
    uint64_t dev_written_bytes;
    double dev_busy_share;
    char device[64];
    char disk_note[256];
    /* This process between start and stop (getrusage, all threads). */
    double wall_s;
    double cpu_user_s, cpu_sys_s;
    uint64_t max_rss_bytes; /* peak resident memory of the process so far, not a delta */
    int online_cpus;        /* CPUs online at the end; 0 when unknown */
    /* Machine-wide pressure stalls during the run (/proc/pressure, all tasks, not only
     * this process): seconds in which some task waited on I/O, in which all non-idle
     * tasks did (full), and in which some task waited for a CPU. NAN without PSI. */
    double psi_io_some_s, psi_io_full_s, psi_cpu_some_s;
} telemetry_sample_t;

typedef struct telemetry telemetry_t;

/* Reads /proc files under dir instead of /proc ("stat", "diskstats", "self/mountinfo");
 * NULL restores /proc (sys_set_proc_root). For tests; not thread-safe, call before
 * telemetry_start. */
void telemetry_set_proc_root(const char *dir);

/* Takes the start snapshot for a run writing into target_dir (NULL for the memory target).
 * Missing or unreadable /proc files make fields unknown, not an error. Returns a handle
 * the caller frees with telemetry_free, or NULL with err set only when out of memory. */
telemetry_t *telemetry_start(const char *target_dir, cp_err_t *err);

/* Takes the end snapshot and fills *out with the differences since telemetry_start.
 * May be called more than once (each call measures from the same start). Returns 0. */
int telemetry_stop(telemetry_t *t, telemetry_sample_t *out);

/* Bytes the target's device has written since telemetry_start, from one read of
 * /proc/diskstats (cheap enough to take between a run's phases). False when the device is
 * unknown or its counter cannot be read or went backwards. */
bool telemetry_disk_written(const telemetry_t *t, uint64_t *bytes);

/* Frees a handle; NULL is fine. */
void telemetry_free(telemetry_t *t);

/* Finds the block device that holds dir: st_dev's major:minor when it names a block
 * device (a partition, dm-N and loopN count as themselves), else, for filesystems with an
 * anonymous st_dev (btrfs), the mount source from mountinfo when that is a block device.
 * Returns 0, or CP_EIO with a one-line reason in err (tmpfs, overlay, NFS, no such dir). */
int telemetry_block_device(const char *dir, telemetry_device_t *out, cp_err_t *err);

/* Fills the cpu_* shares of out from two snapshots. A field that went backwards (proc(5)
 * warns iowait can) counts as 0; have_cpu is false and the shares NaN when no jiffies
 * elapsed at all. */
void telemetry_cpu_shares(const sys_cpu_times_t *start, const sys_cpu_times_t *end,
                          telemetry_sample_t *out);

/* Fills dev_written_bytes, dev_busy_share and device of out from two snapshots of the
 * same device over wall_s seconds (have_disk false when a counter went backwards, as when
 * a loop device is re-attached, or wall_s is not positive). */
void telemetry_disk_delta(const sys_disk_counters_t *start,
                          const sys_disk_counters_t *end, double wall_s,
                          telemetry_sample_t *out);

#endif
