/* The write-back time model and the cause of a verdict, against hand-derived figures
 * (the loop-volume measurements in docs/method.md supply the numbers). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/cause.h"
#include "model/writeback_model.h"

static void assert_close(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.12g, want %.12g (relative tolerance %g)", got, want, rel);
}

/* 1 GiB in, 560.6 MB out, 3.45 s of CPU at T=1; a 24 GiB machine's default thresholds. */
static wbm_inputs_t lab_run(double drain_bps, wbm_sync_t sync)
{
    wbm_inputs_t in = {
        .input_bytes = 1073741824.0, .output_bytes = 560.6e6, .cpu_s = 3.45,
        .read_bps = NAN, .drain_bps = drain_bps, .sync = sync,
        .dirty_background_bytes = 2.3e9, .dirty_bytes = 4.6e9, .dirty_expire_s = 30.0,
    };
    return in;
}

static void test_serial_when_the_cache_holds_the_output(void **state)
{
    (void)state;
    wbm_inputs_t in = lab_run(120e6, WBM_SYNC_FSYNC);
    prediction_t p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_SERIAL);
    assert_close(p.seconds, 3.45 + 560.6 / 120.0, 1e-12); /* 8.12 s, measured 8.13-8.17 */
    assert_close(p.tail_s, 560.6 / 120.0, 1e-12);
    assert_string_equal(wbm_regime_name(p.regime), "serial");
}

static void test_overlapped_with_direct_io(void **state)
{
    (void)state;
    wbm_inputs_t in = lab_run(120e6, WBM_SYNC_DIRECT);
    assert_close(wbm_predict(&in).seconds, 560.6 / 120.0, 1e-12); /* 4.67 s, measured 4.66-4.73 */
    in = lab_run(400e6, WBM_SYNC_DIRECT);
    prediction_t p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_OVERLAPPED);
    assert_close(p.seconds, 3.45, 1e-12); /* the disk keeps up: the CPU time */
}

static void test_mixed_when_the_output_passes_the_background_threshold(void **state)
{
    (void)state;
    /* 100 MB background threshold, disk slower than the output arrives (162 MB/s): the
     * disk starts at 3.45 * 100 / 560.6 s and then writes without pause. */
    wbm_inputs_t in = lab_run(120e6, WBM_SYNC_FSYNC);
    in.dirty_background_bytes = 100e6;
    prediction_t p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_MIXED);
    assert_close(p.seconds, 3.45 * 100.0 / 560.6 + 560.6 / 120.0, 1e-12);
    /* A disk faster than the output arrives: only the last 100 MB wait for the fsync. */
    in.drain_bps = 400e6;
    p = wbm_predict(&in);
    assert_close(p.seconds, 3.45 + 100.0 / 400.0, 1e-12);
    /* A 10 s run outlasts the flusher's first wake-up at 5 s: by then half the output is
     * dirty and write-back starts (disk slower than the output: it never pauses). */
    in = lab_run(40e6, WBM_SYNC_FSYNC);
    in.cpu_s = 10.0;
    in.dirty_writeback_s = 5.0;
    p = wbm_predict(&in);
    assert_close(p.cached_bytes, 560.6e6 / 2.0, 1e-12);
    assert_close(p.seconds, 5.0 + 560.6 / 40.0, 1e-12);
    in = lab_run(120e6, WBM_SYNC_FSYNC);
    /* The age limit: after 1 s of a 3.45 s run, 1/3.45 of the output is old enough. */
    in.dirty_background_bytes = 2.3e9;
    in.dirty_expire_s = 1.0;
    p = wbm_predict(&in);
    assert_close(p.cached_bytes, 560.6e6 / 3.45, 1e-12);
}

static void test_io_path_cpu_on_saturated_cores(void **state)
{
    (void)state;
    /* T=2 on 2 cores: mem took 1.87 s with 3.9 CPU seconds; writing 560.6 MB costs the
     * volume 1.2 ns of system CPU per byte (0.673 s): (3.9 + 0.673) / 2 = 2.286 s. */
    wbm_inputs_t in = lab_run(1e12, WBM_SYNC_DIRECT);
    in.cpu_s = 1.87;
    in.cpu_work_s = 3.9;
    in.io_cpu_per_byte = 1.2e-9;
    in.cpus = 2;
    prediction_t p = wbm_predict(&in);
    assert_close(p.compute_s, (3.9 + 560.6e6 * 1.2e-9) / 2.0, 1e-12);
    /* T=1: the second core absorbs it; the job's own time stands. */
    in.cpu_s = 3.45;
    in.cpu_work_s = 3.5;
    assert_close(wbm_predict(&in).compute_s, 3.45, 1e-12);
}

/* The pipeline's fill and its last block (docs/method.md, "The write-back model"): 100 MB
 * in, 50 MB out, 2 s of compression at T = 2 in blocks of 10 MB. The first output exists
 * after f = 2 s x min(1, 2 x 10/100) = 0.4 s; the last block's 5 MB follow the cores. */
static void test_pipeline_fill_and_last_block(void **state)
{
    (void)state;
    wbm_inputs_t in = {
        .input_bytes = 100e6, .output_bytes = 50e6, .cpu_s = 2.0, .read_bps = NAN,
        .drain_bps = 20e6, .pace_bps = NAN, .sync = WBM_SYNC_DIRECT,
        .dirty_background_bytes = NAN, .dirty_bytes = NAN, .dirty_expire_s = NAN,
        .dirty_writeback_s = NAN, .threads = 2, .block_bytes = 10e6,
    };
    /* O_DIRECT at 20 MB/s: the disk starts at 0.4 s and writes 2.5 s: max(2 + 5/20,
     * 0.4 + 50/20) = 2.9 s, the disk's own time. */
    prediction_t p = wbm_predict(&in);
    assert_close(p.seconds, 2.9, 1e-12);
    assert_close(p.own_s[TERM_WRITE], 2.9, 1e-12);
    /* At 50 MB/s the disk keeps up, and the last block's 5 MB after the cores end the
     * run: max(2 + 5/50, 0.4 + 50/50) = 2.1 s. */
    in.drain_bps = 50e6;
    assert_close(wbm_predict(&in).seconds, 2.1, 1e-12);
    /* A cap paced per write onto RAM behind it: c becomes max(c + o_last/cap, f + o/cap):
     * at 20 MB/s max(2.25, 2.9) = 2.9 s, at 100 MB/s max(2.05, 0.9) = 2.05 s. */
    in.drain_bps = INFINITY;
    in.sync = WBM_SYNC_FSYNC;
    in.pace_bps = 20e6;
    assert_close(wbm_predict(&in).seconds, 2.9, 1e-12);
    in.pace_bps = 100e6;
    assert_close(wbm_predict(&in).seconds, 2.05, 1e-12);
}

/* --sync none: the run ends with the last write, unless the writer meets the dirty
 * threshold L. 6 GB out of 10 s of compression, the cache starting write-back at the 2 GB
 * background threshold (at 10 x 2/6 = 3.33 s), a 100 MB/s disk: the writer can finish
 * only once no more than L = 4 GB is dirty, so once the disk has written 6 - 4 = 2 GB
 * from 3.33 s on: 3.33 + 2e9 / 100e6 = 23.33 s. Output under L: the compression's 10 s. */
static void test_no_sync_throttled_at_the_dirty_threshold(void **state)
{
    (void)state;
    wbm_inputs_t in = {
        .input_bytes = 10e9, .output_bytes = 6e9, .cpu_s = 10.0, .read_bps = NAN,
        .drain_bps = 100e6, .pace_bps = NAN, .sync = WBM_SYNC_NONE,
        .dirty_background_bytes = 2e9, .dirty_bytes = 4e9, .dirty_expire_s = NAN,
        .dirty_writeback_s = NAN, .threads = NAN, .block_bytes = NAN,
    };
    prediction_t p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_MIXED);
    assert_close(p.seconds, 10.0 * 2.0 / 6.0 + 2e9 / 100e6, 1e-12);
    in.output_bytes = 3e9;
    p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_CPU_ONLY);
    assert_close(p.seconds, 10.0, 1e-12);
}

/* Held back with a flush after the side-by-side group (docs/method.md, "One model
 * decides"): 10 s compressing, reading the copy adds 1.40 s past it, then a flush of 1.48
 * s. The flush adds more than the group, and the group is within 10% of it (1.40 >= 0.9
 * x 1.48 = 1.332): flush-tail, balanced with the read. A 1.60 s flush (0.9 x 1.60 = 1.44
 * > 1.40) is the flush alone. */
static void test_flush_balanced_with_the_group(void **state)
{
    (void)state;
    prediction_t p = {.regime = WBM_MIXED, .seconds = 10.0 + 1.40 + 1.48};
    p.own_s[TERM_COMPUTE] = p.own_s[TERM_IO_CPU] = p.part_s[TERM_COMPUTE] = 10.0;
    p.own_s[TERM_READ] = 11.40;
    p.part_s[TERM_READ] = 1.40;
    p.own_s[TERM_FLUSH] = p.part_s[TERM_FLUSH] = 1.48;
    wbm_term_t second;
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_FLUSH);
    assert_int_equal(second, TERM_READ);
    p.own_s[TERM_FLUSH] = p.part_s[TERM_FLUSH] = 1.60;
    p.seconds = 10.0 + 1.40 + 1.60;
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_FLUSH);
    assert_int_equal(second, TERM_COUNT);
}

static void test_ram_read_limit_and_unknowns(void **state)
{
    (void)state;
    wbm_inputs_t in = lab_run(INFINITY, WBM_SYNC_FSYNC);
    prediction_t p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_CPU_ONLY);
    assert_close(p.seconds, 3.45, 1e-12);
    /* A slow input volume: reading 1 GiB at 200 MB/s takes longer than compressing it. */
    in.read_bps = 200e6;
    assert_close(wbm_predict(&in).seconds, 1073741824.0 / 200e6, 1e-12);
    in = lab_run(NAN, WBM_SYNC_FSYNC);
    p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_UNKNOWN);
    assert_true(isnan(p.seconds));
    /* Unknown thresholds (a table from elsewhere): the classic overlapped view. */
    in = lab_run(120e6, WBM_SYNC_FSYNC);
    in.dirty_background_bytes = NAN;
    in.dirty_expire_s = NAN;
    p = wbm_predict(&in);
    assert_int_equal(p.regime, WBM_OVERLAPPED);
    assert_close(p.seconds, 560.6 / 120.0, 1e-12);
    /* An emulated 100 MB/s cap paces the writes; the real disk (1 GB/s) then flushes. */
    in = lab_run(1e9, WBM_SYNC_FSYNC);
    in.pace_bps = 100e6;
    p = wbm_predict(&in);
    assert_close(p.compute_s, 5.606, 1e-12);
    assert_close(p.seconds, 5.606 + 0.5606, 1e-12);
    assert_int_equal(wbm_sync_from_name("direct"), WBM_SYNC_DIRECT);
    assert_int_equal(wbm_sync_from_name(""), WBM_SYNC_FSYNC);
}

static void test_drain_needed_inverts_the_model(void **state)
{
    (void)state;
    wbm_inputs_t in = lab_run(NAN, WBM_SYNC_FSYNC);
    /* Serial: 5 s = 3.45 + 560.6 MB / drain, so drain = 560.6 / 1.55 MB/s. */
    assert_close(wbm_speed_for_seconds(&in, WBM_SPEED_DRAIN, 5.0), 560.6e6 / 1.55, 1e-6);
    /* Nothing beats the CPU time. */
    assert_true(isnan(wbm_speed_for_seconds(&in, WBM_SPEED_DRAIN, 3.0)));
}

/* The decomposition adds up, and its largest part beyond the compression names the limit. */
static void test_decomposition_and_decision_per_regime(void **state)
{
    (void)state;
    wbm_term_t second;
    /* Serial (the lab's 120 MB/s volume, fsync): 3.45 s compressing, then the flush of
     * 560.6 MB at 120 MB/s, 4.67 s: the flush sets the time. */
    wbm_inputs_t in = lab_run(120e6, WBM_SYNC_FSYNC);
    prediction_t p = wbm_predict(&in);
    assert_close(p.part_s[TERM_COMPUTE], 3.45, 1e-12);
    assert_close(p.part_s[TERM_FLUSH], 560.6 / 120.0, 1e-12);
    assert_close(p.part_s[TERM_WRITE] + p.part_s[TERM_READ] + p.part_s[TERM_IO_CPU], 0.0, 1e-12);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_FLUSH);
    assert_int_equal(second, TERM_COUNT);
    /* O_DIRECT on a 185 MB/s volume, T = 2 (the truth test's case): 1.27 s compressing,
     * 280 MB written in 1.514 s while it runs: the disk sets the time, 0.244 s past the
     * compression, more than the 10% tolerance (1.27 / 0.9 = 1.411 s). */
    in = lab_run(185e6, WBM_SYNC_DIRECT);
    in.output_bytes = 280e6;
    in.cpu_s = 1.27;
    p = wbm_predict(&in);
    assert_close(p.seconds, 280.0 / 185.0, 1e-12);
    assert_close(p.part_s[TERM_WRITE], 280.0 / 185.0 - 1.27, 1e-12);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_WRITE);
    assert_int_equal(second, TERM_COUNT);
    /* On a 200 MB/s volume the disk's 1.40 s are within 10% of the compression's 1.27 s
     * (1.40 <= 1.411, 1.27 >= 0.9 x 1.40): balanced, compute and write. */
    in.drain_bps = 200e6;
    p = wbm_predict(&in);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_COMPUTE);
    assert_int_equal(second, TERM_WRITE);
    /* A fast disk (1 GB/s, 0.28 s): compute alone. */
    in.drain_bps = 1e9;
    p = wbm_predict(&in);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_COMPUTE);
    assert_int_equal(second, TERM_COUNT);
    /* Reading a 512 MiB copy at 199 MB/s (2.70 s) beside 1.5 s of compression, then the
     * 280 MB flush at 200 MB/s (1.40 s): 4.10 s = 1.5 + 1.20 reading + 1.40 flush. The
     * two additions are within 10% of each other? 1.20 < 0.9 x 1.40: no, the flush sets
     * it. */
    in = lab_run(200e6, WBM_SYNC_FSYNC);
    in.input_bytes = 536870912.0;
    in.output_bytes = 280e6;
    in.cpu_s = 1.5;
    in.read_bps = 199e6;
    p = wbm_predict(&in);
    assert_close(p.seconds, 536870912.0 / 199e6 + 1.4, 1e-12);
    assert_close(p.part_s[TERM_READ], 536870912.0 / 199e6 - 1.5, 1e-12);
    assert_close(p.part_s[TERM_FLUSH], 1.4, 1e-12);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_FLUSH);
    assert_int_equal(second, TERM_COUNT);
    /* Read at 180 MB/s (2.98 s, 1.48 s beyond the compression): reading and the flush
     * are within 10% (1.40 >= 0.9 x 1.48): balanced, read first. */
    in.read_bps = 180e6;
    p = wbm_predict(&in);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_READ);
    assert_int_equal(second, TERM_FLUSH);
    /* Side by side: reading a copy for 10 s beside O_DIRECT writes of 10.5 s (1 s of
     * compression): the disk leads, and reading's own time is within 10% of it: balanced,
     * write and read. */
    in = lab_run(560.6e6 / 10.5, WBM_SYNC_DIRECT);
    in.cpu_s = 1.0;
    in.read_bps = 1073741824.0 / 10.0;
    p = wbm_predict(&in);
    assert_close(p.seconds, 10.5, 1e-12);
    assert_close(p.part_s[TERM_READ], 9.0, 1e-12);
    assert_close(p.part_s[TERM_WRITE], 0.5, 1e-12);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_WRITE);
    assert_int_equal(second, TERM_READ);
    /* Saturated cores: T = 2 on 2 CPUs, 3.9 CPU seconds of compression and 1.2 ns of
     * system CPU per byte written: (3.9 + 0.673) / 2 = 2.286 s against 1.87 s, and a
     * fast disk: the CPU cost of writing sets the time. */
    in = lab_run(5e9, WBM_SYNC_DIRECT);
    in.cpu_s = 1.87;
    in.cpu_work_s = 3.9;
    in.io_cpu_per_byte = 1.2e-9;
    in.cpus = 2;
    p = wbm_predict(&in);
    assert_close(p.part_s[TERM_IO_CPU], (3.9 + 0.6727) / 2.0 - 1.87, 1e-4);
    assert_int_equal(wbm_decide(&p, 0.10, &second), TERM_IO_CPU);
    /* The parts always add up to the time. */
    double sum = 0.0;
    for (int t = 0; t < TERM_COUNT; t++)
        sum += p.part_s[t];
    assert_close(sum, p.seconds, 1e-12);
    assert_string_equal(wbm_term_name(TERM_IO_CPU), "io-cpu");
}

/* The what-if's inverse for each speed: the read speed and the cap that bring a run to a
 * time, and none when another term alone takes longer. */
static void test_speed_for_seconds_per_kind(void **state)
{
    (void)state;
    /* Reading 1 GiB in 5 s needs 214.7 MB/s (the disk's 4.67 s overlap: direct). */
    wbm_inputs_t in = lab_run(120e6, WBM_SYNC_DIRECT);
    in.read_bps = 100e6;
    assert_close(wbm_speed_for_seconds(&in, WBM_SPEED_READ, 5.0),
                 1073741824.0 / 5.0, 1e-6);
    /* ... but not in 4 s: the disk's 4.67 s remain. */
    assert_true(isnan(wbm_speed_for_seconds(&in, WBM_SPEED_READ, 4.0)));
    /* A cap that paces 560.6 MB into 4 s, the real 1 GB/s disk then flushing 0.56 s. */
    in = lab_run(1e9, WBM_SYNC_FSYNC);
    in.pace_bps = 100e6;
    assert_close(wbm_speed_for_seconds(&in, WBM_SPEED_PACE, 4.5606), 560.6e6 / 4.0, 1e-6);
}

static cause_evidence_t evidence(double measured_bps, double write_ceiling_bps)
{
    cause_evidence_t e = {
        .measured_bps = measured_bps, .cpu_ceiling_bps = 100e6,
        .write_ceiling_bps = write_ceiling_bps, .read_ceiling_bps = NAN,
        .seconds = 1e9 / measured_bps, .cpu_seconds = 10.0, .flush_s = 0.0,
        .cpu_idle_share = 0.5, .cpu_sys_share = 0.1, .dev_busy_share = NAN, .busy_growth = 0.0,
    };
    return e;
}

static void test_each_cause(void **state)
{
    (void)state;
    cause_evidence_t e = evidence(95e6, NAN);
    assert_int_equal(cause_classify(&e, 0.10), CAUSE_COMPUTE);
    /* 16 s against 10 s in memory, 3 s of it the flush: half the 6 s gap. */
    e = evidence(62.5e6, 300e6);
    e.flush_s = 3.0;
    assert_close(cause_gap_s(&e), 6.0, 1e-12);
    assert_close(cause_flush_share(&e), 0.5, 1e-12);
    assert_int_equal(cause_classify(&e, 0.10), CAUSE_FLUSH_TAIL);
    e.flush_s = 2.9;
    assert_int_equal(cause_classify(&e, 0.10), CAUSE_UNKNOWN);
    e.write_ceiling_bps = 70e6;
    assert_int_equal(cause_classify(&e, 0.10), CAUSE_WRITE_THROUGHPUT);
    e.write_ceiling_bps = NAN;
    e.read_ceiling_bps = 70e6;
    assert_int_equal(cause_classify(&e, 0.10), CAUSE_READ_THROUGHPUT);
    e.read_ceiling_bps = NAN;
    e.cpu_idle_share = 0.04;
    assert_int_equal(cause_classify(&e, 0.10), CAUSE_CORES_SATURATED);
    e.cpu_idle_share = 0.30;
    e.busy_growth = 0.25;
    assert_int_equal(cause_classify(&e, 0.10), CAUSE_CPU_CONTENTION);
    assert_int_equal(cause_verdict(CAUSE_CORES_SATURATED), VERDICT_CPU);
    assert_int_equal(cause_verdict(CAUSE_FLUSH_TAIL), VERDICT_WRITE);
    assert_string_equal(cause_name(CAUSE_FLUSH_TAIL), "flush-tail");
}

static void test_device_disagreement(void **state)
{
    (void)state;
    assert_true(cause_device_disagrees(CAUSE_WRITE_THROUGHPUT, 0.3));
    assert_false(cause_device_disagrees(CAUSE_WRITE_THROUGHPUT, 0.98));
    assert_true(cause_device_disagrees(CAUSE_CORES_SATURATED, 0.99));
    assert_false(cause_device_disagrees(CAUSE_COMPUTE, NAN));
}

/* The kernel's accounting against the gap: a 10 s run whose memory-speed time is 6 s has
 * a 4 s gap; a write cause needs 1 s (a quarter) blocked on writes, a read cause 1 s on
 * reads, saturated cores 0.4 s (a tenth) waiting for a core. */
/* Where the volume's speed is unknown, the cause is what the run's own accounting
 * witnesses, against the excess g = 4 s: reads blocked for at least g/2 name
 * read-throughput; else writes blocked for g/2 name the flush tail when the final flush
 * alone took g/2 or more, else write-throughput. */
static void test_witnessed_cause(void **state)
{
    (void)state;
    cause_evidence_t e = {0};
    e.io_wait_s = 3.0;
    e.io_read_wait_s = 0.0;
    e.flush_s = 2.5;
    assert_int_equal(cause_witnessed(&e, false, 4.0), CAUSE_FLUSH_TAIL);
    e.flush_s = 0.5;
    assert_int_equal(cause_witnessed(&e, false, 4.0), CAUSE_WRITE_THROUGHPUT);
    e.io_read_wait_s = 2.5;
    assert_int_equal(cause_witnessed(&e, false, 4.0), CAUSE_READ_THROUGHPUT);
    e.io_read_wait_s = 1.5; /* 1.5 s reads, 1.5 s writes: neither half of 4 s */
    assert_int_equal(cause_witnessed(&e, false, 4.0), CAUSE_UNKNOWN);
}

static void test_accounting_disagreement(void **state)
{
    (void)state;
    cause_evidence_t e = {0};
    e.seconds = 10.0;
    e.cpu_seconds = 6.0;
    e.cpu_wait_s = e.io_wait_s = e.io_read_wait_s = NAN;
    /* nothing measured: nothing known, nothing contradicted */
    assert_false(cause_accounting_known(CAUSE_WRITE_THROUGHPUT, &e));
    assert_false(cause_accounting_disagrees(CAUSE_WRITE_THROUGHPUT, &e));
    e.io_wait_s = 1.5;
    e.io_read_wait_s = 0.6; /* 0.9 s on writes: under a quarter of 4 s */
    assert_true(cause_accounting_known(CAUSE_WRITE_THROUGHPUT, &e));
    assert_true(cause_accounting_disagrees(CAUSE_WRITE_THROUGHPUT, &e));
    assert_true(cause_accounting_disagrees(CAUSE_FLUSH_TAIL, &e));
    assert_true(cause_accounting_disagrees(CAUSE_READ_THROUGHPUT, &e));
    e.io_read_wait_s = 0.4; /* 1.1 s on writes */
    assert_false(cause_accounting_disagrees(CAUSE_WRITE_THROUGHPUT, &e));
    e.io_read_wait_s = NAN; /* no split (the machine's figure): all of it counts */
    assert_false(cause_accounting_disagrees(CAUSE_READ_THROUGHPUT, &e));
    e.io_wait_s = 0.9;
    assert_true(cause_accounting_disagrees(CAUSE_READ_THROUGHPUT, &e));
    /* an emulated cap paces with sleeps, not I/O: its waits witness nothing */
    e.io_paced = true;
    assert_false(cause_accounting_known(CAUSE_WRITE_THROUGHPUT, &e));
    assert_false(cause_accounting_disagrees(CAUSE_WRITE_THROUGHPUT, &e));
    e.cpu_wait_s = 0.39;
    assert_true(cause_accounting_disagrees(CAUSE_CORES_SATURATED, &e));
    e.cpu_wait_s = 0.41;
    assert_false(cause_accounting_disagrees(CAUSE_CORES_SATURATED, &e));
    assert_false(cause_accounting_disagrees(CAUSE_COMPUTE, &e));
    e.seconds = 5.0; /* faster than memory: no gap, nothing to witness */
    e.cpu_wait_s = 0.0;
    assert_false(cause_accounting_disagrees(CAUSE_CORES_SATURATED, &e));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serial_when_the_cache_holds_the_output),
        cmocka_unit_test(test_overlapped_with_direct_io),
        cmocka_unit_test(test_mixed_when_the_output_passes_the_background_threshold),
        cmocka_unit_test(test_io_path_cpu_on_saturated_cores),
        cmocka_unit_test(test_pipeline_fill_and_last_block),
        cmocka_unit_test(test_no_sync_throttled_at_the_dirty_threshold),
        cmocka_unit_test(test_flush_balanced_with_the_group),
        cmocka_unit_test(test_ram_read_limit_and_unknowns),
        cmocka_unit_test(test_drain_needed_inverts_the_model),
        cmocka_unit_test(test_decomposition_and_decision_per_regime),
        cmocka_unit_test(test_speed_for_seconds_per_kind),
        cmocka_unit_test(test_each_cause),
        cmocka_unit_test(test_device_disagreement),
        cmocka_unit_test(test_witnessed_cause),
        cmocka_unit_test(test_accounting_disagreement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
