/* test_probing.c - the probe orchestrated over targets (study/probing.h): what a target's
 * failure does under each policy, which targets are asked about, probed and reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/parse.h"
#include "study/probing.h"

/* What the callbacks saw: target names asked about and reported done, in order. */
typedef struct seen {
    char asked[8][CP_TARGET_NAME_MAX];
    size_t n_asked;
    char done[8][CP_TARGET_NAME_MAX];
    size_t n_done;
    const char *refuse; /* want says no to this one; NULL: wants all */
} seen_t;

static bool want(const target_spec_t *t, void *ctx)
{
    seen_t *s = ctx;
    snprintf(s->asked[s->n_asked++], CP_TARGET_NAME_MAX, "%s", t->name);
    return s->refuse == NULL || strcmp(t->name, s->refuse) != 0;
}

static void done(const target_spec_t *t, void *ctx)
{
    seen_t *s = ctx;
    snprintf(s->done[s->n_done++], CP_TARGET_NAME_MAX, "%s", t->name);
}

/* Three targets: mem (no volume), "bad" (a directory that is not there), "good". */
typedef struct fixture {
    char dir[32];
    target_spec_t targets[3];
    probe_params_t p;
    probe_rows_t rows;
    seen_t seen;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    *state = f;
    snprintf(f->dir, sizeof f->dir, "/tmp/cp-probing-XXXXXX");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    char text[64];
    snprintf(text, sizeof text, "good=%s", f->dir);
    cp_err_t err = {0};
    if (parse_target("mem", &f->targets[0], &err) != CP_OK ||
        parse_target("bad=/no/such/dir", &f->targets[1], &err) != CP_OK ||
        parse_target(text, &f->targets[2], &err) != CP_OK)
        return -1;
    f->p = probe_defaults();
    f->p.sizes[0] = 1000000;
    f->p.n_sizes = 1;
    f->p.reps = 1;
    f->p.seed = 3;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    rmdir(f->dir);
    free(f->rows.rows);
    free(f);
    return 0;
}

static probing_request_t request(fixture_t *f, probing_failure_t on_failure)
{
    return (probing_request_t){.params = &f->p, .targets = f->targets, .n_targets = 3,
                               .on_row = probing_keep_row, .row_ctx = &f->rows,
                               .on_failure = on_failure, .want = want, .done = done,
                               .target_ctx = &f->seen};
}

static void test_continue_passes_a_failure_over(void **state)
{
    fixture_t *f = *state;
    probing_request_t rq = request(f, PROBING_CONTINUE);
    cp_err_t err = {0};
    assert_int_equal(probing_run(&rq, &err), CP_OK);
    /* mem is never asked about; the failed target is done all the same. */
    assert_int_equal(f->seen.n_asked, 2);
    assert_string_equal(f->seen.asked[0], "bad");
    assert_string_equal(f->seen.asked[1], "good");
    assert_int_equal(f->seen.n_done, 2);
    assert_string_equal(f->seen.done[0], "bad");
    assert_string_equal(f->seen.done[1], "good");
    assert_int_equal(f->rows.n, 2); /* good's write and read */
    for (size_t i = 0; i < f->rows.n; i++)
        assert_string_equal(f->rows.rows[i].target, "good");
}

static void test_stop_ends_at_the_first_failure(void **state)
{
    fixture_t *f = *state;
    probing_request_t rq = request(f, PROBING_STOP);
    cp_err_t err = {0};
    assert_int_equal(probing_run(&rq, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "bad"));
    assert_int_equal(f->seen.n_asked, 2);
    assert_int_equal(f->seen.n_done, 0);
    assert_int_equal(f->rows.n, 0); /* every target checked before anything is measured */
}

static void test_a_target_not_wanted_is_not_probed(void **state)
{
    fixture_t *f = *state;
    f->seen.refuse = "bad";
    probing_request_t rq = request(f, PROBING_STOP);
    cp_err_t err = {0};
    assert_int_equal(probing_run(&rq, &err), CP_OK);
    assert_int_equal(f->seen.n_done, 1);
    assert_string_equal(f->seen.done[0], "good");
    assert_int_equal(f->rows.n, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_continue_passes_a_failure_over, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_ends_at_the_first_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_target_not_wanted_is_not_probed, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
