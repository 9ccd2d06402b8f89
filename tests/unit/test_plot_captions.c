/* test_plot_captions.c - the words of the plots, from hand-made analyses: key titles with
 * their RAM/emulated tags, singular and plural thread counts, the caption sentences. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/figure_text.h"
#include "report/plot_captions.h"
#include "report/plot_kinds.h"
#include "tables/probe_csv.h"

#define MB 1e6

/* A series with no label columns, no models and no ceilings. */
static analysis_series_t series(const char *name, const char *codec)
{
    analysis_series_t s;
    memset(&s, 0, sizeof s);
    snprintf(s.name, sizeof s.name, "%s", name);
    snprintf(s.codec, sizeof s.codec, "%s", codec);
    s.ram = s.emulated = -1;
    s.rate_cap_bps = s.output_ratio = s.write_bps = s.read_bps = NAN;
    s.write_ceiling_bps = s.read_ceiling_bps = s.crossover_threads = NAN;
    s.crossover_limit = VERDICT_WRITE;
    s.crossover_model = -1;
    return s;
}

static void test_series_titles_carry_the_volume_kind(void **state)
{
    (void)state;
    char buf[256];
    analysis_series_t s = series("mem", "zstd:3");
    s.cpu_ceiling = true;
    assert_string_equal(plot_series_title(&s, false, buf, sizeof buf), "mem (CPU only)");

    s = series("slow", "zstd:3");
    s.emulated = 1;
    s.rate_cap_bps = 100 * MB;
    assert_string_equal(plot_series_title(&s, false, buf, sizeof buf),
                        "slow (emulated 100 MB/s)");
    s.rate_cap_bps = NAN;
    assert_string_equal(plot_series_title(&s, false, buf, sizeof buf), "slow (emulated)");

    s = series("tmp", "zstd:3");
    s.ram = 1;
    assert_string_equal(plot_series_title(&s, false, buf, sizeof buf), "tmp (RAM)");
    assert_string_equal(plot_series_title(&s, true, buf, sizeof buf), "tmp zstd:3 (RAM)");
    s.ram = 0;
    assert_string_equal(plot_series_title(&s, false, buf, sizeof buf), "tmp");
}

static void test_series_names_add_the_codec_only_when_codecs_differ(void **state)
{
    (void)state;
    char buf[256];
    analysis_series_t s = series("usb", "xz:6");
    assert_string_equal(plot_series_name(&s, false, buf, sizeof buf), "usb");
    assert_string_equal(plot_series_name(&s, true, buf, sizeof buf), "usb (xz:6)");
    s = series("usb", "");
    assert_string_equal(plot_series_name(&s, true, buf, sizeof buf), "usb");
}

static void test_probe_target_titles(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(plot_target_title("ssd", 1, 1, buf, sizeof buf), "ssd (emulated)");
    assert_string_equal(plot_target_title("ssd", 0, 1, buf, sizeof buf), "ssd (RAM)");
    assert_string_equal(plot_target_title("ssd", -1, -1, buf, sizeof buf), "ssd");
}

static void test_crossover_text_singular_and_plural_threads(void **state)
{
    (void)state;
    char buf[512];
    plot_crossover_text("usb", "write", 200 * MB, 1.5, true, 1, 8, NULL, buf, sizeof buf);
    assert_string_equal(buf, "usb (write ceiling 200 MB/s) starts to limit the job at T = 1.5, "
                             "so from 2 threads on the volume sets the time");
    plot_crossover_text("usb", "write", 200 * MB, 2.5, true, 1, 8, NULL, buf, sizeof buf);
    assert_string_equal(buf, "usb (write ceiling 200 MB/s) starts to limit the job at T = 2.5, "
                             "so from 3 threads on the volume sets the time");
    /* The thread count goes with the T shown: 6.04 is "T = 6.0", so from 6, not 7. */
    plot_crossover_text("usb", "write", 200 * MB, 6.04, true, 1, 8, NULL, buf, sizeof buf);
    assert_string_equal(buf, "usb (write ceiling 200 MB/s) starts to limit the job at T = 6.0, "
                             "so from 6 threads on the volume sets the time");
    assert_int_equal(figure_threads_from(6.04), 6);
    assert_int_equal(figure_threads_from(6.06), 7);
    assert_int_equal(figure_threads_from(0.7), 1);
    plot_crossover_text("nas", "read", 400 * MB, NAN, true, 1, 8, NULL, buf, sizeof buf);
    assert_string_equal(buf, "nas's read ceiling (400 MB/s) never limits the job up to "
                             "1024 threads");
    plot_crossover_text("nas", "read", 400 * MB, NAN, false, 1, 8, NULL, buf, sizeof buf);
    assert_string_equal(buf, "nas's read ceiling is 400 MB/s (the CPU rate has no model to "
                             "meet it)");
    /* Measured at 1..2 threads: a crossing at 5.5 is extrapolated, one at 44.9 (beyond
     * 4 x 2) is not stated as a thread count. */
    plot_crossover_text("usb", "write", 200 * MB, 5.5, true, 1, 2, NULL, buf, sizeof buf);
    assert_string_equal(buf, "usb (write ceiling 200 MB/s) starts to limit the job at T = 5.5, "
                             "so from 6 threads on the volume sets the time (extrapolated "
                             "beyond the measured 1..2 threads)");
    /* A crossing a hair past a whole count reads as that count, as printed: no "from 7
     * threads on" beside "T = 6.0". */
    plot_crossover_text("usb", "write", 200 * MB, 6.0000001, true, 1, 8, NULL, buf, sizeof buf);
    assert_string_equal(buf, "usb (write ceiling 200 MB/s) starts to limit the job at T = 6.0, "
                             "so from 6 threads on the volume sets the time");
    assert_int_equal(figure_threads_from(1.6), 2);
    assert_int_equal(figure_threads_from(6.06), 7);
    assert_int_equal(figure_threads_from(0.7), 1);
    plot_crossover_text("usb", "write", 200 * MB, 44.9, true, 1, 2, NULL, buf, sizeof buf);
    assert_string_equal(buf, "usb's write ceiling (200 MB/s) is not within reach of the "
                             "measured range (1..2 threads)");
}

static void test_doubling_text(void **state)
{
    (void)state;
    char buf[96];
    plot_doubling_text(1.0, buf, sizeof buf);
    assert_string_equal(buf, "doubling threads cuts time by 50%");
    plot_doubling_text(-0.1, buf, sizeof buf);
    assert_string_equal(buf, "doubling threads adds 7% to the time");
}

static void test_short_labels(void **state)
{
    (void)state;
    char buf[320];
    fit_result_t usl;
    memset(&usl, 0, sizeof usl);
    plot_usl_label(&usl, buf, sizeof buf);
    assert_string_equal(buf, "");
    usl.fitted = true;
    usl.peak_threads = 12.2;
    plot_usl_label(&usl, buf, sizeof buf);
    assert_string_equal(buf, "USL, peaks at T = 12");
    usl.peak_threads = NAN;
    plot_usl_label(&usl, buf, sizeof buf);
    assert_string_equal(buf, "USL, no peak");

    analysis_ceiling_t ce;
    memset(&ce, 0, sizeof ce);
    snprintf(ce.codec, sizeof ce.codec, "zstd:3");
    plot_cpu_title(&ce, false, buf, sizeof buf);
    assert_string_equal(buf, "CPU rate (mem target)");
    ce.estimated = true;
    plot_cpu_title(&ce, true, buf, sizeof buf);
    assert_string_equal(buf, "CPU rate zstd:3 (estimated: fastest target)");

    analysis_series_t s = series("slow", "zstd:3");
    s.output_ratio = 0.5;
    snprintf(s.read_from, sizeof s.read_from, "ssd");
    plot_ceiling_title(&s, false, false, 200 * MB, true, NULL, buf, sizeof buf);
    assert_string_equal(buf, "slow write ceiling 200 MB/s (ratio 0.50), above the plot");
    plot_ceiling_title(&s, false, true, 400 * MB, false, NULL, buf, sizeof buf);
    assert_string_equal(buf, "read ceiling 400 MB/s (from ssd)");
    s.output_ratio = NAN;
    plot_ceiling_title(&s, false, false, 200 * MB, false, NULL, buf, sizeof buf);
    assert_string_equal(buf, "slow write ceiling 200 MB/s");

    s.crossover_threads = 2.5;
    plot_crossover_label(&s, true, buf, sizeof buf);
    assert_string_equal(buf, "slow (zstd:3): the volume from T = 2.5");
    s.crossover_term = TERM_FLUSH;
    s.crossover_lead = TERM_IO_CPU;
    plot_crossover_label(&s, true, buf, sizeof buf);
    assert_string_equal(buf, "slow (zstd:3): writing's CPU work from T = 2.5");
    s.crossover_lead = TERM_COMPUTE;
    plot_crossover_label(&s, true, buf, sizeof buf);
    assert_string_equal(buf, "slow (zstd:3): the disk's flush from T = 2.5");
    /* T read as a number at any size: not "1.2e+02", nor 12.5 rounded to "12" */
    s.crossover_threads = 12.5;
    plot_crossover_label(&s, true, buf, sizeof buf);
    assert_string_equal(buf, "slow (zstd:3): the disk's flush from T = 12.5");
    s.crossover_threads = 123.0;
    plot_crossover_label(&s, true, buf, sizeof buf);
    assert_string_equal(buf, "slow (zstd:3): the disk's flush from T = 123.0");
}

static void test_measured_text(void **state)
{
    (void)state;
    char buf[160];
    analysis_point_t pts[2] = {{.threads = 1, .n = 3}, {.threads = 2, .n = 3}};
    analysis_series_t s[2] = {series("mem", "zstd:3"), series("ssd", "zstd:3")};
    s[0].cpu_ceiling = true;
    snprintf(s[0].sync, sizeof s[0].sync, "none"); /* mem's sync mode says nothing */
    snprintf(s[1].sync, sizeof s[1].sync, "fsync");
    s[0].points = s[1].points = pts;
    s[0].npoints = s[1].npoints = 2;
    analysis_t a = {.series = s, .nseries = 2};
    plot_measured_text(&a, true, buf, sizeof buf);
    assert_string_equal(buf, "median of 3 runs, bars min to max, fsync'd");
    plot_measured_text(&a, false, buf, sizeof buf); /* a plot without the bars */
    assert_string_equal(buf, "median of 3 runs, fsync'd");

    pts[0].n = 2;
    snprintf(s[1].sync, sizeof s[1].sync, "direct");
    plot_measured_text(&a, true, buf, sizeof buf);
    assert_string_equal(buf, "median of 2-3 runs, bars min to max, O_DIRECT");

    pts[0].n = pts[1].n = 1;
    snprintf(s[1].sync, sizeof s[1].sync, "mixed");
    plot_measured_text(&a, true, buf, sizeof buf);
    assert_string_equal(buf, "one run per point");
}

/* One point at `threads`, written at write_mbps, compressing at rate_mbps, against a CPU
 * ceiling of cpu_mbps. */
typedef struct one_point {
    analysis_point_t point;
    analysis_verdict_t verdict;
} one_point_t;

static analysis_series_t with_point(analysis_series_t s, one_point_t *p, int threads,
                                    double write_mbps, double rate_mbps, double cpu_mbps)
{
    memset(p, 0, sizeof *p);
    p->point.threads = threads;
    p->point.n = 1;
    p->point.bytes_per_s = rate_mbps * MB;
    p->verdict.threads = threads;
    p->verdict.cpu_ceiling_bps = cpu_mbps * MB;
    s.points = &p->point;
    s.verdicts = &p->verdict;
    s.npoints = 1;
    s.write_speed_bps = write_mbps * MB;
    return s;
}

static void test_rate_vs_write_caption_counts_threads(void **state)
{
    (void)state;
    char buf[512];
    one_point_t p[2];
    analysis_series_t s[2] = {with_point(series("slow", "zstd:3"), &p[0], 1, 100, 160, 400),
                              with_point(series("fast", "zstd:3"), &p[1], 1, 900, 380, 400)};
    analysis_t a = {.series = s, .nseries = 1};
    plot_caption_rate_vs_write(&a, false, buf, sizeof buf);
    assert_string_equal(buf, "At 1 thread, slow (writing 100 MB/s) compresses at 160 MB/s, "
                             "against a CPU ceiling of 400 MB/s.");

    /* Two thread counts: each rate says its own, and no single CPU ceiling applies. */
    s[0] = with_point(series("slow", "zstd:3"), &p[0], 4, 100, 160, 400);
    s[1] = with_point(series("fast", "zstd:3"), &p[1], 2, 900, 380, 400);
    a.nseries = 2;
    plot_caption_rate_vs_write(&a, false, buf, sizeof buf);
    assert_string_equal(buf, "At 4 threads, slow (writing 100 MB/s) compresses at 160 MB/s; "
                             "fast (writing 900 MB/s) compresses at 380 MB/s at 2 threads.");
}

static void test_bottleneck_caption_tells_three_and_counts_the_rest(void **state)
{
    (void)state;
    char buf[1024];
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    static const double cross[] = {2.5, 1.5, NAN, 3.0, NAN};
    analysis_series_t s[5];
    for (int i = 0; i < 5; i++) {
        s[i] = series(names[i], "zstd:3");
        s[i].write_ceiling_bps = (100.0 + 100.0 * i) * MB;
        s[i].crossover_threads = cross[i];
        s[i].crossover_model = 1;
    }
    analysis_t a = {.series = s, .nseries = 4};
    plot_caption_bottleneck(&a, false, buf, sizeof buf);
    assert_string_equal(buf, "b (write ceiling 200 MB/s) starts to limit the job at T = 1.5, so "
                             "from 2 threads on the volume sets the time; a (write ceiling "
                             "100 MB/s) starts to limit the job at T = 2.5, so from 3 threads on "
                             "the volume sets the time; d (write ceiling 400 MB/s) starts to "
                             "limit the job at T = 3.0, so from 3 threads on the volume sets "
                             "the time; 1 more target in the plot.");
    a.nseries = 5;
    plot_caption_bottleneck(&a, false, buf, sizeof buf);
    assert_non_null(strstr(buf, "; 2 more targets in the plot."));
}

static void test_time_caption(void **state)
{
    (void)state;
    char buf[512];
    analysis_series_t s = series("ssd", "zstd:3");
    analysis_t a = {.series = &s, .nseries = 1};
    plot_caption_time(&a, false, buf, sizeof buf);
    assert_string_equal(buf, "No target was measured at two thread counts, so no power law "
                             "is drawn; points are medians with min-max bars.");
    /* The same sentence through the plot's row in the registry, as plot_render asks for
     * it: a caption that is private to its plot's file is tested this way. */
    const plot_data_t d = {.a = &a};
    char row[512];
    plot_kind_find("time_vs_threads")->caption(&d, row, sizeof row);
    assert_string_equal(row, buf);
}

static void test_probe_captions(void **state)
{
    (void)state;
    static const char csv[] =
        "target,op,size_bytes,bytes_per_s,seconds\n"
        "ssd,write,50000000,900000000,\n"
        "ssd,read,50000000,2000000000,\n"
        "usb,write,50000000,80000000,\n"
        "usb,sustained,1000000000,90000000,1\n"
        "usb,sustained,2000000000,30000000,2\n"
        "usb,sustained,3000000000,60000000,3\n";
    probe_table_t *p = NULL;
    cp_err_t err = {0};
    assert_int_equal(probe_table_load_buffer("probe.csv", csv, strlen(csv), &p, &err), CP_OK);
    const char *targets[] = {"ssd", "usb"};
    char buf[512];
    plot_caption_probe(p, targets, 2, buf, sizeof buf);
    assert_string_equal(buf, "At the largest file size, ssd writes 900 MB/s and reads "
                             "2.00 GB/s; usb writes 80.0 MB/s.");
    plot_caption_sustained(p, targets, 2, buf, sizeof buf);
    assert_string_equal(buf, "Over one long write, usb ran between 30.0 MB/s and 90.0 MB/s "
                             "(median 60.0 MB/s); a falling line means a cache filling up or "
                             "a drive slowing down.");
    probe_table_free(p);

    /* A measured drain is the volume's write speed in the verdict tables: the caption
     * names it so, beside the file's speed through its fsync. */
    static const char drained[] = "target,op,size_bytes,bytes_per_s,drain_bps\n"
                                  "local,write,50000000,1730000000,2470000000\n"
                                  "usb,write,50000000,80000000,80100000\n";
    assert_int_equal(probe_table_load_buffer("probe.csv", drained, strlen(drained), &p, &err),
                     CP_OK);
    plot_caption_probe(p, targets + 1, 1, buf, sizeof buf);
    assert_string_equal(buf, "At the largest file size, usb writes 80.0 MB/s.");
    const char *local[] = {"local"};
    plot_caption_probe(p, local, 1, buf, sizeof buf);
    assert_string_equal(buf, "At the largest file size, local writes 1.73 GB/s with the fsync "
                             "(volume writes 2.47 GB/s: its drain rate, as in the verdicts).");
    probe_table_free(p);
}

static void test_emulated_read_cap_labels(void **state)
{
    (void)state;
    /* probe TARGET@write=...,read=...: each op's rows carry the cap that paced them. A
     * read cap is named as one; an old file's emulated flag without a cap still says so. */
    static const char csv[] =
        "target,op,size_bytes,bytes_per_s,emulated,rate_cap_bps\n"
        "ssd,write,50000000,900000000,0,\n"
        "ssd,read,50000000,19800000,1,20000000\n"
        "usb,write,50000000,39000000,1,40000000\n"
        "usb,read,50000000,59000000,1,60000000\n"
        "old,write,50000000,80000000,0,\n"
        "old,read,50000000,30000000,1,\n";
    probe_table_t *p = NULL;
    cp_err_t err = {0};
    assert_int_equal(probe_table_load_buffer("probe.csv", csv, strlen(csv), &p, &err), CP_OK);
    const char *targets[] = {"ssd", "usb", "old"};
    char buf[512];
    plot_caption_probe(p, targets, 3, buf, sizeof buf);
    assert_string_equal(buf, "At the largest file size, ssd writes 900 MB/s and reads 19.8 MB/s "
                             "(emulated 20.0 MB/s read cap); usb writes 39.0 MB/s (emulated "
                             "40.0 MB/s write cap) and reads 59.0 MB/s (emulated 60.0 MB/s "
                             "read cap); old writes 80.0 MB/s and reads 30.0 MB/s (emulated "
                             "read cap).");

    analysis_series_t s = series("fast", "zstd:3");
    snprintf(s.read_from, sizeof s.read_from, "ssd");
    plot_ceiling_title(&s, false, true, 19.8 * MB, false, p, buf, sizeof buf);
    assert_string_equal(buf, "read ceiling 19.8 MB/s (from ssd, emulated 20.0 MB/s read cap)");
    plot_ceiling_title(&s, false, true, 19.8 * MB, true, p, buf, sizeof buf);
    assert_string_equal(buf, "read ceiling 19.8 MB/s (from ssd, emulated 20.0 MB/s read "
                             "cap), above the plot");
    /* A write cap is not a read cap: usb's writes do not label a read ceiling of "old". */
    snprintf(s.read_from, sizeof s.read_from, "old");
    plot_ceiling_title(&s, false, true, 30 * MB, false, p, buf, sizeof buf);
    assert_string_equal(buf, "read ceiling 30.0 MB/s (from old, emulated read cap)");

    double cap = -1;
    assert_true(probe_table_emulated(p, "usb", PROBE_OP_WRITE, &cap) && cap == 40e6);
    assert_true(probe_table_emulated(p, "usb", PROBE_OP_READ, &cap) && cap == 60e6);
    assert_true(probe_table_emulated(p, "old", PROBE_OP_READ, &cap) && isnan(cap));
    cap = -1;
    assert_false(probe_table_emulated(p, "ssd", PROBE_OP_WRITE, &cap));
    assert_false(probe_table_emulated(p, "old", PROBE_OP_WRITE, NULL));
    assert_false(probe_table_emulated(NULL, "ssd", PROBE_OP_READ, &cap));
    assert_true(cap == -1);
    probe_table_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series_titles_carry_the_volume_kind),
        cmocka_unit_test(test_series_names_add_the_codec_only_when_codecs_differ),
        cmocka_unit_test(test_probe_target_titles),
        cmocka_unit_test(test_crossover_text_singular_and_plural_threads),
        cmocka_unit_test(test_doubling_text),
        cmocka_unit_test(test_short_labels),
        cmocka_unit_test(test_measured_text),
        cmocka_unit_test(test_rate_vs_write_caption_counts_threads),
        cmocka_unit_test(test_bottleneck_caption_tells_three_and_counts_the_rest),
        cmocka_unit_test(test_time_caption),
        cmocka_unit_test(test_probe_captions),
        cmocka_unit_test(test_emulated_read_cap_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
