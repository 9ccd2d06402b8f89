/* crossover.c - owns where a volume starts to limit a job along a fitted CPU rate curve:
 * the root-finding and its band one standard error either way (crossover.h). */
#include "model/crossover.h"

#include <math.h>
#include <stdbool.h>

double crossover_find(const fit_result_t *model, crossover_limits_fn limits, void *ctx,
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

void crossover_range(const fit_result_t *model, crossover_limits_fn limits, void *ctx,
                     double max_threads, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (model == NULL || !model->fitted || model->exact)
        return;
    fit_result_t faster, slower;
    if (!moved_model(model, +1, &faster) || !moved_model(model, -1, &slower))
        return;
    *lo = crossover_find(&faster, limits, ctx, max_threads);
    *hi = crossover_find(&slower, limits, ctx, max_threads);
}

verdict_kind_t crossover_ceiling(double write_ceiling_bps, double read_ceiling_bps)
{
    bool read_lower = !(write_ceiling_bps > 0.0) || read_ceiling_bps < write_ceiling_bps;
    return read_ceiling_bps > 0.0 && read_lower ? VERDICT_READ : VERDICT_WRITE;
}
