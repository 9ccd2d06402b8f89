/* compare.h - one study against another: series paired by (target, codec), and per thread
 * count both sides measured, the rate ratio B / A with a bootstrap 95% interval over the
 * repetitions and a call (slower, faster, same) that noise cannot make by itself.
 *
 * The calls (docs/method.md, "Comparing studies"):
 *   - both sides have >= COMPARE_MIN_REPS repetitions at T: the ratio of the median rates
 *     is resampled (each side with replacement, COMPARE_DEFAULT_RESAMPLES times, from a
 *     seeded generator, so the same inputs give the same interval everywhere); the call is
 *     slower when the whole interval lies below 1 - threshold, faster when it lies above
 *     1 + threshold, else same (basis "ci");
 *   - otherwise the ratio alone is held against the threshold (basis "threshold").
 * A point is a regression when it is slower by more than the fail threshold: its interval
 * entirely below 1 - fail, or without an interval its ratio.
 *
 * Pure computation on the analyses and runs tables handed in; nothing here reads files. */
#ifndef CP_MODEL_COMPARE_H
#define CP_MODEL_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "model/analysis.h"
#include "model/runs.h"
#include "model/study_env.h"

#define COMPARE_MIN_REPS 3
#define COMPARE_DEFAULT_RESAMPLES 2000
#define COMPARE_DEFAULT_THRESHOLD 0.02
#define COMPARE_DEFAULT_SEED 1
#define COMPARE_MAX_STUDIES 64

typedef struct compare_options {
    double threshold;       /* a change smaller than this fraction is "same" (0.02) */
    double fail_threshold;  /* regression limit as a fraction; NAN: not asked for */
    double confidence;      /* of the bootstrap interval (0.95) */
    unsigned resamples;     /* bootstrap resamples per point (2000) */
    uint64_t seed;          /* of the bootstrap generator (1) */
    /* The caller takes --pair NAME_A:NAME_B (compare does, history does not): a failure to
     * pair anything then says to use it. */
    bool pair_option;
} compare_options_t;

/* The defaults above. */
compare_options_t compare_defaults(void);

typedef enum compare_change { COMPARE_SAME, COMPARE_SLOWER, COMPARE_FASTER } compare_change_t;
typedef enum compare_basis { COMPARE_BASIS_CI, COMPARE_BASIS_THRESHOLD } compare_basis_t;

/* "same", "slower", "faster". */
const char *compare_change_name(compare_change_t change);
/* "ci", "threshold". */
const char *compare_basis_name(compare_basis_t basis);

/* One study as compare sees it. runs may be NULL (then the analysis' medians are all there
 * is, and every call is on the threshold). Nothing is copied: keep them alive. */
typedef struct compare_study {
    const char *label;          /* how reports name it: the path given */
    const analysis_t *analysis;
    const runs_table_t *runs;
    const study_env_t *env;     /* its meta.json's environment; NULL or not known: none */
} compare_study_t;

/* A pairing asked for by name (--pair NAME_A:NAME_B): target a of study A with target b
 * of each other study; codecs must match unless each of those targets has one series. */
typedef struct compare_name_pair {
    const char *a, *b;
} compare_name_pair_t;

/* One thread count both sides of a pair measured. */
typedef struct compare_point {
    int threads;
    double rate_a, rate_b;      /* median rates (bytes/s) over the repetitions */
    size_t n_a, n_b;            /* repetitions */
    double rate_ratio;          /* rate_b / rate_a */
    double ci_low, ci_high;     /* bootstrap interval of rate_ratio; NAN without one */
    compare_change_t change;
    compare_basis_t basis;
    bool regression;            /* slower than the fail threshold allows */
} compare_point_t;

/* A thread count where the two sides' verdicts differ. */
typedef struct compare_verdict_change {
    int threads;
    verdict_kind_t a, b;
} compare_verdict_change_t;

typedef struct compare_pair {
    size_t study_b;                 /* index of B in the studies handed in (>= 1) */
    const analysis_series_t *a, *b; /* point into the analyses */
    compare_point_t *points;        /* common thread counts, ascending */
    size_t npoints;
    /* linear_rate slopes and their ratio b / a; power_time exponents; crossovers (NAN
     * when not fitted or not reached). */
    double slope_a, slope_b, slope_ratio;
    double exponent_a, exponent_b;
    double crossover_a, crossover_b;
    compare_verdict_change_t *verdict_changes;
    size_t nverdict_changes;
    size_t slower, faster, same, regressions; /* counts over points */
} compare_pair_t;

typedef struct compare_result {
    compare_options_t options;
    compare_pair_t *pairs;
    size_t npairs;
    size_t regressions;             /* over all pairs */
} compare_result_t;

/* Compares studies[1..nstudies-1] each with studies[0]. Series pair by equal (target,
 * codec); a side with one series pairs with the other's one series; names add pairings.
 * On success *out is the caller's (compare_free). Returns CP_EUSAGE when a named target
 * is not in its study, CP_EDATA when some study shares no thread count of any series
 * with A (the message names both and their targets), CP_ENOMEM; *out is NULL then. */
int compare_run(const compare_study_t *studies, size_t nstudies,
                const compare_name_pair_t *names, size_t nnames,
                const compare_options_t *options, compare_result_t **out, cp_err_t *err);

/* The call on one ratio with its interval (NAN bounds: none), as compare_run makes it:
 * sets *change and *basis. Exposed for tests and reports. */
void compare_decide(double ratio, double ci_low, double ci_high, double threshold,
                    compare_change_t *change, compare_basis_t *basis);

/* Whether a point is slower than fail allows (interval entirely below 1 - fail, or
 * without an interval the ratio). False when fail is NAN. */
bool compare_is_regression(double ratio, double ci_low, double ci_high, double fail);

/* The bootstrap interval of median(b) / median(a) at the given confidence, from
 * resamples draws seeded by seed, into *low and *high. NAN when either side has fewer
 * than COMPARE_MIN_REPS values; CP_ENOMEM when scratch space cannot be had. */
int compare_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
                            unsigned resamples, double confidence, uint64_t seed,
                            double *low, double *high);

/* The regression of r with the smallest rate ratio, or NULL when r (NULL is fine) has
 * none; *pair is then its pair. Points into r. */
const compare_point_t *compare_worst_regression(const compare_result_t *r,
                                                const compare_pair_t **pair);

/* Frees a result; NULL is fine. */
void compare_free(compare_result_t *result);

#endif
