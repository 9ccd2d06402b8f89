/* Where a volume starts to limit a job (model/crossover.h): the root-finding along a
 * fitted CPU rate curve and its band, against values worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/crossover.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.12g, want %.12g (relative tolerance %g)", got, want, rel);
}

/* The simplest predicate: the CPU rate reaches the fixed limit *ctx (never for NAN). */
static bool reaches(double threads, double cpu_rate_bps, void *ctx)
{
    (void)threads;
    return cpu_rate_bps >= *(const double *)ctx;
}

/* The crossover of model m with a fixed limit, up to 1024 threads. */
static double at_limit(const fit_result_t *m, double limit_bps)
{
    return crossover_find(m, reaches, &limit_bps, 1024);
}

static fit_result_t linear_model(double c, double d)
{
    fit_result_t m;
    memset(&m, 0, sizeof m);
    m.kind = FIT_LINEAR_RATE;
    m.fitted = true;
    m.nparams = 2;
    m.param[0] = c;
    m.param[1] = d;
    m.input_bytes = 1e9;
    return m;
}

static void test_crossover_range(void **state)
{
    (void)state;
    /* rate = 100 + 100 T reaches 450 at T = 3.5; one standard error (10 on each
     * parameter) faster: 110 + 110 T = 450 at T = 340/110; slower: 90 + 90 T at T = 4. */
    fit_result_t m = linear_model(100, 100);
    m.param_se[0] = m.param_se[1] = 10;
    double lo, hi;
    crossover_range(&m, reaches, &(double){450}, 1024, &lo, &hi);
    assert_close(lo, 340.0 / 110.0, 1e-6);
    assert_close(hi, 4.0, 1e-6);
    /* An exact fit has no standard errors: no range. */
    m.exact = true;
    crossover_range(&m, reaches, &(double){450}, 1024, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
}

static void test_crossover(void **state)
{
    (void)state;
    fit_result_t m = linear_model(100, 50); /* rate 400 at T = 6 */
    assert_close(at_limit(&m, 400), 6.0, 1e-6);
    assert_close(at_limit(&m, 425), 6.5, 1e-6);
    assert_close(at_limit(&m, 120), 1.0, 0); /* already at T = 1 */
    assert_true(isnan(at_limit(&m, 1e9)));  /* beyond 1024 threads */
    /* The whole range is searched: rate 100 + 50 T reaches 50100 at T = 1000, near the
     * end of the 1024 threads, and 51300 at T = 1024 itself; 51350 (T = 1025) is out. */
    assert_close(at_limit(&m, 50100), 1000.0, 1e-6);
    assert_close(at_limit(&m, 51300), 1024.0, 1e-6);
    assert_true(isnan(at_limit(&m, 51350)));
    assert_true(isnan(at_limit(&m, NAN)));

    fit_result_t usl = m;
    usl.kind = FIT_USL;
    usl.nparams = 3;
    usl.param[0] = 100, usl.param[1] = 0.05, usl.param[2] = 0.01; /* peaks near T = 9.7 */
    double peak = 100 * 9.75 / (1 + 0.05 * 8.75 + 0.01 * 9.75 * 8.75);
    assert_true(isnan(at_limit(&usl, peak * 1.05)));
    /* 100 T / (1 + 0.05 (T - 1) + 0.01 T (T - 1)) = 400 is T^2 - 21 T + 95 = 0, whose
     * smaller root (on the rising side) is (21 - sqrt 61) / 2 = 6.595: worked out by hand. */
    double t = at_limit(&usl, 400);
    assert_close(t, (21.0 - sqrt(61.0)) / 2.0, 1e-6);

    fit_result_t skipped = m;
    skipped.fitted = false;
    assert_true(isnan(at_limit(&skipped, 400)));
}

static void test_crossover_ceiling(void **state)
{
    (void)state;
    /* The lower known ceiling; the write ceiling when neither is known. */
    assert_int_equal(crossover_ceiling(200, 100), VERDICT_READ);
    assert_int_equal(crossover_ceiling(100, 200), VERDICT_WRITE);
    assert_int_equal(crossover_ceiling(100, 100), VERDICT_WRITE);
    assert_int_equal(crossover_ceiling(NAN, 100), VERDICT_READ); /* writes nothing */
    assert_int_equal(crossover_ceiling(0, 100), VERDICT_READ);
    assert_int_equal(crossover_ceiling(100, NAN), VERDICT_WRITE);
    assert_int_equal(crossover_ceiling(NAN, NAN), VERDICT_WRITE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossover),
        cmocka_unit_test(test_crossover_range),
        cmocka_unit_test(test_crossover_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
