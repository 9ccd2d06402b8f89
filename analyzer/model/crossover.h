/* crossover.h - where a volume starts to limit a job: the smallest thread count at which
 * a predicate (the caller's model naming a volume term) first holds along a fitted CPU
 * rate curve, and that point's band under the curve moved by one standard error.
 *
 * Pure functions: no I/O, no allocation. */
#ifndef CP_MODEL_CROSSOVER_H
#define CP_MODEL_CROSSOVER_H

#include <stdbool.h>

#include "model/fit.h"
#include "model/verdict.h"

/* Whether a volume limits the job at `threads` when the cores alone would run it at
 * cpu_rate_bps (input bytes per second); ctx is the caller's. */
typedef bool (*crossover_limits_fn)(double threads, double cpu_rate_bps, void *ctx);

/* The smallest real T in [1, max_threads] at which limits() first holds along the fitted
 * CPU rate curve, found by a fine scan (1/64 thread) and bisection, so a USL curve that
 * peaks before the predicate holds gives none. NAN when it never does or the model was
 * not fitted. */
double crossover_find(const fit_result_t *cpu_rate_model, crossover_limits_fn limits,
                      void *ctx, double max_threads);

/* crossover_find under a CPU rate curve one standard error faster (*lo) and one slower
 * (*hi): every parameter with a standard error is moved by it in the direction that
 * raises (or lowers) the rate (power_time: a down, b up; linear_rate: both up; amdahl:
 * t1 and s down; usl: lambda up, sigma and kappa down, kept >= 0), correlations ignored.
 * Both NAN when the model has no standard errors (an exact fit) or a moved curve is not a
 * valid one; either is NAN when that curve never reaches it. */
void crossover_range(const fit_result_t *cpu_rate_model, crossover_limits_fn limits,
                     void *ctx, double max_threads, double *lo, double *hi);

/* The volume ceiling a crossover is about when the model names none: the read ceiling
 * (VERDICT_READ) when it is known (> 0) and below the write ceiling or the write ceiling
 * is not known (a series that writes nothing has only the read); else the write ceiling
 * (VERDICT_WRITE). The one rule for the analysis and the captions. */
verdict_kind_t crossover_ceiling(double write_ceiling_bps, double read_ceiling_bps);

#endif
