#include "model/analysis_explain.h"

#include <math.h>
#include <stdbool.h>

#include "model/stats.h"

void explain_series_drain(analysis_series_t *s, const probe_table_t *probe)
{
    s->drain_bps = NAN;
    s->drain_source = "unknown";
    s->io_cpu_per_byte = NAN;
    if (s->is_mem)
        return;
    if (s->probe_target[0] == '\0')
        probe = NULL; /* the probe has no row for this volume (match_series_probe) */
    s->io_cpu_per_byte = probe_table_speed(probe, s->probe_target, PROBE_OP_IO_COST);
    if (s->ram == 1) {
        s->drain_bps = INFINITY;
        s->drain_source = "ram";
        return;
    }
    double drain = probe_table_speed(probe, s->probe_target, PROBE_OP_DRAIN);
    if (drain > 0.0) {
        s->drain_bps = drain;
        s->drain_source = "probe-drain";
    } else if (s->write_bps > 0.0) {
        s->drain_bps = s->write_bps;
        s->drain_source = "probe-write";
    }
}

double explain_write_speed(const analysis_series_t *s)
{
    double speed = s->drain_bps > 0.0 && isfinite(s->drain_bps) ? s->drain_bps : s->write_bps;
    if (s->rate_cap_bps > 0.0 && speed > 0.0)
        speed = fmin(speed, s->rate_cap_bps);
    return speed;
}

/* The model's inputs for point p of s at CPU rate cpu_bps. */
static predict_inputs_t point_inputs(const analysis_series_t *s, const analysis_point_t *p,
                                     double cpu_bps)
{
    predict_inputs_t in = {
        .input_bytes = p->input_bytes,
        .output_bytes = p->output_bytes,
        .cpu_s = p->input_bytes / cpu_bps,
        /* The CPU ceiling already read the input where it lives; only a copy on the
         * target itself (layout same) reads from this volume. */
        .read_bps = NAN,
        .drain_bps = s->drain_bps,
        .pace_bps = s->rate_cap_bps,
        .sync = predict_sync_from_name(s->sync),
        .dirty_background_bytes = p->dirty_background_bytes,
        .dirty_bytes = p->dirty_bytes,
        .dirty_expire_s = p->dirty_expire_s,
        .dirty_writeback_s = p->dirty_writeback_s,
        .cpu_work_s = NAN,
        .io_cpu_per_byte = s->io_cpu_per_byte,
        .cpus = p->online_cpus,
    };
    if (s->decompress) {
        /* Read the archive from this volume; write the restored bytes only onto it. */
        in.input_bytes = p->output_bytes;
        in.output_bytes = s->restores_to_volume ? p->input_bytes : 0.0;
        in.read_bps = s->read_bps;
        if (!s->restores_to_volume)
            in.io_cpu_per_byte = NAN; /* the probe's figure is per byte written: none is */
    }
    return in;
}

void explain_predict_point(const analysis_series_t *s, analysis_point_t *p, double cpu_bps,
                           double cpu_work_s)
{
    p->predicted_seconds = p->predicted_tail_s = NAN;
    p->predicted_regime = PREDICT_UNKNOWN;
    if (s->is_mem || !(cpu_bps > 0.0))
        return;
    predict_inputs_t in = point_inputs(s, p, cpu_bps);
    in.cpu_work_s = cpu_work_s;
    prediction_t pred = predict_run(&in);
    p->predicted_seconds = pred.seconds;
    p->predicted_tail_s = pred.tail_s;
    p->predicted_regime = pred.regime;
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
    e->flush_s = s->is_mem ? NAN : p->flush_s;
    e->cpu_idle_share = p->cpu_idle_share;
    e->cpu_sys_share = p->cpu_sys_share;
    e->dev_busy_share = p->dev_busy_share;
    e->busy_growth = NAN;
    if (mem_point != NULL && !s->is_mem) {
        double busy = p->compress_busy * p->threads * p->seconds;
        double mem_busy = mem_point->compress_busy * mem_point->threads * mem_point->seconds;
        if (busy > 0.0 && mem_busy > 0.0)
            e->busy_growth = busy / mem_busy - 1.0;
    }
    v->gap_s = cause_gap_s(e);
    v->flush_share = cause_flush_share(e);
    v->cause = cause_classify(e, tolerance);
    v->verdict = cause_verdict(v->cause);
    v->device_disagrees = cause_device_disagrees(v->cause, e->dev_busy_share);
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

void explain_whatif(analysis_series_t *s, const analysis_verdict_t *last, double tolerance)
{
    const analysis_point_t *top = &s->points[s->npoints - 1];
    s->whatif_threads = 0;
    s->whatif_write_bps = s->whatif_seconds = s->whatif_read_bps = NAN;
    if (s->is_mem || !(last->cpu_ceiling_bps > 0.0))
        return;
    if (s->decompress && !s->restores_to_volume) {
        /* Only the read of the archive stands between the job and its CPU time. */
        double goal = top->input_bytes / last->cpu_ceiling_bps / (1.0 - tolerance);
        s->whatif_threads = top->threads;
        s->whatif_read_bps = top->output_bytes / goal;
        s->whatif_seconds = goal;
        return;
    }
    double run_rate = last->cpu_ceiling_bps;
    if (s->read_ceiling_bps < run_rate)
        run_rate = s->read_ceiling_bps;
    predict_inputs_t in = point_inputs(s, top, run_rate);
    if (s->rate_cap_bps > 0.0) {
        /* An emulated volume's speed is its cap, which paces the writes during the run:
         * ask which cap would do, the writes overlapping the compression. */
        in.pace_bps = NAN;
        in.sync = PREDICT_SYNC_DIRECT;
    }
    double goal = in.cpu_s / (1.0 - tolerance);
    s->whatif_threads = top->threads;
    s->whatif_write_bps = predict_drain_for_seconds(&in, goal);
    s->whatif_seconds = s->whatif_write_bps > 0.0 ? goal : NAN;
}
