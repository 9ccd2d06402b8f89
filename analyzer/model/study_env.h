/* study_env.h - the environment a study ran in (its meta.json: machine, kernel, page-cache
 * thresholds, targets' file systems and devices, sync mode, version), and which of the
 * differences between two studies could explain a changed result.
 *
 * Pure: the caller fills study_env_t (tables/compare_load.c reads meta.json); nothing here
 * reads files or allocates. Unknown numbers are NAN, unknown texts "". */
#ifndef CP_MODEL_STUDY_ENV_H
#define CP_MODEL_STUDY_ENV_H

#include <stdbool.h>
#include <stddef.h>

#define STUDY_ENV_TEXT_MAX 256
#define STUDY_ENV_TARGETS_MAX 32

/* One target as meta.json records it. */
typedef struct study_env_target {
    char name[64];
    bool memory;
    char fs_type[32];
    char mount_options[STUDY_ENV_TEXT_MAX];
    char device[32];        /* "major:minor" */
    char mount_source[STUDY_ENV_TEXT_MAX];
    int rotational;         /* 1, 0, -1 unknown */
    double write_cap_bps;   /* the emulated write cap; NAN none */
    double read_cap_bps;    /* the emulated read cap; NAN none */
} study_env_target_t;

typedef struct study_env {
    bool known;             /* false: the study had no readable meta.json, or one an
                               import wrote (imported), which records no machine */
    bool imported;          /* its meta.json was written by `chokepoint import` */
    char version[32];
    char cpu_model[STUDY_ENV_TEXT_MAX];
    double online_cpus, usable_cpus, mem_total_bytes;
    char kernel[128];
    double dirty_background_bytes, dirty_bytes; /* the thresholds in bytes (from ratios when
                                                   the host set ratios) */
    double dirty_expire_s;
    double dirty_writeback_s; /* the flusher's wake-up interval */
    char hostname[STUDY_ENV_TEXT_MAX];
    char sync[16];          /* "fsync", "direct", "none" */
    char engine[16];
    double input_bytes;
    study_env_target_t targets[STUDY_ENV_TARGETS_MAX];
    size_t ntargets;
} study_env_t;

/* An empty environment: nothing known. */
void study_env_init(study_env_t *env);

/* One difference between two environments. */
typedef struct study_env_diff {
    char what[96];                  /* "dirty_background_bytes", "usb: file system" */
    char a[STUDY_ENV_TEXT_MAX], b[STUDY_ENV_TEXT_MAX]; /* the two values, in words */
    char explains[2 * STUDY_ENV_TEXT_MAX]; /* what the difference can change, in words; "" when
                                          it cannot move a verdict (a version number) */
} study_env_diff_t;

/* Write-back thresholds closer than this (a fraction of the larger) are the same: one
 * derived from free memory moves a few percent between two studies on one machine. */
#define STUDY_ENV_THRESHOLD_MOVE 0.05

/* The differences between a and b (both known), in a fixed order: machine, kernel, page
 * cache, the run's settings, then each target that both name; at most cap into out.
 * A write-back threshold is a difference only beyond STUDY_ENV_THRESHOLD_MOVE, and its
 * `explains` is set only when the model moves a term for an output of output_bytes (the
 * largest a run wrote; NAN unknown: never), saying by how many bytes. Returns how many
 * there are (which may exceed cap: the rest are not written). */
size_t study_env_differences(const study_env_t *a, const study_env_t *b, double output_bytes,
                             study_env_diff_t *out, size_t cap);

#endif
