/* Model fits against values computed independently: data built from known parameters,
 * exact and with noise, checked against closed forms or a second method. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/fit.h"
#include "model/stats.h"

#define N_MAX 32

typedef struct series {
    double T[N_MAX], t[N_MAX], rate[N_MAX];
    size_t n;
    double input;
} series_t;

/* Deterministic noise in [-amp, amp] (a small LCG, so results never vary by platform). */
static double noise(uint32_t *state, double amp)
{
    *state = *state * 1664525u + 1013904223u;
    return amp * (2.0 * ((double)(*state >> 8) / 16777216.0) - 1.0);
}

static void from_times(series_t *s, size_t n, double input, double (*time_at)(double))
{
    s->n = n;
    s->input = input;
    for (size_t i = 0; i < n; i++) {
        s->T[i] = (double)(i + 1);
        s->t[i] = time_at(s->T[i]);
        s->rate[i] = input / s->t[i];
    }
}

static void add_noise(series_t *s, double amp, uint32_t seed)
{
    for (size_t i = 0; i < s->n; i++) {
        s->t[i] *= 1.0 + noise(&seed, amp);
        s->rate[i] = s->input / s->t[i];
    }
}

static fit_data_t data_of(const series_t *s)
{
    return (fit_data_t){s->T, s->t, s->rate, s->n, s->input};
}

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want) + 1e-300))
        fail_msg("got %.12g, want %.12g (relative tolerance %g)", got, want, rel);
}

/* Ordinary least squares y = c0 + c1 x by the textbook closed form. */
static void ols(const double *x, const double *y, size_t n, double *c0, double *c1)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++)
        sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
    *c1 = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    *c0 = (sy - *c1 * sx) / n;
}

static double power_true(double T) { return 49.9 * pow(T, -0.912); }
static double amdahl_true(double T) { return 40.0 * (0.08 + 0.92 / T); }
static double usl_rate_true(double T)
{
    return 300e6 * T / (1.0 + 0.03 * (T - 1.0) + 0.0008 * T * (T - 1.0));
}
static double usl_time_true(double T) { return 1e9 / usl_rate_true(T); }
static double superlinear(double T) { return 40.0 / pow(T, 1.1); }
static double flat(double T) { (void)T; return 12.5; }

static void test_power_exact_and_noisy(void **state)
{
    (void)state;
    series_t s;
    fit_result_t r;
    from_times(&s, 8, 1e9, power_true);
    fit_data_t d = data_of(&s);
    fit_model(FIT_POWER_TIME, &d, &r);
    assert_true(r.fitted);
    assert_close(r.param[0], 49.9, 1e-9);
    assert_close(r.param[1], 0.912, 1e-9);
    assert_close(r.r2, 1.0, 1e-12);

    add_noise(&s, 0.03, 7);
    d = data_of(&s);
    fit_model(FIT_POWER_TIME, &d, &r);
    double lx[N_MAX], ly[N_MAX], c0, c1;
    for (size_t i = 0; i < s.n; i++)
        lx[i] = log(s.T[i]), ly[i] = log(s.t[i]);
    ols(lx, ly, s.n, &c0, &c1);
    assert_close(r.param[0], exp(c0), 1e-9);
    assert_close(r.param[1], -c1, 1e-9);
    assert_true(r.param_se[1] > 0.0 && r.param_se[1] < 0.05);
    assert_true(r.r2 > 0.99 && r.r2 < 1.0);
    assert_int_equal(r.n, 8);
    assert_true(isfinite(r.aicc));
}

static void test_linear_matches_closed_form(void **state)
{
    (void)state;
    series_t s;
    fit_result_t r;
    s.n = 6;
    s.input = 1e9;
    uint32_t seed = 11;
    for (size_t i = 0; i < s.n; i++) {
        s.T[i] = (double)(1u << i);
        s.rate[i] = 0.046e9 + 0.264e9 * s.T[i] + noise(&seed, 5e6);
        s.t[i] = s.input / s.rate[i];
    }
    fit_data_t d = data_of(&s);
    fit_model(FIT_LINEAR_RATE, &d, &r);
    double c0, c1;
    ols(s.T, s.rate, s.n, &c0, &c1);
    assert_true(r.fitted);
    assert_close(r.param[0], c0, 1e-9);
    assert_close(r.param[1], c1, 1e-9);
    assert_close(r.param[1], 0.264e9, 0.01);
    assert_close(fit_rate_at(&r, 10.0), c0 + 10.0 * c1, 1e-9);
    assert_close(fit_time_at(&r, 10.0), 1e9 / (c0 + 10.0 * c1), 1e-9);
}

static void test_amdahl_recovers_serial_fraction(void **state)
{
    (void)state;
    series_t s;
    fit_result_t r;
    from_times(&s, 8, 1e9, amdahl_true);
    fit_data_t d = data_of(&s);
    fit_model(FIT_AMDAHL, &d, &r);
    assert_true(r.fitted);
    assert_close(r.param[0], 40.0, 1e-9);
    assert_close(r.param[1], 0.08, 1e-9);
    assert_false(r.param_at_bound[1]);
    /* Exact data: predicting T=8 from T=1..7 is exact. */
    assert_close(r.holdout_threads, 8.0, 0);
    assert_true(fabs(r.holdout_error) < 1e-9);

    add_noise(&s, 0.02, 3);
    d = data_of(&s);
    fit_model(FIT_AMDAHL, &d, &r);
    double inv[N_MAX], a, b;
    for (size_t i = 0; i < s.n; i++)
        inv[i] = 1.0 / s.T[i];
    ols(inv, s.t, s.n, &a, &b); /* t = a + b / T */
    assert_close(r.param[0], a + b, 1e-9);
    assert_close(r.param[1], a / (a + b), 1e-9);
    assert_true(isfinite(r.param_se[1]));
}

static void test_amdahl_bounds(void **state)
{
    (void)state;
    series_t s;
    fit_result_t r;
    from_times(&s, 8, 1e9, superlinear); /* better than linear: s held at 0 */
    fit_data_t d = data_of(&s);
    fit_model(FIT_AMDAHL, &d, &r);
    assert_true(r.fitted);
    assert_true(r.param[1] == 0.0);
    assert_true(r.param_at_bound[1]);
    double num = 0, den = 0; /* t = t1 / T by least squares through the origin */
    for (size_t i = 0; i < s.n; i++)
        num += s.t[i] / s.T[i], den += 1.0 / (s.T[i] * s.T[i]);
    assert_close(r.param[0], num / den, 1e-9);

    from_times(&s, 5, 1e9, flat);
    s.t[0] = 12.0; /* slower with more threads: s held at 1 */
    d = data_of(&s);
    fit_model(FIT_AMDAHL, &d, &r);
    assert_true(r.fitted);
    assert_true(r.param[1] == 1.0);
    assert_close(r.param[0], (12.0 + 4 * 12.5) / 5.0, 1e-12);

    /* Two points, s held at 1: not an exact fit (a residual is left), so R^2 stands. */
    from_times(&s, 2, 1e9, flat);
    s.t[0] = 12.0;
    d = data_of(&s);
    fit_model(FIT_AMDAHL, &d, &r);
    assert_true(r.fitted);
    assert_true(r.param_at_bound[1]);
    assert_false(r.exact);
    assert_false(isnan(r.r2));
}

/* Second method for the USL: for fixed sigma, kappa the best lambda is closed form, so a
 * fine grid over (sigma, kappa) bounds the least RSS from above. */
static double usl_grid_rss(const series_t *s)
{
    double best = INFINITY;
    for (double sg = 0.0; sg <= 0.1; sg += 0.0005)
        for (double kp = 0.0; kp <= 0.004; kp += 0.00002) {
            double g[N_MAX], num = 0, den = 0;
            for (size_t i = 0; i < s->n; i++) {
                g[i] = s->T[i] / (1 + sg * (s->T[i] - 1) + kp * s->T[i] * (s->T[i] - 1));
                num += g[i] * s->rate[i], den += g[i] * g[i];
            }
            double lambda = num / den, rss = 0;
            for (size_t i = 0; i < s->n; i++)
                rss += pow(lambda * g[i] - s->rate[i], 2);
            best = fmin(best, rss);
        }
    return best;
}

static void test_usl_exact_and_noisy(void **state)
{
    (void)state;
    series_t s;
    fit_result_t r;
    from_times(&s, 16, 1e9, usl_time_true);
    fit_data_t d = data_of(&s);
    fit_model(FIT_USL, &d, &r);
    assert_true(r.fitted);
    assert_close(r.param[0], 300e6, 1e-6);
    assert_close(r.param[1], 0.03, 1e-5);
    assert_close(r.param[2], 0.0008, 1e-5);
    assert_close(r.peak_threads, sqrt((1 - 0.03) / 0.0008), 1e-5);

    add_noise(&s, 0.01, 5);
    d = data_of(&s);
    fit_model(FIT_USL, &d, &r);
    assert_true(r.fitted);
    double rss = 0;
    for (size_t i = 0; i < s.n; i++)
        rss += pow(fit_rate_at(&r, s.T[i]) - s.rate[i], 2);
    assert_true(rss <= usl_grid_rss(&s) * (1 + 1e-9));
    assert_close(r.param[0], 300e6, 0.03);
    assert_true(r.param[1] >= 0.0 && r.param[2] >= 0.0);
    assert_true(isfinite(r.param_se[0]) && isfinite(r.param_se[2]));
}

static void test_usl_holds_negative_coefficients_at_zero(void **state)
{
    (void)state;
    series_t s;
    fit_result_t r;
    from_times(&s, 8, 1e9, superlinear); /* unconstrained fit wants sigma < 0 */
    fit_data_t d = data_of(&s);
    fit_model(FIT_USL, &d, &r);
    assert_true(r.fitted);
    assert_true(r.param[1] >= 0.0 && r.param[2] >= 0.0);
    assert_true(r.param_at_bound[1] || r.param_at_bound[2]);
    double rss = 0;
    for (size_t i = 0; i < s.n; i++)
        rss += pow(fit_rate_at(&r, s.T[i]) - s.rate[i], 2);
    assert_true(rss <= usl_grid_rss(&s) * (1 + 1e-9));
}

static void test_too_few_points_are_skipped(void **state)
{
    (void)state;
    series_t s;
    fit_result_t fits[FIT_KIND_COUNT];
    from_times(&s, 3, 1e9, power_true);
    fit_data_t d = data_of(&s);
    fit_all(&d, fits);
    assert_true(fits[FIT_POWER_TIME].fitted);
    assert_true(fits[FIT_LINEAR_RATE].fitted);
    assert_true(fits[FIT_AMDAHL].fitted);
    assert_false(fits[FIT_POWER_TIME].exact);
    /* Three points, three parameters: USL passes through them unless sigma or kappa is
     * held at 0 (then a residual is left); either way no AICc or standard errors. */
    assert_true(fits[FIT_USL].fitted);
    bool held = fits[FIT_USL].param_at_bound[1] || fits[FIT_USL].param_at_bound[2];
    assert_int_equal(fits[FIT_USL].exact, !held);
    assert_int_equal(isnan(fits[FIT_USL].r2), !held);
    assert_true(isnan(fits[FIT_USL].aicc));
    assert_true(isnan(fits[FIT_USL].param_se[0]));

    /* Two points: the two-parameter models are exact and still recover the truth; USL
     * is skipped. */
    from_times(&s, 2, 1e9, power_true);
    d = data_of(&s);
    fit_all(&d, fits);
    assert_true(fits[FIT_POWER_TIME].fitted && fits[FIT_POWER_TIME].exact);
    assert_true(fits[FIT_LINEAR_RATE].fitted && fits[FIT_LINEAR_RATE].exact);
    assert_true(fits[FIT_AMDAHL].fitted && fits[FIT_AMDAHL].exact);
    assert_true(isnan(fits[FIT_LINEAR_RATE].r2));
    assert_close(fit_time_at(&fits[FIT_POWER_TIME], 2.0), s.t[1], 1e-9);
    assert_false(fits[FIT_USL].fitted);
    assert_non_null(strstr(fits[FIT_USL].skip_reason, "needs 3"));
    assert_true(isnan(fit_rate_at(&fits[FIT_USL], 2.0)));

    from_times(&s, 1, 1e9, power_true);
    d = data_of(&s);
    fit_all(&d, fits);
    for (int k = 0; k < FIT_KIND_COUNT; k++) {
        assert_false(fits[k].fitted);
        assert_true(fits[k].skip_reason[0] != '\0');
    }
    assert_int_equal(fit_best_rate_model(fits), -1);
}

static void test_identical_rates_do_not_break_fits(void **state)
{
    (void)state;
    series_t s;
    fit_result_t fits[FIT_KIND_COUNT];
    from_times(&s, 6, 1e9, flat);
    fit_data_t d = data_of(&s);
    fit_all(&d, fits);
    assert_true(fits[FIT_POWER_TIME].fitted);
    assert_true(fabs(fits[FIT_POWER_TIME].param[1]) < 1e-12);
    assert_true(isnan(fits[FIT_POWER_TIME].r2)); /* nothing to explain */
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        if (fits[k].fitted)
            assert_close(fit_rate_at(&fits[k], 3.0), 1e9 / 12.5, 1e-6);
}

static void test_holdout_error_is_relative_to_the_measurement(void **state)
{
    (void)state;
    /* Rates 100, 200, 300 B/s at T = 1, 2, 4. The linear rate fitted to T = 1, 2 alone is
     * 100 T, which predicts 400 at T = 4 where 300 was measured: an error of
     * (400 - 300) / 300 = +1/3 of the measurement (not 100 / 400 of the prediction). */
    double T[] = {1, 2, 4}, rate[] = {100, 200, 300}, t[3];
    for (int i = 0; i < 3; i++)
        t[i] = 1000.0 / rate[i];
    fit_data_t d = {T, t, rate, 3, 1000.0};
    fit_result_t r;
    fit_model(FIT_LINEAR_RATE, &d, &r);
    assert_true(r.fitted);
    assert_close(r.holdout_threads, 4.0, 0);
    assert_close(r.holdout_predicted, 400.0, 1e-9);
    assert_close(r.holdout_measured, 300.0, 0);
    assert_close(r.holdout_error, 1.0 / 3.0, 1e-9);
}

static void test_stats(void **state)
{
    (void)state;
    double v[] = {5, 1, 4, 2};
    assert_close(stats_median(v, 4), 3.0, 0);
    assert_close(stats_median(v, 3), 4.0, 0);
    assert_true(isnan(stats_median(v, 0)));
    assert_true(isnan(stats_aicc(1.0, 3, 2)));
    assert_close(stats_aicc(2.0, 5, 2), 5 * log(0.4) + 4 + 12.0 / 2, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_exact_and_noisy),
        cmocka_unit_test(test_linear_matches_closed_form),
        cmocka_unit_test(test_amdahl_recovers_serial_fraction),
        cmocka_unit_test(test_amdahl_bounds),
        cmocka_unit_test(test_usl_exact_and_noisy),
        cmocka_unit_test(test_usl_holds_negative_coefficients_at_zero),
        cmocka_unit_test(test_too_few_points_are_skipped),
        cmocka_unit_test(test_identical_rates_do_not_break_fits),
        cmocka_unit_test(test_holdout_error_is_relative_to_the_measurement),
        cmocka_unit_test(test_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
