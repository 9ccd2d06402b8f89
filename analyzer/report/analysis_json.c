/* analysis_json.c - an analysis as analysis.json: series, points, models, verdicts and
 * ceilings, with unknown figures as null (analysis_json.h, docs/formats.md). */
#include "report/analysis_json.h"

#include <errno.h>
#include <math.h>

#include "tables/json_number.h"

static json_t *model_json(const fit_result_t *m)
{
    json_t *o = json_object();
    if (!m->fitted) {
        json_object_set_new(o, "skipped", json_string(m->skip_reason));
        return o;
    }
    json_t *se = json_object(), *bound = json_array();
    for (int i = 0; i < m->nparams; i++) {
        const char *name = fit_param_name(m->kind, i);
        json_object_set_new(o, name, json_number_or_null(m->param[i]));
        json_object_set_new(se, name, json_number_or_null(m->param_se[i]));
        if (m->param_at_bound[i])
            json_array_append_new(bound, json_string(name));
    }
    json_object_set_new(o, "se", se);
    json_object_set_new(o, "at_bound", bound);
    json_object_set_new(o, "exact", json_boolean(m->exact));
    json_object_set_new(o, "r2", json_number_or_null(m->r2));
    json_object_set_new(o, "rmse", json_number_or_null(m->rmse));
    json_object_set_new(o, "aicc", json_number_or_null(m->aicc));
    json_object_set_new(o, "n", json_integer((json_int_t)m->n));
    json_object_set_new(o, "space", json_string(fit_kind_is_time(m->kind) ? "seconds" : "bytes_per_s"));
    json_object_set_new(o, "rate_rmse", json_number_or_null(m->rate_rmse));
    json_object_set_new(o, "rate_aicc", json_number_or_null(m->rate_aicc));
    if (m->kind == FIT_USL)
        json_object_set_new(o, "peak_threads", json_number_or_null(m->peak_threads));
    if (isfinite(m->holdout_error)) {
        json_t *h = json_object();
        json_object_set_new(h, "threads", json_number_or_null(m->holdout_threads));
        json_object_set_new(h, "predicted", json_number_or_null(m->holdout_predicted));
        json_object_set_new(h, "measured", json_number_or_null(m->holdout_measured));
        json_object_set_new(h, "relative_error", json_number_or_null(m->holdout_error));
        json_object_set_new(o, "predict_largest", h);
    } else {
        json_object_set_new(o, "predict_largest", json_null());
    }
    return o;
}

static json_t *models_json(const fit_result_t *models)
{
    json_t *o = json_object();
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        json_object_set_new(o, fit_kind_name((fit_kind_t)k), model_json(&models[k]));
    return o;
}

static json_t *best_name(int best)
{
    return best >= 0 ? json_string(fit_kind_name((fit_kind_t)best)) : json_null();
}

/* The figures a verdict's cause rests on (null where unknown). */
static json_t *evidence_json(const analysis_verdict_t *v)
{
    const cause_evidence_t *e = &v->evidence;
    json_t *o = json_object();
    json_object_set_new(o, "seconds", json_number_or_null(e->seconds));
    json_object_set_new(o, "cpu_seconds", json_number_or_null(e->cpu_seconds));
    json_object_set_new(o, "gap_s", json_number_or_null(v->gap_s));
    json_object_set_new(o, "flush_s", json_number_or_null(e->flush_s));
    json_object_set_new(o, "flush_share_of_gap", json_number_or_null(v->flush_share));
    json_object_set_new(o, "cpu_idle_share", json_number_or_null(e->cpu_idle_share));
    json_object_set_new(o, "cpu_sys_share", json_number_or_null(e->cpu_sys_share));
    json_object_set_new(o, "dev_busy_share", json_number_or_null(e->dev_busy_share));
    json_object_set_new(o, "busy_growth", json_number_or_null(e->busy_growth));
    json_object_set_new(o, "cpu_time_shift", json_number_or_null(e->cpu_time_shift));
    json_object_set_new(o, "cpu_wait_s", json_number_or_null(e->cpu_wait_s));
    json_object_set_new(o, "io_wait_s", json_number_or_null(e->io_wait_s));
    json_object_set_new(o, "io_read_wait_s", json_number_or_null(e->io_read_wait_s));
    json_object_set_new(o, "predicted_s", json_number_or_null(e->predicted_s));
    json_object_set_new(o, "noise_s", json_number_or_null(e->noise_s));
    json_object_set_new(o, "pairs", json_integer((json_int_t)e->pairs));
    json_object_set_new(o, "paired_s", json_number_or_null(e->paired_s));
    if (e->predicted_s > 0.0) {
        /* The model's decomposition: parts add up to predicted_s; own is each term's own
         * time (docs/method.md, "One model decides"). */
        json_t *parts = json_object(), *own = json_object();
        for (wbm_term_t t = 0; t < TERM_COUNT; t++) {
            json_object_set_new(parts, wbm_term_name(t), json_number_or_null(e->part_s[t]));
            json_object_set_new(own, wbm_term_name(t), json_number_or_null(e->own_s[t]));
        }
        json_object_set_new(o, "parts_s", parts);
        json_object_set_new(o, "own_s", own);
    }
    return o;
}

/* Where a point's time went: the summed figures as measured, and their split over the
 * pipeline's threads (analysis_time_split) when it can be made. */
static json_t *time_json(const analysis_point_t *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "cpu_wait_s", json_number_or_null(p->cpu_wait_s));
    json_object_set_new(o, "io_wait_s", json_number_or_null(p->io_wait_s));
    json_object_set_new(o, "io_read_wait_s", json_number_or_null(p->io_read_wait_s));
    json_object_set_new(o, "dirty_pause_s", json_number_or_null(p->dirty_pause_s));
    json_object_set_new(o, "io_wait_source",
                        isnan(p->io_wait_s) ? json_null()
                        : json_string(p->io_wait_system ? "psi-system" : "delayacct"));
    analysis_time_split_t t;
    if (analysis_time_split(p, &t)) {
        json_t *split = json_object();
        json_object_set_new(split, "threads", json_integer(t.threads));
        json_object_set_new(split, "on_core_s", json_real(t.on_core_s));
        json_object_set_new(split, "core_wait_s", json_real(t.core_wait_s));
        json_object_set_new(split, "read_wait_s", json_real(t.read_wait_s));
        json_object_set_new(split, "write_wait_s", json_real(t.write_wait_s));
        json_object_set_new(split, "other_s", json_real(t.other_s));
        json_object_set_new(o, "per_thread", split);
    }
    analysis_path_split_t path;
    if (analysis_path_split(p, &path)) {
        json_t *j = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "compute_s", path.compute_s,
                              "core_wait_s", path.core_wait_s, "io_cpu_s", path.io_cpu_s,
                              "read_blocked_s", path.read_blocked_s, "write_blocked_s",
                              path.write_blocked_s, "other_s", path.other_s);
        json_object_set_new(o, "path", j);
    }
    return o;
}

/* Why an unexplained point is unexplained; null otherwise. */
static json_t *miss_json(cause_miss_t miss)
{
    switch (miss) {
    case MISS_MODEL: return json_string("model-missed");
    case MISS_BEYOND_VOLUME: return json_string("faster-than-volume");
    case MISS_NO_FIGURE: return json_string("no-figure");
    case MISS_UNPROBED: return json_string("speed-not-probed");
    default: return json_null();
    }
}

/* A source column's word, null when not recorded. */
static json_t *source_json(data_source_t source)
{
    const char *name = data_source_name(source);
    return name != NULL ? json_string(name) : json_null();
}

static json_t *series_json(const analysis_t *a, const analysis_series_t *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(s->name));
    json_object_set_new(o, "codec", s->codec[0] ? json_string(s->codec) : json_null());
    json_object_set_new(o, "operation", json_string(s->decompress ? "decompress" : "compress"));
    json_object_set_new(o, "restores_to", s->decompress
                        ? json_string(s->restores_to_volume ? "volume" : "memory") : json_null());
    json_object_set_new(o, "is_mem", json_boolean(s->cpu_ceiling));
    json_object_set_new(o, "unpaced", json_boolean(s->unpaced));

    json_t *points = json_array();
    for (size_t i = 0; i < s->npoints; i++) {
        const analysis_point_t *p = &s->points[i];
        json_t *j = json_object();
        json_object_set_new(j, "threads", json_integer(p->threads));
        json_object_set_new(j, "seconds", json_number_or_null(p->seconds));
        json_object_set_new(j, "seconds_min", json_number_or_null(p->seconds_min));
        json_object_set_new(j, "seconds_max", json_number_or_null(p->seconds_max));
        json_object_set_new(j, "bytes_per_s", json_number_or_null(p->bytes_per_s));
        json_object_set_new(j, "input_bytes", json_number_or_null(p->input_bytes));
        json_object_set_new(j, "output_bytes", json_number_or_null(p->output_bytes));
        json_object_set_new(j, "cpu_user_s", json_number_or_null(p->cpu_user_s));
        json_object_set_new(j, "cpu_sys_s", json_number_or_null(p->cpu_sys_s));
        json_object_set_new(j, "n", json_integer((json_int_t)p->n));
        json_object_set_new(j, "noisy", json_boolean(p->noisy));
        json_t *flags = json_array();
        static const struct { unsigned flag; const char *name; } names[] = {
            {POINT_OVERSUBSCRIBED, "oversubscribed"},
            {POINT_EFFICIENCY_HIGH, "efficiency-above-105"},
            {POINT_BEYOND_PROBE, "faster-than-probed"},
            {POINT_SINGLE_RUN_UNEXPLAINED, "unexplained-single-run"},
            {POINT_CPU_SPEED_MOVED, "cpu-speed-moved"},
            {POINT_EXCESS_NOT_VOLUME, "excess-not-volume"},
            {POINT_SPEED_UNPROBED, "speed-not-probed"},
        };
        for (size_t f = 0; f < sizeof names / sizeof names[0]; f++)
            if (p->flags & names[f].flag)
                json_array_append_new(flags, json_string(names[f].name));
        json_object_set_new(j, "flags", flags);
        json_object_set_new(j, "pipeline_s", json_number_or_null(p->pipeline_s));
        json_object_set_new(j, "flush_s", json_number_or_null(p->flush_s));
        json_object_set_new(j, "predicted_seconds", json_number_or_null(p->predicted_seconds));
        json_object_set_new(j, "predicted_flush_s", json_number_or_null(p->predicted_tail_s));
        json_object_set_new(j, "predicted_low_s", json_number_or_null(p->predicted_low_s));
        json_object_set_new(j, "predicted_high_s", json_number_or_null(p->predicted_high_s));
        json_object_set_new(j, "predicted_regime", p->predicted_regime == WBM_UNKNOWN
                            ? json_null() : json_string(wbm_regime_name(p->predicted_regime)));
        if (!isnan(p->compress_busy)) {
            json_t *st = json_object();
            json_object_set_new(st, "reader", json_number_or_null(p->reader_busy));
            json_object_set_new(st, "compress", json_number_or_null(p->compress_busy));
            json_object_set_new(st, "writer", json_number_or_null(p->writer_busy));
            json_object_set_new(j, "stage_busy", st);
        }
        json_object_set_new(j, "time", time_json(p));
        json_array_append_new(points, j);
    }
    json_object_set_new(o, "points", points);
    json_object_set_new(o, "models", models_json(s->models));
    json_object_set_new(o, "best_rate_model", best_name(s->best_rate_model));
    json_object_set_new(o, "output_ratio", json_number_or_null(s->output_ratio));
    json_object_set_new(o, "sustained_write_bytes_per_s", json_number_or_null(s->write_bps));
    json_object_set_new(o, "sustained_read_bytes_per_s", json_number_or_null(s->read_bps));
    json_object_set_new(o, "emulated_read_cap_bytes_per_s", json_number_or_null(s->read_cap_bps));
    json_object_set_new(o, "dir", s->dir[0] ? json_string(s->dir) : json_null());
    json_object_set_new(o, "probe_target",
                        s->probe_target[0] ? json_string(s->probe_target) : json_null());
    json_object_set_new(o, "read_from", s->read_from[0] ? json_string(s->read_from) : json_null());
    json_object_set_new(o, "source", source_json(s->source));
    json_object_set_new(o, "probe_source", source_json(s->probe_source));
    json_object_set_new(o, "drain_bytes_per_s", json_number_or_null(s->drain_bps));
    json_object_set_new(o, "drain_source", json_string(s->drain_source));
    json_object_set_new(o, "write_speed_bytes_per_s", json_number_or_null(s->write_speed_bps));
    json_object_set_new(o, "write_ceiling_bytes_per_s", json_number_or_null(s->write_ceiling_bps));
    json_object_set_new(o, "read_ceiling_bytes_per_s", json_number_or_null(s->read_ceiling_bps));
    json_object_set_new(o, "prediction_error_median", json_number_or_null(s->prediction_error_median));
    json_object_set_new(o, "prediction_error_max", json_number_or_null(s->prediction_error_max));
    json_object_set_new(o, "noisy_points", json_integer((json_int_t)s->noisy_points));
    json_object_set_new(o, "cpu_ceiling_estimated", json_boolean(a->ceilings[s->ceiling].estimated));

    json_t *verdicts = json_array();
    for (size_t i = 0; i < s->npoints; i++) {
        const analysis_verdict_t *v = &s->verdicts[i];
        json_t *j = json_object();
        json_object_set_new(j, "threads", json_integer(v->threads));
        json_object_set_new(j, "verdict", json_string(verdict_name(v->verdict)));
        json_object_set_new(j, "bytes_per_s", json_number_or_null(v->bytes_per_s));
        json_object_set_new(j, "cpu_ceiling_bytes_per_s", json_number_or_null(v->cpu_ceiling_bps));
        json_object_set_new(j, "cpu_ceiling_source",
                            json_string(analysis_ceiling_source_name(v->cpu_ceiling_source)));
        json_object_set_new(j, "write_ceiling_bytes_per_s", json_number_or_null(v->write_ceiling_bps));
        json_object_set_new(j, "read_ceiling_bytes_per_s", json_number_or_null(v->read_ceiling_bps));
        json_object_set_new(j, "efficiency", json_number_or_null(v->efficiency));
        json_object_set_new(j, "relative_speed", json_number_or_null(v->relative_speed));
        json_object_set_new(j, "fastest", json_string(v->fastest));
        json_object_set_new(j, "stage_verdict", v->has_stage_verdict
                            ? json_string(verdict_name(v->stage_verdict)) : json_null());
        json_object_set_new(j, "stage_disagrees", json_boolean(v->stage_disagrees));
        json_object_set_new(j, "cause", json_string(cause_name(v->cause)));
        json_object_set_new(j, "second_cause", v->verdict == VERDICT_BALANCED
                            ? json_string(cause_name(v->second_cause)) : json_null());
        json_object_set_new(j, "decided_by", json_string(v->from_model ? "model" : "ceilings"));
        json_object_set_new(j, "unexplained", miss_json(v->miss));
        json_object_set_new(j, "evidence", evidence_json(v));
        json_object_set_new(j, "device_disagrees", json_boolean(v->device_disagrees));
        json_object_set_new(j, "accounting_disagrees", json_boolean(v->accounting_disagrees));
        json_object_set_new(j, "volume_cannot_matter", json_boolean(v->volume_cannot_matter));
        json_object_set_new(j, "speed_unprobed", json_boolean(v->speed_unprobed));
        json_object_set_new(j, "within_noise", json_boolean(v->within_noise));
        json_object_set_new(j, "excess", json_number_or_null(v->excess));
        json_array_append_new(verdicts, j);
    }
    json_object_set_new(o, "verdicts", verdicts);
    json_object_set_new(o, "verdict", json_string(verdict_name(s->verdict)));
    json_object_set_new(o, "crossover_threads", json_number_or_null(s->crossover_threads));
    json_object_set_new(o, "crossover_range",
                        isfinite(s->crossover_lo) || isfinite(s->crossover_hi)
                            ? json_pack("[o, o]", json_number_or_null(s->crossover_lo), json_number_or_null(s->crossover_hi))
                            : json_null());
    json_object_set_new(o, "crossover_limit", isfinite(s->crossover_threads)
                        ? json_string(s->crossover_limit == VERDICT_READ ? "read" : "write")
                        : json_null());
    json_object_set_new(o, "crossover_model", best_name(s->crossover_model));
    json_object_set_new(o, "crossover_term", isfinite(s->crossover_threads)
                        ? json_string(wbm_term_name(s->crossover_term)) : json_null());
    json_object_set_new(o, "crossover_lead",
                        isfinite(s->crossover_threads) && s->crossover_lead < TERM_COUNT
                            ? json_string(wbm_term_name(s->crossover_lead))
                            : json_null());
    json_object_set_new(o, "crossover_rate_bytes_per_s", json_number_or_null(s->crossover_rate_bps));
    if (s->whatif_threads > 0) {
        json_t *w = json_object();
        json_object_set_new(w, "threads", json_integer(s->whatif_threads));
        json_object_set_new(w, "write_bytes_per_s", json_number_or_null(s->whatif_write_bps));
        json_object_set_new(w, "read_bytes_per_s", json_number_or_null(s->whatif_read_bps));
        json_object_set_new(w, "seconds", json_number_or_null(s->whatif_seconds));
        /* An emulated disk drains like a disk; only a cap paced per write is a pace. */
        json_object_set_new(w, "speed", json_string(s->rate_cap_bps > 0.0 && !s->disk_emulated
                                                        ? "cap"
                                                        : "drain"));
        json_object_set_new(w, "blocked_by", s->whatif_blocked_by < TERM_COUNT
                            ? json_string(wbm_term_name(s->whatif_blocked_by)) : json_null());
        json_object_set_new(w, "direct_write_bytes_per_s", json_number_or_null(s->whatif_direct_bps));
        json_object_set_new(o, "what_if", w);
    } else {
        json_object_set_new(o, "what_if", json_null());
    }
    return o;
}

json_t *analysis_to_json(const analysis_t *a)
{
    json_t *root = json_object();
    if (root == NULL)
        return NULL;
    json_object_set_new(root, "runs", json_string(a->runs_path));
    json_object_set_new(root, "probe", a->probe_path ? json_string(a->probe_path) : json_null());
    json_object_set_new(root, "tolerance", json_real(a->tolerance));
    json_object_set_new(root, "runs_used", json_integer((json_int_t)a->runs_used));
    json_object_set_new(root, "runs_skipped", json_integer((json_int_t)a->runs_skipped));
    json_t *notes = json_array();
    for (size_t i = 0; i < a->nnotes + a->nprobe_notes; i++) {
        const analysis_note_t *note =
            i < a->nnotes ? &a->notes[i] : &a->probe_notes[i - a->nnotes];
        json_t *n = json_object();
        json_object_set_new(n, "warning", json_boolean(note->warning));
        json_object_set_new(n, "text", json_string(note->text));
        if (note->detail != NULL)
            json_object_set_new(n, "detail", json_string(note->detail));
        json_array_append_new(notes, n);
    }
    json_object_set_new(root, "probe_matching", notes);
    const analysis_precision_t *q = &a->precision;
    json_t *precision = json_object();
    json_object_set_new(precision, "points", json_integer((json_int_t)q->points));
    json_object_set_new(precision, "reps", json_integer((json_int_t)q->reps));
    json_object_set_new(precision, "spread", json_number_or_null(q->spread));
    json_object_set_new(precision, "run_noise", json_number_or_null(q->run_noise));
    json_object_set_new(precision, "run_s", json_number_or_null(q->run_s));
    json_object_set_new(precision, "too_short", json_boolean(q->too_short));
    json_object_set_new(precision, "short_runs", json_boolean(q->short_runs));
    json_object_set_new(precision, "reps_needed", q->too_short
                                                      ? json_integer((json_int_t)q->reps_needed)
                                                      : json_null());
    json_object_set_new(precision, "input_needed_bytes",
                        json_number_or_null(q->input_needed_bytes));
    json_object_set_new(root, "precision", precision);
    json_t *targets = json_array();
    for (size_t i = 0; i < a->nseries; i++)
        json_array_append_new(targets, series_json(a, &a->series[i]));
    json_object_set_new(root, "targets", targets);
    json_t *ceilings = json_array();
    for (size_t i = 0; i < a->nceilings; i++) {
        const analysis_ceiling_t *c = &a->ceilings[i];
        json_t *j = json_object(), *pts = json_array();
        json_object_set_new(j, "codec", c->codec[0] ? json_string(c->codec) : json_null());
        json_object_set_new(j, "estimated", json_boolean(c->estimated));
        for (size_t k = 0; k < c->npoints; k++) {
            json_t *p = json_object();
            json_object_set_new(p, "threads", json_integer(c->threads[k]));
            json_object_set_new(p, "bytes_per_s", json_number_or_null(c->bytes_per_s[k]));
            json_array_append_new(pts, p);
        }
        json_object_set_new(j, "points", pts);
        json_object_set_new(j, "models", models_json(c->models));
        json_object_set_new(j, "best_rate_model", best_name(c->best_rate_model));
        json_array_append_new(ceilings, j);
    }
    json_object_set_new(root, "cpu_ceilings", ceilings);
    return root;
}

int analysis_write_json(const analysis_t *a, FILE *out, cp_err_t *err)
{
    json_t *root = analysis_to_json(a);
    if (root == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory building JSON");
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (rc != 0 || fputc('\n', out) == EOF)
        return cp_err_errno(err, CP_EIO, errno, "cannot write the JSON analysis");
    return 0;
}
