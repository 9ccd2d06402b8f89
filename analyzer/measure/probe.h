/* probe.h - the probe engine: how fast each target volume writes and reads, by file size.
 *
 * For every (target, size, repetition), in an order shuffled with a recorded seed, the
 * probe writes a file of incompressible pseudo-random bytes through a file sink (timed from
 * open to fsync and close), then drops that file's page cache and reads it back (timed from
 * open to close), then removes it. An optional sustained run writes one long file and
 * reports the rate every interval. A target's emulated caps pace its rows: the write cap
 * the writes (through the sink), the read cap the reads (throttle_read). Each measurement
 * is handed to a callback as a row; collecting, printing and summarising rows is the
 * caller's business. */
#ifndef CP_PROBE_H
#define CP_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/run_account.h"
#include "measure/target.h"
#include "common/err.h"
#include "measure/sink.h"
#include "measure/volume.h"
#include "measure/writeback.h"

#define PROBE_MAX_SIZES 64

typedef enum probe_op {
    PROBE_WRITE,
    PROBE_READ,
    PROBE_SUSTAINED,
} probe_op_t;

/* "write", "read" or "sustained". */
const char *probe_op_name(probe_op_t op);

typedef struct probe_params {
    uint64_t sizes[PROBE_MAX_SIZES]; /* file sizes in bytes, in the order given */
    size_t n_sizes;
    int reps;                        /* repetitions of each size */
    bool reps_auto;                  /* then more, a round at a time, of every size whose
                                        write or read median is not yet settled
                                        (sweep_median_settled, SWEEP_AUTO_WITHIN), at most
                                        SWEEP_AUTO_MAX_REPS in all */
    bool op_write;                   /* report write rows */
    bool op_read;                    /* read each file back and report read rows */
    uint64_t sustained_bytes;        /* one long write of this size; 0 = none */
    double sustained_interval_s;     /* seconds between sustained rows */
    sync_mode_t sync;
    size_t block_bytes;              /* write and read chunk */
    uint64_t seed;                   /* shuffles the order and seeds the data */
} probe_params_t;

/* One measurement. Self-contained (no pointers), so callers may copy and keep it. */
typedef struct probe_row {
    char target[CP_TARGET_NAME_MAX];
    char dir[PATH_MAX];    /* the target's directory, resolved (realpath) when it can be, so
                              a probe and a sweep that named it differently still match */
    probe_op_t op;
    uint64_t size_bytes;   /* sustained: bytes written so far */
    int rep;               /* 1-based; sustained: sample number */
    double seconds;        /* sustained: seconds since the start */
    double bytes_per_s;    /* sustained: rate over the last interval */
    sync_mode_t sync;      /* as actually used */
    char fs_type[VOLUME_FS_NAME_MAX];
    bool is_ram;
    double rate_cap_bps;   /* > 0: the emulated cap that paced this row: the target's read
                              cap on read rows, its write cap on the others; 0: none */
    bool disk_emulated;    /* the write cap is an emulated disk's, paced by the kernel
                              (measure/emulated_disk.h), not chokepoint's own pacing */
    int rotational;        /* 1, 0, -1 unknown */
    unsigned dev_major, dev_minor;
    int cache_dropped;     /* read rows: 1 dropped before reading, 0 not; -1 other rows */
    double flush_s;        /* write rows: seconds of the final fsync and close */
    double drain_bps;      /* write rows: the device's own write speed, the page cache
                              out of the way (see probe_drain_rate); NAN when unknown */
    double io_cpu_s;       /* write rows: system CPU seconds of the whole machine during
                              the write (page-cache copies, file system, block layer,
                              loop or RAID workers); NAN when unknown */
    run_account_t account; /* write and read rows: where the row's time went, by the
                              kernel's accounting of chokepoint's threads (all NAN for
                              sustained rows and where not measured) */
    double psi_io_some_s, psi_io_full_s, psi_cpu_some_s; /* the machine's pressure stalls
                              during the row; NAN unknown */
    double thread_sys_s;   /* write and read rows: the probe thread's own system CPU
                              seconds (getrusage RUSAGE_THREAD); NAN otherwise */
    uint64_t seed;
    size_t block_bytes;    /* write and read rows: bytes per write(2) or read(2); 0 otherwise */
} probe_row_t;

/* Rows kept in memory, in the order measured: {NULL, 0, 0} is empty; free(rows) ends it. */
typedef struct probe_rows {
    probe_row_t *rows;
    size_t n, cap;
} probe_rows_t;

/* Appends a copy of row to r, growing it. CP_ENOMEM (r unchanged) when memory runs out. */
int probe_rows_push(probe_rows_t *r, const probe_row_t *row, cp_err_t *err);

/* Receives each row as soon as it is measured. A non-zero return (a CP_E* code, with err
 * set) stops the probe, which then cleans up and returns that code. */
typedef int (*probe_row_cb)(const probe_row_t *row, void *ctx, cp_err_t *err);

/* The defaults: sizes 2MB..2GB (decimal), 3 reps, write and read, fsync, 1 MiB blocks, no
 * sustained run (0.5 s interval when asked), seed 0 (the caller picks one to record). */
probe_params_t probe_defaults(void);

/* Runs the probe on n targets, calling cb for every row. The mem target is skipped (it has
 * no volume). Every file it creates is unique (O_EXCL) and removed before return, also on
 * error and interrupt. Returns CP_OK; CP_EUSAGE for a bad parameter or a target that is
 * missing or not a writable directory; CP_ENOSPC when no size fits on a target (message
 * names it and its free space); CP_EIO on I/O errors; CP_EINTR when interrupted; or what
 * cb returned. Rows already passed to cb stay valid results. */
int probe_run(const probe_params_t *params, const target_spec_t *targets, size_t n,
              probe_row_cb cb, void *ctx, cp_err_t *err);

/* The drain rate of one write: the speed at which the device took the data, with the page
 * cache out of the way. With O_DIRECT the whole write's rate. With buffered writes and an
 * fsync: the bytes the device wrote during the fsync (at most size) over the fsync's
 * seconds, so write-back that began earlier does not inflate it; without device counters
 * (NAN), size / flush_s when the file stayed below the background write-back threshold.
 * NAN otherwise (no fsync, or nothing to go by). */
double probe_drain_rate(sync_mode_t sync, uint64_t size, double seconds, double flush_s,
                        double flush_device_bytes, double dirty_background_bytes);

/* Writes a size in decimal units for people ("512 B", "2 MB", "1.074 GB") into out. */
void probe_format_size(char *out, size_t cap, uint64_t bytes);

/* Fills buf with pseudo-random bytes from seed (xoshiro256**), deterministic for a seed. */
void probe_fill_random(void *buf, size_t len, uint64_t seed);

#endif
