/* compare: the calls on a ratio and its interval, the bootstrap on hand-made repetitions,
 * and whole comparisons of small in-memory runs tables (a regression with repetitions,
 * pure noise, partial overlap, nothing in common, the host and VM power laws). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/analysis.h"
#include "model/compare.h"
#include "model/study_env.h"
#include "tables/runs_csv.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.12g, want %.12g (relative tolerance %g)", got, want, rel);
}

/* ---- the calls ----------------------------------------------------------------------- */

static void test_decide_on_threshold(void **state)
{
    (void)state;
    compare_change_t c;
    compare_basis_t b;
    compare_decide(0.97, NAN, NAN, 0.02, &c, &b);
    assert_int_equal(c, COMPARE_SLOWER);
    assert_int_equal(b, COMPARE_BASIS_THRESHOLD);
    compare_decide(0.99, NAN, NAN, 0.02, &c, &b);
    assert_int_equal(c, COMPARE_SAME);
    compare_decide(1.03, NAN, NAN, 0.02, &c, &b);
    assert_int_equal(c, COMPARE_FASTER);
    /* A larger threshold swallows the same 3%. */
    compare_decide(0.97, NAN, NAN, 0.05, &c, &b);
    assert_int_equal(c, COMPARE_SAME);
    assert_string_equal(compare_change_name(COMPARE_SLOWER), "slower");
    assert_string_equal(compare_basis_name(COMPARE_BASIS_THRESHOLD), "threshold");
}

static void test_decide_on_interval(void **state)
{
    (void)state;
    compare_change_t c;
    compare_basis_t b;
    /* The whole interval beyond the threshold decides. */
    compare_decide(0.96, 0.95, 0.97, 0.02, &c, &b);
    assert_int_equal(c, COMPARE_SLOWER);
    assert_int_equal(b, COMPARE_BASIS_CI);
    compare_decide(1.04, 1.03, 1.05, 0.02, &c, &b);
    assert_int_equal(c, COMPARE_FASTER);
    /* A ratio beyond the threshold whose interval reaches back over it is noise. */
    compare_decide(0.96, 0.90, 1.01, 0.02, &c, &b);
    assert_int_equal(c, COMPARE_SAME);
    assert_int_equal(b, COMPARE_BASIS_CI);
    /* Clearly below 1 but within the threshold: same. */
    compare_decide(0.985, 0.981, 0.99, 0.02, &c, &b);
    assert_int_equal(c, COMPARE_SAME);
}

static void test_regression_limit(void **state)
{
    (void)state;
    assert_true(compare_is_regression(0.90, NAN, NAN, 0.05));
    assert_false(compare_is_regression(0.96, NAN, NAN, 0.05));
    /* With an interval, all of it must be beyond the limit. */
    assert_false(compare_is_regression(0.90, 0.85, 0.96, 0.05));
    assert_true(compare_is_regression(0.90, 0.85, 0.94, 0.05));
    /* Not asked for. */
    assert_false(compare_is_regression(0.5, NAN, NAN, NAN));
}

/* ---- the bootstrap ------------------------------------------------------------------- */

static void test_bootstrap_hand_made(void **state)
{
    (void)state;
    double lo, hi;
    /* No spread: the interval is the ratio itself. */
    const double a1[] = {100, 100, 100}, b1[] = {90, 90, 90};
    assert_int_equal(compare_bootstrap_ratio(a1, 3, b1, 3, 2000, 0.95, 1, &lo, &hi), CP_OK);
    assert_close(lo, 0.9, 1e-12);
    assert_close(hi, 0.9, 1e-12);
    /* Three values a side: a resampled median is one of them, and each extreme comes up
     * with probability 7/27, both at once 49/729 > 2.5%, so the 95% interval runs from
     * the smallest b over the largest a to the largest b over the smallest a. */
    const double a2[] = {1, 2, 3}, b2[] = {2, 4, 6};
    assert_int_equal(compare_bootstrap_ratio(a2, 3, b2, 3, 2000, 0.95, 7, &lo, &hi), CP_OK);
    assert_close(lo, 2.0 / 3.0, 1e-12);
    assert_close(hi, 6.0, 1e-12);
    /* Fewer than three repetitions: no interval. */
    assert_int_equal(compare_bootstrap_ratio(a2, 2, b2, 3, 2000, 0.95, 7, &lo, &hi), CP_OK);
    assert_true(isnan(lo) && isnan(hi));
}

static void test_bootstrap_reproducible(void **state)
{
    (void)state;
    const double a[] = {101, 99.5, 100.2, 98.9, 100.7}, b[] = {95.1, 96.3, 94.8, 95.9, 96.6};
    double lo1, hi1, lo2, hi2;
    compare_bootstrap_ratio(a, 5, b, 5, 2000, 0.95, 42, &lo1, &hi1);
    compare_bootstrap_ratio(a, 5, b, 5, 2000, 0.95, 42, &lo2, &hi2);
    assert_true(lo1 == lo2 && hi1 == hi2);
    assert_true(lo1 < 95.9 / 100.2 && hi1 > 95.9 / 100.2);
    assert_true(lo1 >= 94.8 / 101 && hi1 <= 96.6 / 98.9);
}

/* ---- whole comparisons from runs tables ------------------------------------------------ */

typedef struct study {
    runs_table_t *runs;
    analysis_t *analysis;
} study_t;

/* Rows "target,codec,threads,seconds,input_bytes" for each T in threads and each factor
 * in reps (seconds = base / T * factor). */
static size_t rows(char *buf, size_t cap, const char *target, const int *threads, size_t nt,
                   double base, const double *reps, size_t nreps)
{
    size_t used = 0;
    for (size_t i = 0; i < nt; i++)
        for (size_t r = 0; r < nreps; r++)
            used += (size_t)snprintf(buf + used, cap - used, "%s,zstd:3,%d,%.6f,1000000000\n",
                                     target, threads[i], base / threads[i] * reps[r]);
    return used;
}

static void load(study_t *s, const char *name, const char *csv)
{
    cp_err_t err = {0};
    assert_int_equal(runs_table_load_buffer(name, csv, strlen(csv), &s->runs, &err), CP_OK);
    analysis_options_t o = analysis_defaults();
    int rc = analysis_run(s->runs, NULL, &o, &s->analysis, &err);
    if (rc != CP_OK)
        fail_msg("%s", err.msg);
}

static void unload(study_t *s)
{
    analysis_free(s->analysis);
    runs_table_free(s->runs);
}

static int compare2(study_t *a, study_t *b, const compare_name_pair_t *names, size_t nnames,
                    compare_result_t **out, cp_err_t *err)
{
    compare_study_t st[2] = {
        {.label = "A", .analysis = a->analysis, .runs = a->runs},
        {.label = "B", .analysis = b->analysis, .runs = b->runs},
    };
    compare_options_t o = compare_defaults();
    o.fail_threshold = 0.05;
    o.pair_option = true; /* as `compare` does */
    return compare_run(st, 2, names, nnames, &o, out, err);
}

static const char header[] = "target,codec,threads,seconds,input_bytes\n";
static const int t124[] = {1, 2, 4};
/* Spread of about +-1%, the same shape on both sides but in another order. */
static const double noise_a[] = {1.000, 1.008, 0.993, 1.004, 0.997};
static const double noise_b[] = {0.996, 1.003, 1.009, 0.992, 1.001};

static void test_regression_with_repetitions(void **state)
{
    (void)state;
    char ca[4096], cb[4096];
    strcpy(ca, header);
    strcpy(cb, header);
    rows(ca + strlen(ca), sizeof ca - strlen(ca), "ssd", t124, 3, 10.0, noise_a, 5);
    /* B takes 10% longer: its rate is 1/1.1 = 0.909 of A's. */
    rows(cb + strlen(cb), sizeof cb - strlen(cb), "ssd", t124, 3, 11.0, noise_b, 5);
    study_t a, b;
    load(&a, "a.csv", ca);
    load(&b, "b.csv", cb);
    compare_result_t *r = NULL;
    cp_err_t err = {0};
    assert_int_equal(compare2(&a, &b, NULL, 0, &r, &err), CP_OK);
    assert_int_equal(r->npairs, 1);
    const compare_pair_t *p = &r->pairs[0];
    assert_int_equal(p->npoints, 3);
    for (size_t i = 0; i < p->npoints; i++) {
        const compare_point_t *c = &p->points[i];
        assert_int_equal(c->n_a, 5);
        assert_int_equal(c->n_b, 5);
        assert_close(c->rate_ratio, 1.0 / 1.1, 0.015);
        assert_int_equal(c->basis, COMPARE_BASIS_CI);
        assert_int_equal(c->change, COMPARE_SLOWER);
        assert_true(c->ci_low <= c->rate_ratio && c->rate_ratio <= c->ci_high);
        assert_true(c->ci_high < 0.95);
        assert_true(c->regression);
    }
    assert_int_equal(r->regressions, 3);
    assert_close(p->slope_ratio, 1.0 / 1.1, 0.02);
    compare_free(r);
    unload(&a);
    unload(&b);
}

static void test_pure_noise_is_same(void **state)
{
    (void)state;
    char ca[4096], cb[4096];
    strcpy(ca, header);
    strcpy(cb, header);
    rows(ca + strlen(ca), sizeof ca - strlen(ca), "ssd", t124, 3, 10.0, noise_a, 5);
    rows(cb + strlen(cb), sizeof cb - strlen(cb), "ssd", t124, 3, 10.0, noise_b, 5);
    study_t a, b;
    load(&a, "a.csv", ca);
    load(&b, "b.csv", cb);
    compare_result_t *r = NULL;
    cp_err_t err = {0};
    assert_int_equal(compare2(&a, &b, NULL, 0, &r, &err), CP_OK);
    const compare_pair_t *p = &r->pairs[0];
    for (size_t i = 0; i < p->npoints; i++) {
        assert_int_equal(p->points[i].change, COMPARE_SAME);
        assert_int_equal(p->points[i].basis, COMPARE_BASIS_CI);
        assert_true(p->points[i].ci_low < 1.0 && p->points[i].ci_high > 1.0);
        assert_false(p->points[i].regression);
    }
    assert_int_equal(p->same, 3);
    assert_int_equal(r->regressions, 0);
    compare_free(r);
    unload(&a);
    unload(&b);
}

static void test_partial_overlap_and_names(void **state)
{
    (void)state;
    char ca[4096], cb[4096];
    const int ta[] = {1, 2, 4, 8}, tb[] = {2, 4, 16};
    const double one[] = {1.0};
    strcpy(ca, header);
    strcpy(cb, header);
    rows(ca + strlen(ca), sizeof ca - strlen(ca), "old-disk", ta, 4, 10.0, one, 1);
    rows(ca + strlen(ca), sizeof ca - strlen(ca), "mem", ta, 4, 8.0, one, 1);
    rows(cb + strlen(cb), sizeof cb - strlen(cb), "new-disk", tb, 3, 9.0, one, 1);
    rows(cb + strlen(cb), sizeof cb - strlen(cb), "mem", tb, 3, 8.0, one, 1);
    study_t a, b;
    load(&a, "a.csv", ca);
    load(&b, "b.csv", cb);
    compare_result_t *r = NULL;
    cp_err_t err = {0};
    /* mem pairs by name; the disks only when named. */
    assert_int_equal(compare2(&a, &b, NULL, 0, &r, &err), CP_OK);
    assert_int_equal(r->npairs, 1);
    assert_string_equal(r->pairs[0].a->name, "mem");
    compare_free(r);
    const compare_name_pair_t names[] = {{.a = "old-disk", .b = "new-disk"}};
    assert_int_equal(compare2(&a, &b, names, 1, &r, &err), CP_OK);
    assert_int_equal(r->npairs, 2);
    const compare_pair_t *p = &r->pairs[0];
    assert_string_equal(p->a->name, "old-disk");
    assert_string_equal(p->b->name, "new-disk");
    /* Only T = 2 and 4 are on both sides. */
    assert_int_equal(p->npoints, 2);
    assert_int_equal(p->points[0].threads, 2);
    assert_int_equal(p->points[1].threads, 4);
    assert_close(p->points[0].rate_ratio, 10.0 / 9.0, 1e-6);
    assert_int_equal(p->points[0].basis, COMPARE_BASIS_THRESHOLD);
    assert_int_equal(p->points[0].change, COMPARE_FASTER);
    assert_true(isnan(p->points[0].ci_low));
    compare_free(r);
    /* A name that is not there. */
    const compare_name_pair_t bad[] = {{.a = "old-disk", .b = "usb"}};
    cp_err_clear(&err);
    assert_int_equal(compare2(&a, &b, bad, 1, &r, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "no target 'usb' in B"));
    assert_null(r);
    unload(&a);
    unload(&b);
}

static void test_nothing_in_common(void **state)
{
    (void)state;
    char ca[4096], cb[4096];
    const double one[] = {1.0};
    strcpy(ca, header);
    strcpy(cb, header);
    rows(ca + strlen(ca), sizeof ca - strlen(ca), "x", t124, 3, 10.0, one, 1);
    rows(ca + strlen(ca), sizeof ca - strlen(ca), "y", t124, 3, 10.0, one, 1);
    rows(cb + strlen(cb), sizeof cb - strlen(cb), "z", t124, 3, 10.0, one, 1);
    rows(cb + strlen(cb), sizeof cb - strlen(cb), "w", t124, 3, 10.0, one, 1);
    study_t a, b;
    load(&a, "a.csv", ca);
    load(&b, "b.csv", cb);
    compare_result_t *r = NULL;
    cp_err_t err = {0};
    assert_int_equal(compare2(&a, &b, NULL, 0, &r, &err), CP_EDATA);
    assert_null(r);
    assert_non_null(strstr(err.msg, "nothing in common"));
    assert_non_null(strstr(err.msg, "--pair"));
    /* history takes no --pair: its message must not advise it. */
    compare_study_t st[2] = {
        {.label = "A", .analysis = a.analysis, .runs = a.runs},
        {.label = "B", .analysis = b.analysis, .runs = b.runs},
    };
    compare_options_t no_pair = compare_defaults();
    err = (cp_err_t){0};
    assert_int_equal(compare_run(st, 2, NULL, 0, &no_pair, &r, &err), CP_EDATA);
    assert_null(strstr(err.msg, "--pair"));
    assert_non_null(strstr(err.msg, "name the targets alike"));
    unload(&a);
    unload(&b);
    /* One series a side pairs by itself, but no common thread count is still nothing. */
    const int t1[] = {1}, t8[] = {8, 16};
    strcpy(ca, header);
    strcpy(cb, header);
    rows(ca + strlen(ca), sizeof ca - strlen(ca), "x", t1, 1, 10.0, one, 1);
    rows(cb + strlen(cb), sizeof cb - strlen(cb), "z", t8, 2, 10.0, one, 1);
    load(&a, "a.csv", ca);
    load(&b, "b.csv", cb);
    cp_err_clear(&err);
    assert_int_equal(compare2(&a, &b, NULL, 0, &r, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "no thread count in common"));
    unload(&a);
    unload(&b);
}

/* The study the tool grew from: host time = 49.89 / T^0.912, VM 54.74 / T^0.854, at
 * T = 1, 2, 4, 8 (fixtures/reference/compare_host.csv and compare_vm.csv hold the same).
 * Independent values: the VM's rate at T = 2 is (49.89 / 2^0.912) / (54.74 / 2^0.854)
 * = 0.87549 of the host's; least squares of rate on T over 1, 2, 4, 8 gives slopes whose
 * ratio is 0.78720 (computed by hand in Python). */
static void test_host_against_vm(void **state)
{
    (void)state;
    char ca[1024], cb[1024];
    strcpy(ca, header);
    strcpy(cb, header);
    const int T[] = {1, 2, 4, 8};
    for (int i = 0; i < 4; i++) {
        snprintf(ca + strlen(ca), sizeof ca - strlen(ca), "host-ssd,zstd:3,%d,%.6f,10000000000\n",
                 T[i], 49.89 / pow(T[i], 0.912));
        snprintf(cb + strlen(cb), sizeof cb - strlen(cb), "vm-disk,zstd:3,%d,%.6f,10000000000\n",
                 T[i], 54.74 / pow(T[i], 0.854));
    }
    study_t a, b;
    load(&a, "host.csv", ca);
    load(&b, "vm.csv", cb);
    compare_result_t *r = NULL;
    cp_err_t err = {0};
    assert_int_equal(compare2(&a, &b, NULL, 0, &r, &err), CP_OK);
    assert_int_equal(r->npairs, 1);
    const compare_pair_t *p = &r->pairs[0];
    assert_int_equal(p->npoints, 4);
    assert_close(p->points[1].rate_ratio, 0.875486, 1e-5);
    assert_close(p->slope_ratio, 0.787199, 1e-5);
    assert_close(p->exponent_a, 0.912, 1e-5);
    assert_close(p->exponent_b, 0.854, 1e-5);
    /* One repetition a side: the ratio alone decides, against 2% and the 5% limit. */
    assert_int_equal(p->points[0].basis, COMPARE_BASIS_THRESHOLD);
    assert_int_equal(p->points[0].change, COMPARE_SLOWER);
    assert_true(p->points[0].regression);
    assert_close(p->points[0].rate_ratio, 49.89 / 54.74, 1e-6);
    compare_free(r);
    unload(&a);
    unload(&b);
}

/* Two environments that differ in the write-back threshold, the sync mode, the version
 * and a target's device: each is named once, in order, with an explanation except the
 * version; the same environment differs in nothing; an unknown side gives nothing. */
static void test_environment_differences(void **state)
{
    (void)state;
    study_env_t a, b;
    study_env_init(&a);
    a.known = true;
    snprintf(a.kernel, sizeof a.kernel, "6.18.44");
    a.usable_cpus = 8;
    a.dirty_background_bytes = 2.4e9;
    a.dirty_bytes = 4.8e9;
    snprintf(a.sync, sizeof a.sync, "fsync");
    snprintf(a.version, sizeof a.version, "0.1.0");
    a.ntargets = 2;
    snprintf(a.targets[0].name, sizeof a.targets[0].name, "mem");
    a.targets[0].memory = true;
    snprintf(a.targets[1].name, sizeof a.targets[1].name, "usb");
    snprintf(a.targets[1].fs_type, sizeof a.targets[1].fs_type, "ext4");
    snprintf(a.targets[1].mount_source, sizeof a.targets[1].mount_source, "/dev/sdb1");
    a.targets[1].rotational = -1;
    a.targets[1].write_cap_bps = NAN;
    b = a;
    study_env_diff_t d[8];
    assert_int_equal(study_env_differences(&a, &b, 376e6, d, 8), 0);

    b.dirty_background_bytes = 32.0 * 1024 * 1024;
    b.usable_cpus = 8.04; /* within 1%: the same */
    snprintf(b.sync, sizeof b.sync, "direct");
    snprintf(b.version, sizeof b.version, "0.2.0");
    snprintf(b.targets[1].mount_source, sizeof b.targets[1].mount_source, "/dev/sdc1");
    assert_int_equal(study_env_differences(&a, &b, 376e6, d, 8), 4);
    assert_string_equal(d[0].what, "dirty_background_bytes");
    assert_string_equal(d[0].a, "2.4 GB");
    assert_string_equal(d[0].b, "33.55 MB");
    assert_string_equal(d[0].explains, "write-back starts once this much output is dirty: of "
                                       "an output of 376 MB, 342.4 MB more was held by the "
                                       "page cache in A, and written by the disk after the "
                                       "compression (the flush) rather than during it");
    assert_string_equal(d[1].what, "sync");
    assert_string_equal(d[2].what, "chokepoint version");
    assert_string_equal(d[2].explains, "");
    assert_string_equal(d[3].what, "usb: device");
    assert_string_equal(d[3].b, "/dev/sdc1");
    assert_int_equal(study_env_differences(&a, &b, 376e6, d, 2), 4); /* counted past the room */

    b.known = false;
    assert_int_equal(study_env_differences(&a, &b, 376e6, d, 8), 0);
}

/* Thresholds derived from free memory move a little between two studies on one machine:
 * 2.495 GB against 2.455 GB (1.6%) is no difference, whatever the output. One that moves
 * more is named, but explains nothing unless the model moves a term for the output. */
static void test_threshold_differences_that_matter(void **state)
{
    (void)state;
    study_env_t a, b;
    study_env_init(&a);
    a.known = true;
    a.dirty_background_bytes = 2.495e9;
    a.dirty_bytes = 4.99e9;
    b = a;
    b.dirty_background_bytes = 2.455e9;
    b.dirty_bytes = 4.91e9;
    study_env_diff_t d[4];
    assert_int_equal(study_env_differences(&a, &b, 560e6, d, 4), 0);
    assert_int_equal(study_env_differences(&a, &b, 2.47e9, d, 4), 0);

    /* 2.4 GB against 1.2 GB: outputs of 280 and 560 MB fit under both, so no term moves. */
    b.dirty_background_bytes = 1.2e9;
    assert_int_equal(study_env_differences(&a, &b, 560e6, d, 4), 1);
    assert_string_equal(d[0].what, "dirty_background_bytes");
    assert_string_equal(d[0].explains, "");
    /* An output of 2 GB lies between them: 0.8 GB more stays in A's cache. */
    assert_int_equal(study_env_differences(&a, &b, 2e9, d, 4), 1);
    assert_non_null(strstr(d[0].explains, "of an output of 2 GB, 800 MB more was held by the "
                                          "page cache in A"));
    /* Unknown output: named, but nothing claimed. */
    assert_int_equal(study_env_differences(&a, &b, NAN, d, 4), 1);
    assert_string_equal(d[0].explains, "");
    /* dirty_bytes: the smaller throttles the writer, here B's, by what lies between. */
    b.dirty_bytes = 3e9;
    assert_int_equal(study_env_differences(&a, &b, 4e9, d, 4), 2);
    assert_string_equal(d[1].what, "dirty_bytes");
    assert_non_null(strstr(d[1].explains, "of an output of 4 GB, 1 GB more was written at the "
                                          "disk's speed in B"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decide_on_threshold),
        cmocka_unit_test(test_environment_differences),
        cmocka_unit_test(test_threshold_differences_that_matter),
        cmocka_unit_test(test_decide_on_interval),
        cmocka_unit_test(test_regression_limit),
        cmocka_unit_test(test_bootstrap_hand_made),
        cmocka_unit_test(test_bootstrap_reproducible),
        cmocka_unit_test(test_regression_with_repetitions),
        cmocka_unit_test(test_pure_noise_is_same),
        cmocka_unit_test(test_partial_overlap_and_names),
        cmocka_unit_test(test_nothing_in_common),
        cmocka_unit_test(test_host_against_vm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
