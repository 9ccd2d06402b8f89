/* verdict.c - owns the verdict at one thread count: from the ceilings, and from the
 * write-back model's terms (verdict.h). */
#include "model/verdict.h"

#include <math.h>
#include <stdbool.h>

#include "model/cause.h"

const char *verdict_name(verdict_kind_t kind)
{
    switch (kind) {
    case VERDICT_CPU: return "cpu-bound";
    case VERDICT_WRITE: return "write-bound";
    case VERDICT_READ: return "read-bound";
    case VERDICT_BALANCED: return "balanced";
    case VERDICT_NOT_JUDGED: return "not-judged";
    default: return "unexplained";
    }
}

verdict_kind_t verdict_classify(double measured_bps, double cpu_bps, double write_bps,
                                double read_bps, double tolerance)
{
    if (measured_bps >= (1.0 - tolerance) * cpu_bps)
        return VERDICT_CPU;
    bool write_below = write_bps < cpu_bps; /* false for NAN */
    bool read_below = read_bps < cpu_bps;
    if (write_below && read_below)
        return read_bps < write_bps ? VERDICT_READ : VERDICT_WRITE;
    if (write_below)
        return VERDICT_WRITE;
    if (read_below)
        return VERDICT_READ;
    return VERDICT_UNEXPLAINED;
}

double verdict_efficiency(double measured_bps, double cpu_bps, double write_bps,
                          double read_bps)
{
    double limit = INFINITY;
    if (cpu_bps > 0.0)
        limit = fmin(limit, cpu_bps);
    if (write_bps > 0.0)
        limit = fmin(limit, write_bps);
    if (read_bps > 0.0)
        limit = fmin(limit, read_bps);
    return isfinite(limit) ? measured_bps / limit : NAN;
}

double verdict_write_ceiling(double sustained_write_bps, double output_ratio)
{
    if (!(output_ratio > 0.0) || !isfinite(output_ratio))
        output_ratio = 1.0;
    return sustained_write_bps / output_ratio;
}

verdict_kind_t verdict_of_causes(verdict_cause_t cause, verdict_cause_t second)
{
    /* Balanced is between two kinds (the CPU, reading, writing); two causes of one kind
     * are that kind's verdict. */
    return second != CAUSE_UNKNOWN && cause_verdict(second) != cause_verdict(cause)
               ? VERDICT_BALANCED
               : cause_verdict(cause);
}

verdict_decision_t verdict_decide(const prediction_t *p, double tol)
{
    verdict_decision_t d;
    d.limit = wbm_decide(p, tol, &d.second);
    d.cause = cause_of_term(d.limit);
    d.second_cause = cause_of_term(d.second);
    d.verdict = verdict_of_causes(d.cause, d.second_cause);
    return d;
}
