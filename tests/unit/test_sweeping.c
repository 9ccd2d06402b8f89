/* test_sweeping.c - the sweep orchestrated once (study/sweeping.h): every row into runs.csv
 * and the file closed with its rows, what failed runs do under each policy, and a close
 * that fails after the sweep. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/log.h"
#include "measure/series.h"
#include "study/sweeping.h"
#include "tables/runs_writer.h"

/* One directory target holding the input and runs.csv; one series, one thread, one rep. */
typedef struct fixture {
    char dir[32];
    char input[64];
    char runs[64];
    target_spec_t target;
    series_spec_t series;
    int threads[1];
    sweep_params_t p;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    *state = f;
    snprintf(f->dir, sizeof f->dir, "/tmp/cp-sweeping-XXXXXX");
    if (mkdtemp(f->dir) == NULL)
        return -1;
    snprintf(f->input, sizeof f->input, "%s/input", f->dir);
    snprintf(f->runs, sizeof f->runs, "%s/runs.csv", f->dir);
    FILE *in = fopen(f->input, "wb");
    if (in == NULL)
        return -1;
    for (int i = 0; i < 4000; i++)
        fprintf(in, "line %d\n", i);
    fclose(in);
    if (target_init_dir(&f->target, "scratch", f->dir, NULL) != CP_OK)
        return -1;
    codec_spec_t copy;
    if (codec_parse("copy", &copy, NULL) != CP_OK)
        return -1;
    f->series = series_of_codec(&copy);
    f->threads[0] = 1;
    f->p = sweep_defaults();
    f->p.input_path = f->input;
    f->p.targets = &f->target;
    f->p.n_targets = 1;
    f->p.series = &f->series;
    f->p.n_series = 1;
    f->p.threads = f->threads;
    f->p.n_threads = 1;
    f->p.reps = 1;
    f->p.warmup = false;
    f->p.seed = 1;
    cp_log_set_quiet(true);
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    DIR *d = opendir(f->dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        char path[320];
        snprintf(path, sizeof path, "%s/%s", f->dir, e->d_name);
        if (e->d_name[0] != '.')
            unlink(path);
    }
    if (d != NULL)
        closedir(d);
    rmdir(f->dir);
    free(f);
    return 0;
}

/* The series is a command that fails every run. */
static void failing_series(fixture_t *f)
{
    command_series_t cmd;
    cp_err_t err = {0};
    assert_int_equal(command_series_make("cat {input} > {output}; exit 3", "fails", &cmd, &err),
                     CP_OK);
    f->series = series_of_command(&cmd);
}

/* Lines in path, or -1 when it cannot be read. */
static int count_lines(const char *path)
{
    FILE *in = fopen(path, "r");
    if (in == NULL)
        return -1;
    int n = 0;
    for (int c; (c = fgetc(in)) != EOF;)
        n += c == '\n';
    fclose(in);
    return n;
}

/* Runs rq's sweep into f->runs (-o FILE's placement: FILE.partial, renamed at the end). */
static int sweep_into_file(fixture_t *f, sweeping_failure_t policy, bool *some_failed,
                           cp_err_t *err)
{
    runs_csv_file_t out;
    assert_int_equal(runs_csv_open(&out, f->runs, ROWS_BESIDE, false, err), CP_OK);
    sweeping_request_t rq = {.params = &f->p, .runs = &out, .plan = SWEEPING_PLAN_SWEEP,
                             .on_failed_runs = policy};
    return sweeping_run(&rq, some_failed, err);
}

static void test_every_row_into_runs_csv(void **state)
{
    fixture_t *f = *state;
    cp_err_t err = {0};
    bool some_failed = true;
    assert_int_equal(sweep_into_file(f, SWEEPING_FAIL, &some_failed, &err), CP_OK);
    assert_false(some_failed);
    assert_int_equal(count_lines(f->runs), 2); /* the header and the one run */
}

static void test_failed_runs_fail_the_sweep(void **state)
{
    fixture_t *f = *state;
    failing_series(f);
    cp_err_t err = {0};
    bool some_failed = true;
    assert_int_equal(sweep_into_file(f, SWEEPING_FAIL, &some_failed, &err), CP_EIO);
    assert_false(some_failed);
    assert_non_null(strstr(err.msg, "some runs failed"));
    assert_int_equal(count_lines(f->runs), 2); /* the failed run's row is kept */
}

static void test_failed_runs_warned_and_passed_over(void **state)
{
    fixture_t *f = *state;
    failing_series(f);
    cp_err_t err = {0};
    bool some_failed = false;
    assert_int_equal(sweep_into_file(f, SWEEPING_WARN, &some_failed, &err), CP_OK);
    assert_true(some_failed);
    assert_int_equal(err.code, CP_OK);
    assert_int_equal(count_lines(f->runs), 2);
}

/* An -o FILE that appeared while the sweep ran: the close's error is the sweep's, and the
 * rows stay in FILE.partial. */
static void test_close_error_returned(void **state)
{
    fixture_t *f = *state;
    runs_csv_file_t out;
    cp_err_t err = {0};
    assert_int_equal(runs_csv_open(&out, f->runs, ROWS_BESIDE, false, &err), CP_OK);
    FILE *other = fopen(f->runs, "w");
    assert_non_null(other);
    fclose(other);
    sweeping_request_t rq = {.params = &f->p, .runs = &out, .plan = SWEEPING_PLAN_STUDY,
                             .on_failed_runs = SWEEPING_WARN};
    assert_int_equal(sweeping_run(&rq, NULL, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "exists"));
    char partial[80];
    snprintf(partial, sizeof partial, "%s.partial", f->runs);
    assert_int_equal(count_lines(partial), 2);
    assert_int_equal(count_lines(f->runs), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_row_into_runs_csv, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_runs_fail_the_sweep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_runs_warned_and_passed_over, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_close_error_returned, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
