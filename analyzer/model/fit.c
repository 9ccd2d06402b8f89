/* fit.c - owns the four scaling models' fits (power law, linear, Amdahl, USL) with GSL
 * and their evaluation (fit.h). */
#include "model/fit.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include "common/bounds.h"
#include "model/stats.h"

#define FIT_MAX_POINTS CP_MAX_THREADS /* one point per distinct thread count */

static const char *const kind_names[FIT_KIND_COUNT] = {
    "power_time", "linear_rate", "amdahl", "usl",
};

static const char *const param_names[FIT_KIND_COUNT][FIT_MAX_PARAMS] = {
    {"a", "b", NULL},
    {"intercept", "slope", NULL},
    {"t1", "s", NULL},
    {"lambda", "sigma", "kappa"},
};

static const int kind_nparams[FIT_KIND_COUNT] = {2, 2, 2, 3};

const char *fit_kind_name(fit_kind_t kind)
{
    return (kind >= 0 && kind < FIT_KIND_COUNT) ? kind_names[kind] : "unknown";
}

const char *fit_param_name(fit_kind_t kind, int i)
{
    if (kind < 0 || kind >= FIT_KIND_COUNT || i < 0 || i >= FIT_MAX_PARAMS)
        return NULL;
    return param_names[kind][i];
}

bool fit_kind_is_time(fit_kind_t kind)
{
    return kind == FIT_POWER_TIME || kind == FIT_AMDAHL;
}

/* ---- evaluation --------------------------------------------------------------------- */

static double usl_rate(const double *p, double T)
{
    double denom = 1.0 + p[1] * (T - 1.0) + p[2] * T * (T - 1.0);
    return p[0] * T / denom;
}

double fit_time_at(const fit_result_t *fit, double T)
{
    if (fit == NULL || !fit->fitted || !(T > 0.0))
        return NAN;
    const double *p = fit->param;
    double t;
    switch (fit->kind) {
    case FIT_POWER_TIME: t = p[0] * pow(T, -p[1]); break;
    case FIT_AMDAHL: t = p[0] * (p[1] + (1.0 - p[1]) / T); break;
    default: t = fit->input_bytes / fit_rate_at(fit, T); break;
    }
    return (isfinite(t) && t > 0.0) ? t : NAN;
}

double fit_rate_at(const fit_result_t *fit, double T)
{
    if (fit == NULL || !fit->fitted || !(T > 0.0))
        return NAN;
    const double *p = fit->param;
    double r;
    switch (fit->kind) {
    case FIT_LINEAR_RATE: r = p[0] + p[1] * T; break;
    case FIT_USL: r = usl_rate(p, T); break;
    default: r = fit->input_bytes / fit_time_at(fit, T); break;
    }
    return isfinite(r) ? r : NAN;
}

/* ---- the individual fits ------------------------------------------------------------
 * Each core fit fills param, param_se, param_at_bound and returns 0, or returns -1 when
 * the numbers do not allow a fit (it then leaves a reason in reason). */

typedef struct points {
    double T[FIT_MAX_POINTS], t[FIT_MAX_POINTS], rate[FIT_MAX_POINTS];
    size_t n;
    double input_bytes;
} points_t;

static double se_from(double variance, size_t n, int p)
{
    return ((int)n > p && isfinite(variance) && variance >= 0.0) ? sqrt(variance) : NAN;
}

static bool fit_power_core(const points_t *d, fit_result_t *r, char *reason, size_t cap)
{
    double x[FIT_MAX_POINTS], y[FIT_MAX_POINTS];
    for (size_t i = 0; i < d->n; i++) {
        x[i] = log(d->T[i]);
        y[i] = log(d->t[i]);
    }
    double c0, c1, cov00, cov01, cov11, sumsq;
    if (gsl_fit_linear(x, 1, y, 1, d->n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) != 0) {
        snprintf(reason, cap, "the least-squares solver failed");
        return false;
    }
    r->param[0] = exp(c0);
    r->param[1] = -c1;
    r->param_se[0] = r->param[0] * se_from(cov00, d->n, 2); /* delta method */
    r->param_se[1] = se_from(cov11, d->n, 2);
    return true;
}

static bool fit_linear_core(const points_t *d, fit_result_t *r, char *reason, size_t cap)
{
    double c0, c1, cov00, cov01, cov11, sumsq;
    if (gsl_fit_linear(d->T, 1, d->rate, 1, d->n, &c0, &c1, &cov00, &cov01, &cov11,
                       &sumsq) != 0) {
        snprintf(reason, cap, "the least-squares solver failed");
        return false;
    }
    r->param[0] = c0;
    r->param[1] = c1;
    r->param_se[0] = se_from(cov00, d->n, 2);
    r->param_se[1] = se_from(cov11, d->n, 2);
    return true;
}

/* t = a + b/T with a = t1 s and b = t1 (1 - s); s in [0, 1] means a, b >= 0. When the
 * unconstrained optimum breaks a bound, the best fit lies on it, so refit with it held. */
static bool fit_amdahl_core(const points_t *d, fit_result_t *r, char *reason, size_t cap)
{
    double inv[FIT_MAX_POINTS];
    for (size_t i = 0; i < d->n; i++)
        inv[i] = 1.0 / d->T[i];
    double a, b, cov00, cov01, cov11, sumsq;
    if (gsl_fit_linear(inv, 1, d->t, 1, d->n, &a, &b, &cov00, &cov01, &cov11, &sumsq) != 0) {
        snprintf(reason, cap, "the least-squares solver failed");
        return false;
    }
    if (a >= 0.0 && b >= 0.0 && a + b > 0.0) {
        double t1 = a + b;
        r->param[0] = t1;
        r->param[1] = a / t1;
        if ((int)d->n > 2) {
            double var_t1 = cov00 + cov11 + 2.0 * cov01;
            double da = b / (t1 * t1), db = -a / (t1 * t1);
            double var_s = da * da * cov00 + db * db * cov11 + 2.0 * da * db * cov01;
            r->param_se[0] = se_from(var_t1, d->n, 2);
            r->param_se[1] = se_from(var_s, d->n, 2);
        }
        return true;
    }
    if (a < 0.0) { /* s = 0: perfectly parallel, t = t1 / T */
        double c1, cov, ss;
        if (gsl_fit_mul(inv, 1, d->t, 1, d->n, &c1, &cov, &ss) != 0 || !(c1 > 0.0)) {
            snprintf(reason, cap, "the least-squares solver failed");
            return false;
        }
        r->param[0] = c1;
        r->param[1] = 0.0;
        r->param_se[0] = se_from(cov, d->n, 1);
    } else { /* s = 1: no speed-up at all, t = t1 */
        double mean = stats_mean(d->t, d->n), ss = 0.0;
        for (size_t i = 0; i < d->n; i++)
            ss += (d->t[i] - mean) * (d->t[i] - mean);
        r->param[0] = mean;
        r->param[1] = 1.0;
        r->param_se[0] = d->n > 1 ? sqrt(ss / (double)(d->n - 1) / (double)d->n) : NAN;
    }
    r->param_at_bound[1] = true;
    r->param_se[1] = NAN;
    return true;
}

/* USL by Levenberg-Marquardt. Rates are scaled to about 1 so lambda and sigma/kappa are
 * of similar size for the solver. sigma and kappa must be >= 0; LM has no bounds, so
 * each subset of {sigma, kappa} held at 0 is fitted too and the best feasible fit wins
 * (an active-set search, exact for two bounds). */
typedef struct usl_ctx {
    const points_t *d;
    double scale;
    bool free_sigma, free_kappa;
} usl_ctx_t;

static void usl_unpack(const usl_ctx_t *c, const gsl_vector *x, double p[3])
{
    size_t k = 0;
    p[0] = gsl_vector_get(x, k++);
    p[1] = c->free_sigma ? gsl_vector_get(x, k++) : 0.0;
    p[2] = c->free_kappa ? gsl_vector_get(x, k++) : 0.0;
}

static int usl_f(const gsl_vector *x, void *data, gsl_vector *f)
{
    const usl_ctx_t *c = data;
    double p[3];
    usl_unpack(c, x, p);
    for (size_t i = 0; i < c->d->n; i++)
        gsl_vector_set(f, i, usl_rate(p, c->d->T[i]) - c->d->rate[i] / c->scale);
    return GSL_SUCCESS;
}

static int usl_df(const gsl_vector *x, void *data, gsl_matrix *J)
{
    const usl_ctx_t *c = data;
    double p[3];
    usl_unpack(c, x, p);
    for (size_t i = 0; i < c->d->n; i++) {
        double T = c->d->T[i];
        double denom = 1.0 + p[1] * (T - 1.0) + p[2] * T * (T - 1.0);
        size_t k = 0;
        gsl_matrix_set(J, i, k++, T / denom);
        if (c->free_sigma)
            gsl_matrix_set(J, i, k++, -p[0] * T * (T - 1.0) / (denom * denom));
        if (c->free_kappa)
            gsl_matrix_set(J, i, k++, -p[0] * T * T * (T - 1.0) / (denom * denom));
    }
    return GSL_SUCCESS;
}

/* One LM run with the given free set; fills p/se (scaled back) and the RSS on the scaled
 * rates. True when it converged to finite numbers. */
static bool usl_try(const points_t *d, double scale, bool free_sigma, bool free_kappa,
                   const double start[3], double p[3], double se[3], double *rss)
{
    usl_ctx_t ctx = {d, scale, free_sigma, free_kappa};
    size_t np = 1 + (free_sigma ? 1 : 0) + (free_kappa ? 1 : 0);
    if (d->n < np)
        return false;
    gsl_multifit_nlinear_fdf fdf = {0};
    fdf.f = usl_f;
    fdf.df = usl_df;
    fdf.fvv = NULL;
    fdf.n = d->n;
    fdf.p = np;
    fdf.params = &ctx;
    gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
    fp.trs = gsl_multifit_nlinear_trs_lm;
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, d->n, np);
    gsl_vector *x0 = gsl_vector_alloc(np);
    gsl_matrix *covar = gsl_matrix_alloc(np, np);
    bool converged = false;
    if (w == NULL || x0 == NULL || covar == NULL)
        goto out;
    size_t k = 0;
    gsl_vector_set(x0, k++, start[0]);
    if (free_sigma)
        gsl_vector_set(x0, k++, start[1]);
    if (free_kappa)
        gsl_vector_set(x0, k++, start[2]);
    if (gsl_multifit_nlinear_init(x0, &fdf, w) != GSL_SUCCESS)
        goto out;
    int info = 0;
    int status = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 1e-12, NULL, NULL, &info, w);
    if (status != GSL_SUCCESS && status != GSL_EMAXITER)
        goto out;
    usl_unpack(&ctx, w->x, p);
    gsl_vector *f = gsl_multifit_nlinear_residual(w);
    double chisq;
    gsl_blas_ddot(f, f, &chisq);
    *rss = chisq;
    se[0] = se[1] = se[2] = NAN;
    if (d->n > np &&
        gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar) == GSL_SUCCESS) {
        double s2 = chisq / (double)(d->n - np);
        k = 0;
        se[0] = sqrt(gsl_matrix_get(covar, k, k) * s2);
        k++;
        if (free_sigma) {
            se[1] = sqrt(gsl_matrix_get(covar, k, k) * s2);
            k++;
        }
        if (free_kappa)
            se[2] = sqrt(gsl_matrix_get(covar, k, k) * s2);
    }
    converged = isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]) && isfinite(chisq);
out:
    gsl_multifit_nlinear_free(w);
    gsl_vector_free(x0);
    gsl_matrix_free(covar);
    return converged;
}

static bool fit_usl_core(const points_t *d, fit_result_t *r, char *reason, size_t cap)
{
    double scale = 0.0;
    size_t lo = 0;
    for (size_t i = 0; i < d->n; i++) {
        scale = fmax(scale, d->rate[i]);
        if (d->T[i] < d->T[lo])
            lo = i;
    }
    /* Start: lambda from the smallest T, sigma and kappa from the linearised form
     * lambda T / X - 1 = sigma (T-1) + kappa T (T-1), by least squares through 0. */
    double start[3] = {d->rate[lo] / d->T[lo] / scale, 0.0, 0.0};
    double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0;
    for (size_t i = 0; i < d->n; i++) {
        double T = d->T[i], y = start[0] * T / (d->rate[i] / scale) - 1.0;
        double u = T - 1.0, v = T * (T - 1.0);
        s11 += u * u, s12 += u * v, s22 += v * v, s1y += u * y, s2y += v * y;
    }
    double det = s11 * s22 - s12 * s12;
    if (fabs(det) > DBL_EPSILON * s11 * s22) {
        start[1] = fmax(0.0, (s1y * s22 - s2y * s12) / det);
        start[2] = fmax(0.0, (s2y * s11 - s1y * s12) / det);
    }
    static const bool subsets[4][2] = {{true, true}, {true, false}, {false, true}, {false, false}};
    double best_rss = INFINITY;
    for (int v = 0; v < 4; v++) {
        double p[3], se[3], rss;
        if (!usl_try(d, scale, subsets[v][0], subsets[v][1], start, p, se, &rss))
            continue;
        /* Allow rounding-level negatives; they are the bound itself. */
        if (p[1] < -1e-9 || p[2] < -1e-12 || !(p[0] > 0.0))
            continue;
        if (rss < best_rss * (1.0 - 1e-12)) {
            best_rss = rss;
            r->param[0] = p[0] * scale;
            r->param[1] = fmax(0.0, p[1]);
            r->param[2] = fmax(0.0, p[2]);
            r->param_se[0] = se[0] * scale;
            r->param_se[1] = subsets[v][0] ? se[1] : NAN;
            r->param_se[2] = subsets[v][1] ? se[2] : NAN;
            r->param_at_bound[0] = false;
            r->param_at_bound[1] = !subsets[v][0];
            r->param_at_bound[2] = !subsets[v][1];
        }
    }
    if (!isfinite(best_rss)) {
        snprintf(reason, cap, "Levenberg-Marquardt found no fit with sigma, kappa >= 0");
        return false;
    }
    return true;
}

/* A core fit fills the parameters and returns true, or writes why not and returns false. */
typedef bool (*core_fn)(const points_t *, fit_result_t *, char *, size_t);
static const core_fn cores[FIT_KIND_COUNT] = {
    fit_power_core, fit_linear_core, fit_amdahl_core, fit_usl_core,
};

/* Runs the core fit and the statistics; min_points is the least number of points. */
static void result_init(fit_kind_t kind, size_t n, double input_bytes, fit_result_t *r)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->nparams = kind_nparams[kind];
    r->n = n;
    r->input_bytes = input_bytes;
    for (int i = 0; i < FIT_MAX_PARAMS; i++)
        r->param[i] = r->param_se[i] = NAN;
    r->r2 = r->rmse = r->aicc = r->rate_rmse = r->rate_aicc = r->peak_threads = NAN;
    r->holdout_threads = r->holdout_predicted = r->holdout_measured = r->holdout_error = NAN;
}

static void fit_points(fit_kind_t kind, const points_t *d, size_t min_points, fit_result_t *r)
{
    result_init(kind, d->n, d->input_bytes, r);

    if (d->n < min_points) {
        snprintf(r->skip_reason, sizeof r->skip_reason,
                 "needs %zu thread counts, the series has %zu", min_points, d->n);
        return;
    }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    bool fitted = cores[kind](d, r, r->skip_reason, sizeof r->skip_reason);
    gsl_set_error_handler(old);
    if (!fitted)
        return;
    r->fitted = true;

    double pred[FIT_MAX_POINTS], rate_pred[FIT_MAX_POINTS];
    bool is_time = fit_kind_is_time(kind);
    for (size_t i = 0; i < d->n; i++) {
        pred[i] = is_time ? fit_time_at(r, d->T[i]) : fit_rate_at(r, d->T[i]);
        rate_pred[i] = fit_rate_at(r, d->T[i]);
    }
    const double *obs = is_time ? d->t : d->rate;
    double rss = stats_rss(obs, pred, d->n);
    r->r2 = stats_r2(obs, pred, d->n);
    r->rmse = stats_rmse(obs, pred, d->n);
    r->aicc = stats_aicc(rss, d->n, r->nparams);
    r->rate_rmse = stats_rmse(d->rate, rate_pred, d->n);
    r->rate_aicc = stats_aicc(stats_rss(d->rate, rate_pred, d->n), d->n, r->nparams);
    if (!isfinite(r->rmse) || !isfinite(r->rate_rmse)) {
        r->fitted = false;
        snprintf(r->skip_reason, sizeof r->skip_reason, "the fit has no finite value at the measured points");
        return;
    }
    if (d->n == (size_t)r->nparams) {
        /* Determined, not fitted: report no goodness of fit rather than a perfect one. A
         * parameter held at a bound leaves a residual, and then R^2 stands. */
        bool at_bound = false;
        for (int i = 0; i < r->nparams; i++)
            at_bound = at_bound || r->param_at_bound[i];
        r->exact = !at_bound;
        if (r->exact)
            r->r2 = NAN;
        r->aicc = r->rate_aicc = NAN;
        for (int i = 0; i < FIT_MAX_PARAMS; i++)
            r->param_se[i] = NAN;
    }
    if (kind == FIT_USL && r->param[2] > 0.0 && r->param[1] < 1.0)
        r->peak_threads = sqrt((1.0 - r->param[1]) / r->param[2]);
}

static bool load_points(const fit_data_t *data, points_t *d, char *reason, size_t cap)
{
    if (data->n > FIT_MAX_POINTS) {
        snprintf(reason, cap, "more than %d thread counts", FIT_MAX_POINTS);
        return false;
    }
    d->n = data->n;
    d->input_bytes = data->input_bytes;
    for (size_t i = 0; i < data->n; i++) {
        d->T[i] = data->threads[i];
        d->t[i] = data->seconds[i];
        d->rate[i] = data->rate[i];
        if (!(d->T[i] >= 1.0) || !(d->t[i] > 0.0) || !(d->rate[i] > 0.0) ||
            !isfinite(d->t[i]) || !isfinite(d->rate[i])) {
            snprintf(reason, cap, "a point has a non-positive thread count, time or rate");
            return false;
        }
        for (size_t j = 0; j < i; j++)
            if (d->T[j] == d->T[i]) {
                snprintf(reason, cap, "thread count %g appears twice", d->T[i]);
                return false;
            }
    }
    return true;
}

void fit_model(fit_kind_t kind, const fit_data_t *data, fit_result_t *out)
{
    points_t d, rest;
    if (kind < 0 || kind >= FIT_KIND_COUNT)
        kind = FIT_POWER_TIME;
    result_init(kind, data->n, data->input_bytes, out);
    if (!load_points(data, &d, out->skip_reason, sizeof out->skip_reason))
        return;
    fit_points(kind, &d, (size_t)kind_nparams[kind], out);
    if (!out->fitted)
        return;

    /* Predict the largest T from a fit to the others (an exact fit is allowed there). */
    size_t top = 0;
    for (size_t i = 1; i < d.n; i++)
        if (d.T[i] > d.T[top])
            top = i;
    rest.n = 0;
    rest.input_bytes = d.input_bytes;
    for (size_t i = 0; i < d.n; i++)
        if (i != top) {
            rest.T[rest.n] = d.T[i];
            rest.t[rest.n] = d.t[i];
            rest.rate[rest.n] = d.rate[i];
            rest.n++;
        }
    fit_result_t partial;
    fit_points(kind, &rest, (size_t)kind_nparams[kind], &partial);
    if (partial.fitted) {
        bool is_time = fit_kind_is_time(kind);
        out->holdout_threads = d.T[top];
        out->holdout_measured = is_time ? d.t[top] : d.rate[top];
        out->holdout_predicted = is_time ? fit_time_at(&partial, d.T[top])
                                         : fit_rate_at(&partial, d.T[top]);
        out->holdout_error =
            (out->holdout_predicted - out->holdout_measured) / out->holdout_measured;
    }
}

void fit_all(const fit_data_t *data, fit_result_t out[FIT_KIND_COUNT])
{
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        fit_model((fit_kind_t)k, data, &out[k]);
}

int fit_best_rate_model_of(const fit_result_t fits[FIT_KIND_COUNT],
                           const bool usable[FIT_KIND_COUNT])
{
    int best = -1;
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        if (usable[k] && fits[k].fitted && isfinite(fits[k].rate_aicc) &&
            (best < 0 || fits[k].rate_aicc < fits[best].rate_aicc))
            best = k;
    if (best >= 0)
        return best;
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        if (usable[k] && fits[k].fitted && (best < 0 || fits[k].rate_rmse < fits[best].rate_rmse))
            best = k;
    return best;
}

int fit_best_rate_model(const fit_result_t fits[FIT_KIND_COUNT])
{
    bool all[FIT_KIND_COUNT];
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        all[k] = true;
    return fit_best_rate_model_of(fits, all);
}
