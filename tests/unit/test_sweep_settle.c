/* --reps auto's stopping rule: the 95% interval of the mean within +-3% of the median. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "measure/sweep.h"

static void test_settles_on_tight_times(void **state)
{
    (void)state;
    /* mean 10, s = 0.1: t(2) = 4.303, half width 4.303 * 0.1 / sqrt(3) = 0.248 < 0.3. */
    double tight[] = {9.9, 10.0, 10.1};
    assert_true(sweep_median_settled(tight, 3, 0.03));
    /* s = 0.2: half width 0.497 > 0.3. */
    double loose[] = {9.8, 10.0, 10.2};
    assert_false(sweep_median_settled(loose, 3, 0.03));
    /* Two more near the median: n = 5, s = 0.141, t(4) = 2.776: 0.175 < 0.3. */
    double more[] = {9.8, 10.0, 10.2, 10.0, 10.0};
    assert_true(sweep_median_settled(more, 5, 0.03));
}

static void test_needs_three_times(void **state)
{
    (void)state;
    double same[] = {5.0, 5.0};
    assert_false(sweep_median_settled(same, 2, 0.03));
    assert_false(sweep_median_settled(same, 0, 0.03));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settles_on_tight_times),
        cmocka_unit_test(test_needs_three_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
