/* history: studies grouped by host and put in time order whatever order they come in, the
 * rate lines (one point per study, oldest first, a line a study lacks left short), the
 * latest study against the one before it judged as compare judges, a host with one study,
 * two studies with nothing in common (a note, not an error), and the start-time and
 * directory-name parsers of the loader. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/analysis.h"
#include "model/history.h"
#include "report/history_plot.h"
#include "tables/history_load.h"
#include "tables/runs_csv.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.12g, want %.12g (relative tolerance %g)", got, want, rel);
}

typedef struct study {
    runs_table_t *runs;
    analysis_t *analysis;
} study_t;

static const double noise[] = {1.000, 1.006, 0.995};

/* A runs table of target at T = 1, 2, 4 (and 8 when with8), three repetitions each, with
 * seconds = 8 / T * slow * noise, analysed. */
static void make(study_t *s, const char *target, double slow, bool with8)
{
    char csv[4096];
    size_t used = (size_t)snprintf(csv, sizeof csv, "target,codec,threads,seconds,input_bytes\n");
    static const int threads[] = {1, 2, 4, 8};
    for (size_t i = 0; i < (with8 ? 4u : 3u); i++)
        for (size_t r = 0; r < 3; r++)
            used += (size_t)snprintf(csv + used, sizeof csv - used, "%s,zstd:3,%d,%.6f,1000000000\n",
                                     target, threads[i], 8.0 / threads[i] * slow * noise[r]);
    cp_err_t err = {0};
    assert_int_equal(runs_table_load_buffer(target, csv, used, &s->runs, &err), CP_OK);
    analysis_options_t o = analysis_defaults();
    if (analysis_run(s->runs, NULL, &o, &s->analysis, &err) != CP_OK)
        fail_msg("%s", err.msg);
}

static void unmake(study_t *s)
{
    analysis_free(s->analysis);
    runs_table_free(s->runs);
}

static history_study_t hs(const char *label, const char *host, double started,
                          const study_t *s)
{
    return (history_study_t){.label = label, .host = host, .started = started,
                             .started_text = label, .analysis = s->analysis, .runs = s->runs};
}

static void test_order(void **state)
{
    (void)state;
    history_study_t a = {.label = "x", .host = "alpha", .started = 100};
    history_study_t b = {.label = "a", .host = "alpha", .started = 200};
    history_study_t c = {.label = "a", .host = "beta", .started = 50};
    history_study_t d = {.label = "y", .host = "alpha", .started = 100};
    assert_true(history_study_order(&a, &b) < 0);  /* earlier first, whatever the label */
    assert_true(history_study_order(&b, &c) < 0);  /* host before time */
    assert_true(history_study_order(&a, &d) < 0);  /* same time: by label */
    assert_int_equal(history_study_order(&a, &a), 0);
}

static void test_grouping_and_latest(void **state)
{
    (void)state;
    study_t base = {0}, same = {0}, slow = {0}, beta1 = {0}, beta2 = {0}, gamma = {0};
    make(&base, "ssd", 1.0, false);
    make(&same, "ssd", 1.0, false);
    make(&slow, "ssd", 1.0 / 0.9, true); /* 10% slower, and a T=8 the others lack */
    make(&beta1, "nvme", 1.0, false);
    make(&beta2, "nvme", 1.0, false);
    make(&gamma, "usb", 1.0, false);
    /* Handed in out of order: by host and by time. */
    history_study_t st[] = {
        hs("a-latest", "alpha", 3000, &slow), hs("b-new", "beta", 2000, &beta2),
        hs("a-first", "alpha", 1000, &base), hs("g-only", "gamma", 5, &gamma),
        hs("b-old", "beta", 1000, &beta1), hs("a-middle", "alpha", 2000, &same),
    };
    compare_options_t o = compare_defaults();
    o.fail_threshold = 0.05;
    history_result_t *r = NULL;
    cp_err_t err = {0};
    assert_int_equal(history_build(st, 6, &o, &r, &err), CP_OK);
    assert_int_equal(r->nhosts, 3);
    assert_string_equal(r->hosts[0].host, "alpha");
    assert_string_equal(r->hosts[1].host, "beta");
    assert_string_equal(r->hosts[2].host, "gamma");

    const history_host_t *a = &r->hosts[0];
    assert_int_equal(a->nstudies, 3);
    assert_int_equal(a->studies[0], 2); /* a-first */
    assert_int_equal(a->studies[1], 5); /* a-middle */
    assert_int_equal(a->studies[2], 0); /* a-latest */
    /* Lines by target, codec, threads; points oldest first; T=8 only in the latest. */
    assert_int_equal(a->nlines, 4);
    for (size_t j = 0; j < 4; j++) {
        assert_string_equal(a->lines[j].target, "ssd");
        assert_string_equal(a->lines[j].codec, "zstd:3");
        assert_int_equal(a->lines[j].threads, 1 << j);
    }
    assert_int_equal(a->lines[0].npoints, 3);
    assert_int_equal(a->lines[3].npoints, 1);
    assert_int_equal(a->lines[3].points[0].study, 0);
    assert_true(a->lines[0].points[0].started < a->lines[0].points[1].started);
    assert_true(a->lines[0].points[1].started < a->lines[0].points[2].started);
    /* T=1: 1e9 bytes over the median 8 s. */
    assert_close(a->lines[0].points[0].rate, 1e9 / 8.0, 1e-9);
    assert_close(a->lines[0].points[0].rate_min, 1e9 / (8.0 * 1.006), 1e-9);
    assert_close(a->lines[0].points[0].rate_max, 1e9 / (8.0 * 0.995), 1e-9);
    assert_int_equal(a->lines[0].points[0].n, 3);
    assert_close(a->lines[0].points[2].rate, 0.9e9 / 8.0, 1e-6);

    /* The latest against the one before it: a-middle (A) and a-latest (B), 10% slower on
     * the interval, a regression beyond 5%; T=8 not compared. */
    assert_non_null(a->latest);
    assert_string_equal(a->pair[0].label, "a-middle");
    assert_string_equal(a->pair[1].label, "a-latest");
    assert_int_equal(a->latest->npairs, 1);
    const compare_pair_t *p = &a->latest->pairs[0];
    assert_int_equal(p->npoints, 3);
    for (size_t i = 0; i < p->npoints; i++) {
        assert_close(p->points[i].rate_ratio, 0.9, 1e-6);
        assert_int_equal(p->points[i].change, COMPARE_SLOWER);
        assert_int_equal(p->points[i].basis, COMPARE_BASIS_CI);
        assert_true(p->points[i].regression);
    }
    assert_int_equal(a->latest->regressions, 3);

    /* beta: the same runs twice are the same; gamma: one study, nothing to compare. */
    assert_non_null(r->hosts[1].latest);
    assert_int_equal(r->hosts[1].latest->pairs[0].same, 3);
    assert_int_equal(r->hosts[1].latest->regressions, 0);
    assert_null(r->hosts[2].latest);
    assert_int_equal(r->hosts[2].nstudies, 1);
    assert_non_null(strstr(r->hosts[2].note, "one study"));
    assert_int_equal(r->regressions, 3);
    history_free(r);
    study_t *all[] = {&base, &same, &slow, &beta1, &beta2, &gamma};
    for (size_t i = 0; i < 6; i++)
        unmake(all[i]);
}

static void test_nothing_in_common(void **state)
{
    (void)state;
    study_t ssd = {0}, usb = {0};
    make(&ssd, "ssd", 1.0, false);
    make(&usb, "usb", 1.0, false);
    history_study_t st[] = {hs("old", "h", 1, &ssd), hs("new", "h", 2, &usb)};
    history_result_t *r = NULL;
    cp_err_t err = {0};
    compare_options_t o = compare_defaults();
    /* One series a side pairs by itself: usb against ssd is a comparison. */
    assert_int_equal(history_build(st, 2, &o, &r, &err), CP_OK);
    assert_non_null(r->hosts[0].latest);
    history_free(r);
    /* A T the other never measured: nothing in common, a note and no error. */
    study_t only16 = {0};
    char csv[] = "target,codec,threads,seconds,input_bytes\nssd,zstd:3,16,1.0,1000000000\n";
    assert_int_equal(runs_table_load_buffer("only16", csv, strlen(csv), &only16.runs, &err),
                     CP_OK);
    analysis_options_t ao = analysis_defaults();
    assert_int_equal(analysis_run(only16.runs, NULL, &ao, &only16.analysis, &err), CP_OK);
    history_study_t st2[] = {hs("old", "h", 1, &ssd), hs("new", "h", 2, &only16)};
    assert_int_equal(history_build(st2, 2, &o, &r, &err), CP_OK);
    assert_null(r->hosts[0].latest);
    assert_non_null(strstr(r->hosts[0].note, "nothing in common"));
    assert_int_equal(r->regressions, 0);
    history_free(r);
    assert_int_equal(history_build(st2, 0, &o, &r, &err), CP_EUSAGE);
    assert_null(r);
    unmake(&ssd);
    unmake(&usb);
    unmake(&only16);
}

static void test_parse_time(void **state)
{
    (void)state;
    double t;
    assert_int_equal(history_parse_time("1970-01-01T00:00:00Z", &t), CP_OK);
    assert_close(t + 1, 1, 1e-12);
    assert_int_equal(history_parse_time("2026-11-30T14:53:33+0000", &t), CP_OK);
    assert_close(t, 1796050413.0, 1e-12); /* date -u -d 2026-11-30T14:53:33Z +%s */
    /* An hour east of UTC is an hour earlier in UTC, however the zone is spelled. */
    double east, colon, west;
    assert_int_equal(history_parse_time("2026-11-30T15:53:33+0100", &east), CP_OK);
    assert_int_equal(history_parse_time("2026-11-30T15:53:33+01:00", &colon), CP_OK);
    assert_int_equal(history_parse_time("2026-11-30T09:53:33-05:00", &west), CP_OK);
    assert_close(east, t, 1e-12);
    assert_close(colon, t, 1e-12);
    assert_close(west, t, 1e-12);
    assert_int_equal(history_parse_time("2026-11-30 14:53:33.5", &east), CP_OK);
    assert_close(east, t + 0.5, 1e-12);
    const char *bad[] = {"", "2026-11-30", "2026-13-30T00:00:00", "2026-11-30T14:53:33+1",
                         "2026-11-30T14:53:33 junk", "yesterday"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (history_parse_time(bad[i], &t) != CP_EDATA)
            fail_msg("'%s' parsed", bad[i]);
}

static void test_host_from_dirname(void **state)
{
    (void)state;
    char buf[64];
    assert_true(history_host_from_dirname("20261130-145333-vm", buf, sizeof buf));
    assert_string_equal(buf, "vm");
    assert_true(history_host_from_dirname("20261130-145333-build-host-2", buf, sizeof buf));
    assert_string_equal(buf, "build-host-2");
    assert_false(history_host_from_dirname("20261130-145333-", buf, sizeof buf));
    assert_false(history_host_from_dirname("results", buf, sizeof buf));
    assert_string_equal(buf, "");
}

static void test_plot_host_dir(void **state)
{
    (void)state;
    char buf[64];
    history_plot_host_dir("build-01.lab_x", buf, sizeof buf);
    assert_string_equal(buf, "build-01.lab_x");
    /* A changed name carries the low 32 bits of its host's XXH3-64 (xxhsum -H3). */
    history_plot_host_dir("a/b c", buf, sizeof buf);
    assert_string_equal(buf, "a_b_c-198ff9d3");
    history_plot_host_dir("..", buf, sizeof buf);
    assert_string_equal(buf, "__-70a33f0e");
    history_plot_host_dir("", buf, sizeof buf);
    assert_string_equal(buf, "_-38d394c2");
    /* "a b" and "a_b" shared a_b. */
    history_plot_host_dir("a b", buf, sizeof buf);
    assert_string_equal(buf, "a_b-24582c4c");
    history_plot_host_dir("a_b", buf, sizeof buf);
    assert_string_equal(buf, "a_b");
    /* A name cut to fit is changed too: cut further, so its hash fits. */
    char longer[100];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    history_plot_host_dir(longer, buf, sizeof buf);
    assert_int_equal(strlen(buf), sizeof buf - 1);
    assert_int_equal(strspn(buf, "x"), sizeof buf - 10);
    assert_int_equal(buf[sizeof buf - 10], '-');
}

/* Fourteen lines and more: no two look alike (colour and marker up to 24 lines, with the
 * dash type up to 96). */
static void test_line_styles_are_distinct(void **state)
{
    (void)state;
    for (size_t i = 0; i < 96; i++) {
        history_line_style_t x = history_plot_line_style(i);
        assert_in_range(x.colour, 1, 8);
        for (size_t j = 0; j < i; j++) {
            history_line_style_t y = history_plot_line_style(j);
            bool same_look = x.colour == y.colour && x.marker == y.marker;
            if (i < 24)
                assert_false(same_look);
            assert_false(same_look && x.dash == y.dash);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_styles_are_distinct),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_grouping_and_latest),
        cmocka_unit_test(test_nothing_in_common),
        cmocka_unit_test(test_parse_time),
        cmocka_unit_test(test_host_from_dirname),
        cmocka_unit_test(test_plot_host_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
