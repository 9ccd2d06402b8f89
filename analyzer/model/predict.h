/* predict.h - the job's time on a volume the study did not run on (`chokepoint predict`):
 * the memory target's runs give the CPU time per codec and thread count, the volume gives
 * its drain rate (a probe of it, a typed speed, or a storage class), and the host's
 * write-back thresholds say what the page cache holds. The write-back model
 * (model/writeback_model.h) does the rest, asked exactly as the analysis asks it for a
 * target the study did run on (analysis_explain.h): for a probed volume the same inputs
 * give the same seconds, terms, verdict and crossover as `analyze` gives that target.
 *
 * Pure computation on the structs it is handed: no I/O. */
#ifndef CP_MODEL_PREDICT_H
#define CP_MODEL_PREDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "model/analysis.h"
#include "model/storage_class.h"

/* Where a volume's figures come from. */
typedef enum predict_source {
    PREDICT_PROBE, /* a probe of its directory (drain rate and the I/O path's CPU cost) */
    PREDICT_TYPED, /* speeds the user typed: the write speed taken as the drain rate */
    PREDICT_CLASS, /* a storage class: its typical write speed taken as the drain rate */
    PREDICT_PROBE_FILE, /* a target of a probe table (predict --probe): chokepoint's own
                            probe or one imported from fio, figures as PREDICT_PROBE's */
} predict_source_t;

/* "probe", "typed", "class", "probe-file". */
const char *predict_source_name(predict_source_t source);

typedef struct predict_volume {
    char name[RUNS_NAME_MAX];
    predict_source_t source;
    const storage_class_t *storage_class; /* PREDICT_CLASS; NULL otherwise */
    char dir[RUNS_DIR_MAX];  /* PREDICT_PROBE: the directory probed; "" otherwise */
    double write_bps;        /* sustained write: the probe's, the typed or the class's */
    double read_bps;         /* sustained read; NAN when unknown */
    /* What the model uses: the device's speed with the page cache out of the way
     * (INFINITY for RAM); drain_source says how it was taken, as analysis_series_t's. */
    double drain_bps;
    const char *drain_source; /* "probe-drain", "probe-write", "emulated-cap", "ram",
                                 "typed", "class" */
    double io_cpu_per_byte;  /* the probe's system CPU seconds per byte written; NAN */
    double rate_cap_bps;     /* an emulated write cap (DIR@CAP) that paces the writes; NAN */
    bool disk_emulated;      /* the cap was an emulated disk's, which the probe measured:
                                a drain rate, not a pacing of each write */
    size_t probe_reps;       /* PREDICT_PROBE: repetitions at the largest size; 0 otherwise */
    double probe_bytes;      /* PREDICT_PROBE: the largest size probed; NAN otherwise */
    char probe_file[RUNS_DIR_MAX]; /* PREDICT_PROBE_FILE: the table's path */
    data_source_t measured_by; /* PREDICT_PROBE_FILE: the program that measured the rows */
    char sync[16];           /* PREDICT_PROBE_FILE: the write rows' sync mode ("mixed") */
} predict_volume_t;

/* A volume typed by its speeds (read_bps NAN: unknown) or a storage class, ready for
 * predict_run. name is copied (truncated to RUNS_NAME_MAX - 1 bytes). */
predict_volume_t predict_volume_typed(const char *name, double write_bps, double read_bps);
predict_volume_t predict_volume_class(const char *name, const storage_class_t *c);

/* A probed volume: its figures from the probe table's rows of target (the same choice of
 * drain rate and I/O cost as the analysis makes for a target probed so, with the runs
 * paced by rate_cap_bps, NAN: none). CP_EDATA naming the target when the table has no
 * write row for it. */
int predict_volume_probed(const char *name, const char *dir, const probe_table_t *probe,
                          const char *target, double rate_cap_bps, predict_volume_t *out,
                          cp_err_t *err);

/* A target of a probe table read from a file (predict --probe), as predict_volume_probed
 * gives it, with the directory, emulated write cap, sync mode and program its rows
 * record. CP_EDATA naming the target when the table has no write row for it. */
int predict_volume_from_table(const probe_table_t *probe, const char *target,
                              predict_volume_t *out, cp_err_t *err);

/* The page-cache assumption: the host's write-back thresholds; NAN fields are unknown
 * (then the model takes no output as cached, the overlapped view). */
typedef struct predict_writeback {
    double dirty_background_bytes, dirty_bytes, dirty_expire_s, dirty_writeback_s;
} predict_writeback_t;

/* What to forecast. */
typedef struct predict_request {
    const int *threads;        /* ascending; NULL: each codec's measured thread counts */
    size_t nthreads;
    const char *const *codecs; /* as runs.csv names them ("zstd:3"); NULL: every codec
                                  the memory target ran */
    size_t ncodecs;
    bool same_layout;          /* the job reads its input from the volume too (its read
                                  speed counts); else from where the study read it */
    predict_writeback_t writeback;
    double tolerance;          /* as the analysis's (0.10) */
} predict_request_t;

/* The defaults: the study's thread counts and codecs, split layout, thresholds unknown,
 * tolerance 0.10. */
predict_request_t predict_defaults(void);

/* One codec's CPU curve, from the memory target's runs. */
typedef struct predict_codec {
    char codec[RUNS_NAME_MAX];
    size_t ceiling;          /* index into the analysis's ceilings */
    int cpu_model;           /* the curve's best rate model (fit_kind_t), -1 when none */
    int measured_lo, measured_hi; /* the thread counts the memory target ran */
    double input_bytes, output_bytes; /* at its largest measured thread count */
} predict_codec_t;

/* One predicted point. */
typedef struct predict_point {
    size_t volume, codec;    /* indexes into predict_t's volumes and codecs */
    int threads;
    bool extrapolated;       /* the memory target did not run T: its time is the fitted
                                CPU model's, held to the measured rates */
    double cpu_s;            /* the compute term: the memory target's time at T */
    /* The memory target's repetitions at T, scaled to cpu_s's bytes: the fastest and the
     * slowest (NAN when extrapolated or from one run), and whether they spread more than
     * the tolerance (analysis_point_t's noisy): the CPU's speed moved while they ran, and
     * the prediction starts from their median. */
    double cpu_min_s, cpu_max_s;
    bool cpu_noisy;
    prediction_t prediction; /* seconds, regime, parts and own times of each term */
    /* Where the kernel's write-back timing is not fixed by what is known, the model is an
     * interval (explain_late_seconds): prediction is its early end and seconds_high its
     * late end. Early: the writes beside the compression where the study's context is
     * unknown (a table from elsewhere: no thresholds), write-back from the flusher's first
     * wake-up where the run outlasts its period. Late: the page cache holding the whole
     * output to the fsync, or to the background threshold or the dirty expiry. NAN: a
     * point. */
    double seconds_high;
    verdict_kind_t verdict;  /* verdict_decide's: the term that sets the time */
    verdict_cause_t cause, second_cause; /* second: a balanced point's other term, else
                                            CAUSE_UNKNOWN */
} predict_point_t;

/* Where the volume starts to limit a codec's job (analysis_series_t's crossover): the
 * smallest real T at which the model names a volume term along the fitted CPU curve, with
 * its band one standard error either way; NAN when never below
 * ANALYSIS_CROSSOVER_MAX_THREADS or there is no curve. */
typedef struct predict_crossover {
    double threads, lo, hi;
    wbm_term_t term;     /* the volume's term there (read, write, flush); TERM_COUNT */
} predict_crossover_t;

typedef struct predict {
    predict_volume_t *volumes;
    size_t nvolumes;
    predict_codec_t *codecs;
    size_t ncodecs;
    /* In report order: by codec, then volume (in the order given), then threads. */
    predict_point_t *points;
    size_t npoints;
    predict_crossover_t *crossovers; /* [codec * nvolumes + volume] */
    predict_writeback_t writeback;
    bool same_layout;
    double tolerance;
} predict_t;

/* Forecasts every requested (codec, volume, T) from analysis a (its memory target's
 * series) and the n volumes (copied). On success *out is the caller's (predict_free).
 * CP_EUSAGE naming what is wrong for a codec the study has no memory runs of, a thread
 * count the memory target did not run when no model describes its CPU curve (or beyond
 * ANALYSIS_EXTRAPOLATION_REACH times its largest), a tolerance outside [0, 1), or no
 * volumes; CP_EDATA when the study has no memory-target runs of any codec; CP_ENOMEM.
 * *out is NULL on failure. */
int predict_run(const analysis_t *a, const predict_volume_t *volumes, size_t n,
                const predict_request_t *request, predict_t **out, cp_err_t *err);

/* The point of (codec, volume, threads); NULL when it was not forecast. */
const predict_point_t *predict_find(const predict_t *f, size_t codec, size_t volume,
                                    int threads);

/* Frees a forecast; NULL is fine. */
void predict_free(predict_t *f);

#endif
