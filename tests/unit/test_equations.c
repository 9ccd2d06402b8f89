/* The models as people read them: equations in the text and Markdown reports. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/fit.h"
#include "report/analysis_text.h"
#include "report/figure_text.h"

static fit_result_t fitted(fit_kind_t kind, double a, double b, double c)
{
    fit_result_t m;
    memset(&m, 0, sizeof m);
    m.kind = kind;
    m.fitted = true;
    m.param[0] = a;
    m.param[1] = b;
    m.param[2] = c;
    return m;
}

static void test_power_law_equations(void **state)
{
    (void)state;
    char buf[128];
    fit_result_t m = fitted(FIT_POWER_TIME, 49.9, 0.912, NAN);
    assert_string_equal(analysis_format_model(&m, buf, sizeof buf), "time = 49.9 / T^0.912 s");
    /* Time that grows with threads reads as growth, not as a negative exponent. */
    m = fitted(FIT_POWER_TIME, 2.0, -0.585, NAN);
    assert_string_equal(analysis_format_model(&m, buf, sizeof buf), "time = 2 x T^0.585 s");
}

static void test_rate_equations_in_decimal_units(void **state)
{
    (void)state;
    char buf[128];
    fit_result_t m = fitted(FIT_LINEAR_RATE, 0.046e9, 0.264e9, NAN);
    assert_string_equal(analysis_format_model(&m, buf, sizeof buf),
                        "rate = 46 + 264 x T MB/s");
    m = fitted(FIT_AMDAHL, 10.0, 0.25, NAN);
    assert_string_equal(analysis_format_model(&m, buf, sizeof buf),
                        "time = 10 x (0.25 + 0.75 / T) s");
    m.fitted = false;
    strcpy(m.skip_reason, "needs 2 thread counts, the series has 1");
    assert_string_equal(analysis_format_model(&m, buf, sizeof buf),
                        "skipped: needs 2 thread counts, the series has 1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_law_equations),
        cmocka_unit_test(test_rate_equations_in_decimal_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
