/* Verdict rules and the analysis built from small in-memory runs tables. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/probe_speeds.h"
#include "model/verdict.h"
#include "model/analysis.h"
#include "report/cause_text.h"
#include "tables/probe_csv.h"
#include "tables/runs_csv.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.12g, want %.12g (relative tolerance %g)", got, want, rel);
}

static void test_each_verdict_branch(void **state)
{
    (void)state;
    /* Within tolerance of the CPU ceiling. */
    assert_int_equal(verdict_classify(91, 100, 50, NAN, 0.10), VERDICT_CPU);
    assert_int_equal(verdict_classify(89, 100, NAN, NAN, 0.10), VERDICT_UNEXPLAINED);
    assert_int_equal(verdict_classify(89, 100, NAN, NAN, 0.20), VERDICT_CPU);
    /* Short of it, with a write ceiling below it. */
    assert_int_equal(verdict_classify(60, 100, 62, NAN, 0.10), VERDICT_WRITE);
    assert_int_equal(verdict_classify(60, 100, NAN, 61, 0.10), VERDICT_READ);
    /* Both below: the lower names it. */
    assert_int_equal(verdict_classify(60, 100, 70, 61, 0.10), VERDICT_READ);
    assert_int_equal(verdict_classify(60, 100, 61, 70, 0.10), VERDICT_WRITE);
    /* The tolerance boundary is inclusive: exactly (1 - tolerance) of the ceiling is
     * cpu-bound, a hair below is not (0.25 and 75/100 are exact in binary). */
    assert_int_equal(verdict_classify(75, 100, 60, NAN, 0.25), VERDICT_CPU);
    assert_int_equal(verdict_classify(nextafter(75, 0), 100, 60, NAN, 0.25), VERDICT_WRITE);
    assert_int_equal(verdict_classify(nextafter(75, 0), 100, NAN, NAN, 0.25), VERDICT_UNEXPLAINED);
    /* A read/write tie: both ceilings explain it equally; the write ceiling is named. */
    assert_int_equal(verdict_classify(60, 100, 61, 61, 0.10), VERDICT_WRITE);
    /* Ceilings known but above the CPU's: they do not explain the shortfall. */
    assert_int_equal(verdict_classify(60, 100, 150, 120, 0.10), VERDICT_UNEXPLAINED);
    assert_string_equal(verdict_name(VERDICT_WRITE), "write-bound");
    assert_string_equal(verdict_name(VERDICT_UNEXPLAINED), "unexplained");
}

static void test_efficiency_and_write_ceiling(void **state)
{
    (void)state;
    assert_close(verdict_efficiency(60, 100, 80, NAN), 0.75, 1e-12);
    assert_close(verdict_efficiency(60, 100, NAN, NAN), 0.60, 1e-12);
    assert_close(verdict_write_ceiling(250e6, 0.35), 250e6 / 0.35, 1e-12);
    assert_close(verdict_write_ceiling(250e6, NAN), 250e6, 1e-12);
    assert_true(isnan(verdict_write_ceiling(NAN, 0.5)));
}

static void test_verdict_from_terms(void **state)
{
    (void)state;
    /* The compute term alone sets the time. */
    prediction_t p = {.regime = WBM_OVERLAPPED, .seconds = 10.0};
    p.own_s[TERM_COMPUTE] = p.part_s[TERM_COMPUTE] = 10.0;
    verdict_decision_t d = verdict_decide(&p, 0.10);
    assert_int_equal(d.limit, TERM_COMPUTE);
    assert_int_equal(d.second, TERM_COUNT);
    assert_int_equal(d.cause, CAUSE_COMPUTE);
    assert_int_equal(d.second_cause, CAUSE_UNKNOWN);
    assert_int_equal(d.verdict, VERDICT_CPU);
    /* An overlapped write within the tolerance of the run's time: balanced. */
    p.own_s[TERM_WRITE] = 9.5;
    d = verdict_decide(&p, 0.10);
    assert_int_equal(d.second, TERM_WRITE);
    assert_int_equal(d.second_cause, CAUSE_WRITE_THROUGHPUT);
    assert_int_equal(d.verdict, VERDICT_BALANCED);
    /* No prediction: nothing named, unexplained. */
    prediction_t unknown = {.regime = WBM_UNKNOWN, .seconds = NAN};
    d = verdict_decide(&unknown, 0.10);
    assert_int_equal(d.limit, TERM_COUNT);
    assert_int_equal(d.cause, CAUSE_UNKNOWN);
    assert_int_equal(d.second_cause, CAUSE_UNKNOWN);
    assert_int_equal(d.verdict, VERDICT_UNEXPLAINED);
    assert_int_equal(verdict_of_causes(CAUSE_FLUSH_TAIL, CAUSE_UNKNOWN), VERDICT_WRITE);
    assert_int_equal(verdict_of_causes(CAUSE_READ_THROUGHPUT, CAUSE_COMPUTE), VERDICT_BALANCED);
}

/* ---- analysis over small tables ------------------------------------------------------ */

static runs_table_t *runs_of(const char *text)
{
    runs_table_t *runs = NULL;
    cp_err_t err = {0};
    if (runs_table_load_buffer("runs.csv", text, strlen(text), &runs, &err) != 0)
        fail_msg("%s", err.msg);
    return runs;
}

static probe_table_t *probe_of(const char *text)
{
    probe_table_t *probe = NULL;
    cp_err_t err = {0};
    if (probe_table_load_buffer("probe.csv", text, strlen(text), &probe, &err) != 0)
        fail_msg("%s", err.msg);
    return probe;
}

static const analysis_series_t *series_named(const analysis_t *a, const char *name)
{
    for (size_t i = 0; i < a->nseries; i++)
        if (strcmp(a->series[i].name, name) == 0)
            return &a->series[i];
    fail_msg("no series %s", name);
    return NULL;
}

/* mem: 100 MB/s per thread exactly; disk writes 250 MB/s at ratio 0.5 -> W' = 500 MB/s. */
static const char runs_text[] =
    "target,codec,threads,seconds,input_bytes,output_bytes,layout,input_target,error\n"
    "mem,zstd:3,1,10,1000000000,500000000,split,src,\n"
    "mem,zstd:3,2,5,1000000000,500000000,split,src,\n"
    "mem,zstd:3,4,2.5,1000000000,500000000,split,src,\n"
    "mem,zstd:3,8,1.25,1000000000,500000000,split,src,\n"
    "disk,zstd:3,1,10.1,1000000000,500000000,split,src,\n"
    "disk,zstd:3,2,5.05,1000000000,500000000,split,src,\n"
    "disk,zstd:3,4,2.1,1000000000,500000000,split,src,\n"
    "disk,zstd:3,8,2.05,1000000000,500000000,split,src,\n"
    "disk,zstd:3,8,,,,split,src,out of space\n"
    "slow,zstd:3,8,3.5,1000000000,500000000,same,,\n";

static const char probe_text[] =
    "target,op,size_bytes,bytes_per_s\n"
    "disk,write,1000,900000000\n"       /* small size: ignored */
    "disk,write,2000000000,250000000\n"
    "disk,write,2000000000,260000000\n"
    "disk,write,2000000000,240000000\n"
    "src,read,2000000000,2000000000\n"
    "slow,write,2000000000,5000000000\n"
    "slow,read,2000000000,300000000\n";

static void test_analysis_verdicts_and_crossover(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of(runs_text);
    probe_table_t *probe = probe_of(probe_text);
    assert_int_equal(runs->skipped_failed, 1);
    assert_close(probe_table_speed(probe, "disk", PROBE_OP_WRITE), 250e6, 1e-12);

    analysis_options_t opts = analysis_defaults();
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, probe, &opts, &a, &err), 0);
    assert_int_equal(a->runs_skipped, 1);

    const analysis_series_t *disk = series_named(a, "disk");
    assert_int_equal(disk->npoints, 4);
    assert_close(disk->write_ceiling_bps, 500e6, 1e-12);
    assert_close(disk->read_ceiling_bps, 2e9, 1e-12); /* input_target's read speed */
    /* The model (no write-back thresholds in this table: the writes overlap): T = 1 takes
     * max(10 s of compression, 500 MB / 250 MB/s = 2 s) = 10 s, measured 10.1: compute. */
    assert_int_equal(disk->verdicts[0].verdict, VERDICT_CPU);
    assert_int_equal(disk->verdicts[0].cause, CAUSE_COMPUTE);
    assert_true(disk->verdicts[0].from_model);
    assert_close(disk->points[0].predicted_seconds, 10.0, 1e-12);
    /* T = 4: max(2.5, 2) = 2.5 s predicted, 2.1 s measured: 16% away, more than the
     * tolerance, so unexplained with both figures rather than a guess. */
    assert_int_equal(disk->verdicts[2].verdict, VERDICT_UNEXPLAINED);
    assert_int_equal(disk->verdicts[2].miss, MISS_MODEL);
    assert_close(disk->verdicts[2].evidence.predicted_s, 2.5, 1e-12);
    /* T = 8: max(1.25, 2) = 2 s, measured 2.05: the disk adds 0.75 s to the compression's
     * 1.25 s, past the tolerance: write-bound by throughput. */
    assert_int_equal(disk->verdicts[3].verdict, VERDICT_WRITE);
    assert_int_equal(disk->verdicts[3].cause, CAUSE_WRITE_THROUGHPUT);
    assert_close(disk->verdicts[3].evidence.part_s[TERM_COMPUTE], 1.25, 1e-12);
    assert_close(disk->verdicts[3].evidence.part_s[TERM_WRITE], 0.75, 1e-12);
    assert_int_equal(disk->verdict, VERDICT_WRITE);
    assert_close(disk->verdicts[3].efficiency, (1e9 / 2.05) / 500e6, 1e-9);
    assert_close(disk->verdicts[3].relative_speed, (1e9 / 2.05) / 800e6, 1e-9);
    assert_int_equal(disk->verdicts[3].cpu_ceiling_source, CEILING_MEM);
    /* mem is exactly 100 MB/s x T, so compressing takes 10 / T s; the disk's 2 s come
     * within the 10% tolerance of it when 2 >= 0.9 x 10 / T: T = 4.5, where the model's
     * time is max(10 / 4.5, 2) s, a rate of 450 MB/s. */
    assert_close(disk->crossover_threads, 4.5, 1e-3);
    assert_int_equal(disk->crossover_limit, VERDICT_WRITE);
    assert_int_equal(disk->crossover_term, TERM_WRITE);
    assert_close(disk->crossover_rate_bps, 450e6, 1e-3);

    /* One thread count only, layout same: a verdict, its own read speed, no models. */
    const analysis_series_t *slow = series_named(a, "slow");
    assert_int_equal(slow->npoints, 1);
    assert_close(slow->read_ceiling_bps, 300e6, 1e-12);
    /* Its copy is read at 300 MB/s: 3.33 s against the compression's 1.25 s. The table
     * says nothing of the page cache, so the model is an interval: the disk writing its
     * 500 MB at 5 GB/s beside that (3.33 s) or after it (3.43 s). Measured 3.5 s, nearer
     * the serial end: read-bound. */
    assert_int_equal(slow->verdict, VERDICT_READ);
    assert_close(slow->points[0].predicted_low_s, 1e9 / 300e6, 1e-12);
    assert_close(slow->points[0].predicted_high_s, 1e9 / 300e6 + 0.1, 1e-12);
    assert_close(slow->points[0].predicted_seconds, 1e9 / 300e6 + 0.1, 1e-12);
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        assert_false(slow->models[k].fitted);
    /* The crossover asks the serial end at every T, as the measured point read: reading's
     * 3.33 s comes within 10% of the run's time, the compression's 10 / T s and the 0.1 s
     * flush after it, where 3.33 = 0.9 x (10 / T + 0.1): T = 2.775. */
    assert_close(slow->crossover_threads, 10.0 / (1e9 / 300e6 / 0.9 - 0.1), 1e-3);
    assert_int_equal(slow->crossover_limit, VERDICT_READ);

    /* mem is its own CPU ceiling, so its verdict says nothing; what can be wrong is a
     * volume ceiling or a crossover given to it. */
    const analysis_series_t *mem = series_named(a, "mem");
    assert_true(isnan(mem->write_ceiling_bps));
    assert_true(isnan(mem->crossover_threads));
    assert_int_equal(mem->whatif_threads, 0);
    analysis_free(a);
    probe_table_free(probe);
    runs_table_free(runs);
}

static void test_analysis_without_mem_or_probe(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of("target,threads,seconds,input_bytes\n"
                                 "a,1,10,1000\na,2,5,1000\na,4,2.5,1000\n"
                                 "b,1,10,1000\nb,2,8,1000\nb,4,8,1000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, NULL, NULL, &a, &err), 0);
    const analysis_series_t *b = series_named(a, "b");
    assert_true(a->ceilings[b->ceiling].estimated);
    assert_string_equal(b->codec, "");
    assert_int_equal(b->verdicts[0].verdict, VERDICT_CPU);
    assert_int_equal(b->verdicts[2].verdict, VERDICT_UNEXPLAINED);
    /* No speed of b's volume and no prediction: its measured cost over the fastest target
     * (8 s against 2.5 s), "speed not probed", and no cause borrowed. */
    assert_int_equal(b->verdicts[2].miss, MISS_UNPROBED);
    assert_true(b->verdicts[2].speed_unprobed);
    assert_close(b->verdicts[2].excess, 8.0 / 2.5 - 1.0, 1e-12);
    assert_int_equal(b->verdicts[2].cpu_ceiling_source, CEILING_ESTIMATED);
    assert_close(b->verdicts[2].relative_speed, 0.3125, 1e-12);
    assert_string_equal(b->verdicts[2].fastest, "a");
    assert_true(isnan(b->crossover_threads));
    /* a is the fastest at every T and so its own estimated ceiling: its verdict is not
     * checked (it holds by construction). */
    analysis_free(a);
    runs_table_free(runs);
}

/* Flat rates (no speed-up) fit without failing; y ties x exactly for fastest, so the
 * estimated ceiling is their common rate whichever of them names it; z, at 95% of it, is
 * within the default 10% and cpu-bound, and w at 85% is not. */
static void test_analysis_identical_rates(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of("target,threads,seconds,input_bytes\n"
                                 "x,1,4,1000\nx,2,4,1000\nx,4,4,1000\nx,8,4,1000\n"
                                 "y,1,4,1000\ny,2,4,1000\ny,4,4,1000\ny,8,4,1000\n"
                                 "z,8,4.2105263,1000\nw,8,4.7058824,1000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, NULL, NULL, &a, &err), 0);
    assert_close(series_named(a, "y")->verdicts[3].relative_speed, 1.0, 1e-12);
    assert_close(series_named(a, "x")->verdicts[3].relative_speed, 1.0, 1e-12);
    assert_close(series_named(a, "z")->verdicts[0].cpu_ceiling_bps, 250.0, 1e-12);
    assert_int_equal(series_named(a, "z")->verdict, VERDICT_CPU);
    assert_int_equal(series_named(a, "w")->verdict, VERDICT_UNEXPLAINED);
    analysis_free(a);
    runs_table_free(runs);
}

/* The tolerance boundary through the whole analysis: disk at exactly 80% of mem (both
 * times exact in binary) is cpu-bound with --tolerance 0.2 and not with 0.19. */
static void test_analysis_tolerance_boundary(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of("target,threads,seconds,input_bytes\n"
                                 "mem,1,4,1000\ndisk,1,5,1000\n");
    analysis_options_t opts = analysis_defaults();
    analysis_t *a = NULL;
    cp_err_t err = {0};
    opts.tolerance = 0.25; /* 0.8 >= 0.75 */
    assert_int_equal(analysis_run(runs, NULL, &opts, &a, &err), 0);
    assert_int_equal(series_named(a, "disk")->verdict, VERDICT_CPU);
    analysis_free(a);
    opts.tolerance = 0.1875; /* 1 - 0.1875 = 0.8125 > 0.8, exact */
    assert_int_equal(analysis_run(runs, NULL, &opts, &a, &err), 0);
    assert_int_equal(series_named(a, "disk")->verdict, VERDICT_UNEXPLAINED);
    analysis_free(a);
    runs_table_free(runs);
}

/* The answer's order: by codec (in the order the file first mentions them), memory first,
 * then the targets in the order they were given (target_order), whatever order the rows
 * come in. Here the file mentions zstd:9 first, and its series as lab, mem, usb; the
 * targets were given usb (1), mem (2), lab (3). */
static void test_analysis_series_order(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of("target,codec,threads,seconds,input_bytes,output_bytes,target_order\n"
                                 "lab,zstd:9,1,2,1000,500,3\n"
                                 "lab,zstd:1,1,1,1000,600,3\n"
                                 "mem,zstd:9,1,2,1000,500,2\n"
                                 "usb,zstd:1,1,1,1000,600,1\n"
                                 "mem,zstd:1,1,1,1000,600,2\n"
                                 "usb,zstd:9,1,2,1000,500,1\n"
                                 "lab,zstd:9,2,1,1000,500,3\n"
                                 "mem,zstd:1,2,0.5,1000,600,2\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, NULL, NULL, &a, &err), 0);
    static const char *const want[][2] = {{"mem", "zstd:9"}, {"usb", "zstd:9"},
                                          {"lab", "zstd:9"}, {"mem", "zstd:1"},
                                          {"usb", "zstd:1"}, {"lab", "zstd:1"}};
    assert_int_equal(a->nseries, 6);
    for (size_t i = 0; i < 6; i++) {
        if (strcmp(a->series[i].name, want[i][0]) != 0 ||
            strcmp(a->series[i].codec, want[i][1]) != 0)
            fail_msg("series %zu is %s (%s), want %s (%s)", i, a->series[i].name,
                     a->series[i].codec, want[i][0], want[i][1]);
    }
    analysis_free(a);
    runs_table_free(runs);
}

/* Several codecs in one study: each codec's series is judged against mem at that codec.
 * mem xz:6 is 4x slower than mem zstd:3; disk xz:6 runs at xz's full speed (cpu-bound)
 * although it is far below zstd's ceiling, and disk zstd:3 at half of its own is not. */
static void test_analysis_several_codecs(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of("target,codec,threads,seconds,input_bytes\n"
                                 "mem,zstd:3,1,1,1000\nmem,zstd:3,2,0.5,1000\n"
                                 "mem,xz:6,1,4,1000\nmem,xz:6,2,2,1000\n"
                                 "disk,zstd:3,1,2,1000\ndisk,zstd:3,2,1,1000\n"
                                 "disk,xz:6,1,4,1000\ndisk,xz:6,2,2,1000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, NULL, NULL, &a, &err), 0);
    const analysis_series_t *dz = NULL, *dx = NULL;
    for (size_t i = 0; i < a->nseries; i++) {
        if (strcmp(a->series[i].name, "disk") != 0)
            continue;
        if (strcmp(a->series[i].codec, "xz:6") == 0)
            dx = &a->series[i];
        else if (strcmp(a->series[i].codec, "zstd:3") == 0)
            dz = &a->series[i];
    }
    assert_non_null(dz);
    assert_non_null(dx);
    assert_int_not_equal(dz->ceiling, dx->ceiling);
    assert_close(dx->verdicts[1].cpu_ceiling_bps, 500.0, 1e-12);
    assert_close(dz->verdicts[1].cpu_ceiling_bps, 2000.0, 1e-12);
    assert_int_equal(dx->verdict, VERDICT_CPU);
    assert_int_equal(dz->verdict, VERDICT_UNEXPLAINED);
    analysis_free(a);
    runs_table_free(runs);
}

/* Only failed runs: no usable runs is a data error naming the file, not an empty report. */
static void test_analysis_no_usable_runs(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of("target,threads,seconds,input_bytes,error\n"
                                 "disk,1,,,out of space\ndisk,2,,,out of space\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, NULL, NULL, &a, &err), CP_EDATA);
    assert_null(a);
    assert_non_null(strstr(err.msg, "no usable runs (2 failed runs skipped); the first: disk: "
                                    "out of space"));
    runs_table_free(runs);
    /* A command's: its exit status and first stderr line, not the rest of its stderr. */
    runs = runs_of("target,codec,threads,seconds,input_bytes,error\n"
                   "e,cmd:boom,1,,,not run: its warm-up failed: cmd:boom exited with status 3: "
                   "first line | second line\n");
    cp_err_clear(&err);
    assert_int_equal(analysis_run(runs, NULL, NULL, &a, &err), CP_EDATA);
    assert_string_equal(err.msg, "runs.csv: no usable runs (1 failed run skipped); the first: e "
                                 "(cmd:boom): its warm-up failed: cmd:boom exited with status "
                                 "3: first line");
    runs_table_free(runs);
}

/* The pipeline's stages: the busiest stage names its own verdict; stage_disagrees says
 * when it differs from the rate-based one (not for unexplained). disk is write-bound by
 * its probe (250 MB/s) with a busy writer (agrees); slow is write-bound but its reader was
 * busiest (disagrees, read); both at the same rate. */
static void test_analysis_stage_verdict(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of(
        "target,threads,seconds,input_bytes,output_bytes,reader_busy_s,compress_busy_s,"
        "writer_busy_s\n"
        "mem,1,1,1000000000,1000000000,0.1,0.9,0.1\n"
        "disk,1,4,1000000000,1000000000,0.1,0.9,3.9\n"
        "slow,1,4,1000000000,1000000000,3.9,0.9,0.5\n"
        "calm,1,1,1000000000,1000000000,0.1,0.9,0.2\n"
        "odd,1,4,1000000000,1000000000,0.1,0.9,0.1\n"
        "bare,1,4,1000000000,1000000000,,,\n");
    probe_table_t *probe = probe_of("target,op,size_bytes,bytes_per_s\n"
                                    "disk,write,2000000000,250000000\n"
                                    "slow,write,2000000000,250000000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, probe, NULL, &a, &err), 0);
    const analysis_verdict_t *d = &series_named(a, "disk")->verdicts[0];
    assert_int_equal(d->verdict, VERDICT_WRITE);
    assert_true(d->has_stage_verdict);
    assert_int_equal(d->stage_verdict, VERDICT_WRITE);
    assert_false(d->stage_disagrees);
    const analysis_verdict_t *s = &series_named(a, "slow")->verdicts[0];
    assert_int_equal(s->verdict, VERDICT_WRITE);
    assert_int_equal(s->stage_verdict, VERDICT_READ);
    assert_true(s->stage_disagrees);
    const analysis_verdict_t *c = &series_named(a, "calm")->verdicts[0];
    assert_int_equal(c->stage_verdict, VERDICT_CPU);
    assert_false(c->stage_disagrees);
    const analysis_verdict_t *o = &series_named(a, "odd")->verdicts[0];
    assert_int_equal(o->verdict, VERDICT_UNEXPLAINED); /* no ceiling explains 25% */
    assert_int_equal(o->stage_verdict, VERDICT_CPU);
    assert_false(o->stage_disagrees);                  /* not for unexplained */
    assert_false(series_named(a, "bare")->verdicts[0].has_stage_verdict);
    analysis_free(a);
    probe_table_free(probe);
    runs_table_free(runs);
}

/* The what-if aims at the lower of the CPU and read ceilings: disk reads its input at
 * 300 MB/s (layout same), so no disk can take the job past 1e9 / 300e6 s; within 10% that
 * is 3.7037 s, not mem's 1e9 / 800e6 / 0.9 = 1.3889 s. */
static void test_whatif_read_ceiling(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of(
        "target,threads,seconds,input_bytes,output_bytes,layout,input_target\n"
        "mem,1,1.25,1000000000,500000000,split,src\n"
        "disk,1,10,1000000000,500000000,same,\n");
    probe_table_t *probe = probe_of("target,op,size_bytes,bytes_per_s\n"
                                    "disk,write,2000000000,50000000\n"
                                    "disk,read,2000000000,300000000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, probe, NULL, &a, &err), 0);
    const analysis_series_t *disk = series_named(a, "disk");
    assert_close(disk->read_ceiling_bps, 300e6, 1e-12);
    /* Reading the copy takes 3.33 s, writing 500 MB at 50 MB/s 10 s (overlapped): the
     * model's 10 s match the measured: write-bound. */
    assert_int_equal(disk->verdict, VERDICT_WRITE);
    assert_int_equal(disk->whatif_threads, 1);
    /* No disk brings it within 10% of the compression's 1.25 s: with an infinitely fast
     * disk the read's 3.33 s remain, and the what-if says so instead of a speed. */
    assert_true(isnan(disk->whatif_seconds));
    assert_true(isnan(disk->whatif_write_bps));
    assert_int_equal(disk->whatif_blocked_by, TERM_READ);
    analysis_free(a);
    probe_table_free(probe);
    runs_table_free(runs);
}

/* A volume probed through an emulated 100 MB/s cap writes at the cap, as far as the study
 * is concerned, whatever the device under it drains: runs there that the cap did not pace
 * and that wrote 417 MB/s of output are flagged, not explained. */
static void test_emulated_probe_holds_unpaced_runs_to_its_cap(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of(
        "target,threads,seconds,input_bytes,output_bytes,sync\n"
        "mem,1,1.0,1000000000,417000000,fsync\n"
        "usb,1,1.0,1000000000,417000000,fsync\n");
    probe_table_t *probe = probe_of(
        "target,op,size_bytes,bytes_per_s,drain_bps,emulated,rate_cap_bps\n"
        "usb,write,100000000,94600000,1800000000,1,100000000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, probe, NULL, &a, &err), 0);
    const analysis_series_t *usb = series_named(a, "usb");
    assert_close(usb->drain_bps, 100e6, 1e-12);
    assert_string_equal(usb->drain_source, "emulated-cap");
    assert_close(usb->write_speed_bps, 100e6, 1e-12);
    assert_int_equal(usb->verdicts[0].verdict, VERDICT_UNEXPLAINED);
    assert_int_equal(usb->verdicts[0].miss, MISS_BEYOND_VOLUME);
    assert_true(usb->points[0].flags & POINT_BEYOND_PROBE);
    analysis_free(a);
    probe_table_free(probe);
    runs_table_free(runs);
}

/* The what-if asks the model that made the prediction: a disk 2.26 GB/s fast, fsync'd
 * output the cache holds (serial), 2.5 s of compression and 1.4 GB written: predicted
 * 2.5 + 0.62 s, measured 3.38 s. Within 10% of 2.5 s needs the flush in 0.28 s: a disk
 * of 1.4 GB / 0.278 s = 5.04 GB/s, faster than this one, never slower. */
static void test_whatif_never_a_slower_disk(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of(
        "target,threads,seconds,input_bytes,output_bytes,sync,dirty_background_bytes,dirty_bytes\n"
        "mem,2,2.5,4000000000,1400000000,fsync,,\n"
        "local,2,3.38,4000000000,1400000000,fsync,4000000000,8000000000\n");
    probe_table_t *probe = probe_of("target,op,size_bytes,bytes_per_s,drain_bps\n"
                                    "local,write,1000000000,510000000,2260000000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, probe, NULL, &a, &err), 0);
    const analysis_series_t *local = series_named(a, "local");
    assert_close(local->points[0].predicted_seconds, 2.5 + 1.4 / 2.26, 1e-9);
    assert_int_equal(local->verdict, VERDICT_WRITE);
    assert_int_equal(local->verdicts[0].cause, CAUSE_FLUSH_TAIL);
    assert_close(local->whatif_seconds, 2.5 / 0.9, 1e-9);
    assert_close(local->whatif_write_bps, 1.4e9 / (2.5 / 0.9 - 2.5), 1e-6);
    assert_true(local->whatif_write_bps > local->drain_bps);
    /* With O_DIRECT the writes would overlap: any disk taking 1.4 GB in 2.78 s would do. */
    assert_close(local->whatif_direct_bps, 1.4e9 / (2.5 / 0.9), 1e-6);
    analysis_free(a);
    probe_table_free(probe);
    runs_table_free(runs);
}

static void test_ceiling_from_mem_model_between_thread_counts(void **state)
{
    (void)state;
    runs_table_t *runs = runs_of("target,threads,seconds,input_bytes\n"
                                 "mem,1,10,1000\nmem,2,5,1000\nmem,4,2.5,1000\nmem,8,1.25,1000\n"
                                 "disk,3,5,1000\n");
    analysis_t *a = NULL;
    cp_err_t err = {0};
    assert_int_equal(analysis_run(runs, NULL, NULL, &a, &err), 0);
    const analysis_series_t *disk = series_named(a, "disk");
    assert_int_equal(disk->verdicts[0].cpu_ceiling_source, CEILING_MEM_MODEL);
    assert_close(disk->verdicts[0].cpu_ceiling_bps, 300.0, 1e-6); /* 100 per thread */
    assert_int_equal(disk->verdict, VERDICT_UNEXPLAINED);             /* 200 of 300 */
    assert_false(a->ceilings[disk->ceiling].estimated);
    analysis_free(a);
    runs_table_free(runs);
}

/* Two regimes, not noise: the reads of one size split at the widest ratio between
 * neighbours when each side has two or more and the gap is over 1.5x (hand-sorted:
 * 299 383 | 626 2240, gap 626 / 383 = 1.63). */
static void test_probe_two_modes(void **state)
{
    (void)state;
    probe_modes_t m;
    const double reads[] = {2240, 299, 626, 383};
    assert_true(probe_two_modes(reads, 4, &m));
    assert_int_equal(m.n_low, 2);
    assert_int_equal(m.n_high, 2);
    assert_true(fabs(m.low - (299 + 383) / 2.0) < 1e-9);
    assert_true(fabs(m.high - (626 + 2240) / 2.0) < 1e-9);
    const double one_speed[] = {500, 520, 540, 560, 580, 600};
    assert_false(probe_two_modes(one_speed, 6, &m));
    assert_int_equal(m.n_low + m.n_high, 0);
    const double lone_outlier[] = {500, 510, 520, 1600}; /* one fast run is not a group */
    assert_false(probe_two_modes(lone_outlier, 4, &m));
    assert_false(probe_two_modes(reads, 3, &m)); /* too few for two groups of two */
    const double small_gap[] = {400, 410, 590, 600}; /* 590 / 410 = 1.44 */
    assert_false(probe_two_modes(small_gap, 4, &m));
}

/* A read bound by the kernel's own work: 1.06 s of system time per GB read and blocked
 * 0.03 s of 0.9 s; not when it waited for the device, nor when the kernel was quick. */
static void test_probe_kernel_bound_read(void **state)
{
    (void)state;
    probe_speed_row_t r = {.op = PROBE_OP_READ, .size_bytes = 268435456, .seconds = 0.8988,
                           .io_wait_s = 0.03, .thread_sys_s = 0.2838};
    assert_true(probe_row_kernel_bound(&r));
    r.io_wait_s = 0.61; /* blocked on the device for 2/3 of it */
    assert_false(probe_row_kernel_bound(&r));
    r.io_wait_s = 0.0;
    r.thread_sys_s = 0.0264; /* 0.098 s per GB: a read the cache served */
    assert_false(probe_row_kernel_bound(&r));
    r.thread_sys_s = NAN; /* not measured */
    assert_false(probe_row_kernel_bound(&r));
    r.thread_sys_s = 0.2838;
    r.op = PROBE_OP_WRITE;
    assert_false(probe_row_kernel_bound(&r));
}

/* A study analysed from CSV texts, with the tables it was made from (freed together). */
typedef struct analysed {
    runs_table_t *runs;
    probe_table_t *probe;
    analysis_t *a;
} analysed_t;

static analysed_t analysed_of(const char *runs_csv, const char *probe_csv)
{
    analysed_t x = {runs_of(runs_csv), probe_of(probe_csv), NULL};
    analysis_options_t opts = analysis_defaults();
    cp_err_t err = {0};
    assert_int_equal(analysis_run(x.runs, x.probe, &opts, &x.a, &err), 0);
    return x;
}

static void analysed_free(analysed_t *x)
{
    analysis_free(x->a);
    probe_table_free(x->probe);
    runs_table_free(x->runs);
}

/* The same work at another CPU speed. mem compresses 1 GB in 10 s on 10 s of user CPU with
 * four CPUs online; every run wrote with O_DIRECT. "slowcpu" took 13 s at T = 1 on 13 s of
 * user CPU: the work is the same, so the CPU ran 30% slower in its runs; the overlapped
 * model says max(10, 500 MB / 250 MB/s) = 10 s, and the 3 s gap is the CPU's speed (0.3 x
 * the 10 s compute term), not the model: cpu-bound by compute, marked. "stalled" took 13 s
 * on mem's 10 s of user CPU: something the model does not know took 3 s, but the volume's
 * writes (2 s beside 10 s of compression) add nothing, so it is not the volume: cpu-bound
 * with the excess. "blocked" is the same, but the kernel saw its threads blocked writing
 * for 3 s: unexplained. At T = 4, one thread per CPU, the figure is not judged: the I/O
 * path's own work then costs the compressors user time too. */
static const char speed_runs_text[] =
    "target,codec,threads,seconds,input_bytes,output_bytes,layout,input_target,"
    "cpu_user_s,online_cpus,io_wait_s,io_read_wait_s,io_wait_source,sync,error\n"
    "mem,zstd:3,1,10,1000000000,500000000,split,src,10,4,,,,direct,\n"
    "mem,zstd:3,4,2.5,1000000000,500000000,split,src,10.2,4,,,,direct,\n"
    "slowcpu,zstd:3,1,13,1000000000,500000000,split,src,13,4,,,,direct,\n"
    "slowcpu,zstd:3,4,2.6,1000000000,500000000,split,src,13,4,,,,direct,\n"
    "stalled,zstd:3,1,13,1000000000,500000000,split,src,10,4,,,,direct,\n"
    "stalled,zstd:3,4,2.6,1000000000,500000000,split,src,10.2,4,,,,direct,\n"
    "blocked,zstd:3,1,13,1000000000,500000000,split,src,10,4,3.2,0.2,delayacct,direct,\n"
    "blocked,zstd:3,4,2.6,1000000000,500000000,split,src,10.2,4,0.1,0.05,delayacct,direct,\n";

static const char speed_probe_text[] =
    "target,op,size_bytes,bytes_per_s\n"
    "slowcpu,write,2000000000,250000000\n"
    "stalled,write,2000000000,250000000\n"
    "blocked,write,2000000000,250000000\n"
    "src,read,2000000000,2000000000\n";

static void test_cpu_speed_moved(void **state)
{
    (void)state;
    analysed_t x = analysed_of(speed_runs_text, speed_probe_text);
    const analysis_t *a = x.a;

    const analysis_series_t *slow = series_named(a, "slowcpu");
    assert_close(slow->points[0].predicted_seconds, 10.0, 1e-12);
    assert_close(slow->verdicts[0].evidence.cpu_time_shift, 0.3, 1e-9);
    assert_close(slow->verdicts[0].evidence.noise_s, 3.0, 1e-9);
    assert_int_equal(slow->verdicts[0].verdict, VERDICT_CPU);
    assert_int_equal(slow->verdicts[0].cause, CAUSE_COMPUTE);
    assert_true(slow->points[0].flags & POINT_CPU_SPEED_MOVED);
    assert_true(isnan(slow->verdicts[1].evidence.cpu_time_shift));
    assert_false(slow->points[1].flags & POINT_CPU_SPEED_MOVED);

    assert_false(slow->verdicts[0].volume_cannot_matter); /* explained by the shift */

    /* 30% over the model on memory's CPU time, where the volume's terms add nothing (no
     * sync: the output stays in the page cache) and no witness shows its threads blocked:
     * the volume cannot be why, so cpu-bound, with the excess, never unexplained. */
    const analysis_series_t *stalled = series_named(a, "stalled");
    assert_close(stalled->verdicts[0].evidence.cpu_time_shift, 0.0, 1e-9);
    assert_int_equal(stalled->verdicts[0].verdict, VERDICT_CPU);
    assert_int_equal(stalled->verdicts[0].cause, CAUSE_COMPUTE);
    assert_int_equal(stalled->verdicts[0].miss, MISS_NONE);
    assert_true(stalled->verdicts[0].volume_cannot_matter);
    assert_close(stalled->verdicts[0].excess, 0.3, 1e-9);
    assert_true(stalled->points[0].flags & POINT_EXCESS_NOT_VOLUME);
    assert_false(stalled->points[0].flags & POINT_CPU_SPEED_MOVED);

    /* The same, but the kernel saw its threads blocked writing for 3 s (3.2 s blocked, 0.2
     * s of it reading), over the 1 s the tolerance leaves: a stall the model did not
     * foresee, so the model missed: unexplained. */
    const analysis_series_t *blocked = series_named(a, "blocked");
    assert_int_equal(blocked->verdicts[0].verdict, VERDICT_UNEXPLAINED);
    assert_int_equal(blocked->verdicts[0].miss, MISS_MODEL);
    assert_false(blocked->verdicts[0].volume_cannot_matter);
    assert_false(blocked->points[0].flags & POINT_EXCESS_NOT_VOLUME);

    analysed_free(&x);
}

/* A published table: 15.5 GB at 14 threads onto five volumes, their fsync'd write speeds,
 * and nothing of the page cache (no sync mode, no thresholds). The fastest, "internal",
 * stands for the CPU (5.57 s). The model is an interval per volume, from the 15.5 GB
 * written beside the compression, max(5.57, 15.5 GB / speed), to after it, 5.57 + 15.5 GB
 * / speed: usb4 5.57-9.86 s, measured 5.84 near the overlapped end: cpu-bound; 2.26 GB/s
 * 6.86-12.43 s, measured 10.49 near the serial end: write-bound by the flush; 1.35 GB/s
 * 11.48-17.05 s, measured 16.87: write-bound; the sparse bundle 5.57-7.68 s, measured 9.67,
 * beyond 7.68 x 1.1: unexplained. */
static const char published_runs_text[] =
    "target,codec,threads,seconds,input_bytes,output_bytes,layout,input_target,error\n"
    "internal,zstd:1,14,5.57,15500000000,15500000000,split,,\n"
    "usb4,zstd:1,14,5.84,15500000000,15500000000,split,,\n"
    "sparse,zstd:1,14,9.67,15500000000,15500000000,split,,\n"
    "tb3,zstd:1,14,10.49,15500000000,15500000000,split,,\n"
    "usb3,zstd:1,14,16.87,15500000000,15500000000,split,,\n";

static const char published_probe_text[] =
    "target,op,size_bytes,bytes_per_s\n"
    "internal,write,2000000000,7690000000\n"
    "usb4,write,2000000000,3610000000\n"
    "sparse,write,2000000000,7350000000\n"
    "tb3,write,2000000000,2260000000\n"
    "usb3,write,2000000000,1350000000\n";

static void test_unknown_writeback_context_interval(void **state)
{
    (void)state;
    analysed_t x = analysed_of(published_runs_text, published_probe_text);
    const analysis_t *a = x.a;
    const double out = 15.5e9, cpu = 5.57;
    static const struct {
        const char *name;
        double speed;
        verdict_kind_t verdict;
    } want[] = {{"usb4", 3.61e9, VERDICT_CPU}, {"tb3", 2.26e9, VERDICT_WRITE},
                {"usb3", 1.35e9, VERDICT_WRITE}, {"sparse", 7.35e9, VERDICT_UNEXPLAINED}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const analysis_series_t *s = series_named(a, want[i].name);
        assert_close(s->points[0].predicted_low_s, fmax(cpu, out / want[i].speed), 1e-9);
        assert_close(s->points[0].predicted_high_s, cpu + out / want[i].speed, 1e-9);
        assert_int_equal(s->verdicts[0].verdict, want[i].verdict);
    }
    assert_int_equal(series_named(a, "tb3")->verdicts[0].cause, CAUSE_FLUSH_TAIL);
    assert_int_equal(series_named(a, "sparse")->verdicts[0].miss, MISS_MODEL);
    assert_int_equal(series_named(a, "internal")->verdicts[0].verdict, VERDICT_CPU);
    analysed_free(&x);
}

/* Runs in pairs: three repetitions of each target, a repetition's runs in one block. A
 * spell of a slower CPU hit block 2 (memory 13 s, the volumes about 3 s slower too).
 * "steady" adds 0.2-0.4 s to memory's run in every block; "held" adds 1.7-1.8 s; "quick"
 * takes 1.5-2 s less. All write with O_DIRECT, 500 MB at 250 MB/s beside 10.5 s of
 * compression: the model says 10.5 s. */
static const char paired_runs_text[] =
    "target,codec,threads,rep,seconds,input_bytes,output_bytes,layout,input_target,sync,"
    "error\n"
    "mem,zstd:3,1,1,10,1000000000,500000000,split,src,direct,\n"
    "mem,zstd:3,1,2,13,1000000000,500000000,split,src,direct,\n"
    "mem,zstd:3,1,3,10.5,1000000000,500000000,split,src,direct,\n"
    "steady,zstd:3,1,1,10.3,1000000000,500000000,split,src,direct,\n"
    "steady,zstd:3,1,2,13.4,1000000000,500000000,split,src,direct,\n"
    "steady,zstd:3,1,3,10.7,1000000000,500000000,split,src,direct,\n"
    "held,zstd:3,1,1,11.7,1000000000,500000000,split,src,direct,\n"
    "held,zstd:3,1,2,14.8,1000000000,500000000,split,src,direct,\n"
    "held,zstd:3,1,3,12.2,1000000000,500000000,split,src,direct,\n"
    "quick,zstd:3,1,1,8.5,1000000000,500000000,split,src,direct,\n"
    "quick,zstd:3,1,2,11,1000000000,500000000,split,src,direct,\n"
    "quick,zstd:3,1,3,9,1000000000,500000000,split,src,direct,\n";

static const char paired_probe_text[] =
    "target,op,size_bytes,bytes_per_s\n"
    "steady,write,2000000000,250000000\n"
    "held,write,2000000000,250000000\n"
    "quick,write,2000000000,250000000\n";

static void test_runs_judged_in_pairs(void **state)
{
    (void)state;
    analysed_t x = analysed_of(paired_runs_text, paired_probe_text);
    const analysis_t *a = x.a;
    /* steady: memory's median 10.5 s plus the median difference 0.3 s; the noise is half
     * the differences' range, (0.4 - 0.2) / 2: explained, cpu-bound. */
    const analysis_verdict_t *steady = &series_named(a, "steady")->verdicts[0];
    assert_int_equal(steady->evidence.pairs, 3);
    assert_close(steady->evidence.paired_s, 10.8, 1e-9);
    assert_close(steady->evidence.noise_s, 0.1, 1e-9);
    assert_int_equal(steady->verdict, VERDICT_CPU);
    assert_false(steady->volume_cannot_matter);
    /* held: 10.5 + 1.7 = 12.2 s, 16% over the model with a noise of 0.05 s. Unpaired, the
     * medians' spreads (1.5 s and 1.55 s) would have hidden it; paired, it is seen, and
     * with the volume's terms adding nothing it is the cores': marked, not blamed. */
    const analysis_verdict_t *held = &series_named(a, "held")->verdicts[0];
    assert_close(held->evidence.paired_s, 12.2, 1e-9);
    assert_close(held->evidence.noise_s, 0.05, 1e-9);
    assert_int_equal(held->verdict, VERDICT_CPU);
    assert_true(held->volume_cannot_matter);
    assert_close(held->excess, 12.2 / 10.5 - 1.0, 1e-9);
    /* quick: 1.5-2 s faster than memory in every block, 10.5 - 1.5 = 9.0 s, 14% under the
     * model: memory's runs were the slower, and the volume (4 s of writing at half its
     * speed, beside 10.5 s of compression) cannot be why: cpu-bound, marked. */
    const analysis_verdict_t *quick = &series_named(a, "quick")->verdicts[0];
    assert_close(quick->evidence.paired_s, 9.0, 1e-9);
    assert_int_equal(quick->verdict, VERDICT_CPU);
    assert_true(quick->volume_cannot_matter);
    assert_close(quick->excess, 9.0 / 10.5 - 1.0, 1e-9);
    analysed_free(&x);
}

/* A run longer than the flusher's 5 s period, its output far below the background
 * threshold and its time below the 30 s dirty expiry: 128 MiB with xz:1 at one thread,
 * 12.3 s into memory and 78 MB of output, onto a 40 MB/s volume. The flusher's first
 * wake-up starts write-back only past this device's share of the threshold, unknown here:
 * early, 5 s of output (31.7 MB) is held and the disk writes from then on, 12.3 + 31.7 /
 * 40 = 13.09 s; late, the cache holds all 78 MB to the fsync, 12.3 + 78 / 40 = 14.25 s.
 * Measured 14.2 s, the fsync flushing the whole output: the late end, write-bound by the
 * flush tail (it adds 16%), not cpu-bound by an early write-back that did not happen. */
static const char flusher_runs_text[] =
    "target,codec,threads,rep,seconds,input_bytes,output_bytes,layout,input_target,sync,"
    "dirty_background_bytes,dirty_bytes,dirty_expire_s,dirty_writeback_s,error\n"
    "mem,xz:1,1,1,12.3,134217728,78000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "lab40,xz:1,1,1,14.2,134217728,78000000,split,src,fsync,2400000000,4800000000,30,5,\n";

static void test_flusher_wakeup_interval(void **state)
{
    (void)state;
    analysed_t x = analysed_of(flusher_runs_text, "target,op,size_bytes,bytes_per_s\n"
                                                  "lab40,write,2000000000,40000000\n");
    const analysis_t *a = x.a;
    const analysis_series_t *lab = series_named(a, "lab40");
    double held = 78e6 / 12.3 * 5.0;
    assert_close(lab->points[0].predicted_low_s, 12.3 + held / 40e6, 1e-9);
    assert_close(lab->points[0].predicted_high_s, 12.3 + 78e6 / 40e6, 1e-9);
    assert_close(lab->points[0].predicted_seconds, 12.3 + 78e6 / 40e6, 1e-9);
    assert_int_equal(lab->verdicts[0].verdict, VERDICT_WRITE);
    assert_int_equal(lab->verdicts[0].cause, CAUSE_FLUSH_TAIL);
    analysed_free(&x);
}

/* A memory-only scaling study on 2 CPUs, T = 1..4: the rate rises to 2 threads and falls
 * past them. Amdahl (two parameters) has the lower AICc but misses R2 0.90 (0.89); USL
 * fits (R2 0.97, the holdout within 1%): USL is chosen, and nothing is rejected. */
static const char scaling_runs_text[] =
    "target,codec,threads,rep,input_bytes,output_bytes,seconds,online_cpus\n"
    "mem,zstd:3,1,1,268435456,80000000,1.30,2\n"
    "mem,zstd:3,1,2,268435456,80000000,1.32,2\n"
    "mem,zstd:3,2,1,268435456,80000000,0.70,2\n"
    "mem,zstd:3,2,2,268435456,80000000,0.71,2\n"
    "mem,zstd:3,3,1,268435456,80000000,0.69,2\n"
    "mem,zstd:3,3,2,268435456,80000000,0.70,2\n"
    "mem,zstd:3,4,1,268435456,80000000,0.72,2\n"
    "mem,zstd:3,4,2,268435456,80000000,0.73,2\n";

static void test_model_choice_among_describing_models(void **state)
{
    (void)state;
    analysed_t x = analysed_of(scaling_runs_text, "target,op,size_bytes,bytes_per_s\n");
    const analysis_series_t *mem = series_named(x.a, "mem");
    if (mem == NULL)
        return; /* series_named failed the test */
    assert_int_equal(fit_best_rate_model(mem->models), FIT_AMDAHL);
    assert_false(analysis_model_describes(&mem->models[FIT_AMDAHL]));
    assert_true(analysis_model_describes(&mem->models[FIT_USL]));
    assert_int_equal(mem->best_rate_model, FIT_USL);
    assert_int_equal(mem->rejected_rate_model, -1);
    assert_int_equal(x.a->ceilings[mem->ceiling].best_rate_model, FIT_USL);
    analysed_free(&x);
}

/* A point on the boundary between the cores and the disk. Memory compresses 100 MB in
 * 1.0 s (three repetitions, paired with the volumes' in blocks); the output, 10 MB, waits
 * in the page cache (thresholds far above it, a run far shorter than the flusher's period)
 * and the fsync flushes it. "edge" drains 100 MB/s: the model says 1.0 + 0.1 = 1.10 s,
 * just under the boundary 1.0 / 0.9 = 1.11 s, and its runs in pairs say 1.0 + 0.12 = 1.12
 * s, just over it, with a noise of 0.01 s: either verdict is within the noise, so it says
 * balanced (compute + flush tail), within the noise, and no study can flip it. "clear"
 * drains 10 MB/s: 2.0 s, far past the boundary, write-bound by the flush alone. */
static const char boundary_runs_text[] =
    "target,codec,threads,rep,seconds,input_bytes,output_bytes,layout,input_target,sync,"
    "dirty_background_bytes,dirty_bytes,dirty_expire_s,dirty_writeback_s,error\n"
    "mem,zstd:3,1,1,1.00,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "mem,zstd:3,1,2,1.02,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "mem,zstd:3,1,3,0.99,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "edge,zstd:3,1,1,1.10,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "edge,zstd:3,1,2,1.14,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "edge,zstd:3,1,3,1.11,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "clear,zstd:3,1,1,2.00,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "clear,zstd:3,1,2,2.03,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n"
    "clear,zstd:3,1,3,1.99,100000000,10000000,split,src,fsync,2400000000,4800000000,30,5,\n";

static void test_boundary_within_the_noise(void **state)
{
    (void)state;
    analysed_t x = analysed_of(boundary_runs_text, "target,op,size_bytes,bytes_per_s\n"
                                                   "edge,write,20000000,100000000\n"
                                                   "clear,write,20000000,10000000\n");
    const analysis_verdict_t *edge = &series_named(x.a, "edge")->verdicts[0];
    assert_close(edge->evidence.predicted_s, 1.10, 1e-6);
    assert_close(edge->evidence.paired_s, 1.12, 1e-9);
    assert_int_equal(edge->verdict, VERDICT_BALANCED);
    assert_true(edge->within_noise);
    assert_int_equal(edge->cause, CAUSE_COMPUTE);
    assert_int_equal(edge->second_cause, CAUSE_FLUSH_TAIL);
    char label[96];
    assert_string_equal(verdict_label(edge, label, sizeof label),
                        "balanced (compute + flush-tail, within the noise)");
    const analysis_verdict_t *clear = &series_named(x.a, "clear")->verdicts[0];
    assert_int_equal(clear->verdict, VERDICT_WRITE);
    assert_false(clear->within_noise);
    analysed_free(&x);
}

/* The boundary is the volume's own time, not a noisy run's. mem compresses in 1.00 s
 * (three repetitions, paired in blocks), in 10 MB blocks; "below" writes its 79 MB with
 * O_DIRECT onto a 100 MB/s disk beside the compression: 0.1 s of the first block, then
 * 0.79 s, so the disk's own time is 0.89 s, far under the boundary 1.0 / 0.9 = 1.11 s; the
 * model says 1.079 s (the last block's write after the cores), cpu-bound. Its runs in
 * pairs say 1.115 s, just past the boundary, with a noise of 0.025 s: within the
 * tolerance and the noise of the prediction, but the disk would have to need 0.22 s more
 * to reach the boundary, farther than the run is from the model (0.036 s): cpu-bound by
 * compute, not balanced within the noise (as it was while the prediction's time stood for
 * the volume's). "near" writes 102.5 MB: the disk needs 1.125 s, within the noise of the
 * boundary: write-bound by the model, balanced within the noise. */
static const char direct_boundary_runs_text[] =
    "target,codec,threads,rep,seconds,input_bytes,output_bytes,block_size,engine,layout,input_target,"
    "sync,error\n"
    "mem,zstd:3,1,1,1.00,100000000,79000000,10000000,blocks,split,src,direct,\n"
    "mem,zstd:3,1,2,1.02,100000000,79000000,10000000,blocks,split,src,direct,\n"
    "mem,zstd:3,1,3,0.99,100000000,79000000,10000000,blocks,split,src,direct,\n"
    "below,zstd:3,1,1,1.09,100000000,79000000,10000000,blocks,split,src,direct,\n"
    "below,zstd:3,1,2,1.135,100000000,79000000,10000000,blocks,split,src,direct,\n"
    "below,zstd:3,1,3,1.13,100000000,79000000,10000000,blocks,split,src,direct,\n"
    "near,zstd:3,1,1,1.09,100000000,102500000,10000000,blocks,split,src,direct,\n"
    "near,zstd:3,1,2,1.135,100000000,102500000,10000000,blocks,split,src,direct,\n"
    "near,zstd:3,1,3,1.13,100000000,102500000,10000000,blocks,split,src,direct,\n";

static void test_direct_boundary_is_the_volume_time(void **state)
{
    (void)state;
    analysed_t x = analysed_of(direct_boundary_runs_text, "target,op,size_bytes,bytes_per_s\n"
                                                          "below,write,200000000,100000000\n"
                                                          "near,write,200000000,100000000\n");
    const analysis_verdict_t *below = &series_named(x.a, "below")->verdicts[0];
    assert_close(below->evidence.predicted_s, 1.079, 1e-6);
    assert_close(below->evidence.paired_s, 1.115, 1e-9);
    assert_close(below->evidence.noise_s, 0.025, 1e-9);
    assert_int_equal(below->verdict, VERDICT_CPU);
    assert_int_equal(below->cause, CAUSE_COMPUTE);
    assert_false(below->within_noise);
    const analysis_verdict_t *near = &series_named(x.a, "near")->verdicts[0];
    assert_close(near->evidence.predicted_s, 1.125, 1e-6);
    assert_int_equal(near->verdict, VERDICT_BALANCED);
    assert_true(near->within_noise);
    analysed_free(&x);
}

/* Restoring an archive read from two volumes whose speed was not probed (--no-probe):
 * memory restores in 1.0 s, both volumes take 1.54 s. The model cannot say what the
 * volume costs, so nothing is borrowed from the ceilings (an earlier rule called such a
 * point cpu-bound, "as far as the disk keeps up"). "witnessed": the kernel saw its threads
 * blocked reading 0.55 s, over half the 0.54 s excess: read-bound, its speed not probed,
 * with the excess. "silent": blocked 0.05 s: unexplained, "speed not probed". */
static const char unprobed_runs_text[] =
    "target,codec,op,threads,rep,seconds,input_bytes,output_bytes,io_wait_s,io_read_wait_s,"
    "io_wait_source,error\n"
    "mem,zstd:3,decompress,1,1,1.00,100000000,30000000,,,,\n"
    "mem,zstd:3,decompress,1,2,1.01,100000000,30000000,,,,\n"
    "mem,zstd:3,decompress,1,3,0.99,100000000,30000000,,,,\n"
    "witnessed,zstd:3,decompress,1,1,1.54,100000000,30000000,0.55,0.55,delayacct,\n"
    "witnessed,zstd:3,decompress,1,2,1.55,100000000,30000000,0.55,0.55,delayacct,\n"
    "witnessed,zstd:3,decompress,1,3,1.53,100000000,30000000,0.55,0.55,delayacct,\n"
    "silent,zstd:3,decompress,1,1,1.54,100000000,30000000,0.05,0.05,delayacct,\n"
    "silent,zstd:3,decompress,1,2,1.55,100000000,30000000,0.05,0.05,delayacct,\n"
    "silent,zstd:3,decompress,1,3,1.53,100000000,30000000,0.05,0.05,delayacct,\n";

static void test_unprobed_volume_borrows_no_cause(void **state)
{
    (void)state;
    analysed_t x = analysed_of(unprobed_runs_text, "target,op,size_bytes,bytes_per_s\n");
    const analysis_verdict_t *w = &series_named(x.a, "witnessed")->verdicts[0];
    assert_true(w->speed_unprobed);
    assert_false(w->volume_cannot_matter);
    assert_int_equal(w->verdict, VERDICT_READ);
    assert_int_equal(w->cause, CAUSE_READ_THROUGHPUT);
    assert_close(w->excess, 0.54, 0.01);
    assert_true(series_named(x.a, "witnessed")->points[0].flags & POINT_SPEED_UNPROBED);
    const analysis_verdict_t *q = &series_named(x.a, "silent")->verdicts[0];
    assert_true(q->speed_unprobed);
    assert_int_equal(q->verdict, VERDICT_UNEXPLAINED);
    assert_int_equal(q->miss, MISS_UNPROBED);
    char label[96];
    assert_string_equal(verdict_label(q, label, sizeof label),
                        "unexplained (speed not probed)");
    analysed_free(&x);
}

/* Two threads on two CPUs. Memory compresses 1 GB in 1.0 s on 2.0 s of CPU (1.9 user, 0.1
 * system). "busy" writes 100 MB to a disk draining 2 GB/s and takes 1.35 s: its runs spent
 * 2.6 s of CPU (2.2 user, 0.4 system), 0.6 s beyond memory's, the I/O path's work on the
 * compressors' cores. The cores need (2.0 + 0.6) / 2 = 1.3 s, and the flush of 100 MB at
 * 2 GB/s adds 0.05 s: 1.35 s, cpu-bound by the cores (cores-saturated). The probe gives
 * no CPU cost of writing; the runs' own accounting does. */
static const char io_work_runs_text[] =
    "target,codec,threads,rep,seconds,input_bytes,output_bytes,cpu_user_s,cpu_sys_s,"
    "online_cpus,layout,input_target,sync,dirty_background_bytes,dirty_bytes,dirty_expire_s,"
    "dirty_writeback_s,error\n"
    "mem,zstd:3,2,1,1.00,1000000000,100000000,1.9,0.1,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n"
    "busy,zstd:3,2,1,1.35,1000000000,100000000,2.2,0.4,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n";

static void test_io_work_from_the_runs(void **state)
{
    (void)state;
    analysed_t x = analysed_of(io_work_runs_text, "target,op,size_bytes,bytes_per_s\n"
                                                  "busy,write,200000000,2000000000\n");
    const analysis_series_t *busy = series_named(x.a, "busy");
    const analysis_verdict_t *v = &busy->verdicts[0];
    assert_close(busy->points[0].predicted_seconds, 1.35, 1e-6);
    assert_close(v->evidence.part_s[TERM_IO_CPU], 0.30, 1e-6);
    assert_int_equal(v->verdict, VERDICT_CPU);
    assert_int_equal(v->cause, CAUSE_CORES_SATURATED);
    assert_int_equal(v->miss, MISS_NONE);
    analysed_free(&x);
}

/* The same cores at the boundary: "edgy" spends 2.24 s of CPU (0.24 s beyond memory's),
 * so the cores need 1.12 s, just past the boundary 1.0 / 0.9 = 1.11 s, while its runs in
 * pairs say 1.10 s, just under it. Both sides are the CPU: the I/O path's CPU work holds
 * it back or it runs at CPU speed, so it is cpu-bound (cores-saturated), never balanced
 * between the CPU and itself ("the CPU and the CPU together"). */
static const char io_work_edge_runs_text[] =
    "target,codec,threads,rep,seconds,input_bytes,output_bytes,cpu_user_s,cpu_sys_s,"
    "online_cpus,layout,input_target,sync,dirty_background_bytes,dirty_bytes,dirty_expire_s,"
    "dirty_writeback_s,error\n"
    "mem,zstd:3,2,1,1.00,1000000000,10000000,1.9,0.1,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n"
    "mem,zstd:3,2,2,1.02,1000000000,10000000,1.9,0.1,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n"
    "mem,zstd:3,2,3,0.99,1000000000,10000000,1.9,0.1,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n"
    "edgy,zstd:3,2,1,1.10,1000000000,10000000,2.1,0.14,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n"
    "edgy,zstd:3,2,2,1.12,1000000000,10000000,2.1,0.14,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n"
    "edgy,zstd:3,2,3,1.09,1000000000,10000000,2.1,0.14,2,split,src,fsync,2400000000,"
    "4800000000,30,5,\n";

static void test_io_work_on_the_boundary_is_the_cores(void **state)
{
    (void)state;
    analysed_t x = analysed_of(io_work_edge_runs_text, "target,op,size_bytes,bytes_per_s\n"
                                                       "edgy,write,200000000,2000000000\n");
    const analysis_verdict_t *v = &series_named(x.a, "edgy")->verdicts[0];
    assert_true(v->evidence.predicted_s > 1.0 / 0.9);
    assert_true(v->evidence.paired_s < 1.0 / 0.9);
    assert_int_equal(v->verdict, VERDICT_CPU);
    assert_int_equal(v->cause, CAUSE_CORES_SATURATED);
    assert_int_equal(v->second_cause, CAUSE_UNKNOWN);
    assert_false(v->within_noise);
    analysed_free(&x);
}

/* An emulated 40 MB/s cap paced per write with --sync direct, probed through the cap (so
 * its drain is the cap's 39.7 MB/s): memory compresses 67 MB in 0.70 s, the 42 MB of
 * output at 39.7 MB/s take 1.06 s, overlapped: write-bound. A faster disk has neither the
 * cap nor that drain: one writing 42 MB within 0.70 / 0.9 s, about 54 MB/s, would do; the
 * drain probed through the cap must not remain ("no faster disk gets within 10%: the
 * disk's cap remains", as it said before). */
static void test_whatif_past_a_cap_probed_through_it(void **state)
{
    (void)state;
    analysed_t x = analysed_of(
        "target,codec,threads,rep,seconds,input_bytes,output_bytes,sync,emulated,"
        "rate_cap_bps,emulation,error\n"
        "mem,zstd:3,1,1,0.70,67108864,42273659,direct,0,,,\n"
        "capped,zstd:3,1,1,1.10,67108864,42273659,direct,1,40000000,pacing,\n",
        "target,op,size_bytes,bytes_per_s,sync,emulated,rate_cap_bps,emulation,drain_bps\n"
        "capped,write,10000000,39700000,direct,1,40000000,pacing,39700000\n");
    const analysis_series_t *c = series_named(x.a, "capped");
    assert_int_equal(c->verdicts[0].verdict, VERDICT_WRITE);
    assert_int_equal(c->whatif_blocked_by, TERM_COUNT);
    assert_true(c->whatif_write_bps > 40e6 && c->whatif_write_bps < 80e6);
    analysed_free(&x);
}

/* The study's own repetitions judge whether it can tell the tolerance. Every point ran
 * twice, 0.9 and 1.1 times its median: a spread of 20%, one run's noise 0.20 / 1.128 =
 * 0.177 (the expected range of two runs is 1.128 standard deviations). A median of n runs
 * has a standard error of 1.2533 x 0.177 / sqrt(n); twice that within 10% needs
 * n >= (2 x 1.2533 x 0.177 / 0.1)^2 = 19.75: 20 repetitions, or at two an input ten times
 * as large. Runs of about 1 s are short. The same points at 0.99 and 1.01 (2%) judge. */
static void test_too_short_to_judge_from_its_own_spread(void **state)
{
    (void)state;
    static const char loud[] =
        "target,codec,threads,rep,seconds,input_bytes,output_bytes\n"
        "mem,zstd:3,1,1,0.9,16000000,8000000\nmem,zstd:3,1,2,1.1,16000000,8000000\n"
        "mem,zstd:3,2,1,0.45,16000000,8000000\nmem,zstd:3,2,2,0.55,16000000,8000000\n"
        "disk,zstd:3,1,1,1.8,16000000,8000000\ndisk,zstd:3,1,2,2.2,16000000,8000000\n"
        "disk,zstd:3,2,1,0.9,16000000,8000000\ndisk,zstd:3,2,2,1.1,16000000,8000000\n";
    analysed_t x = analysed_of(loud, "target,op,size_bytes,bytes_per_s\n");
    const analysis_precision_t *q = &x.a->precision;
    assert_int_equal(q->points, 4);
    assert_int_equal(q->reps, 2);
    assert_close(q->spread, 0.20, 1e-9);
    assert_close(q->run_noise, 0.20 / 1.128, 1e-9);
    assert_true(q->too_short);
    assert_true(q->short_runs);
    assert_int_equal(q->reps_needed, 20);
    assert_close(q->input_needed_bytes, 16e6 * 10, 1e-3);
    analysed_free(&x);
    static const char quiet[] =
        "target,codec,threads,rep,seconds,input_bytes,output_bytes\n"
        "mem,zstd:3,1,1,0.99,16000000,8000000\nmem,zstd:3,1,2,1.01,16000000,8000000\n"
        "mem,zstd:3,2,1,0.495,16000000,8000000\nmem,zstd:3,2,2,0.505,16000000,8000000\n";
    x = analysed_of(quiet, "target,op,size_bytes,bytes_per_s\n");
    assert_false(x.a->precision.too_short);
    assert_close(x.a->precision.spread, 0.02, 1e-9);
    analysed_free(&x);
    /* Single runs say nothing of their spread: not judged by this rule. */
    x = analysed_of("target,codec,threads,seconds,input_bytes\nmem,zstd:3,1,1.0,16000000\n"
                    "mem,zstd:3,2,0.5,16000000\n",
                    "target,op,size_bytes,bytes_per_s\n");
    assert_int_equal(x.a->precision.points, 0);
    assert_false(x.a->precision.too_short);
    analysed_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_too_short_to_judge_from_its_own_spread),
        cmocka_unit_test(test_whatif_past_a_cap_probed_through_it),
        cmocka_unit_test(test_io_work_on_the_boundary_is_the_cores),
        cmocka_unit_test(test_each_verdict_branch),
        cmocka_unit_test(test_unprobed_volume_borrows_no_cause),
        cmocka_unit_test(test_io_work_from_the_runs),
        cmocka_unit_test(test_probe_two_modes),
        cmocka_unit_test(test_probe_kernel_bound_read),
        cmocka_unit_test(test_efficiency_and_write_ceiling),
        cmocka_unit_test(test_verdict_from_terms),
        cmocka_unit_test(test_analysis_verdicts_and_crossover),
        cmocka_unit_test(test_analysis_without_mem_or_probe),
        cmocka_unit_test(test_analysis_identical_rates),
        cmocka_unit_test(test_ceiling_from_mem_model_between_thread_counts),
        cmocka_unit_test(test_analysis_tolerance_boundary),
        cmocka_unit_test(test_analysis_several_codecs),
        cmocka_unit_test(test_analysis_series_order),
        cmocka_unit_test(test_analysis_no_usable_runs),
        cmocka_unit_test(test_analysis_stage_verdict),
        cmocka_unit_test(test_whatif_read_ceiling),
        cmocka_unit_test(test_emulated_probe_holds_unpaced_runs_to_its_cap),
        cmocka_unit_test(test_whatif_never_a_slower_disk),
        cmocka_unit_test(test_cpu_speed_moved),
        cmocka_unit_test(test_unknown_writeback_context_interval),
        cmocka_unit_test(test_runs_judged_in_pairs),
        cmocka_unit_test(test_flusher_wakeup_interval),
        cmocka_unit_test(test_model_choice_among_describing_models),
        cmocka_unit_test(test_boundary_within_the_noise),
        cmocka_unit_test(test_direct_boundary_is_the_volume_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
