/* verdict.c - owns the verdict at one thread count from the ceilings, and the thread
 * count where a volume starts to limit the job (verdict.h). */
#include "model/verdict.h"

#include <math.h>
#include <stdbool.h>

const char *verdict_name(verdict_kind_t kind)
{
    switch (kind) {
    case VERDICT_CPU: return "cpu-bound";
    case VERDICT_WRITE: return "write-bound";
    case VERDICT_READ: return "read-bound";
    case VERDICT_BALANCED: return "balanced";
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

/* limits() for a fixed volume ceiling: the CPU rate reaches it. */
static bool reaches_limit(double threads, double cpu_rate_bps, void *ctx)
{
    (void)threads;
    return cpu_rate_bps >= *(const double *)ctx;
}

double verdict_crossover(const fit_result_t *model, double limit_bps, double max_threads)
{
    if (!(limit_bps > 0.0))
        return NAN;
    return verdict_crossover_where(model, reaches_limit, &limit_bps, max_threads);
}

double verdict_crossover_where(const fit_result_t *model, verdict_limits_fn limits, void *ctx,
                               double max_threads)
{
    if (model == NULL || !model->fitted || !(max_threads >= 1.0))
        return NAN;
    if (limits(1.0, fit_rate_at(model, 1.0), ctx))
        return 1.0;
    /* Steps of 1/64 thread find the first crossing of any of our curves (at most one
     * peak), then bisection pins it to well below a hundredth of a thread. */
    const double step = 1.0 / 64.0;
    double lo = 1.0;
    for (double hi = 1.0 + step; hi <= max_threads + step / 2; hi += step) {
        if (limits(hi, fit_rate_at(model, hi), ctx)) {
            for (int i = 0; i < 40; i++) {
                double mid = 0.5 * (lo + hi);
                if (limits(mid, fit_rate_at(model, mid), ctx))
                    hi = mid;
                else
                    lo = mid;
            }
            return hi;
        }
        lo = hi;
    }
    return NAN;
}

/* model with each parameter moved by direction x its standard error towards a faster
 * (toward = +1) or slower (-1) rate curve; false when the moved curve is not valid. */
static bool moved_model(const fit_result_t *model, int toward, fit_result_t *out)
{
    /* +1: the parameter raises the rate. */
    static const int raises[FIT_KIND_COUNT][FIT_MAX_PARAMS] = {
        [FIT_POWER_TIME] = {-1, +1, 0},
        [FIT_LINEAR_RATE] = {+1, +1, 0},
        [FIT_AMDAHL] = {-1, -1, 0},
        [FIT_USL] = {+1, -1, -1},
    };
    *out = *model;
    bool any = false;
    for (int i = 0; i < model->nparams && i < FIT_MAX_PARAMS; i++) {
        double se = model->param_se[i];
        if (!(se > 0.0) || model->param_at_bound[i])
            continue;
        out->param[i] += toward * raises[model->kind][i] * se;
        any = true;
    }
    if (!any)
        return false;
    switch (model->kind) {
    case FIT_POWER_TIME: return out->param[0] > 0.0;
    case FIT_AMDAHL:
        out->param[1] = fmin(1.0, fmax(0.0, out->param[1]));
        return out->param[0] > 0.0;
    case FIT_USL:
        out->param[1] = fmax(0.0, out->param[1]);
        out->param[2] = fmax(0.0, out->param[2]);
        return out->param[0] > 0.0;
    default: return true;
    }
}

void verdict_crossover_range(const fit_result_t *model, double limit_bps, double max_threads,
                             double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (limit_bps > 0.0)
        verdict_crossover_range_where(model, reaches_limit, &limit_bps, max_threads, lo, hi);
}

void verdict_crossover_range_where(const fit_result_t *model, verdict_limits_fn limits,
                                   void *ctx, double max_threads, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (model == NULL || !model->fitted || model->exact)
        return;
    fit_result_t faster, slower;
    if (!moved_model(model, +1, &faster) || !moved_model(model, -1, &slower))
        return;
    *lo = verdict_crossover_where(&faster, limits, ctx, max_threads);
    *hi = verdict_crossover_where(&slower, limits, ctx, max_threads);
}
