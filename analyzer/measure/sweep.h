/* sweep.h - the study's measuring loop: every target x codec x thread count x repetition,
 * one compress run each, in an order shuffled with a recorded seed, after one discarded
 * warm-up per (target, codec). Each run's record and the telemetry taken around it are
 * handed to a callback as a row; writing them is the caller's business. */
#ifndef CP_SWEEP_H
#define CP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/target.h"
#include "codecs/codec.h"
#include "common/err.h"
#include "measure/archive.h"
#include "measure/command_job.h"
#include "measure/codec_job.h"
#include "measure/series.h"
#include "measure/telemetry.h"
#include "measure/volume.h"
#include "measure/writeback.h"

/* Where a run reads and writes. A compression reads INPUT (split: where it is; same: a
 * copy on the target) and writes to the target. A decompression reads its archive from
 * the target and restores it to memory (split) or to the same target (same). */
typedef enum sweep_layout {
    SWEEP_SPLIT, /* read INPUT where it is; decompression: restore to memory */
    SWEEP_SAME,  /* copy INPUT to each target first and read it from there; decompression:
                    restore onto the target the archive is read from */
} sweep_layout_t;

/* "split" or "same". */
const char *sweep_layout_name(sweep_layout_t layout);
/* Parses "split|same"; CP_EUSAGE naming the text otherwise. */
int sweep_layout_parse(const char *text, sweep_layout_t *out, cp_err_t *err);

typedef struct sweep_params {
    const char *input_path;
    const target_spec_t *targets;
    size_t n_targets;
    const series_spec_t *series; /* what runs: built-in codecs and commands */
    size_t n_series;
    const int *threads;
    size_t n_threads;
    pipeline_engine_t engine;
    size_t block_size;      /* 0 = the codec's default */
    int reps;               /* measured repetitions per (target, codec, threads) */
    bool reps_auto;         /* then more, one round at a time, until each case's median is
                               settled (sweep_median_settled) or has SWEEP_AUTO_MAX_REPS */
    bool warmup;            /* one discarded run per (target, codec) first */
    sweep_layout_t layout;
    sync_mode_t sync;
    uint64_t seed;          /* shuffles the run order */
    /* Time decompression instead: the input is compressed once per (target, codec),
     * untimed and checked (measure/archive.h), and every run restores that archive with
     * T decoder threads (blocks engine, built-in codecs only). */
    bool decompress;
    /* The memory limit (--max-memory); 0: what is available when the sweep starts. The
     * mem target's archives live in RAM within it, beside the largest run's estimate. */
    uint64_t max_memory;
    /* A resumed study: true when the run (target, codec, threads, rep) was measured before
     * (*seconds its time); such runs are skipped, and their times count for --reps auto.
     * NULL: nothing was. */
    bool (*already_measured)(void *ctx, const char *target, const char *codec, int threads,
                             int rep, double *seconds);
    void *already_ctx;
} sweep_params_t;

#define SWEEP_AUTO_MAX_REPS 10
#define SWEEP_AUTO_WITHIN 0.03 /* --reps auto: the median's 95% interval within +-3% */

/* True when n >= 3 measured times settle their median: the 95% confidence interval of
 * their mean (Student's t, n - 1 degrees of freedom), a stand-in for the median's, is
 * within +-within of the median. Pure. */
bool sweep_median_settled(const double *seconds, int n, double within);

/* What --decompress cannot go with: a command series that has no restore (a preset's
 * restore is command_series_restore; a --cmd template has none). CP_EUSAGE naming it; CP_OK
 * when p does not decompress. */
int sweep_check_decompress(const sweep_params_t *p, cp_err_t *err);

/* 3 reps with warm-up, split layout, fsync, blocks engine; the caller fills the lists. */
sweep_params_t sweep_defaults(void);

/* One measured run. Self-contained apart from the strings it points to, which live as long
 * as the params. */
typedef struct sweep_row {
    const target_spec_t *target;
    const volume_info_t *volume;   /* NULL for the memory target */
    char codec[32];
    int threads;
    int rep;                       /* 1-based */
    unsigned order;                /* position in the shuffled run order, 1-based */
    size_t target_order;           /* the target's position as given, 1-based */
    uint64_t seed;
    sweep_layout_t layout;         /* as used: mem always reads INPUT where it is */
    const char *input_target;      /* name of the target whose volume holds the input read,
                                      or NULL when none does */
    compress_record_t record;
    telemetry_sample_t telemetry;
    writeback_settings_t writeback; /* the kernel's thresholds just before the run */
    double write_cap_bps, read_cap_bps; /* the target's emulated caps that pace this run:
                                           its writes to the target, its reads from it; 0
                                           when none does */
    double disk_cap_bps;           /* the write cap of the emulated disk this run wrote to
                                      (the kernel paced it, measure/emulated_disk.h); 0
                                      when it wrote to none */
    bool valid;                    /* false: the run failed or its input changed */
    char error[CP_ERR_MSG_MAX];    /* why, when not valid */
} sweep_row_t;

typedef int (*sweep_row_cb)(const sweep_row_t *row, void *ctx, cp_err_t *err);

/* Checks the targets, copies the input for the same layout, runs everything and calls cb
 * with every measured row as soon as it is taken. A failed run is a row with valid false
 * and its error; that series' remaining runs on the target are then skipped (all of the
 * target's when the target itself is gone), with a warning, and the others go on. Returns CP_OK when every run succeeded, CP_EIO when some failed,
 * CP_EUSAGE before anything ran for bad params or targets, CP_EINTR when interrupted
 * (rows measured so far were already delivered), or the callback's error. Every file it
 * creates is removed before it returns. */
int sweep_run(const sweep_params_t *params, sweep_row_cb cb, void *ctx, cp_err_t *err);

#endif
