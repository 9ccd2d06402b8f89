/* predict's pieces: the storage class table, predictions for typed speeds against the
 * model's formulas worked by hand, the same figures as the analysis for a probed volume,
 * the check against a later study, and the report's JSON and first line. */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/analysis.h"
#include "model/predict.h"
#include "model/predict_check.h"
#include "model/storage_class.h"
#include "report/predict_out.h"
#include "tables/probe_csv.h"
#include "tables/runs_csv.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.12g, want %.12g (relative tolerance %g)", got, want, rel);
}

/* ---- the storage class table --------------------------------------------------------- */

static void test_classes_have_the_published_figures(void **state)
{
    (void)state;
    assert_int_equal(storage_class_count(), 11);
    const storage_class_t *tb3 = storage_class_find("tb3-ssd");
    assert_non_null(tb3);
    assert_close(tb3->write_bps, 1200e6, 0);
    assert_close(tb3->read_bps, 2700e6, 0);
    const storage_class_t *notrim = storage_class_find("sata-ssd-notrim");
    assert_non_null(notrim);
    assert_close(notrim->write_bps, 100e6, 0);
    assert_close(storage_class_find("usb3-hdd-inner")->write_bps, 60e6, 0);
    assert_close(storage_class_find("nas-1gbe")->write_bps, 110e6, 0);
    assert_close(storage_class_find("nvme-gen4")->read_bps, 5000e6, 0);
    assert_null(storage_class_find("tb3"));
    assert_null(storage_class_find(NULL));
    assert_null(storage_class_at(storage_class_count()));
}

static void test_every_class_is_named_once_and_sourced(void **state)
{
    (void)state;
    for (size_t i = 0; i < storage_class_count(); i++) {
        const storage_class_t *c = storage_class_at(i);
        assert_ptr_equal(storage_class_find(c->name), c);
        /* Publications named by title; their addresses are in docs/method.md. */
        assert_true(strlen(c->sources) > 0);
        assert_null(strstr(c->sources, "http"));
        assert_true(c->write_bps > 0.0 && c->read_bps >= c->write_bps * 0.5);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(storage_class_at(j)->name, c->name);
    }
}

/* ---- studies from text --------------------------------------------------------------- */

typedef struct study {
    runs_table_t *runs;
    probe_table_t *probe;
    analysis_t *analysis;
} study_t;

static void study_load(study_t *s, const char *runs_csv, const char *probe_csv)
{
    cp_err_t err = {0};
    memset(s, 0, sizeof *s);
    assert_int_equal(runs_table_load_buffer("runs.csv", runs_csv, strlen(runs_csv), &s->runs,
                                            &err), CP_OK);
    if (probe_csv != NULL)
        assert_int_equal(probe_table_load_buffer("probe.csv", probe_csv, strlen(probe_csv),
                                                 &s->probe, &err), CP_OK);
    analysis_options_t o = analysis_defaults();
    int rc = analysis_run(s->runs, s->probe, &o, &s->analysis, &err);
    if (rc != CP_OK)
        fail_msg("analysis: %s", err.msg);
}

static void study_free(study_t *s)
{
    analysis_free(s->analysis);
    probe_table_free(s->probe);
    runs_table_free(s->runs);
}

/* 1 GB in, 400 MB out; 10 s at T=1 and Amdahl with a 10% serial part (t = 10 (0.1 +
 * 0.9 / T)): 5.5 s at 2, 3.25 at 4, 2.5 at 6 (and 2.125 at 8, not run). */
static const char mem_runs[] =
    "target,codec,threads,seconds,input_bytes,output_bytes\n"
    "mem,zstd:3,1,10,1000000000,400000000\n"
    "mem,zstd:3,2,5.5,1000000000,400000000\n"
    "mem,zstd:3,4,3.25,1000000000,400000000\n"
    "mem,zstd:3,6,2.5,1000000000,400000000\n";

static predict_t *predict_of(const study_t *s, const predict_volume_t *v, size_t n,
                             const predict_request_t *r)
{
    cp_err_t err = {0};
    predict_t *f = NULL;
    if (predict_run(s->analysis, v, n, r, &f, &err) != CP_OK)
        fail_msg("forecast: %s", err.msg);
    return f;
}

static double seconds_at(const predict_t *f, size_t volume, int threads)
{
    const predict_point_t *p = predict_find(f, 0, volume, threads);
    if (p == NULL)
        fail_msg("no point at volume %zu, T=%d", volume, threads);
    return p->prediction.seconds;
}

/* ---- typed speeds against the formulas --------------------------------------------- */

static void test_typed_speed_without_thresholds_overlaps(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, mem_runs, NULL);
    /* No thresholds: nothing held in the page cache, t = max(cpu, out / drain); at
     * 100 MB/s the 400 MB take 4 s. */
    predict_volume_t v = predict_volume_typed("usb", 100e6, NAN);
    predict_t *f = predict_of(&s, &v, 1, NULL);
    assert_int_equal(f->npoints, 4);
    assert_close(seconds_at(f, 0, 1), 10.0, 1e-12);
    assert_close(seconds_at(f, 0, 2), 5.5, 1e-12);
    assert_close(seconds_at(f, 0, 4), 4.0, 1e-12);
    const predict_point_t *p4 = predict_find(f, 0, 0, 4);
    assert_int_equal(p4->verdict, VERDICT_WRITE);
    assert_int_equal(p4->cause, CAUSE_WRITE_THROUGHPUT);
    assert_close(p4->prediction.part_s[TERM_COMPUTE], 3.25, 1e-12);
    assert_close(p4->prediction.part_s[TERM_WRITE], 0.75, 1e-12);
    assert_int_equal(predict_find(f, 0, 0, 1)->verdict, VERDICT_CPU);
    assert_false(p4->extrapolated);
    assert_string_equal(f->volumes[0].drain_source, "typed");
    /* The volume limits the job where its 4 s come within 10% of the compression's: the
     * Amdahl time 10 (0.1 + 0.9 / T) = 4 / 0.9 at T = 2.47 (the fitted curve, near it). */
    const predict_crossover_t *x = &f->crossovers[0];
    assert_true(x->threads > 2.2 && x->threads < 2.8);
    predict_free(f);
    study_free(&s);
}

static void test_typed_speed_with_the_page_cache(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, mem_runs, NULL);
    predict_volume_t v = predict_volume_typed("usb", 100e6, NAN);
    predict_request_t r = predict_defaults();
    /* A background threshold above the output: the cache holds it all until the fsync,
     * t = cpu + out / drain. */
    r.writeback = (predict_writeback_t){1e9, 2e9, NAN, NAN};
    predict_t *f = predict_of(&s, &v, 1, &r);
    assert_close(seconds_at(f, 0, 1), 14.0, 1e-12);
    assert_close(seconds_at(f, 0, 6), 6.5, 1e-12);
    assert_int_equal(predict_find(f, 0, 0, 1)->cause, CAUSE_FLUSH_TAIL);
    assert_int_equal(predict_find(f, 0, 0, 1)->prediction.regime, WBM_SERIAL);
    predict_free(f);
    /* 100 MB held: t = max(cpu + 100 MB / drain, cpu x 100/400 + out / drain). */
    r.writeback = (predict_writeback_t){100e6, 2e9, NAN, NAN};
    f = predict_of(&s, &v, 1, &r);
    assert_close(seconds_at(f, 0, 1), fmax(10.0 + 1.0, 10.0 / 4 + 4.0), 1e-12);  /* 11 */
    assert_close(seconds_at(f, 0, 4), fmax(3.25 + 1.0, 3.25 / 4 + 4.0), 1e-12); /* 4.8125 */
    assert_int_equal(predict_find(f, 0, 0, 4)->prediction.regime, WBM_MIXED);
    predict_free(f);
    study_free(&s);
}

static void test_class_speed_is_the_drain_rate(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, mem_runs, NULL);
    const storage_class_t *hdd = storage_class_find("usb3-hdd-inner"); /* 60 MB/s */
    predict_volume_t v = predict_volume_class(hdd->name, hdd);
    predict_t *f = predict_of(&s, &v, 1, NULL);
    assert_int_equal(f->volumes[0].source, PREDICT_CLASS);
    assert_close(seconds_at(f, 0, 1), 10.0, 1e-12);        /* the CPU's 10 s > 6.67 s */
    assert_close(seconds_at(f, 0, 6), 400e6 / 60e6, 1e-12); /* the disk's 6.67 s > 2.5 s */
    assert_int_equal(predict_find(f, 0, 0, 6)->verdict, VERDICT_WRITE);
    predict_free(f);
    study_free(&s);
}

static void test_read_speed_counts_with_the_same_layout(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, mem_runs, NULL);
    predict_volume_t v = predict_volume_typed("nas", 1e9, 200e6);
    predict_request_t r = predict_defaults();
    predict_t *f = predict_of(&s, &v, 1, &r);
    assert_close(seconds_at(f, 0, 6), 2.5, 1e-12); /* split: the input is read elsewhere */
    predict_free(f);
    r.same_layout = true;
    f = predict_of(&s, &v, 1, &r);
    assert_close(seconds_at(f, 0, 6), 1e9 / 200e6, 1e-12); /* reading 1 GB at 200 MB/s */
    assert_int_equal(predict_find(f, 0, 0, 6)->verdict, VERDICT_READ);
    predict_free(f);
    study_free(&s);
}

static void test_unrun_thread_counts_come_from_the_cpu_model(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, mem_runs, NULL);
    predict_volume_t v = predict_volume_typed("fast", 10e9, NAN);
    int threads[] = {4, 8};
    predict_request_t r = predict_defaults();
    r.threads = threads;
    r.nthreads = 2;
    predict_t *f = predict_of(&s, &v, 1, &r);
    assert_int_equal(f->npoints, 2);
    const predict_point_t *p8 = predict_find(f, 0, 0, 8);
    assert_true(p8->extrapolated);
    assert_false(predict_find(f, 0, 0, 4)->extrapolated);
    assert_close(p8->cpu_s, 10.0 * (0.1 + 0.9 / 8), 0.05); /* 2.125 s */
    predict_free(f);
    /* Beyond reach (4 x 6 threads), and a codec the study did not run: refused. */
    int far[] = {25};
    r.threads = far;
    r.nthreads = 1;
    cp_err_t err = {0};
    predict_t *none = NULL;
    assert_int_equal(predict_run(s.analysis, &v, 1, &r, &none, &err), CP_EUSAGE);
    assert_null(none);
    assert_non_null(strstr(err.msg, "--threads 25"));
    const char *xz[] = {"xz:6"};
    r = predict_defaults();
    r.codecs = xz;
    r.ncodecs = 1;
    cp_err_clear(&err);
    assert_int_equal(predict_run(s.analysis, &v, 1, &r, &none, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "it has: zstd:3"));
    study_free(&s);
}

/* Two memory runs where the second thread made the job slower (a slow spell on one core):
 * the models fitted to them fall towards zero a few threads on, and a prediction beyond
 * them stays at the last measured rate instead of running to no finite time. */
static void test_an_extrapolation_is_held_to_the_measured_rates(void **state)
{
    (void)state;
    static const char slower[] =
        "target,codec,threads,seconds,input_bytes,output_bytes\n"
        "mem,zstd:3,1,10,1000000000,400000000\n"
        "mem,zstd:3,2,20,1000000000,400000000\n";
    study_t s;
    study_load(&s, slower, NULL);
    predict_volume_t v = predict_volume_typed("fast", 10e9, NAN);
    int threads[] = {4, 8};
    predict_request_t r = predict_defaults();
    r.threads = threads;
    r.nthreads = 2;
    predict_t *f = predict_of(&s, &v, 1, &r);
    for (int i = 0; i < 2; i++) {
        const predict_point_t *p = predict_find(f, 0, 0, threads[i]);
        assert_true(p->extrapolated);
        assert_close(p->cpu_s, 20.0, 1e-9);
        assert_true(isfinite(p->prediction.seconds) && p->prediction.seconds >= 20.0);
    }
    predict_free(f);
    /* Beyond the range the held rate stays at the slowest measured (two threads'); far
     * below it perfect scaling down from one thread's is the floor. */
    const analysis_ceiling_t *ceil = &s.analysis->ceilings[0];
    assert_close(analysis_ceiling_rate_at(ceil, 16), 1e9 / 20.0, 1e-9);
    assert_close(analysis_ceiling_rate_held(ceil, 0.5, 0.0), 1e9 / 10.0 * 0.5, 1e-9);
    assert_close(analysis_ceiling_rate_held(ceil, 4, INFINITY), 1e9 / 10.0, 1e-9);
    study_free(&s);
}

/* A thread count memory did not run takes its bytes and CPU work from memory's measured
 * point below it. Memory: 1 GB in, 10, 5 and 1.25 s at 1, 2 and 8 threads (100 MB/s per
 * thread), 400 MB out at 1 and 2 threads but 440 MB at 8; 9.0 s user and 1.0 s system
 * CPU at two threads, on 2 CPUs. */
static void test_an_unrun_thread_count_takes_the_point_below_it(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, "target,codec,threads,seconds,input_bytes,output_bytes,cpu_user_s,"
                   "cpu_sys_s,online_cpus\n"
                   "mem,zstd:3,1,10,1000000000,400000000,9.0,1.0,2\n"
                   "mem,zstd:3,2,5,1000000000,400000000,9.0,1.0,2\n"
                   "mem,zstd:3,8,1.25,1000000000,440000000,11.5,0.5,2\n",
               "target,op,size_bytes,bytes_per_s,drain_bps,io_cpu_s,sync\n"
               "vol,write,400000000,10000000000,10000000000,1.0,fsync\n");
    /* T = 4 onto a typed 100 MB/s: 2.5 s compressing beside the 400 MB of the two-thread
     * point written in 4 s: 4.0 s (the eight-thread point's 440 MB would take 4.4 s). */
    predict_volume_t typed = predict_volume_typed("usb", 100e6, NAN);
    int four[] = {4};
    predict_request_t r = predict_defaults();
    r.threads = four;
    r.nthreads = 1;
    predict_t *f = predict_of(&s, &typed, 1, &r);
    assert_true(predict_find(f, 0, 0, 4)->extrapolated);
    assert_close(seconds_at(f, 0, 4), 4.0, 1e-9);
    predict_free(f);
    /* T = 2 onto a probed volume whose writes cost 1.0 s of system CPU per 400 MB: the
     * cores need memory's 9.0 + 1.0 s of CPU work and the 1.0 s of I/O work over 2 CPUs,
     * (10 + 1) / 2 = 5.5 s, more than memory's 5 s; the 400 MB at 10 GB/s take 0.04 s. */
    predict_volume_t probed;
    cp_err_t err = {0};
    assert_int_equal(predict_volume_probed("vol", "", s.probe, "vol", NAN, &probed, &err), CP_OK);
    assert_close(probed.io_cpu_per_byte, 1.0 / 400e6, 1e-12);
    int two[] = {2};
    r.threads = two;
    f = predict_of(&s, &probed, 1, &r);
    assert_close(seconds_at(f, 0, 2), 5.5, 1e-9);
    assert_close(predict_find(f, 0, 0, 2)->prediction.part_s[TERM_IO_CPU], 0.5, 1e-9);
    predict_free(f);
    study_free(&s);
}

static void test_no_memory_runs_is_a_data_error(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, "target,codec,threads,seconds,input_bytes,output_bytes\n"
                   "usb,zstd:3,1,10,1000000000,400000000\n", NULL);
    predict_volume_t v = predict_volume_typed("x", 1e8, NAN);
    predict_t *f = NULL;
    cp_err_t err = {0};
    assert_int_equal(predict_run(s.analysis, &v, 1, NULL, &f, &err), CP_EDATA);
    assert_null(f);
    assert_non_null(strstr(err.msg, "no runs on the memory target"));
    study_free(&s);
}

/* A decompression study has memory runs, but predict forecasts compressions: it says so
 * rather than that memory did not run. */
static void test_a_decompression_study_is_named(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, "target,codec,op,threads,seconds,input_bytes,output_bytes\n"
                   "mem,zstd:3,decompress,1,2,1000000000,400000000\n"
                   "usb,zstd:3,decompress,1,4,1000000000,400000000\n", NULL);
    predict_volume_t v = predict_volume_typed("x", 1e8, NAN);
    predict_t *f = NULL;
    cp_err_t err = {0};
    assert_int_equal(predict_run(s.analysis, &v, 1, NULL, &f, &err), CP_EDATA);
    assert_null(f);
    assert_non_null(strstr(err.msg, "a decompression study: predict forecasts a compression's"));
    study_free(&s);
}

/* ---- a probed volume: the analysis's own figures ----------------------------------- */

/* A study that ran on "usb" too, with the host's thresholds in its rows, and a probe of
 * usb with a drain rate and the I/O path's CPU cost. The usb runs spent 0.9 s of CPU
 * beyond memory's at every T, the probe's figure for 400 MB, so analyze (which takes that
 * work from the runs' own accounting) and predict (from the probe) have the same inputs. */
static const char usb_runs[] =
    "target,codec,engine,block_size,threads,seconds,input_bytes,output_bytes,cpu_user_s,"
    "cpu_sys_s,online_cpus,dirty_background_bytes,dirty_bytes,dirty_expire_s,"
    "dirty_writeback_s,dir\n"
    "mem,zstd:3,blocks,4194304,1,10,1000000000,400000000,9.8,0.2,4,,,,,\n"
    "mem,zstd:3,blocks,4194304,2,5.5,1000000000,400000000,10.4,0.4,4,,,,,\n"
    "mem,zstd:3,blocks,4194304,4,3.25,1000000000,400000000,11.8,0.6,4,,,,,\n"
    "usb,zstd:3,blocks,4194304,1,12,1000000000,400000000,9.9,1.0,4,150000000,300000000,30,5,/mnt/usb\n"
    "usb,zstd:3,blocks,4194304,2,7,1000000000,400000000,10.5,1.2,4,150000000,300000000,30,5,/mnt/usb\n"
    "usb,zstd:3,blocks,4194304,4,5.6,1000000000,400000000,11.9,1.4,4,150000000,300000000,30,5,/mnt/usb\n";

static const char usb_probe[] =
    "target,op,size_bytes,bytes_per_s,drain_bps,io_cpu_s,sync,dir\n"
    "usb,write,400000000,95000000,90000000,0.8,fsync,/mnt/usb\n"
    "usb,write,400000000,97000000,92000000,0.9,fsync,/mnt/usb\n"
    "usb,write,400000000,96000000,91000000,1.0,fsync,/mnt/usb\n"
    "usb,read,400000000,120000000,,,fsync,/mnt/usb\n";

static void test_a_probed_volume_gets_the_analysis_figures(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, usb_runs, usb_probe);
    predict_volume_t v;
    cp_err_t err = {0};
    assert_int_equal(predict_volume_probed("usb", "/mnt/usb", s.probe, "usb", NAN, &v, &err),
                     CP_OK);
    assert_close(v.drain_bps, 91e6, 1e-12);
    assert_string_equal(v.drain_source, "probe-drain");
    assert_close(v.io_cpu_per_byte, 0.9 / 400e6, 1e-12);
    assert_close(v.read_bps, 120e6, 1e-12);
    assert_int_equal(v.probe_reps, 3);
    predict_request_t r = predict_defaults();
    r.writeback = (predict_writeback_t){150e6, 300e6, 30, 5};
    predict_t *f = predict_of(&s, &v, 1, &r);
    const analysis_series_t *usb = NULL;
    for (size_t i = 0; i < s.analysis->nseries; i++)
        if (strcmp(s.analysis->series[i].name, "usb") == 0)
            usb = &s.analysis->series[i];
    assert_non_null(usb);
    for (size_t k = 0; k < usb->npoints; k++) {
        const analysis_point_t *p = &usb->points[k];
        assert_true(p->predicted_seconds > 0.0);
        assert_close(seconds_at(f, 0, p->threads), p->predicted_seconds, 1e-12);
        assert_int_equal(predict_find(f, 0, 0, p->threads)->prediction.regime,
                         p->predicted_regime);
        assert_int_equal(predict_find(f, 0, 0, p->threads)->verdict, usb->verdicts[k].verdict);
    }
    assert_close(f->crossovers[0].threads, usb->crossover_threads, 1e-12);
    predict_free(f);
    study_free(&s);
}

/* A write the page cache took and never synced (sync none, as fio's buffered jobs) is
 * its speed, not the device's: never the drain rate. The same rows synced are. */
static void test_a_page_cache_speed_is_no_drain_rate(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, mem_runs, "target,op,size_bytes,bytes_per_s,sync\n"
                             "cached,write,400000000,2000000000,none\n"
                             "synced,write,400000000,150000000,fsync\n");
    predict_volume_t v;
    cp_err_t err = {0};
    assert_int_equal(predict_volume_probed("cached", "", s.probe, "cached", NAN, &v, &err), CP_OK);
    assert_true(isnan(v.drain_bps));
    assert_string_equal(v.drain_source, "unknown");
    assert_close(v.write_bps, 2e9, 1e-12);
    assert_int_equal(predict_volume_probed("synced", "", s.probe, "synced", NAN, &v, &err), CP_OK);
    assert_close(v.drain_bps, 150e6, 1e-12);
    assert_string_equal(v.drain_source, "probe-write");
    study_free(&s);
}

/* The memory target's repetitions at T travel with the prediction: at one thread they
 * agree (9.8-10.2 s, within the tolerance), at two they spread 5.5-7.0 s, more than it
 * (a slow spell of the CPU): that point is marked, and the prediction starts from its
 * median, 6.0 s. At four threads, from one run, there is no spread. */
static void test_a_noisy_memory_point_is_marked(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, "target,codec,threads,seconds,input_bytes,output_bytes\n"
                   "mem,zstd:3,1,10,1000000000,400000000\n"
                   "mem,zstd:3,1,9.8,1000000000,400000000\n"
                   "mem,zstd:3,1,10.2,1000000000,400000000\n"
                   "mem,zstd:3,2,5.5,1000000000,400000000\n"
                   "mem,zstd:3,2,7.0,1000000000,400000000\n"
                   "mem,zstd:3,2,6.0,1000000000,400000000\n"
                   "mem,zstd:3,4,3.25,1000000000,400000000\n", NULL);
    predict_volume_t v = predict_volume_typed("usb", 100e6, NAN);
    predict_request_t r = predict_defaults();
    predict_t *f = predict_of(&s, &v, 1, &r);
    const predict_point_t *one = predict_find(f, 0, 0, 1), *two = predict_find(f, 0, 0, 2),
                          *four = predict_find(f, 0, 0, 4);
    assert_non_null(one);
    assert_non_null(two);
    assert_non_null(four);
    assert_false(one->cpu_noisy);
    assert_close(one->cpu_min_s, 9.8, 1e-9);
    assert_close(one->cpu_max_s, 10.2, 1e-9);
    assert_true(two->cpu_noisy);
    assert_close(two->cpu_s, 6.0, 1e-9);
    assert_close(two->cpu_min_s, 5.5, 1e-9);
    assert_close(two->cpu_max_s, 7.0, 1e-9);
    assert_false(four->cpu_noisy);
    assert_true(isnan(four->cpu_min_s));
    predict_free(f);
    study_free(&s);
}

/* ---- the check ----------------------------------------------------------------------- */

static void test_check_pairs_points_by_name_or_directory(void **state)
{
    (void)state;
    study_t s, later;
    study_load(&s, mem_runs, NULL);
    study_load(&later, "target,codec,threads,seconds,input_bytes,output_bytes,dir\n"
                       "mem,zstd:3,1,10,1000000000,400000000,\n"
                       "ext,zstd:3,1,10.5,1000000000,400000000,/mnt/ext\n"
                       "ext,zstd:3,4,5.0,1000000000,400000000,/mnt/ext\n"
                       "ext,zstd:3,4,4.0,1000000000,400000000,/mnt/ext\n"
                       "ext,zstd:3,4,4.4,1000000000,400000000,/mnt/ext\n", NULL);
    predict_volume_t v = predict_volume_typed("usb", 100e6, NAN); /* not run later */
    predict_volume_t probed = predict_volume_typed("usb2", 100e6, NAN);
    probed.source = PREDICT_PROBE;
    snprintf(probed.dir, sizeof probed.dir, "/mnt/ext"); /* matched by directory */
    predict_volume_t volumes[] = {v, probed};
    predict_t *f = predict_of(&s, volumes, 2, NULL);
    predict_check_t *c = NULL;
    cp_err_t err = {0};
    assert_int_equal(predict_check_run(f, later.analysis, NULL, &c, &err), CP_OK);
    assert_int_equal(c->nrows, 2);
    assert_int_equal(c->unmatched_volumes, 1);
    /* The study recorded no page cache, so each prediction is an interval: at T = 1 from
     * the 400 MB written at 100 MB/s beside the 10 s of compression (10 s) to after it (14
     * s); measured 10.5 s, inside: no error. At T = 4, 4-6.5 s; measured 4.4 s: none. */
    assert_string_equal(c->rows[0].target, "ext");
    assert_close(f->points[0].prediction.seconds, 10.0, 1e-12);
    assert_close(f->points[0].seconds_high, 14.0, 1e-12);
    assert_close(c->rows[0].measured_s, 10.5, 1e-12);
    assert_close(c->rows[0].predicted_s, 10.5, 1e-12);
    assert_close(c->rows[0].error, 0.0, 1e-12);
    assert_close(c->rows[1].measured_s, 4.4, 1e-12); /* the median of 5.0, 4.0, 4.4 */
    assert_int_equal(c->rows[1].runs, 3);
    assert_close(c->rows[1].error, 0.0, 1e-12);
    assert_close(c->max_abs_error, 0.0, 1e-12);
    assert_int_equal(c->input_mismatches, 0);
    predict_check_free(c);
    predict_free(f);
    /* Nothing in common: a data error naming the later study. */
    f = predict_of(&s, &v, 1, NULL);
    c = NULL;
    assert_int_equal(predict_check_run(f, later.analysis, NULL, &c, &err), CP_EDATA);
    assert_null(c);
    predict_free(f);
    study_free(&later);
    study_free(&s);
}

/* The CPU ran 20% slower in the later study (its memory target took 12 s where the
 * predicting study's took 10 s). A volume too fast to matter is predicted at the CPU's
 * time: 10 s from the first study, 16.7% under the 12 s measured; the same prediction made
 * from the later study's memory runs is 12 s, no error. The check keeps both. */
static void test_check_separates_the_cpu_from_the_volume(void **state)
{
    (void)state;
    study_t s, later;
    study_load(&s, mem_runs, NULL);
    study_load(&later, "target,codec,threads,seconds,input_bytes,output_bytes\n"
                       "mem,zstd:3,1,12,1000000000,400000000\n"
                       "fast,zstd:3,1,12,1000000000,400000000\n", NULL);
    predict_volume_t v = predict_volume_typed("fast", 400e12, NAN);
    predict_t *f = predict_of(&s, &v, 1, NULL);
    predict_t *at_later = predict_of(&later, &v, 1, NULL);
    predict_check_t *c = NULL;
    cp_err_t err = {0};
    assert_int_equal(predict_check_run(f, later.analysis, at_later, &c, &err), CP_OK);
    assert_int_equal(c->nrows, 1);
    assert_int_equal(c->rows_now, 1);
    assert_close(c->rows[0].cpu_then_s, 10.0, 1e-12);
    assert_close(c->rows[0].cpu_now_s, 12.0, 1e-12);
    assert_close(c->rows[0].error, 10.0 / 12.0 - 1.0, 1e-6);
    assert_close(c->rows[0].predicted_now_s, 12.0, 1e-6);
    assert_close(c->rows[0].error_now, 0.0, 1e-6);
    assert_close(c->max_abs_error_now, 0.0, 1e-6);
    predict_check_free(c);
    /* Without the later forecast (no memory runs there) the rows have no *_now figures. */
    assert_int_equal(predict_check_run(f, later.analysis, NULL, &c, &err), CP_OK);
    assert_int_equal(c->rows_now, 0);
    assert_true(isnan(c->rows[0].error_now) && isnan(c->max_abs_error_now));
    predict_check_free(c);
    predict_free(at_later);
    predict_free(f);
    study_free(&later);
    study_free(&s);
}

/* ---- the report ---------------------------------------------------------------------- */

/* The report in one --format, through the one dispatch. */
static char *report_text(const predict_report_t *r, report_format_t format)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cp_err_t err = {0};
    assert_non_null(out);
    assert_int_equal(report_write(&predict_document, format, r, out, &err), CP_OK);
    fclose(out);
    return text;
}

static void test_first_line_and_json(void **state)
{
    (void)state;
    study_t s;
    study_load(&s, mem_runs, NULL);
    const storage_class_t *tb3 = storage_class_find("tb3-ssd");
    predict_volume_t volumes[] = {predict_volume_typed("internal", 2e9, NAN),
                                   predict_volume_typed("usb", 100e6, NAN),
                                   predict_volume_class(tb3->name, tb3)};
    predict_t *f = predict_of(&s, volumes, 3, NULL);
    predict_report_t r = {f, "results/x", NULL, "this machine", NULL, NULL};
    char line[1024];
    /* At 6 threads: internal and tb3 at the CPU's 2.5 s, usb 4 s (+60%), each to its
     * serial end (the study recorded no page cache): the 400 MB written after the 2.5 s of
     * compression, at 2 GB/s 2.70 s, at 100 MB/s 6.50 s. */
    assert_string_equal(predict_first_line(&r, line, sizeof line),
                        "For zstd:3 at 6 threads on this machine: internal 2.50-2.70 s, usb "
                        "4.00-6.50 s (+60%, write-bound from 3 threads), tb3-ssd class "
                        "2.50-2.83 s (within 1%).");
    char *text = report_text(&r, REPORT_FORMAT_TEXT);
    assert_memory_equal(text, line, strlen(line));
    assert_non_null(strstr(text, STORAGE_CLASS_LABEL));
    assert_non_null(strstr(text, "the class's write speed is taken as the drain rate"));
    assert_non_null(strstr(text, "the stated write speed is taken as the drain rate"));
    free(text);
    text = report_text(&r, REPORT_FORMAT_JSON);
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    if (root == NULL)
        fail_msg("JSON does not parse: %s", jerr.text);
    assert_string_equal(json_string_value(json_object_get(root, "first_line")), line);
    json_t *points = json_object_get(root, "predictions");
    assert_int_equal(json_array_size(points), 12);
    json_t *p = json_array_get(points, 6); /* usb at 4 threads */
    assert_string_equal(json_string_value(json_object_get(p, "volume")), "usb");
    assert_string_equal(json_string_value(json_object_get(p, "source")), "typed");
    assert_string_equal(json_string_value(json_object_get(p, "codec")), "zstd:3");
    assert_int_equal(json_integer_value(json_object_get(p, "threads")), 4);
    assert_close(json_real_value(json_object_get(p, "seconds")), 4.0, 1e-12);
    assert_string_equal(json_string_value(json_object_get(p, "verdict")), "write-bound");
    assert_string_equal(json_string_value(json_object_get(p, "cause")), "write-throughput");
    json_t *terms = json_object_get(p, "terms");
    assert_close(json_real_value(json_object_get(terms, "compute")), 3.25, 1e-12);
    assert_close(json_real_value(json_object_get(terms, "write")), 0.75, 1e-12);
    assert_true(json_is_false(json_object_get(p, "extrapolated")));
    json_t *cls = json_array_get(json_object_get(root, "volumes"), 2);
    assert_string_equal(json_string_value(json_object_get(cls, "source")), "class");
    assert_string_equal(json_string_value(json_object_get(cls, "label")), STORAGE_CLASS_LABEL);
    assert_true(json_is_null(json_object_get(root, "check")));
    json_decref(root);
    free(text);
    predict_free(f);
    study_free(&s);
}

static void test_classes_json_lists_every_class(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cp_err_t err = {0};
    assert_int_equal(storage_classes_write_json(out, &err), CP_OK);
    fclose(out);
    json_t *root = json_loads(text, 0, NULL);
    assert_non_null(root);
    json_t *classes = json_object_get(root, "classes");
    assert_int_equal(json_array_size(classes), storage_class_count());
    json_t *first = json_array_get(classes, 0);
    assert_string_equal(json_string_value(json_object_get(first, "name")), "usb3-hdd-outer");
    assert_close(json_real_value(json_object_get(first, "write_bytes_per_s")), 120e6, 0);
    assert_non_null(strstr(json_string_value(json_object_get(first, "sources")),
                           "Seagate BarraCuda 2.5\" data sheet"));
    json_decref(root);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_have_the_published_figures),
        cmocka_unit_test(test_every_class_is_named_once_and_sourced),
        cmocka_unit_test(test_typed_speed_without_thresholds_overlaps),
        cmocka_unit_test(test_a_noisy_memory_point_is_marked),
        cmocka_unit_test(test_typed_speed_with_the_page_cache),
        cmocka_unit_test(test_class_speed_is_the_drain_rate),
        cmocka_unit_test(test_read_speed_counts_with_the_same_layout),
        cmocka_unit_test(test_unrun_thread_counts_come_from_the_cpu_model),
        cmocka_unit_test(test_an_extrapolation_is_held_to_the_measured_rates),
        cmocka_unit_test(test_an_unrun_thread_count_takes_the_point_below_it),
        cmocka_unit_test(test_no_memory_runs_is_a_data_error),
        cmocka_unit_test(test_a_decompression_study_is_named),
        cmocka_unit_test(test_a_probed_volume_gets_the_analysis_figures),
        cmocka_unit_test(test_a_page_cache_speed_is_no_drain_rate),
        cmocka_unit_test(test_check_pairs_points_by_name_or_directory),
        cmocka_unit_test(test_check_separates_the_cpu_from_the_volume),
        cmocka_unit_test(test_first_line_and_json),
        cmocka_unit_test(test_classes_json_lists_every_class),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
