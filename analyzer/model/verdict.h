/* verdict.h - what limits a job at one thread count: the verdict from the ceilings, and
 * the verdict and its causes from the write-back model's terms (the one mapping that
 * analyze and predict both use). Causes are named in cause.h.
 *
 * Ceilings are bytes of input per second. A ceiling that is not known is NAN. Pure
 * functions: no I/O, no allocation. */
#ifndef CP_MODEL_VERDICT_H
#define CP_MODEL_VERDICT_H

#include "model/writeback_model.h"

typedef enum verdict_kind {
    VERDICT_CPU,         /* within tolerance of the CPU ceiling */
    VERDICT_WRITE,       /* short of the CPU ceiling; the write ceiling is below it */
    VERDICT_READ,        /* short of the CPU ceiling; the read ceiling is below it */
    VERDICT_UNEXPLAINED, /* short of the CPU ceiling; no known ceiling accounts for it */
    VERDICT_BALANCED,    /* two terms of different kinds set the time within tolerance */
    VERDICT_NOT_JUDGED,  /* the model missed it in a study whose repetitions are too
                            imprecise to judge the tolerance (too short or too noisy) */
} verdict_kind_t;

/* The mechanism behind a verdict (cause.h describes each, cause_name names it). */
typedef enum verdict_cause {
    CAUSE_COMPUTE,
    CAUSE_CORES_SATURATED,
    CAUSE_CPU_CONTENTION,
    CAUSE_FLUSH_TAIL,
    CAUSE_WRITE_THROUGHPUT,
    CAUSE_READ_THROUGHPUT,
    CAUSE_UNKNOWN,
} verdict_cause_t;

/* "cpu-bound", "write-bound", "read-bound", "unexplained", "balanced", "not-judged". */
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

/* The verdict of a point's cause and, when balanced, its second cause (CAUSE_UNKNOWN:
 * none): balanced when the second is known and of another kind than the cause (the CPU,
 * reading, writing), else the cause's own (cause_verdict). */
verdict_kind_t verdict_of_causes(verdict_cause_t cause, verdict_cause_t second);

/* What a prediction's terms say, with tolerance tol: the limiting term and a balanced
 * second (wbm_decide; TERM_COUNT when none), each as its cause (cause_of_term; a missing
 * term is CAUSE_UNKNOWN), and the verdict of the two (verdict_of_causes). A prediction
 * that is unknown gives TERM_COUNT, CAUSE_UNKNOWN and unexplained. */
typedef struct verdict_decision {
    wbm_term_t limit, second;
    verdict_cause_t cause, second_cause;
    verdict_kind_t verdict;
} verdict_decision_t;

verdict_decision_t verdict_decide(const prediction_t *p, double tol);

#endif
