/* fit.h - the four scaling models fitted to one series (one target and codec): median
 * seconds and rate at each thread count T.
 *
 *   power_time   t = a * T^-b                 least squares on ln t against ln T
 *   linear_rate  rate = intercept + slope * T  ordinary least squares on rate
 *   amdahl       t = t1 * (s + (1 - s) / T)    least squares on t, 0 <= s <= 1
 *   usl          X = lambda T / (1 + sigma (T-1) + kappa T (T-1)), sigma, kappa >= 0,
 *                Levenberg-Marquardt on rate (GSL multifit_nlinear)
 *
 * Time models (power_time, amdahl) report R^2 and RMSE on seconds, rate models on bytes
 * per second. Every fit also gets an AICc on rate (rate_aicc), so models fitted in
 * different spaces can be compared when choosing the one that describes the rate best.
 * A model needs as many distinct thread counts as it has parameters; with fewer it is not
 * fitted (fitted == false, skip_reason says why). With exactly that many the fit is exact:
 * the curve passes through every point, so there is no residual to judge it by and R^2,
 * AICc and the standard errors are unknown (NAN); `exact` says so.
 * No file I/O, no allocation visible to the caller. */
#ifndef CP_MODEL_FIT_H
#define CP_MODEL_FIT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum fit_kind {
    FIT_POWER_TIME,
    FIT_LINEAR_RATE,
    FIT_AMDAHL,
    FIT_USL,
    FIT_KIND_COUNT
} fit_kind_t;

#define FIT_MAX_PARAMS 3

/* One series, points sorted or not; caller owns the arrays. rate[i] is input / seconds[i];
 * input_bytes converts a fitted time into a rate and back (rate = input_bytes / time). */
typedef struct fit_data {
    const double *threads;
    const double *seconds;
    const double *rate;
    size_t n;
    double input_bytes;
} fit_data_t;

typedef struct fit_result {
    fit_kind_t kind;
    bool fitted;               /* false: skipped, see skip_reason */
    bool exact;                /* as many points as parameters: no residual, no R^2 */
    char skip_reason[96];
    int nparams;               /* parameters of the model (fixed-at-bound ones included) */
    double param[FIT_MAX_PARAMS];    /* see fit_param_name for their order and meaning */
    double param_se[FIT_MAX_PARAMS]; /* standard errors; NAN when not estimable */
    bool param_at_bound[FIT_MAX_PARAMS]; /* held at a constraint (amdahl s, usl sigma/kappa) */
    size_t n;                  /* points fitted */
    double r2, rmse, aicc;     /* in the model's own space (seconds or bytes/s); NAN if none */
    double rate_rmse, rate_aicc; /* the same measured on rate, for comparing models */
    double input_bytes;        /* from fit_data_t, for fit_rate_at / fit_time_at */
    double peak_threads;       /* usl: sqrt((1 - sigma) / kappa); NAN when there is no peak */
    /* Predicting the largest T from a fit to the other points (model's own space). All
     * NAN when the other points are too few for this model. */
    double holdout_threads, holdout_predicted, holdout_measured, holdout_error;
} fit_result_t;

/* "power_time", "linear_rate", "amdahl", "usl". */
const char *fit_kind_name(fit_kind_t kind);

/* Name of parameter i of a model ("a", "b"; "intercept", "slope"; "t1", "s";
 * "lambda", "sigma", "kappa"); NULL past the last one. */
const char *fit_param_name(fit_kind_t kind, int i);

/* True when the model is fitted on seconds (power_time, amdahl), false for rate models. */
bool fit_kind_is_time(fit_kind_t kind);

/* Fits one model to data and fills *out completely, whether fitted or skipped. Needs at
 * least nparams distinct thread counts; with exactly nparams the fit is exact (above). */
void fit_model(fit_kind_t kind, const fit_data_t *data, fit_result_t *out);

/* Fits all four models into out[FIT_KIND_COUNT], indexed by fit_kind_t. */
void fit_all(const fit_data_t *data, fit_result_t out[FIT_KIND_COUNT]);

/* The fitted model's seconds / bytes per second at T (a real number >= 1 makes sense);
 * NAN when the model was skipped or has no finite value there. */
double fit_time_at(const fit_result_t *fit, double threads);
double fit_rate_at(const fit_result_t *fit, double threads);

/* Index of the fitted model that describes the rate best: lowest rate_aicc, or, when no
 * model has one, lowest rate_rmse. -1 when no model was fitted. */
int fit_best_rate_model(const fit_result_t fits[FIT_KIND_COUNT]);

/* As fit_best_rate_model, among the models k with usable[k] true only; -1 when none of
 * them was fitted. */
int fit_best_rate_model_of(const fit_result_t fits[FIT_KIND_COUNT],
                           const bool usable[FIT_KIND_COUNT]);

#endif
