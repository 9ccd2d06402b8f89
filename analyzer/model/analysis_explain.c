/* analysis_explain.c - owns the explanation of one point: the write-back model's
 * prediction, its parts and the cause of the verdict (analysis_explain.h). */
#include "model/analysis_explain.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "model/crossover.h"
#include "model/stats.h"

void explain_series_drain(analysis_series_t *s, const probe_table_t *probe)
{
    s->drain_bps = NAN;
    s->drain_source = "unknown";
    s->io_cpu_per_byte = NAN;
    if (s->cpu_ceiling)
        return;
    if (s->probe_target[0] == '\0')
        probe = NULL; /* the probe has no row for this volume (match_series_probe) */
    /* The I/O path's CPU cost as the runs paid it: O_DIRECT runs from O_DIRECT probe rows,
     * buffered runs from buffered ones; unknown (not charged) when the probe did not
     * measure that path. */
    s->io_cpu_per_byte = probe_table_speed(probe, s->probe_target,
                                           wbm_sync_from_name(s->sync) == WBM_SYNC_DIRECT
                                               ? PROBE_OP_IO_COST_DIRECT
                                               : PROBE_OP_IO_COST);
    if (s->ram == 1) {
        s->drain_bps = INFINITY;
        s->drain_source = "ram";
        return;
    }
    double drain = probe_table_speed(probe, s->probe_target, PROBE_OP_DRAIN);
    if (drain > 0.0) {
        s->drain_bps = drain;
        s->drain_source = "probe-drain";
    } else if (s->write_bps > 0.0 && !probe_table_page_cache_only(probe, s->probe_target)) {
        /* A write the page cache took and never synced is its speed, not the device's. */
        s->drain_bps = s->write_bps;
        s->drain_source = "probe-write";
    } else if (s->rate_cap_bps > 0.0 && s->disk_emulated) {
        /* No probe, but the runs wrote to an emulated disk: the kernel drained it at the
         * cap. */
        s->drain_bps = s->rate_cap_bps;
        s->drain_source = "emulated-cap";
    } else if (s->rate_cap_bps > 0.0) {
        /* No probe of the volume, but its runs were paced by an emulated cap: the cap is
         * its speed during the run, and the device's own flush afterwards is taken as
         * instant (unknown; the report says so). */
        s->drain_bps = INFINITY;
        s->drain_source = "emulated-cap-unprobed";
    }
    /* A volume probed through an emulated write cap writes at the cap, as far as the
     * study is concerned; runs that were not paced by it (written there without the cap)
     * are held to that speed, and a run faster than it is flagged, not explained. Runs
     * paced by the cap keep the device's own drain for what the cache holds at the fsync:
     * the cap paced their writes into the cache (pace_bps). */
    double cap = NAN;
    if ((!(s->rate_cap_bps > 0.0) || s->disk_emulated) &&
        probe_table_emulated(probe, s->probe_target, PROBE_OP_WRITE, &cap) && cap > 0.0 &&
        !(s->drain_bps <= cap)) {
        s->drain_bps = cap;
        s->drain_source = "emulated-cap";
    }
}

bool explain_wrote_beyond_volume(const analysis_series_t *s, const analysis_point_t *p,
                                 double margin)
{
    if (s->cpu_ceiling || (s->decompress && !s->restores_to_volume) ||
        wbm_sync_from_name(s->sync) == WBM_SYNC_NONE)
        return false;
    double speed = s->write_speed_bps > 0.0 ? s->write_speed_bps : s->rate_cap_bps;
    return speed > 0.0 && isfinite(speed) &&
           analysis_written_bytes(s, p) / p->seconds > (1.0 + margin) * speed;
}

double analysis_written_bytes(const analysis_series_t *s, const analysis_point_t *p)
{
    return s->decompress ? p->input_bytes : p->output_bytes;
}

double explain_write_speed(const analysis_series_t *s)
{
    double speed = s->drain_bps > 0.0 && isfinite(s->drain_bps) ? s->drain_bps : s->write_bps;
    if (s->rate_cap_bps > 0.0)
        speed = speed > 0.0 ? fmin(speed, s->rate_cap_bps) : s->rate_cap_bps;
    return speed;
}

/* The model's inputs for point p of s at CPU rate cpu_bps, with the mem run's CPU work. */
static wbm_inputs_t point_inputs(const analysis_series_t *s, const analysis_point_t *p,
                                 double cpu_bps)
{
    wbm_inputs_t in = {
        .input_bytes = p->input_bytes,
        .output_bytes = p->output_bytes,
        .cpu_s = p->input_bytes / cpu_bps,
        /* The CPU ceiling already read the input where it lives; only a copy on the
         * target itself (layout same) reads from this volume. */
        .read_bps = s->same_layout ? s->read_bps : NAN,
        .drain_bps = s->drain_bps,
        .pace_bps = s->disk_emulated ? NAN : s->rate_cap_bps, /* a disk drains instead */
        .sync = wbm_sync_from_name(s->sync),
        .dirty_background_bytes = p->dirty_background_bytes,
        .dirty_bytes = p->dirty_bytes,
        .dirty_expire_s = p->dirty_expire_s,
        .dirty_writeback_s = p->dirty_writeback_s,
        .cpu_work_s = p->mem_cpu_work_s,
        .io_cpu_per_byte = s->io_cpu_per_byte,
        .cpus = p->online_cpus,
        .threads = p->threads,
        .block_bytes = p->block_bytes,
    };
    /* The I/O path's CPU work from the run's own accounting where it has it: the CPU
     * seconds (user and system) its runs spent beyond memory's at this T, per byte
     * written: the page-cache copies and the file system on the compressors' cores, and
     * the compressors' cache refills after them. The probe's figure stands in only
     * without it: it comes from other writes at another moment, and on a VM the first
     * touches of long-free memory make it vary several-fold between repetitions. */
    double run_work = p->cpu_user_s + p->cpu_sys_s;
    if (!s->decompress && run_work > 0.0 && p->mem_cpu_work_s > 0.0 && p->output_bytes > 0.0)
        in.io_cpu_per_byte = fmax(0.0, run_work - p->mem_cpu_work_s) / p->output_bytes;
    if (s->decompress) {
        /* Read the archive from this volume; write the restored bytes only onto it. */
        in.input_bytes = p->output_bytes;
        in.output_bytes = s->restores_to_volume ? p->input_bytes : 0.0;
        in.read_bps = s->read_bps;
        in.block_bytes = NAN; /* archive pieces, not the compression's blocks */
        if (!s->restores_to_volume)
            in.io_cpu_per_byte = NAN; /* the probe's figure is per byte written: none is */
    }
    return in;
}

bool explain_writeback_unknown(const analysis_series_t *s, const analysis_point_t *p)
{
    wbm_sync_t sync = wbm_sync_from_name(s->sync);
    return !s->cpu_ceiling && sync == WBM_SYNC_FSYNC && strcmp(s->sync, "mixed") != 0 &&
           isnan(p->dirty_background_bytes) && isnan(p->dirty_bytes) &&
           isnan(p->dirty_expire_s) && isnan(p->dirty_writeback_s);
}

/* Turns in into the late end of p's interval: where the context is unknown, the page
 * cache holding the whole output to the fsync (serial); where it is known but the run
 * outlasts the flusher's period, write-back starting at the background threshold or the
 * dirty expiry instead of the flusher's first wake-up (which starts it only once this
 * device's share of the background threshold is passed, a share the kernel sets from
 * every device's recent write-out: unknown here). False when p has no interval. */
static bool late_inputs(const analysis_series_t *s, const analysis_point_t *p,
                        wbm_inputs_t *in)
{
    if (explain_writeback_unknown(s, p)) {
        in->dirty_background_bytes = in->dirty_bytes = INFINITY;
        return true;
    }
    if (s->cpu_ceiling || wbm_sync_from_name(s->sync) != WBM_SYNC_FSYNC ||
        strcmp(s->sync, "mixed") == 0 || !(in->dirty_writeback_s > 0.0))
        return false;
    in->dirty_writeback_s = NAN;
    return true;
}

/* Both ends of p's interval (late_inputs), low the early one; false when p has none or
 * they coincide. */
static bool interval_ends(const analysis_series_t *s, const analysis_point_t *p, double cpu_bps,
                          prediction_t *low, prediction_t *high)
{
    wbm_inputs_t in = point_inputs(s, p, cpu_bps);
    *low = wbm_predict(&in);
    if (!late_inputs(s, p, &in))
        return false;
    *high = wbm_predict(&in);
    return low->regime != WBM_UNKNOWN && high->seconds > low->seconds * (1.0 + 1e-9);
}

double explain_late_seconds(const analysis_series_t *s, const analysis_point_t *p,
                            double cpu_bps)
{
    prediction_t low, high;
    return interval_ends(s, p, cpu_bps, &low, &high) ? high.seconds : NAN;
}

/* The model's inputs that decide point p: point_inputs, except that where p has an
 * interval and its measured time is nearer the late end, the late end's. */
static wbm_inputs_t decided_inputs(const analysis_series_t *s, const analysis_point_t *p,
                                   double cpu_bps)
{
    wbm_inputs_t in = point_inputs(s, p, cpu_bps);
    prediction_t low, high;
    if (!(p->seconds > 0.0) || !interval_ends(s, p, cpu_bps, &low, &high))
        return in;
    if (fabs(p->seconds - high.seconds) < fabs(p->seconds - low.seconds))
        late_inputs(s, p, &in);
    return in;
}

prediction_t explain_point_prediction(const analysis_series_t *s, const analysis_point_t *p,
                                      double cpu_bps)
{
    wbm_inputs_t in = decided_inputs(s, p, cpu_bps);
    return wbm_predict(&in);
}

void explain_predict_point(const analysis_series_t *s, analysis_point_t *p, double cpu_bps)
{
    p->predicted_seconds = p->predicted_tail_s = NAN;
    p->predicted_low_s = p->predicted_high_s = NAN;
    p->predicted_regime = WBM_UNKNOWN;
    if (s->cpu_ceiling || !(cpu_bps > 0.0))
        return;
    prediction_t pred = explain_point_prediction(s, p, cpu_bps);
    p->predicted_seconds = pred.seconds;
    p->predicted_tail_s = pred.tail_s;
    p->predicted_regime = pred.regime;
    prediction_t low, high;
    if (interval_ends(s, p, cpu_bps, &low, &high)) {
        p->predicted_low_s = low.seconds;
        p->predicted_high_s = high.seconds;
    }
}

/* True when the judged time (the point's time at memory's CPU speed where its runs pair
 * with memory's, else its median) stands beyond the model's by more than the tolerance
 * and the noise: beyond either end of the interval where p has one (an unknown context,
 * or a run longer than the flusher's period). */
static bool model_missed(const analysis_point_t *p, double judged_s, double predicted_s,
                         double tolerance, double noise_s)
{
    if (p->predicted_low_s > 0.0 && p->predicted_high_s > 0.0)
        return judged_s > p->predicted_high_s * (1.0 + tolerance) + noise_s ||
               judged_s < p->predicted_low_s * (1.0 - tolerance) - noise_s;
    return fabs(judged_s - predicted_s) > tolerance * predicted_s + noise_s;
}

/* Pairs point p's repetitions with the memory target's point m of the same repetition
 * numbers: a sweep runs them in one block, at one CPU speed, so their difference is the
 * volume's cost whatever spell of a slower core came between blocks. Sets e->pairs and
 * e->paired_s (memory's median plus the median difference; NAN when fewer than half of
 * p's repetitions pair) and returns half the range of the middle differences (without the
 * largest and the smallest of five or more), NAN without pairs. */
static double pair_with_memory(const analysis_point_t *p, const analysis_point_t *m,
                               cause_evidence_t *e)
{
    double gaps[ANALYSIS_REPS_MAX];
    size_t n = 0;
    for (size_t i = 0; m != NULL && i < p->nreps; i++)
        for (size_t j = 0; j < m->nreps; j++)
            if (p->rep[i] == m->rep[j]) {
                gaps[n++] = p->rep_seconds[i] - m->rep_seconds[j];
                break;
            }
    e->pairs = n;
    e->paired_s = NAN;
    if (n == 0 || 2 * n < p->n || !(m->seconds > 0.0))
        return NAN;
    stats_sort(gaps, n);
    e->paired_s = m->seconds + stats_median(gaps, n);
    size_t lo = n >= 5 ? 1 : 0, hi = n >= 5 ? n - 2 : n - 1;
    return (gaps[hi] - gaps[lo]) / 2.0;
}

/* Half the spread (max - min) of a point's repetitions; 0 for one run or unknown. */
static double spread_half(const analysis_point_t *p)
{
    double d = p->seconds_max - p->seconds_min;
    return p->n > 1 && d > 0.0 ? d / 2.0 : 0.0;
}

/* True when the volume cannot be what limits a point: with the volume at half its speed
 * (reading, draining and any cap; a RAM volume stays infinite), its terms (reading,
 * writing, the flush, the I/O path's CPU work) still add under tolerance of the compute
 * term, so it is far from its crossover; and the kernel's accounting, where it has the
 * run's own threads, does not show them blocked on writing for longer than that either
 * (a stall the model did not foresee). in: the inputs of the point's prediction. */
static bool volume_cannot_matter(const wbm_inputs_t *in, const cause_evidence_t *e,
                                 double tolerance)
{
    wbm_inputs_t slower = *in;
    slower.drain_bps /= 2.0;
    slower.read_bps /= 2.0;
    slower.pace_bps /= 2.0;
    prediction_t worse = wbm_predict(&slower);
    double allowed = tolerance * worse.part_s[TERM_COMPUTE];
    if (!(worse.seconds - worse.part_s[TERM_COMPUTE] < allowed))
        return false;
    double writing = e->io_wait_s - (isnan(e->io_read_wait_s) ? 0.0 : e->io_read_wait_s);
    return isnan(e->io_read_wait_s) || isnan(writing) || writing <= allowed;
}

/* True when the volume's speed in the direction the job uses it was measured or is set:
 * reads for a decompression (the archive is read from it), the drain or write speed for a
 * compression; a RAM volume, or an emulated cap, is known. */
static bool volume_speed_known(const analysis_series_t *s)
{
    if (s->ram == 1)
        return true;
    if (s->decompress)
        return s->read_bps > 0.0 || s->read_cap_bps > 0.0;
    return s->drain_bps > 0.0 || s->write_speed_bps > 0.0 || s->rate_cap_bps > 0.0;
}

/* The volume's largest term of pred (reading, writing or the flush), TERM_COUNT when it
 * has none. */
static wbm_term_t largest_volume_term(const prediction_t *pred)
{
    wbm_term_t best = TERM_COUNT;
    for (wbm_term_t k = TERM_READ; k <= TERM_FLUSH; k++)
        if (pred->part_s[k] > 0.0 && (best == TERM_COUNT || pred->part_s[k] > pred->part_s[best]))
            best = k;
    return best;
}

/* The time the volume itself would give the point: with a flush, the predicted time (the
 * tail comes after the compression); else the longest of its side-by-side terms' own
 * times (reading, the disk writing while the cores work), which is the point's time once
 * it passes the cores'. An O_DIRECT disk that needs 0.8 s beside 1.0 s of compression is
 * 0.8 s, however long the compression makes the point. */
static double volume_time(const prediction_t *pred)
{
    if (pred->part_s[TERM_FLUSH] > 0.0)
        return pred->seconds;
    return fmax(pred->own_s[TERM_READ], pred->own_s[TERM_WRITE]);
}

/* True when a point decided by one term lies on the boundary between the cores and the
 * volume within its noise (analysis_verdict_t.within_noise): the boundary is memory's
 * time (the compute term) over 1 - tolerance, and the volume's time (volume_time) is
 * within the noise of it, or, where the judged time lies on the other side of it, no
 * farther from it than the judged time is from the prediction. A volume far below the
 * boundary is not on it because a noisy run came out beyond it: its own time would have
 * to move, not the run's. The caller leaves out volumes that cannot reach it
 * (volume_cannot_matter). */
static bool on_boundary(const prediction_t *pred, double judged_s, double noise_s,
                        double tolerance)
{
    double boundary = pred->own_s[TERM_COMPUTE] / (1.0 - tolerance);
    if (!(boundary > 0.0) || largest_volume_term(pred) == TERM_COUNT)
        return false;
    double volume_s = volume_time(pred), distance = fabs(volume_s - boundary);
    bool sides_differ = (volume_s > boundary) != (judged_s > boundary);
    return distance <= noise_s || (sides_differ && distance <= fabs(judged_s - pred->seconds));
}

void explain_verdict(const analysis_series_t *s, const analysis_point_t *p,
                     const analysis_point_t *mem_point, analysis_verdict_t *v, double tolerance)
{
    cause_evidence_t *e = &v->evidence;
    e->measured_bps = p->bytes_per_s;
    e->cpu_ceiling_bps = v->cpu_ceiling_bps;
    e->write_ceiling_bps = v->write_ceiling_bps;
    e->read_ceiling_bps = v->read_ceiling_bps;
    e->seconds = p->seconds;
    e->cpu_seconds = p->input_bytes / v->cpu_ceiling_bps;
    e->flush_s = s->cpu_ceiling ? NAN : p->flush_s;
    e->cpu_idle_share = p->cpu_idle_share;
    e->cpu_sys_share = p->cpu_sys_share;
    e->dev_busy_share = p->dev_busy_share;
    e->cpu_wait_s = p->cpu_wait_s;
    e->io_wait_s = p->io_wait_s;
    e->io_read_wait_s = p->io_wait_system ? NAN : p->io_read_wait_s;
    e->io_paced = s->emulated == 1 && !s->disk_emulated;
    e->busy_growth = e->cpu_time_shift = NAN;
    if (mem_point != NULL && !s->cpu_ceiling) {
        double busy = p->compress_busy * p->threads * p->seconds;
        double mem_busy = mem_point->compress_busy * mem_point->threads * mem_point->seconds;
        if (busy > 0.0 && mem_busy > 0.0)
            e->busy_growth = busy / mem_busy - 1.0;
        /* Only with a core to spare: where the compressors fill every core, the I/O path's
         * own work preempts them and costs them user time too (cache refills), which is
         * the volume's cost, not the CPU's speed. */
        if (p->cpu_user_s > 0.0 && mem_point->cpu_user_s > 0.0 &&
            p->threads < p->online_cpus && mem_point->threads < mem_point->online_cpus)
            e->cpu_time_shift = p->cpu_user_s / mem_point->cpu_user_s - 1.0;
    }
    e->predicted_s = NAN;
    e->noise_s = 0.0;
    e->pairs = 0;
    e->paired_s = NAN;
    for (int t = 0; t < TERM_COUNT; t++)
        e->part_s[t] = e->own_s[t] = NAN;
    v->gap_s = cause_gap_s(e);
    v->flush_share = cause_flush_share(e);
    v->second_cause = CAUSE_UNKNOWN;
    v->miss = MISS_NONE;
    v->from_model = false;
    v->volume_cannot_matter = false;
    v->speed_unprobed = false;
    v->within_noise = false;
    v->excess = NAN;
    if (s->cpu_ceiling) {
        v->cause = CAUSE_COMPUTE;
    } else if (p->predicted_seconds > 0.0) {
        /* One model decides: the term that sets the predicted time names the verdict,
         * provided the prediction explains the measured time. */
        wbm_inputs_t in = decided_inputs(s, p, v->cpu_ceiling_bps);
        prediction_t pred = wbm_predict(&in);
        e->predicted_s = pred.seconds;
        /* The model is held to the precision of what it is built on. With pairs, the
         * point at memory's CPU speed and the spread of its differences from memory's
         * runs; without, half the spread of this point's repetitions and of the memory
         * target's it starts from, and the compute term's share of a CPU time shift (the
         * same work at another CPU speed: the compute term moves with it). */
        double judged = p->seconds, paired_noise = pair_with_memory(p, mem_point, e);
        if (e->paired_s > 0.0) {
            judged = e->paired_s;
            e->noise_s = paired_noise;
        } else {
            e->noise_s = spread_half(p) + (mem_point != NULL ? spread_half(mem_point) : 0.0);
            if (!isnan(e->cpu_time_shift))
                e->noise_s += fabs(e->cpu_time_shift) * pred.part_s[TERM_COMPUTE];
        }
        memcpy(e->part_s, pred.part_s, sizeof e->part_s);
        memcpy(e->own_s, pred.own_s, sizeof e->own_s);
        v->from_model = true;
        verdict_decision_t d = verdict_decide(&pred, tolerance);
        /* A target that is its own ceiling (no memory runs, the fastest at this T) has its
         * own time as the compute term, its volume's cost inside it: it is the ceiling the
         * others are held to, neither missed by the model nor balanced against itself. */
        bool own_ceiling = v->cpu_ceiling_source == CEILING_ESTIMATED && v->fastest != NULL &&
                           strcmp(v->fastest, s->name) == 0;
        if (explain_wrote_beyond_volume(s, p, tolerance)) {
            v->cause = CAUSE_UNKNOWN;
            v->miss = MISS_BEYOND_VOLUME;
        } else if (own_ceiling) {
            v->cause = CAUSE_COMPUTE;
        } else if (model_missed(p, judged, pred.seconds, tolerance, e->noise_s) &&
                   !volume_speed_known(s)) {
            /* Nothing is borrowed where the volume's speed is not known: the measured
             * excess, and the cause only the run's own accounting witnesses. */
            v->speed_unprobed = true;
            v->excess = judged / pred.seconds - 1.0;
            v->cause = cause_witnessed(e, s->decompress, judged - pred.seconds);
            if (v->cause == CAUSE_UNKNOWN)
                v->miss = MISS_UNPROBED;
        } else if (model_missed(p, judged, pred.seconds, tolerance, e->noise_s) &&
                   volume_cannot_matter(&in, e, tolerance)) {
            /* A volume that cannot matter is never the answer, nor unexplained for a time
             * the cores set: the difference from memory's is the cores' (their speed
             * moved, or another load took them or memory's runs), measured and named. */
            v->cause = CAUSE_COMPUTE;
            v->volume_cannot_matter = true;
            v->excess = judged / pred.seconds - 1.0;
        } else if (model_missed(p, judged, pred.seconds, tolerance, e->noise_s)) {
            v->cause = CAUSE_UNKNOWN;
            v->miss = MISS_MODEL;
        } else {
            v->cause = d.cause;
            v->second_cause = d.second_cause;
            /* The boundary is between the cores and the volume: a point the I/O path's CPU
             * work holds back is on the cores' side either way (cores-saturated). */
            wbm_term_t other = d.limit == TERM_COMPUTE ? largest_volume_term(&pred)
                               : d.limit == TERM_IO_CPU ? TERM_COUNT
                                                        : TERM_COMPUTE;
            if (d.second == TERM_COUNT && other != TERM_COUNT &&
                on_boundary(&pred, judged, e->noise_s, tolerance) &&
                !volume_cannot_matter(&in, e, tolerance)) {
                /* Either side is within the noise: say so once, the same every time. */
                v->within_noise = true;
                v->second_cause = cause_of_term(other);
            }
        }
    } else {
        v->cause = cause_classify(e, tolerance);
        if (v->cause != CAUSE_COMPUTE && !s->cpu_ceiling && !volume_speed_known(s) &&
            p->bytes_per_s > 0.0) {
            /* No prediction, and no speed of the volume (--no-probe, a table from
             * elsewhere): the measured excess over the ceiling, and no cause borrowed:
             * what the run measured (its flush, its workers' busy time), else what its
             * accounting witnesses, as beside the model. */
            v->speed_unprobed = true;
            v->excess = v->cpu_ceiling_bps / p->bytes_per_s - 1.0;
            if (v->cause == CAUSE_UNKNOWN)
                v->cause = cause_witnessed(e, s->decompress, v->gap_s);
            if (v->cause == CAUSE_UNKNOWN)
                v->miss = MISS_UNPROBED;
        } else if (v->cause == CAUSE_UNKNOWN) {
            v->miss = MISS_NO_FIGURE;
        }
    }
    v->verdict = verdict_of_causes(v->cause, v->second_cause);
    /* A balanced point is contradicted only when the device contradicts both its terms;
     * the run's own accounting, where known, witnesses in the device's place. */
    v->device_disagrees = !cause_accounting_known(v->cause, e) &&
                          cause_device_disagrees(v->cause, e->dev_busy_share) &&
                          (v->second_cause == CAUSE_UNKNOWN ||
                           cause_device_disagrees(v->second_cause, e->dev_busy_share));
    v->accounting_disagrees = !s->cpu_ceiling && cause_accounting_disagrees(v->cause, e) &&
                              (v->second_cause == CAUSE_UNKNOWN ||
                               cause_accounting_disagrees(v->second_cause, e));
}

void explain_series_errors(analysis_series_t *s, double *scratch)
{
    size_t n = 0;
    double worst = NAN;
    s->noisy_points = 0;
    for (size_t k = 0; k < s->npoints; k++) {
        const analysis_point_t *p = &s->points[k];
        s->noisy_points += p->noisy;
        if (!(p->predicted_seconds > 0.0))
            continue;
        double e = fabs(p->predicted_seconds - p->seconds) / p->seconds;
        scratch[n++] = e;
        worst = isnan(worst) ? e : fmax(worst, e);
    }
    s->prediction_error_median = stats_median(scratch, n);
    s->prediction_error_max = worst;
}

/* True when a term is the volume's: reading or writing. */
static bool volume_term(wbm_term_t t)
{
    return t == TERM_READ || t == TERM_WRITE || t == TERM_FLUSH;
}

/* The speed a what-if varies for the write side of series s: an emulated volume's cap
 * (which paced the writes), else the device's drain rate. */
static wbm_speed_t write_speed_kind(const analysis_series_t *s)
{
    return s->rate_cap_bps > 0.0 && !s->disk_emulated ? WBM_SPEED_PACE
                                                      : WBM_SPEED_DRAIN;
}

/* The term that remains when the volume's speed of kind which is infinite. */
static wbm_term_t remaining_term(const wbm_inputs_t *in, wbm_speed_t which,
                                 double tolerance)
{
    wbm_inputs_t fast = *in;
    if (which == WBM_SPEED_READ)
        fast.read_bps = INFINITY;
    else if (which == WBM_SPEED_PACE)
        fast.pace_bps = INFINITY;
    else
        fast.drain_bps = INFINITY;
    prediction_t p = wbm_predict(&fast);
    wbm_term_t second;
    return p.regime == WBM_UNKNOWN ? TERM_COUNT : wbm_decide(&p, tolerance, &second);
}

void explain_whatif(analysis_series_t *s, const analysis_verdict_t *last, double tolerance)
{
    const analysis_point_t *top = &s->points[s->npoints - 1];
    s->whatif_threads = 0;
    s->whatif_write_bps = s->whatif_seconds = s->whatif_read_bps = NAN;
    s->whatif_direct_bps = NAN;
    s->whatif_blocked_by = TERM_COUNT;
    if (s->cpu_ceiling || !(last->cpu_ceiling_bps > 0.0) || !last->from_model ||
        last->miss != MISS_NONE)
        return;
    bool writes = last->cause == CAUSE_WRITE_THROUGHPUT || last->cause == CAUSE_FLUSH_TAIL ||
                  last->second_cause == CAUSE_WRITE_THROUGHPUT ||
                  last->second_cause == CAUSE_FLUSH_TAIL;
    bool reads = last->cause == CAUSE_READ_THROUGHPUT ||
                 last->second_cause == CAUSE_READ_THROUGHPUT;
    if (!writes && !reads)
        return;
    /* The same inputs as the point's prediction; the goal: within the tolerance of the
     * compute term (the memory target's time). */
    wbm_inputs_t in = decided_inputs(s, top, last->cpu_ceiling_bps);
    double goal = in.cpu_s / (1.0 - tolerance);
    if (!(top->predicted_seconds > goal))
        return; /* the point's own prediction is already within the tolerance (balanced
                   at CPU speed): no faster volume is needed, and a slower one is never
                   the answer */
    s->whatif_threads = top->threads;
    if (reads) {
        wbm_inputs_t both = in;
        if (writes) /* the write side made as fast as it needs to be too, below */
            both.drain_bps = INFINITY, both.pace_bps = NAN;
        s->whatif_read_bps = wbm_speed_for_seconds(&both, WBM_SPEED_READ, goal);
        if (isnan(s->whatif_read_bps))
            s->whatif_blocked_by = remaining_term(&both, WBM_SPEED_READ, tolerance);
    }
    if (writes) {
        wbm_inputs_t both = in;
        if (reads)
            both.read_bps = INFINITY;
        wbm_speed_t kind = write_speed_kind(s);
        if (kind == WBM_SPEED_PACE && !(both.drain_bps > (1.0 + tolerance) * s->rate_cap_bps))
            both.drain_bps = INFINITY; /* a drain probed through the cap is the cap: a
                                          faster disk has neither */
        s->whatif_write_bps = wbm_speed_for_seconds(&both, kind, goal);
        if (isnan(s->whatif_write_bps))
            s->whatif_blocked_by = remaining_term(&both, kind, tolerance);
        if (both.sync != WBM_SYNC_DIRECT && kind == WBM_SPEED_DRAIN) {
            /* Buffered writes wait for the flush: what O_DIRECT would need instead. The
             * direct path's CPU cost is not the buffered one; unknown here. */
            wbm_inputs_t direct = both;
            direct.sync = WBM_SYNC_DIRECT;
            direct.io_cpu_per_byte = NAN;
            s->whatif_direct_bps = wbm_speed_for_seconds(&direct, WBM_SPEED_DRAIN, goal);
        }
    }
    bool reached = (!reads || s->whatif_read_bps > 0.0) && (!writes || s->whatif_write_bps > 0.0);
    s->whatif_seconds = reached ? goal : NAN;
}

/* What explain_crossover asks the model at a thread count it may not have measured. */
typedef struct crossover_ctx {
    const analysis_series_t *s;
    const analysis_ceiling_t *ceiling; /* its measured rates hold the curve's */
    analysis_point_t at;   /* the largest measured point, its time scaled to T */
    double tolerance;
    wbm_term_t limit;  /* the volume's term at the last call that found one */
    wbm_term_t lead;   /* the term that sets the time there (wbm_decide's limit) */
    double rate_bps;       /* the model's rate there */
} crossover_ctx_t;

/* The model at any T: the largest measured point's bytes, thresholds and the mem run's
 * CPU work there (the compressors' work hardly changes with T), at the CPU curve's rate. */
static crossover_ctx_t crossover_ctx(const analysis_series_t *s,
                                     const analysis_ceiling_t *ceiling, double tolerance)
{
    crossover_ctx_t c = {s, ceiling, s->points[s->npoints - 1], tolerance, TERM_COUNT,
                         TERM_COUNT, NAN};
    if (c.at.predicted_high_s > 0.0) {
        /* An interval is settled once, by the end the measured point was nearer, and asked
         * at every T: not chosen anew by a time measured at another T. */
        bool late = fabs(c.at.seconds - c.at.predicted_high_s) <
                    fabs(c.at.seconds - c.at.predicted_low_s);
        if (explain_writeback_unknown(s, &c.at))
            c.at.dirty_background_bytes = c.at.dirty_bytes = late ? INFINITY : 0.0;
        else if (late)
            c.at.dirty_writeback_s = NAN;
        else
            c.at.seconds = 0.0; /* no measured time: the early end (decided_inputs) */
    }
    return c;
}

/* The model's prediction at threads along the held CPU curve into c (rate_bps, lead);
 * false when it has none. */
static bool model_at(crossover_ctx_t *c, double threads, double cpu_rate_bps,
                     prediction_t *out, wbm_term_t *second)
{
    cpu_rate_bps = analysis_ceiling_rate_held(c->ceiling, threads, cpu_rate_bps);
    if (!(cpu_rate_bps > 0.0))
        return false;
    c->at.threads = (int)ceil(threads);
    *out = explain_point_prediction(c->s, &c->at, cpu_rate_bps);
    if (out->regime == WBM_UNKNOWN || !(out->seconds > 0.0))
        return false;
    c->lead = wbm_decide(out, c->tolerance, second);
    c->rate_bps = c->at.input_bytes / out->seconds;
    return true;
}

/* crossover_limits_fn: the model's decision at T (the cores alone at cpu_rate_bps) names a
 * volume term, as the limit or as the second of a balanced pair. */
static bool volume_limits_at(double threads, double cpu_rate_bps, void *arg)
{
    crossover_ctx_t *c = arg;
    prediction_t p;
    wbm_term_t second;
    if (!model_at(c, threads, cpu_rate_bps, &p, &second))
        return false;
    wbm_term_t limit = c->lead;
    wbm_term_t found = volume_term(limit) ? limit : volume_term(second) ? second : TERM_COUNT;
    if (found == TERM_COUNT)
        return false;
    c->limit = found;
    return true;
}

double explain_model_rate_at(const analysis_series_t *s, const analysis_ceiling_t *ceiling,
                             double tolerance, double threads, wbm_term_t *lead)
{
    *lead = TERM_COUNT;
    int model = ceiling->best_rate_model;
    if (model < 0 || s->cpu_ceiling || s->npoints == 0)
        return NAN;
    crossover_ctx_t c = crossover_ctx(s, ceiling, tolerance);
    prediction_t p;
    wbm_term_t second;
    if (!model_at(&c, threads, fit_rate_at(&ceiling->models[model], threads), &p, &second))
        return NAN;
    *lead = c.lead;
    return c.rate_bps;
}

void explain_crossover(analysis_series_t *s, const analysis_ceiling_t *ceiling, double tolerance)
{
    int model = ceiling->best_rate_model;
    s->crossover_model = model;
    s->crossover_threads = s->crossover_lo = s->crossover_hi = NAN;
    s->crossover_rate_bps = NAN;
    s->crossover_term = s->crossover_lead = TERM_COUNT;
    /* The volume ceiling the crossover is about until the model names one. */
    s->crossover_limit = crossover_ceiling(s->write_ceiling_bps, s->read_ceiling_bps);
    if (model < 0 || s->cpu_ceiling)
        return;
    crossover_ctx_t c = crossover_ctx(s, ceiling, tolerance);
    const fit_result_t *curve = &ceiling->models[model];
    s->crossover_threads = crossover_find(curve, volume_limits_at, &c,
                                          ANALYSIS_CROSSOVER_MAX_THREADS);
    if (!isfinite(s->crossover_threads))
        return;
    volume_limits_at(s->crossover_threads, fit_rate_at(curve, s->crossover_threads), &c);
    s->crossover_limit = c.limit == TERM_READ ? VERDICT_READ : VERDICT_WRITE;
    s->crossover_rate_bps = c.rate_bps;
    s->crossover_term = c.limit;
    s->crossover_lead = c.lead;
    crossover_ctx_t range = c;
    crossover_range(curve, volume_limits_at, &range, ANALYSIS_CROSSOVER_MAX_THREADS,
                    &s->crossover_lo, &s->crossover_hi);
}

bool analysis_path_split(const analysis_point_t *p, analysis_path_split_t *out)
{
    memset(out, 0, sizeof *out);
    double sum = 0.0;
    for (int k = 0; k < RUN_PATH_COUNT; k++) {
        if (isnan(p->path_s[k]))
            return false;
        sum += p->path_s[k];
    }
    if (!(p->seconds > 0.0))
        return false;
    /* The median run's parts, scaled down when that run was the slower of two middle ones. */
    double scale = sum > p->seconds ? p->seconds / sum : 1.0;
    out->seconds = p->seconds;
    out->compute_s = p->path_s[RUN_PATH_COMPUTE] * scale;
    out->core_wait_s = p->path_s[RUN_PATH_CORE_WAIT] * scale;
    out->io_cpu_s = p->path_s[RUN_PATH_IO_CPU] * scale;
    out->read_blocked_s = p->path_s[RUN_PATH_READ_BLOCKED] * scale;
    out->write_blocked_s = p->path_s[RUN_PATH_WRITE_BLOCKED] * scale;
    out->other_s = p->seconds - sum * scale;
    return true;
}

bool analysis_time_split(const analysis_point_t *p, analysis_time_split_t *out)
{
    memset(out, 0, sizeof *out);
    if (isnan(p->cpu_wait_s) || isnan(p->io_wait_s) || isnan(p->io_read_wait_s) ||
        p->io_wait_system || !(p->seconds > 0.0) || isnan(p->cpu_user_s) ||
        isnan(p->cpu_sys_s))
        return false;
    double n = (double)(p->threads + 2);
    double reads = p->io_read_wait_s;
    out->threads = p->threads + 2;
    out->seconds = p->seconds;
    out->on_core_s = (p->cpu_user_s + p->cpu_sys_s) / n;
    out->core_wait_s = p->cpu_wait_s / n;
    out->read_wait_s = reads / n;
    out->write_wait_s = fmax(0.0, p->io_wait_s - reads) / n;
    out->other_s = fmax(0.0, p->seconds - out->on_core_s - out->core_wait_s - out->read_wait_s -
                                 out->write_wait_s);
    return true;
}
