/* verdict.h - what limits a job at one thread count, and where a volume takes over.
 *
 * Ceilings are bytes of input per second. A ceiling that is not known is NAN. Pure
 * functions: no I/O, no allocation. */
#ifndef CP_MODEL_VERDICT_H
#define CP_MODEL_VERDICT_H

#include <stdbool.h>

#include "model/fit.h"

typedef enum verdict_kind {
    VERDICT_CPU,         /* within tolerance of the CPU ceiling */
    VERDICT_WRITE,       /* short of the CPU ceiling; the write ceiling is below it */
    VERDICT_READ,        /* short of the CPU ceiling; the read ceiling is below it */
    VERDICT_UNEXPLAINED, /* short of the CPU ceiling; no known ceiling accounts for it */
    VERDICT_BALANCED,    /* two terms of different kinds set the time within tolerance */
} verdict_kind_t;

/* "cpu-bound", "write-bound", "read-bound", "unexplained", "balanced". */
const char *verdict_name(verdict_kind_t kind);

/* The verdict for a measured rate against the CPU ceiling cpu_bps (required) and the
 * write and read ceilings (NAN when unknown): cpu-bound when measured >= (1 - tolerance)
 * * cpu; else the lower of the write/read ceilings that lies below cpu names it; else
 * unexplained. */
verdict_kind_t verdict_classify(double measured_bps, double cpu_bps, double write_bps,
                                double read_bps, double tolerance);

/* measured / min(cpu, write, read) over the known ceilings; NAN when none is known. */
double verdict_efficiency(double measured_bps, double cpu_bps, double write_bps,
                          double read_bps);

/* Write ceiling of a volume for a job: sustained write speed / (output / input bytes).
 * A ratio that is unknown (NAN) or not positive counts as 1. NAN when write_bps is. */
double verdict_write_ceiling(double sustained_write_bps, double output_ratio);

/* The smallest real T in [1, max_threads] at which the fitted CPU rate reaches limit_bps,
 * found by a fine scan and bisection (so a USL curve that peaks below the limit gives
 * none). NAN when it never does, when the limit is NAN or the model was not fitted. */
double verdict_crossover(const fit_result_t *cpu_rate_model, double limit_bps,
                         double max_threads);

/* The crossover under a CPU rate curve one standard error faster (*lo) and one slower
 * (*hi): every parameter with a standard error is moved by it in the direction that
 * raises (or lowers) the rate (power_time: a down, b up; linear_rate: both up; amdahl:
 * t1 and s down; usl: lambda up, sigma and kappa down, kept >= 0), correlations ignored.
 * Both NAN when the model has no standard errors (an exact fit) or a moved curve is not a
 * valid one; either is NAN when that curve never reaches the limit. */
void verdict_crossover_range(const fit_result_t *cpu_rate_model, double limit_bps,
                             double max_threads, double *lo, double *hi);

/* Whether a volume limits the job at `threads` when the cores alone would run it at
 * cpu_rate_bps (input bytes per second); ctx is the caller's. */
typedef bool (*verdict_limits_fn)(double threads, double cpu_rate_bps, void *ctx);

/* The smallest real T in [1, max_threads] at which limits() first holds along the fitted
 * CPU rate curve (the same scan and bisection as verdict_crossover); NAN when it never
 * does or the model was not fitted. */
double verdict_crossover_where(const fit_result_t *cpu_rate_model, verdict_limits_fn limits,
                               void *ctx, double max_threads);

/* verdict_crossover_range for a limits() predicate. */
void verdict_crossover_range_where(const fit_result_t *cpu_rate_model, verdict_limits_fn limits,
                                   void *ctx, double max_threads, double *lo, double *hi);

#endif
