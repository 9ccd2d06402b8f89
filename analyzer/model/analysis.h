/* analysis.h - from runs (and optionally probe speeds) to an answer: per series (target,
 * codec) the median points, the four fitted models, ceilings, a verdict per thread count
 * and the thread count where a volume starts to limit the job.
 *
 * This is the library behind `chokepoint analyze`; `run` and `plot` call it too. The
 * result is a plain tree of structs owned by one analysis_t: read it directly, evaluate
 * the fits with fit_rate_at / fit_time_at (model/fit.h), free it with analysis_free. */
#ifndef CP_MODEL_ANALYSIS_H
#define CP_MODEL_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "common/target_name.h"
#include "model/cause.h"
#include "model/fit.h"
#include "model/writeback_model.h"
#include "model/verdict.h"
#include "model/probe_speeds.h"
#include "model/runs.h"

#define ANALYSIS_CROSSOVER_MAX_THREADS 1024.0
#define ANALYSIS_SERIES_MAX 4096 /* more (target, codec) series is refused as data */
/* A model "describes" its points when its R2 is at least this (exact fits count) ... */
#define ANALYSIS_MODEL_MIN_R2 0.90
/* ... and it predicts its largest thread count from the others within this fraction. */
#define ANALYSIS_MODEL_MAX_HOLDOUT 0.25
/* A crossover beyond this multiple of the largest measured thread count is not stated as
 * a thread count: "not within reach of the measured range". */
#define ANALYSIS_EXTRAPOLATION_REACH 4.0
/* The repetitions of a point kept one by one for pairing (more are still in its median). */
#define ANALYSIS_REPS_MAX 64
/* A study's runs shorter than this (median seconds) that are too imprecise to judge are
 * too short, and a larger input is named first; longer ones are too noisy. */
#define ANALYSIS_SHORT_RUN_S 2.0
/* The most repetitions the answer suggests (--reps auto's own limit). */
#define ANALYSIS_REPS_SUGGEST_MAX 10
/* An efficiency above this is flagged as suspicious (page cache, emulation, noise). */
#define ANALYSIS_EFFICIENCY_SUSPECT 1.05

/* Remarks on one point, ORed into analysis_point_t.flags; every report shows them. */
enum analysis_point_flag {
    POINT_OVERSUBSCRIBED = 1u << 0,  /* more threads than the CPUs online during the run */
    POINT_EFFICIENCY_HIGH = 1u << 1, /* efficiency above ANALYSIS_EFFICIENCY_SUSPECT */
    POINT_BEYOND_PROBE = 1u << 2,    /* wrote (fsync'd or O_DIRECT) faster than the tolerance
                                        allows over the volume's write speed */
    POINT_SINGLE_RUN_UNEXPLAINED = 1u << 3, /* unexplained, resting on one repetition */
    POINT_CPU_SPEED_MOVED = 1u << 4, /* the same work took more than the tolerance more or
                                        less user CPU time than in memory (cpu_time_shift) */
    POINT_EXCESS_NOT_VOLUME = 1u << 5, /* beyond the tolerance of the model's time, but the
                                          volume cannot matter: cpu-bound all the same
                                          (analysis_verdict_t.volume_cannot_matter) */
    POINT_SPEED_UNPROBED = 1u << 6,    /* beyond the tolerance of the model's time on a
                                          volume whose speed was not measured
                                          (analysis_verdict_t.speed_unprobed) */
};

typedef struct analysis_options {
    double tolerance; /* fraction of the CPU ceiling still counted cpu-bound (0.10) */
} analysis_options_t;

/* The defaults: tolerance 0.10. */
analysis_options_t analysis_defaults(void);

/* Where a CPU ceiling value came from. */
typedef enum ceiling_source {
    CEILING_MEM,       /* the mem series measured at this T */
    CEILING_MEM_MODEL, /* the mem series' best rate model at this T, held to its measured
                          rates (mem lacks this T; analysis_ceiling_rate_at) */
    CEILING_ESTIMATED, /* no mem series: the fastest series measured at this T */
} ceiling_source_t;

/* "mem", "mem-model", "estimated". */
const char *analysis_ceiling_source_name(ceiling_source_t source);

/* Medians over the repetitions at one thread count. Unknown values are NAN. */
typedef struct analysis_point {
    int threads;
    size_t n;                 /* runs at this T */
    double seconds, seconds_min, seconds_max;
    double input_bytes, output_bytes;
    double bytes_per_s;       /* input_bytes / seconds (both medians) */
    double cpu_user_s, cpu_sys_s;
    /* Busy fractions from the stage accounting: reader and writer busy / seconds,
     * compressors busy / (threads * seconds). NAN without stage columns. */
    double reader_busy, compress_busy, writer_busy;
    /* The run's phases and telemetry (medians; NAN when the runs do not give them). */
    double pipeline_s, flush_s;
    double cpu_idle_share, cpu_sys_share, dev_busy_share;
    double dirty_background_bytes, dirty_bytes, dirty_expire_s, dirty_writeback_s;
    double online_cpus;
    double block_bytes;       /* the blocks engine's input block; NAN otherwise */
    /* Where the time went (medians of the runs' summed thread figures, run_row_t; NAN
     * when not measured); io_wait_system: io_wait_s is the machine's I/O pressure. */
    double cpu_wait_s, io_wait_s, io_read_wait_s, dirty_pause_s;
    bool io_wait_system;
    /* The critical path of the run whose time is nearest the median (run_row_t's path_s,
     * run_path_t's order; NAN when its runs did not measure it). */
    double path_s[RUN_PATH_COUNT];
    /* The repetitions spread (max - min) more than the tolerance of the median. */
    bool noisy;
    unsigned flags;           /* enum analysis_point_flag */
    /* The write-back model's time for this point (model/writeback_model.h); NAN for the mem
     * series and when the volume's drain rate is unknown. */
    double predicted_seconds, predicted_tail_s;
    wbm_regime_t predicted_regime;
    /* Where the kernel's write-back timing is not fixed by what is known, the model's
     * interval: an unknown context (explain_writeback_unknown: a table from elsewhere),
     * from the writes overlapping the compression (low) to the writes following it
     * (high); a run longer than the flusher's period, from write-back at its first wake-up
     * to none before the threshold or the expiry. predicted_seconds is the end nearer the
     * measured time. NAN otherwise. */
    double predicted_low_s, predicted_high_s;
    /* The mem run's CPU seconds (user + system) at this T, the prediction's input for the
     * I/O path's share of the cores; NAN when unknown. */
    double mem_cpu_work_s;
    /* Each repetition's time, by its number (runs.csv's rep; a sweep runs a repetition of
     * one case on every target in one block, memory's next to each volume's): the pairs
     * the verdict compares. nreps 0 when the rows carry no repetition numbers. */
    size_t nreps;
    int rep[ANALYSIS_REPS_MAX];
    double rep_seconds[ANALYSIS_REPS_MAX];
} analysis_point_t;

typedef struct analysis_verdict {
    int threads;
    verdict_kind_t verdict;
    double bytes_per_s;
    double cpu_ceiling_bps;
    ceiling_source_t cpu_ceiling_source;
    double write_ceiling_bps; /* NAN when unknown */
    double read_ceiling_bps;  /* NAN when unknown */
    double efficiency;        /* bytes_per_s / min of the known ceilings */
    double relative_speed;    /* bytes_per_s / the fastest series (same codec) at this T */
    const char *fastest;      /* that series' target name (points into the analysis) */
    /* The busiest pipeline stage's verdict (cpu/write/read), when stages are known. */
    bool has_stage_verdict;
    verdict_kind_t stage_verdict;
    bool stage_disagrees;     /* stage_verdict differs from verdict (not for unexplained) */
    /* Why: the mechanism (model/cause.h), the figures it rests on, and whether the
     * device's busy share contradicts it. verdict == cause_verdict(cause), except for a
     * balanced point: verdict VERDICT_BALANCED, its two terms cause and second_cause. */
    verdict_cause_t cause;
    verdict_cause_t second_cause; /* the other term of a balanced point; CAUSE_UNKNOWN */
    bool from_model;  /* decided from the model's decomposition (else from the ceilings
                         alone: no volume speed was known to predict with) */
    cause_miss_t miss; /* why an unexplained point is unexplained */
    /* The run missed the model by more than the tolerance, but the volume's terms
     * (reading, writing, the flush and the I/O path's CPU work) add under the tolerance of
     * the compute term even at half the volume's speed: the volume cannot be why (a RAM
     * volume, a fast disk far from its crossover). The verdict is cpu-bound; excess is
     * the judged time over the predicted one, minus 1 (negative: faster). */
    bool volume_cannot_matter;
    double excess;
    /* The run missed the model by more than the tolerance and the volume's speed in the
     * direction the job uses it (the drain for a compression, reads for a decompression)
     * was not measured (--no-probe, a table from elsewhere): the model cannot say what
     * the volume costs, so nothing is borrowed from the ceilings. The cause is the one
     * the run's own accounting witnesses (its threads blocked reading or writing for at
     * least half the excess), else unknown (MISS_UNPROBED); excess as above. */
    bool speed_unprobed;
    /* The point lies on the boundary between the cores and the volume within its noise:
     * the predicted time is within the point's noise of memory's time plus the tolerance,
     * or the prediction and the judged time lie on the two sides of it. The verdict is
     * balanced between compute and the volume's largest term, so that noise cannot flip
     * it from one study to the next. */
    bool within_noise;
    cause_evidence_t evidence;
    double gap_s, flush_share; /* the shortfall against the CPU ceiling, the flush's share */
    bool device_disagrees;
    /* The kernel's accounting of the run's threads contradicts the cause
     * (cause_accounting_disagrees). */
    bool accounting_disagrees;
} analysis_verdict_t;

/* The CPU ceiling of one codec: the mem series, or (estimated) the fastest series at
 * each thread count, with the four models fitted to it. */
typedef struct analysis_ceiling {
    char codec[RUNS_NAME_MAX];
    bool estimated;             /* no mem series for this codec */
    int *threads;               /* ascending */
    double *bytes_per_s;
    size_t npoints;
    fit_result_t models[FIT_KIND_COUNT];
    /* The lowest-AICc model among those that describe the points (R2 and holdout check,
     * analysis_model_describes); -1 when none fitted or none describes them. */
    int best_rate_model;
    /* When none describes the points: the lowest-AICc model, whose R2 or holdout error
     * the reports name; -1 otherwise. Nothing is extrapolated from it. */
    int rejected_rate_model;
    const struct analysis_series *mem; /* the mem series, NULL when estimated */
    /* [T] for T in 0..RUNS_THREADS_MAX: the fastest series of this codec measured at T,
     * or NULL (for relative speeds and the estimated ceiling). */
    const struct analysis_series **fastest_by_threads;
} analysis_ceiling_t;

typedef struct analysis_series {
    char name[RUNS_NAME_MAX];
    char codec[RUNS_NAME_MAX];  /* "" when the runs have no codec */
    char dir[RUNS_DIR_MAX];     /* the runs' directory for it; "" when not given */
    /* The probe target its write speeds are from: the one of the same name, else the one
     * probed on the same directory (probe_table_match); "" when none. */
    char probe_target[RUNS_NAME_MAX];
    /* A command series (codec "cmd:...") whose volume was probed through an emulated cap:
     * the cap paces chokepoint's own I/O, never a command's, so the probe's figures are
     * not this series' and none is used (probe_target ""; a note says so). */
    bool probe_cap_ignored;
    /* A command series on a target an emulated cap paced for the built-in series (or
     * whose probe it paced): the cap never paced the command, and every report says
     * so where its verdict is. */
    bool unpaced;
    /* The memory target's series (CP_MEM_TARGET_NAME): output counted in memory, so its
     * times are the CPU ceiling the others are held against, not a volume's. */
    bool cpu_ceiling;
    /* From the runs' label columns, for reports and plots: 1 when any run says so, 0 when
     * runs say no, -1 when the file does not tell. */
    int ram, emulated;
    double rate_cap_bps;        /* the emulated cap (median over runs), NAN when none */
    bool disk_emulated;         /* the cap was an emulated disk's (every capped run says
                                   so): the page cache took the writes and the kernel
                                   drained them at the cap, as on a real disk; false:
                                   chokepoint paced each write (like O_DIRECT) */
    char sync[16];              /* the runs' sync mode, "mixed" or "" when not given */
    /* The programs that measured its runs and its volume's probe rows (write speeds and
     * drain rate): one when all agree, DATA_SOURCE_UNKNOWN when they differ or say none. */
    data_source_t source, probe_source;
    analysis_point_t *points;   /* ascending threads */
    size_t npoints;
    fit_result_t models[FIT_KIND_COUNT];
    int best_rate_model;        /* index into models, -1 when none fitted or none
                                   describes the points */
    int rejected_rate_model;    /* as in analysis_ceiling_t */
    double output_ratio;        /* output / input bytes (median), NAN when unknown */
    double write_bps, read_bps; /* sustained probe speeds used; NAN when unknown */
    /* The volume's drain rate (write speed with the page cache out of the way) used by the
     * write ceiling and the predictions; INFINITY for RAM; NAN when unknown. */
    double drain_bps;
    const char *drain_source;   /* "probe-drain", "probe-write", "emulated-cap",
                                   "emulated-cap-unprobed", "ram", "nothing written" or
                                   "unknown" */
    double io_cpu_per_byte;     /* the probe's system CPU seconds per byte written; NAN */
    double write_speed_bps;     /* behind the write ceiling: the drain rate (else the probed
                                   write speed), never above an emulated cap; NAN unknown */
    /* Median and largest |predicted - measured| / measured over the predicted points;
     * NAN when nothing was predicted. */
    double prediction_error_median, prediction_error_max;
    size_t noisy_points;
    char read_from[RUNS_NAME_MAX]; /* probe target the read speed is from; "" if none */
    double write_ceiling_bps;   /* drain_bps (else write_bps) / output_ratio (ratio 1 when
                                   unknown); the probe's figure for RAM */
    double read_ceiling_bps;
    analysis_verdict_t *verdicts; /* one per point, same order */
    verdict_kind_t verdict;       /* at the largest T */
    size_t ceiling;               /* index into analysis_t.ceilings */
    /* Smallest real T at which the write-back model, along the fitted CPU rate, names a
     * volume term (explain_crossover, model/crossover.h); NAN when it does not below
     * ANALYSIS_CROSSOVER_MAX_THREADS or is unknown. */
    double crossover_threads;
    /* The crossover under the CPU curve one standard error faster and slower
     * (crossover_range); NAN when the fit has no standard errors. */
    double crossover_lo, crossover_hi;
    verdict_kind_t crossover_limit; /* VERDICT_WRITE or VERDICT_READ */
    int crossover_model;            /* the CPU ceiling's model used, -1 when none */
    double crossover_rate_bps;      /* the model's rate there (input bytes per second) */
    wbm_term_t crossover_term;  /* the volume's term there: read, write or flush */
    /* The term that sets the time there (the volume's, or the I/O path's CPU work it is
     * balanced with, or compute when the volume's is balanced with it); TERM_COUNT: none */
    wbm_term_t crossover_lead;
    /* What-if at the largest T, asked of the same model only where it explains that point
     * with a volume term and its time is beyond the tolerance: a write speed of at least
     * whatif_write_bps (a drain rate, or a cap for an emulated volume) would bring the job
     * within the tolerance of the compute term, taking whatif_seconds with this sync mode.
     * whatif_threads 0 when not asked; the speeds and seconds NAN when no speed does. */
    int whatif_threads;
    double whatif_write_bps, whatif_seconds;
    /* When no write speed (or read speed) reaches the goal: the term that remains with an
     * infinitely fast volume (TERM_COUNT when one does reach it, or nothing was asked).
     * whatif_direct_bps: for buffered runs, the drain rate that would do with O_DIRECT
     * writes (the same model, sync direct); NAN when none or not asked. */
    wbm_term_t whatif_blocked_by;
    double whatif_direct_bps;
    /* A decompression series (runs.csv op): its archive is read from this target (the
     * read ceiling is read_bps / output_ratio, in restored bytes per second), restored to
     * memory (no write ceiling) or, with restores_to_volume, onto the target (write ceiling
     * at ratio 1). Its codec is labelled "<codec> decompression". whatif_read_bps: the read
     * speed that brings it within the tolerance of the CPU ceiling; NAN otherwise. */
    bool decompress, restores_to_volume;
    bool same_layout;       /* the runs read their input from a copy on this target */
    char run_codec[RUNS_NAME_MAX]; /* the codec as runs.csv names it ("zstd:3") */
    double read_cap_bps;    /* emulated read cap of its runs; NAN: none */
    double whatif_read_bps;
} analysis_series_t;

/* How runs targets were matched with probe targets, for stderr and the report's notes. */
typedef struct analysis_note {
    bool warning; /* a target left without speeds (else: matched by directory, for the record) */
    char *text;   /* one sentence naming both sides */
    char *detail; /* the figures behind it in full, for the details; NULL when text has
                     them all */
} analysis_note_t;

/* Whether the study's repetitions are precise enough to judge a difference of the
 * tolerance (analysis_precision.h, docs/method.md "Too short to judge"). */
typedef struct analysis_precision {
    size_t points;       /* points with two or more repetitions (0: not judged) */
    size_t reps;         /* the median repetitions of those points */
    double spread;       /* median of their (max - min) / median time */
    double run_noise;    /* one run's relative standard deviation, from the spreads */
    double run_s;        /* their median time */
    double input_bytes;  /* the study's largest input */
    bool too_short;      /* the medians are too imprecise for the tolerance */
    bool short_runs;     /* ... and the runs are short (under ANALYSIS_SHORT_RUN_S) */
    size_t reps_needed;  /* repetitions that would judge it at this input */
    double input_needed_bytes; /* the input that would judge it at these repetitions */
} analysis_precision_t;

typedef struct analysis {
    char *runs_path;
    char *probe_path;      /* NULL without a probe table */
    analysis_note_t *notes;
    size_t nnotes;
    /* One note per probe target whose figures the analysis uses and whose figures are
     * rough (spread, two regimes, reads bound by the kernel), and per series that read its
     * input faster than its read ceiling: the answer's, at most 30 words with what to do,
     * detail in full (probe_noise_notes). */
    analysis_note_t *probe_notes;
    size_t nprobe_notes;
    double tolerance;
    size_t runs_used, runs_skipped;
    analysis_series_t *series;
    size_t nseries;
    analysis_ceiling_t *ceilings; /* one per codec */
    size_t nceilings;
    /* (target, codec) pairs none of whose runs succeeded: no series, but named in the
     * answer with their first error. */
    run_failure_t *failed;
    size_t nfailed;
    analysis_precision_t precision;
} analysis_t;

/* True when a fitted model describes its points well enough to extrapolate from: an exact
 * fit, or R2 >= ANALYSIS_MODEL_MIN_R2 (when defined) and a holdout error within
 * ANALYSIS_MODEL_MAX_HOLDOUT (when defined). */
bool analysis_model_describes(const fit_result_t *model);

/* The point of series s at that thread count (a binary search: points are ascending), or
 * NULL when s has none there. */
const analysis_point_t *analysis_point_at(const analysis_series_t *s, int threads);

/* rate, a CPU ceiling's fitted model's value at a thread count (a real number: the
 * crossover asks between whole ones), held to what the ceiling's measured points allow:
 * no lower than the slowest measured rate (below the measured range, no lower than
 * perfect scaling down from its first point) and no higher than the fastest measured
 * rate or, beyond the range, perfect scaling from its last point, whichever is greater.
 * A model fitted to two or three noisy points can fall to zero or below a few threads
 * away (a linear rate whose slope came out negative), or rise faster than the cores
 * could: held so, it stays within what was measured. Monotonic in rate; where rate is
 * NAN, the nearest measured point's rate. rate unchanged when c has no points. */
double analysis_ceiling_rate_held(const analysis_ceiling_t *c, double threads, double rate);

/* The ceiling's best rate model at that thread count, held as above; NAN when c is NULL,
 * empty, or no model describes its points. */
double analysis_ceiling_rate_at(const analysis_ceiling_t *c, double threads);

/* The thread counts a ceiling was measured at: [*lo, *hi] (0, 0 when empty). */
void analysis_ceiling_range(const analysis_ceiling_t *ceiling, int *lo, int *hi);

/* Analyses runs (required, at least one row) with optional probe speeds (NULL = none).
 * On success *out is owned by the caller (analysis_free). On failure returns CP_EDATA
 * (e.g. no usable runs), CP_ENOMEM, or CP_EINTR when SIGINT/SIGTERM arrives (common/
 * cleanup) while a large table's points are built, with err set, and *out is NULL. */
int analysis_run(const runs_table_t *runs, const probe_table_t *probe,
                 const analysis_options_t *options, analysis_t **out, cp_err_t *err);

/* The bytes point p of series s wrote to its volume: the output, or a decompression's
 * restored bytes. */
double analysis_written_bytes(const analysis_series_t *s, const analysis_point_t *p);

/* Where a point's wall time went (docs/method.md, "Where the time went"): the kernel's
 * figures, summed over the run's threads, spread over the pipeline's T + 2 threads (the
 * reader, the writer and T compressors), so that the parts add up to the point's median
 * seconds: on a core (user + system CPU), waiting for a core, blocked reading the input,
 * blocked writing (write-back throttling and the final flush included), and the rest
 * (waiting for another stage: a slot, a block, the flush). */
typedef struct analysis_time_split {
    int threads; /* T + 2 */
    double seconds, on_core_s, core_wait_s, read_wait_s, write_wait_s, other_s;
} analysis_time_split_t;

/* Fills *out for point p. False (and *out zeroed) when the point's runs did not record
 * their own threads' waits (a command's runs, no delay accounting: the machine-wide
 * pressure figures cannot be split per thread; no reader/writer split). */
bool analysis_time_split(const analysis_point_t *p, analysis_time_split_t *out);

/* Where a point's wall time went along the critical path of its median run (docs/
 * method.md, "Where the time went"): each moment counted once, by what the job as a whole
 * waited for: compressing (the codec on a core), a core, the reader or writer on a core
 * (the I/O path's CPU), blocked reading, blocked writing (the disk, write-back throttling,
 * an emulated cap, the final flush), and none (other_s: starting and stopping the
 * threads). The parts add up to the point's median seconds. */
typedef struct analysis_path_split {
    double seconds, compute_s, core_wait_s, io_cpu_s, read_blocked_s, write_blocked_s, other_s;
} analysis_path_split_t;

/* Fills *out for point p. False (and *out zeroed) when its runs did not record their
 * critical path (a command's runs, runs.csv without the path_*_s columns). */
bool analysis_path_split(const analysis_point_t *p, analysis_path_split_t *out);

/* Frees an analysis; NULL is fine. */
void analysis_free(analysis_t *analysis);

#endif
