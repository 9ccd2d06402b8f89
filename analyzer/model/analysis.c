/* analysis.c - owns building an analysis from runs: the series and their median points, the
 * fits, the ceilings and the verdict at each thread count (analysis.h); explaining a point is
 * analysis_explain.c's, matching probe targets analysis_match.c's. */
#include "model/analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "model/analysis_explain.h"
#include "model/analysis_match.h"
#include "model/analysis_precision.h"
#include "model/stats.h"

analysis_options_t analysis_defaults(void)
{
    return (analysis_options_t){.tolerance = 0.10};
}

const char *analysis_ceiling_source_name(ceiling_source_t source)
{
    switch (source) {
    case CEILING_MEM: return "mem";
    case CEILING_MEM_MODEL: return "mem-model";
    default: return "estimated";
    }
}

void analysis_free(analysis_t *a)
{
    if (a == NULL)
        return;
    for (size_t i = 0; i < a->nseries; i++) {
        free(a->series[i].points);
        free(a->series[i].verdicts);
    }
    for (size_t i = 0; i < a->nceilings; i++) {
        free(a->ceilings[i].threads);
        free(a->ceilings[i].bytes_per_s);
        free(a->ceilings[i].fastest_by_threads);
    }
    for (size_t i = 0; i < a->nnotes; i++) {
        free(a->notes[i].text);
        free(a->notes[i].detail);
    }
    free(a->notes);
    for (size_t i = 0; i < a->nprobe_notes; i++) {
        free(a->probe_notes[i].text);
        free(a->probe_notes[i].detail);
    }
    free(a->probe_notes);
    free(a->failed);
    free(a->series);
    free(a->ceilings);
    free(a->runs_path);
    free(a->probe_path);
    free(a);
}

/* Rows sorted by (target, codec, threads, position in the file), so each series and each
 * of its thread counts is one contiguous run of rows: the analysis stays O(n log n) in
 * the number of rows, whatever the file holds. */
static int compare_rows(const void *a, const void *b)
{
    const run_row_t *x = *(const run_row_t *const *)a, *y = *(const run_row_t *const *)b;
    int c = strcmp(x->target, y->target);
    if (c == 0)
        c = strcmp(x->codec, y->codec);
    if (c == 0)
        c = (int)x->decompress - (int)y->decompress;
    if (c == 0)
        c = (x->threads > y->threads) - (x->threads < y->threads);
    if (c == 0)
        c = (x > y) - (x < y);
    return c;
}

static bool same_key(const run_row_t *x, const run_row_t *y)
{
    return strcmp(x->target, y->target) == 0 && strcmp(x->codec, y->codec) == 0 &&
           x->decompress == y->decompress;
}

typedef double (*row_value_fn)(const run_row_t *r);

/* A group of sorted rows forming one series, where the file first mentions it, and its
 * place in the reports: by codec (in the order the file first mentions them), memory
 * first, then the targets in the order they were given (target_order; NAN: unknown, then
 * by first mention). */
typedef struct group {
    size_t start, end;
    const run_row_t *first;
    size_t codec_rank;
    double target_order;
} group_t;

static int compare_first_mention(const void *a, const void *b)
{
    const run_row_t *x = ((const group_t *)a)->first, *y = ((const group_t *)b)->first;
    return (x > y) - (x < y);
}

static int compare_groups(const void *a, const void *b)
{
    const group_t *x = a, *y = b;
    if (x->codec_rank != y->codec_rank)
        return x->codec_rank < y->codec_rank ? -1 : 1;
    bool xm = target_name_is_ceiling(x->first->target);
    bool ym = target_name_is_ceiling(y->first->target);
    if (xm != ym)
        return xm ? -1 : 1;
    if (x->target_order != y->target_order && !isnan(x->target_order) &&
        !isnan(y->target_order))
        return x->target_order < y->target_order ? -1 : 1;
    return compare_first_mention(a, b);
}

/* Ranks each group's codec (and direction) by first mention, then puts the groups in
 * report order (compare_groups). */
static void order_groups(group_t *groups, size_t n)
{
    qsort(groups, n, sizeof *groups, compare_first_mention);
    size_t ranks = 0;
    for (size_t g = 0; g < n; g++) {
        groups[g].codec_rank = ranks;
        for (size_t h = 0; h < g; h++)
            if (strcmp(groups[h].first->codec, groups[g].first->codec) == 0 &&
                groups[h].first->decompress == groups[g].first->decompress) {
                groups[g].codec_rank = groups[h].codec_rank;
                break;
            }
        if (groups[g].codec_rank == ranks)
            ranks++;
        groups[g].target_order = groups[g].first->target_order;
    }
    qsort(groups, n, sizeof *groups, compare_groups);
}

static double row_seconds(const run_row_t *r) { return r->seconds; }
static double row_input(const run_row_t *r) { return r->input_bytes; }
static double row_output(const run_row_t *r) { return r->output_bytes; }
static double row_user(const run_row_t *r) { return r->cpu_user_s; }
static double row_sys(const run_row_t *r) { return r->cpu_sys_s; }
static double row_ratio(const run_row_t *r) { return r->output_bytes / r->input_bytes; }
static double row_reader(const run_row_t *r) { return r->stage_s[RUN_STAGE_READER_BUSY] / r->seconds; }
static double row_writer(const run_row_t *r) { return r->stage_s[RUN_STAGE_WRITER_BUSY] / r->seconds; }
static double row_pipeline(const run_row_t *r) { return r->pipeline_s; }
static double row_flush(const run_row_t *r) { return r->flush_s; }
static double row_idle(const run_row_t *r) { return r->cpu_idle_share; }
static double row_cpu_sys(const run_row_t *r) { return r->cpu_sys_share; }
static double row_dev_busy(const run_row_t *r) { return r->dev_busy_share; }
static double row_dirty_bg(const run_row_t *r) { return r->dirty_background_bytes; }
static double row_dirty(const run_row_t *r) { return r->dirty_bytes; }
static double row_expire(const run_row_t *r) { return r->dirty_expire_s; }
static double row_flusher(const run_row_t *r) { return r->dirty_writeback_s; }
static double row_cpus(const run_row_t *r) { return r->online_cpus; }
static double row_block(const run_row_t *r) { return r->block_bytes; }
static double row_cpu_wait(const run_row_t *r) { return r->cpu_wait_s; }
static double row_io_wait(const run_row_t *r) { return r->io_wait_s; }
static double row_io_read_wait(const run_row_t *r) { return r->io_read_wait_s; }
static double row_dirty_pause(const run_row_t *r) { return r->dirty_pause_s; }
static double row_compress(const run_row_t *r)
{
    return r->stage_s[RUN_STAGE_COMPRESS_BUSY] / ((double)r->threads * r->seconds);
}

/* The critical path of the row whose time is nearest seconds: one run's own split, whose
 * parts fit in its time (medians taken part by part need not). */
static void median_run_path(const run_row_t *const *rows, size_t n, double seconds,
                            double path_s[RUN_PATH_COUNT])
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (fabs(rows[i]->seconds - seconds) < fabs(rows[best]->seconds - seconds))
            best = i;
    for (int k = 0; k < RUN_PATH_COUNT; k++)
        path_s[k] = n > 0 ? rows[best]->path_s[k] : NAN;
}

/* Median of a per-row quantity over rows[0..n); NAN when no row knows it. */
static double rows_median(const run_row_t *const *rows, size_t n, row_value_fn value,
                          double *scratch, double *min, double *max)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double v = value(rows[i]);
        if (!isnan(v))
            scratch[k++] = v;
    }
    if (min != NULL && max != NULL) {
        *min = INFINITY, *max = -INFINITY;
        for (size_t i = 0; i < k; i++)
            *min = fmin(*min, scratch[i]), *max = fmax(*max, scratch[i]);
    }
    return stats_median(scratch, k);
}

/* Builds the points of series s from its rows (sorted by threads); CP_OK or CP_ENOMEM. */
static int build_points(const run_row_t *const *rows, size_t n, analysis_series_t *s,
                        double *scratch)
{
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || rows[i]->threads != rows[i - 1]->threads)
            unique++;
    s->points = calloc(unique, sizeof *s->points);
    s->verdicts = calloc(unique, sizeof *s->verdicts);
    if (s->points == NULL || s->verdicts == NULL)
        return CP_ENOMEM;
    s->npoints = unique;
    size_t start = 0;
    for (size_t k = 0; k < unique; k++) {
        size_t end = start;
        while (end < n && rows[end]->threads == rows[start]->threads)
            end++;
        const run_row_t *const *g = rows + start;
        size_t m = end - start;
        analysis_point_t *p = &s->points[k];
        p->threads = rows[start]->threads;
        p->n = m;
        p->seconds = rows_median(g, m, row_seconds, scratch, &p->seconds_min, &p->seconds_max);
        p->input_bytes = rows_median(g, m, row_input, scratch, NULL, NULL);
        p->output_bytes = rows_median(g, m, row_output, scratch, NULL, NULL);
        p->bytes_per_s = p->input_bytes / p->seconds;
        p->cpu_user_s = rows_median(g, m, row_user, scratch, NULL, NULL);
        p->cpu_sys_s = rows_median(g, m, row_sys, scratch, NULL, NULL);
        p->reader_busy = rows_median(g, m, row_reader, scratch, NULL, NULL);
        p->compress_busy = rows_median(g, m, row_compress, scratch, NULL, NULL);
        p->writer_busy = rows_median(g, m, row_writer, scratch, NULL, NULL);
        p->pipeline_s = rows_median(g, m, row_pipeline, scratch, NULL, NULL);
        p->flush_s = rows_median(g, m, row_flush, scratch, NULL, NULL);
        p->cpu_idle_share = rows_median(g, m, row_idle, scratch, NULL, NULL);
        p->cpu_sys_share = rows_median(g, m, row_cpu_sys, scratch, NULL, NULL);
        p->dev_busy_share = rows_median(g, m, row_dev_busy, scratch, NULL, NULL);
        p->dirty_background_bytes = rows_median(g, m, row_dirty_bg, scratch, NULL, NULL);
        p->dirty_bytes = rows_median(g, m, row_dirty, scratch, NULL, NULL);
        p->dirty_expire_s = rows_median(g, m, row_expire, scratch, NULL, NULL);
        p->dirty_writeback_s = rows_median(g, m, row_flusher, scratch, NULL, NULL);
        p->online_cpus = rows_median(g, m, row_cpus, scratch, NULL, NULL);
        p->block_bytes = rows_median(g, m, row_block, scratch, NULL, NULL);
        p->cpu_wait_s = rows_median(g, m, row_cpu_wait, scratch, NULL, NULL);
        p->io_wait_s = rows_median(g, m, row_io_wait, scratch, NULL, NULL);
        p->io_read_wait_s = rows_median(g, m, row_io_read_wait, scratch, NULL, NULL);
        p->dirty_pause_s = rows_median(g, m, row_dirty_pause, scratch, NULL, NULL);
        median_run_path(g, m, p->seconds, p->path_s);
        p->io_wait_system = false;
        p->nreps = 0;
        for (size_t i = 0; i < m; i++) {
            p->io_wait_system = p->io_wait_system || g[i]->io_wait_system;
            if (g[i]->rep > 0 && p->nreps < ANALYSIS_REPS_MAX && g[i]->seconds > 0.0) {
                p->rep[p->nreps] = g[i]->rep;
                p->rep_seconds[p->nreps++] = g[i]->seconds;
            }
        }
        start = end;
        if (cp_interrupted()) /* a table of a million rows takes seconds: give way */
            return CP_EINTR;
    }
    s->output_ratio = rows_median(rows, n, row_ratio, scratch, NULL, NULL);
    return CP_OK;
}

static int merge_flag(int so_far, int row)
{
    return so_far == 1 || row == 1 ? 1 : (so_far == 0 || row == 0 ? 0 : -1);
}

/* A row's emulated caps; NAN when it has none. */
static double row_write_cap(const run_row_t *r)
{
    return r->rate_cap_bps > 0.0 ? r->rate_cap_bps : NAN;
}

static double row_read_cap(const run_row_t *r)
{
    return r->read_cap_bps > 0.0 ? r->read_cap_bps : NAN;
}

/* The label columns of a series' runs: RAM, emulated caps, sync mode, source. */
static void series_labels(const run_row_t *const *rows, size_t n, analysis_series_t *s,
                          double *scratch)
{
    s->ram = s->emulated = -1;
    s->disk_emulated = n > 0;
    s->source = n > 0 ? rows[0]->source : DATA_SOURCE_UNKNOWN;
    for (size_t i = 0; i < n; i++) {
        if (rows[i]->source != s->source)
            s->source = DATA_SOURCE_UNKNOWN;
        s->disk_emulated = s->disk_emulated && rows[i]->disk_emulated;
        s->ram = merge_flag(s->ram, rows[i]->ram);
        s->emulated = merge_flag(s->emulated, rows[i]->emulated);
        if (rows[i]->sync[0] != '\0') {
            if (s->sync[0] == '\0')
                memcpy(s->sync, rows[i]->sync, sizeof s->sync);
            else if (strcmp(s->sync, rows[i]->sync) != 0)
                snprintf(s->sync, sizeof s->sync, "mixed");
        }
    }
    s->rate_cap_bps = rows_median(rows, n, row_write_cap, scratch, NULL, NULL);
    s->read_cap_bps = rows_median(rows, n, row_read_cap, scratch, NULL, NULL);
    if ((isfinite(s->rate_cap_bps) || isfinite(s->read_cap_bps)) && s->emulated < 0)
        s->emulated = 1;
    s->disk_emulated = s->disk_emulated && isfinite(s->rate_cap_bps);
}

/* A decompression series reads its archive from its own volume and writes only when it
 * restores onto it: its ceilings in restored bytes per second. */
static void decompression_ceilings(analysis_series_t *s)
{
    if (s->read_cap_bps > 0.0)
        s->read_bps = s->read_bps > 0.0 ? fmin(s->read_bps, s->read_cap_bps) : s->read_cap_bps;
    double fraction = s->output_ratio > 0.0 ? s->output_ratio : 1.0;
    s->read_ceiling_bps = s->read_bps > 0.0 ? s->read_bps / fraction : NAN;
    if (s->restores_to_volume) {
        s->write_ceiling_bps = verdict_write_ceiling(s->write_speed_bps, 1.0);
        return;
    }
    s->drain_bps = s->cpu_ceiling ? NAN : INFINITY; /* nothing is written to the volume */
    s->drain_source = "nothing written";
    s->rate_cap_bps = NAN;
    s->write_speed_bps = NAN;
    s->write_ceiling_bps = NAN;
}

bool analysis_model_describes(const fit_result_t *m)
{
    if (m == NULL || !m->fitted)
        return false;
    if (m->exact)
        return true;
    if (isfinite(m->r2) && m->r2 < ANALYSIS_MODEL_MIN_R2)
        return false;
    return !(isfinite(m->holdout_error) && fabs(m->holdout_error) > ANALYSIS_MODEL_MAX_HOLDOUT);
}

void analysis_ceiling_range(const analysis_ceiling_t *c, int *lo, int *hi)
{
    *lo = c->npoints > 0 ? c->threads[0] : 0;
    *hi = c->npoints > 0 ? c->threads[c->npoints - 1] : 0;
}

/* Fits the four models; *best is the lowest-AICc model among those that describe the
 * points (analysis_model_describes), else -1 with the lowest-AICc model in *rejected. */
static void fit_series_points(const analysis_point_t *pts, size_t n, fit_result_t *models,
                              int *best, int *rejected)
{
    double T[RUNS_THREADS_MAX], t[RUNS_THREADS_MAX], rate[RUNS_THREADS_MAX], input[RUNS_THREADS_MAX];
    for (size_t i = 0; i < n; i++) {
        T[i] = pts[i].threads;
        t[i] = pts[i].seconds;
        rate[i] = pts[i].bytes_per_s;
        input[i] = pts[i].input_bytes;
    }
    fit_data_t data = {T, t, rate, n, stats_median(input, n)};
    fit_all(&data, models);
    bool describes[FIT_KIND_COUNT];
    for (int k = 0; k < FIT_KIND_COUNT; k++)
        describes[k] = analysis_model_describes(&models[k]);
    *best = fit_best_rate_model_of(models, describes);
    *rejected = *best < 0 ? fit_best_rate_model(models) : -1;
}

const analysis_point_t *analysis_point_at(const analysis_series_t *s, int threads)
{
    size_t lo = 0, hi = s->npoints;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->points[mid].threads < threads)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < s->npoints && s->points[lo].threads == threads) ? &s->points[lo] : NULL;
}

double analysis_ceiling_rate_held(const analysis_ceiling_t *c, double threads, double rate)
{
    if (c == NULL || c->npoints == 0)
        return rate;
    double lo = INFINITY, hi = 0.0;
    size_t nearest = 0;
    for (size_t k = 0; k < c->npoints; k++) {
        lo = fmin(lo, c->bytes_per_s[k]);
        hi = fmax(hi, c->bytes_per_s[k]);
        if (fabs(c->threads[k] - threads) < fabs(c->threads[nearest] - threads))
            nearest = k;
    }
    size_t last = c->npoints - 1;
    if (threads > c->threads[last])
        hi = fmax(hi, c->bytes_per_s[last] * threads / c->threads[last]);
    else if (threads < c->threads[0])
        lo = fmin(lo, c->bytes_per_s[0] * threads / c->threads[0]);
    if (isnan(rate))
        return c->bytes_per_s[nearest];
    return fmin(fmax(fmax(rate, 0.0), lo), hi); /* monotonic in rate: no jump at 0 or inf */
}

double analysis_ceiling_rate_at(const analysis_ceiling_t *c, double threads)
{
    if (c == NULL || c->npoints == 0 || c->best_rate_model < 0)
        return NAN;
    return analysis_ceiling_rate_held(c, threads,
                                      fit_rate_at(&c->models[c->best_rate_model], threads));
}

/* One ceiling per codec: the mem series' points, or the fastest series at each thread
 * count (estimated), with the four models fitted to them. Linear in the number of points.
 * CP_OK or CP_ENOMEM. */
static int build_ceilings(analysis_t *a)
{
    a->ceilings = calloc(a->nseries, sizeof *a->ceilings);
    if (a->ceilings == NULL)
        return CP_ENOMEM;
    for (size_t i = 0; i < a->nseries; i++) {
        analysis_series_t *s = &a->series[i];
        size_t c = 0;
        while (c < a->nceilings && strcmp(a->ceilings[c].codec, s->codec) != 0)
            c++;
        s->ceiling = c;
        if (c == a->nceilings) {
            analysis_ceiling_t *ceil = &a->ceilings[a->nceilings++];
            memcpy(ceil->codec, s->codec, sizeof ceil->codec);
            ceil->estimated = true;
            ceil->fastest_by_threads = calloc(RUNS_THREADS_MAX + 1, sizeof *ceil->fastest_by_threads);
            if (ceil->fastest_by_threads == NULL)
                return CP_ENOMEM;
        }
        analysis_ceiling_t *ceil = &a->ceilings[c];
        if (s->cpu_ceiling) {
            ceil->estimated = false;
            ceil->mem = s;
        }
        for (size_t k = 0; k < s->npoints; k++) {
            const analysis_point_t *p = &s->points[k];
            const analysis_series_t **slot = &ceil->fastest_by_threads[p->threads];
            if (*slot == NULL || analysis_point_at(*slot, p->threads)->bytes_per_s < p->bytes_per_s)
                *slot = s;
        }
    }
    for (size_t c = 0; c < a->nceilings; c++) {
        analysis_ceiling_t *ceil = &a->ceilings[c];
        size_t nt = 0;
        if (ceil->mem != NULL)
            nt = ceil->mem->npoints;
        else
            for (int T = 1; T <= RUNS_THREADS_MAX; T++)
                nt += ceil->fastest_by_threads[T] != NULL;
        ceil->threads = calloc(nt ? nt : 1, sizeof *ceil->threads);
        ceil->bytes_per_s = calloc(nt ? nt : 1, sizeof *ceil->bytes_per_s);
        analysis_point_t *pts = calloc(nt ? nt : 1, sizeof *pts);
        if (ceil->threads == NULL || ceil->bytes_per_s == NULL || pts == NULL) {
            free(pts);
            return CP_ENOMEM;
        }
        size_t k = 0;
        for (int T = 1; T <= RUNS_THREADS_MAX && k < nt; T++) {
            const analysis_series_t *src = ceil->mem ? ceil->mem : ceil->fastest_by_threads[T];
            const analysis_point_t *p = src ? analysis_point_at(src, T) : NULL;
            if (p == NULL)
                continue;
            pts[k] = *p;
            ceil->threads[k] = T;
            ceil->bytes_per_s[k] = p->bytes_per_s;
            k++;
        }
        ceil->npoints = k;
        fit_series_points(pts, k, ceil->models, &ceil->best_rate_model,
                          &ceil->rejected_rate_model);
        free(pts);
    }
    return CP_OK;
}

static verdict_kind_t stage_verdict(const analysis_point_t *p, bool *known)
{
    *known = !isnan(p->reader_busy) && !isnan(p->compress_busy) && !isnan(p->writer_busy);
    if (!*known)
        return VERDICT_UNEXPLAINED;
    if (p->writer_busy >= p->compress_busy && p->writer_busy >= p->reader_busy)
        return VERDICT_WRITE;
    if (p->reader_busy >= p->compress_busy)
        return VERDICT_READ;
    return VERDICT_CPU;
}

/* The remarks on a judged point (enum analysis_point_flag). */
static void mark_point(const analysis_t *a, const analysis_series_t *s, analysis_point_t *p,
                       const analysis_verdict_t *v, double tolerance)
{
    /* In a study too short to judge, its one note stands for these two: an efficiency
     * over 100% and a CPU speed that moved are what its noise does. */
    bool judged = !a->precision.too_short;
    p->flags = 0;
    if (p->online_cpus > 0.0 && p->threads > p->online_cpus)
        p->flags |= POINT_OVERSUBSCRIBED;
    if (v->efficiency > ANALYSIS_EFFICIENCY_SUSPECT && !s->cpu_ceiling && judged)
        p->flags |= POINT_EFFICIENCY_HIGH;
    if (explain_wrote_beyond_volume(s, p, tolerance))
        p->flags |= POINT_BEYOND_PROBE;
    if (v->verdict == VERDICT_UNEXPLAINED && p->n == 1)
        p->flags |= POINT_SINGLE_RUN_UNEXPLAINED;
    if (fabs(v->evidence.cpu_time_shift) > tolerance && judged)
        p->flags |= POINT_CPU_SPEED_MOVED;
    if (v->volume_cannot_matter)
        p->flags |= POINT_EXCESS_NOT_VOLUME;
    if (v->speed_unprobed)
        p->flags |= POINT_SPEED_UNPROBED;
}

static void judge_series(const analysis_t *a, analysis_series_t *s, double tolerance)
{
    const analysis_ceiling_t *ceil = &a->ceilings[s->ceiling];
    const analysis_series_t *mem = ceil->mem;
    for (size_t k = 0; k < s->npoints; k++) {
        analysis_point_t *p = &s->points[k];
        p->noisy = p->n > 1 && p->seconds_max - p->seconds_min > tolerance * p->seconds;
        analysis_verdict_t *v = &s->verdicts[k];
        v->threads = p->threads;
        v->bytes_per_s = p->bytes_per_s;
        v->write_ceiling_bps = s->write_ceiling_bps;
        v->read_ceiling_bps = s->read_ceiling_bps;
        const analysis_series_t *fastest = ceil->fastest_by_threads[p->threads];
        double fastest_rate = analysis_point_at(fastest, p->threads)->bytes_per_s;
        v->fastest = fastest->name;
        v->relative_speed = p->bytes_per_s / fastest_rate;
        const analysis_point_t *mp = mem ? analysis_point_at(mem, p->threads) : NULL;
        double model_rate = mem ? analysis_ceiling_rate_at(ceil, p->threads) : NAN;
        if (mp != NULL) {
            v->cpu_ceiling_bps = mp->bytes_per_s;
            v->cpu_ceiling_source = CEILING_MEM;
        } else if (model_rate > 0.0) {
            v->cpu_ceiling_bps = model_rate;
            v->cpu_ceiling_source = CEILING_MEM_MODEL;
        } else {
            v->cpu_ceiling_bps = fastest_rate;
            v->cpu_ceiling_source = CEILING_ESTIMATED;
        }
        p->mem_cpu_work_s = mp ? mp->cpu_user_s + mp->cpu_sys_s : NAN;
        explain_predict_point(s, p, v->cpu_ceiling_bps);
        explain_verdict(s, p, mp, v, tolerance);
        if (a->precision.too_short &&
            (v->miss == MISS_MODEL || v->miss == MISS_BEYOND_VOLUME || v->within_noise)) {
            /* The model missed it, it wrote faster than the volume by a margin its runs'
             * spread covers, or it lies on the boundary within its noise: a study this
             * imprecise cannot tell any of them from noise. */
            v->verdict = VERDICT_NOT_JUDGED;
            v->cause = v->second_cause = CAUSE_UNKNOWN;
            v->miss = MISS_NONE;
            v->within_noise = false;
        }
        v->efficiency = verdict_efficiency(p->bytes_per_s, v->cpu_ceiling_bps,
                                           v->write_ceiling_bps, v->read_ceiling_bps);
        mark_point(a, s, p, v, tolerance);
        v->stage_verdict = stage_verdict(p, &v->has_stage_verdict);
        /* The busiest stage names one kind; a balanced point has two. */
        v->stage_disagrees = v->has_stage_verdict && v->verdict != VERDICT_UNEXPLAINED &&
                             v->verdict != VERDICT_NOT_JUDGED &&
                             (v->verdict == VERDICT_BALANCED
                                  ? v->stage_verdict != cause_verdict(v->cause) &&
                                        v->stage_verdict != cause_verdict(v->second_cause)
                                  : v->stage_verdict != v->verdict);
    }
    const analysis_verdict_t *last = &s->verdicts[s->npoints - 1];
    s->verdict = last->verdict;

    explain_crossover(s, ceil, tolerance);
    explain_whatif(s, last, tolerance);
}

/* Marks command series on targets whose emulated cap paced the built-in series or the
 * probe: the cap never paced the command. */
static void mark_unpaced(analysis_t *a)
{
    for (size_t i = 0; i < a->nseries; i++) {
        analysis_series_t *s = &a->series[i];
        if (strncmp(s->run_codec, "cmd:", 4) != 0)
            continue;
        s->unpaced = s->probe_cap_ignored;
        for (size_t j = 0; j < a->nseries && !s->unpaced; j++)
            s->unpaced = j != i && strcmp(a->series[j].name, s->name) == 0 &&
                         ((a->series[j].rate_cap_bps > 0.0 && !a->series[j].disk_emulated) ||
                          a->series[j].read_cap_bps > 0.0);
    }
}

/* The runs' failures that left a (target, codec) without a series. CP_OK or CP_ENOMEM. */
static int keep_failed(analysis_t *a, const runs_table_t *runs)
{
    a->failed = calloc(runs->nfailures ? runs->nfailures : 1, sizeof *a->failed);
    if (a->failed == NULL)
        return CP_ENOMEM;
    for (size_t k = 0; k < runs->nfailures; k++) {
        const run_failure_t *f = &runs->failures[k];
        bool has_series = false;
        for (size_t i = 0; i < a->nseries && !has_series; i++)
            has_series = strcmp(a->series[i].name, f->target) == 0 &&
                         strcmp(a->series[i].run_codec, f->codec) == 0;
        if (!has_series)
            a->failed[a->nfailed++] = *f;
    }
    return CP_OK;
}

/* CP_EDATA: runs holds no usable run; the first failure named, when some failed. */
static int no_usable_runs(const runs_table_t *runs, cp_err_t *err)
{
    size_t failed = runs ? runs->skipped_failed : 0;
    char first[RUNS_NAME_MAX * 2 + 400] = "";
    if (runs != NULL && runs->nfailures > 0) {
        const run_failure_t *f = &runs->failures[0];
        char why[sizeof f->error];
        snprintf(first, sizeof first, "; the first: %s%s%s%s: %s", f->target,
                 f->codec[0] ? " (" : "", f->codec, f->codec[0] ? ")" : "",
                 run_failure_reason(f, why, sizeof why));
    }
    return cp_err_set(err, CP_EDATA, "%s: no usable runs (%zu failed run%s skipped)%s",
                      runs && runs->path ? runs->path : "runs", failed, failed == 1 ? "" : "s",
                      first);
}

int analysis_run(const runs_table_t *runs, const probe_table_t *probe,
                 const analysis_options_t *options, analysis_t **out, cp_err_t *err)
{
    *out = NULL;
    analysis_options_t opts = options ? *options : analysis_defaults();
    if (runs == NULL || runs->nrows == 0)
        return no_usable_runs(runs, err);
    if (!(opts.tolerance >= 0.0 && opts.tolerance < 1.0))
        return cp_err_set(err, CP_EUSAGE, "tolerance %g is not in [0, 1)", opts.tolerance);

    analysis_t *a = calloc(1, sizeof *a);
    double *scratch = malloc(runs->nrows * sizeof *scratch);
    const run_row_t **sorted = malloc(runs->nrows * sizeof *sorted);
    group_t *groups = NULL;
    if (a == NULL || scratch == NULL || sorted == NULL)
        goto nomem;
    a->tolerance = opts.tolerance;
    a->runs_used = runs->nrows;
    a->runs_skipped = runs->skipped_failed;
    if ((a->runs_path = strdup(runs->path ? runs->path : "runs")) == NULL)
        goto nomem;
    if (probe != NULL && (a->probe_path = strdup(probe->path ? probe->path : "probe")) == NULL)
        goto nomem;

    for (size_t i = 0; i < runs->nrows; i++)
        sorted[i] = &runs->rows[i];
    qsort(sorted, runs->nrows, sizeof *sorted, compare_rows);
    if (cp_interrupted())
        goto interrupted;
    size_t ngroups = 0;
    for (size_t i = 0; i < runs->nrows; i++)
        if (i == 0 || !same_key(sorted[i], sorted[i - 1]))
            ngroups++;
    if (ngroups > ANALYSIS_SERIES_MAX) {
        analysis_free(a);
        free(scratch);
        free(sorted);
        return cp_err_set(err, CP_EDATA, "%s: %zu (target, codec) series; at most %d are "
                          "analysed", runs->path, ngroups, ANALYSIS_SERIES_MAX);
    }
    /* Series in report order (order_groups). */
    groups = malloc((ngroups ? ngroups : 1) * sizeof *groups);
    a->series = calloc(ngroups ? ngroups : 1, sizeof *a->series);
    if (groups == NULL || a->series == NULL)
        goto nomem;
    for (size_t i = 0, g = 0; i < runs->nrows; i++) {
        if (i == 0 || !same_key(sorted[i], sorted[i - 1])) {
            groups[g].start = i;
            groups[g].first = sorted[i];
            g++;
        }
        groups[g - 1].end = i + 1;
        if (sorted[i] < groups[g - 1].first)
            groups[g - 1].first = sorted[i];
    }
    order_groups(groups, ngroups);
    for (size_t k = 0; k < ngroups; k++) {
        const run_row_t *const *rows = sorted + groups[k].start;
        size_t nrows = groups[k].end - groups[k].start;
        const run_row_t *r = groups[k].first;
        analysis_series_t *s = &a->series[a->nseries++];
        memcpy(s->name, r->target, sizeof s->name);
        memcpy(s->codec, r->codec, sizeof s->codec);
        memcpy(s->run_codec, r->codec, sizeof s->run_codec);
        s->cpu_ceiling = target_name_is_ceiling(r->target);
        s->decompress = r->decompress;
        s->restores_to_volume = r->decompress && !s->cpu_ceiling && r->layout == RUN_LAYOUT_SAME;
        s->same_layout = !r->decompress && !s->cpu_ceiling && r->layout == RUN_LAYOUT_SAME;
        if (r->decompress)
            snprintf(s->codec, sizeof s->codec, "%.*s decompression",
                     (int)sizeof s->codec - 16, r->codec);
        match_series_probe(s, r, runs, probe);
        s->write_bps = s->probe_target[0]
                           ? probe_table_speed(probe, s->probe_target, PROBE_OP_WRITE) : NAN;
        s->read_bps = s->read_from[0] ? probe_table_speed(probe, s->read_from, PROBE_OP_READ)
                                      : NAN;
        if (isnan(s->read_bps))
            s->read_from[0] = '\0';
        int built = build_points(rows, nrows, s, scratch);
        if (built == CP_EINTR)
            goto interrupted;
        if (built != CP_OK)
            goto nomem;
        series_labels(rows, nrows, s, scratch);
        explain_series_drain(s, probe);
        s->write_speed_bps = explain_write_speed(s);
        s->write_ceiling_bps = verdict_write_ceiling(s->write_speed_bps, s->output_ratio);
        if (s->same_layout && s->read_cap_bps > 0.0) /* the copy's reads were paced */
            s->read_bps = s->read_bps > 0.0 ? fmin(s->read_bps, s->read_cap_bps) : s->read_cap_bps;
        s->read_ceiling_bps = s->read_bps;
        if (s->decompress)
            decompression_ceilings(s);
        fit_series_points(s->points, s->npoints, s->models, &s->best_rate_model,
                          &s->rejected_rate_model);
    }
    mark_unpaced(a);
    precision_judge(a, scratch);
    if (build_ceilings(a) != CP_OK || match_notes(a, probe) != CP_OK ||
        keep_failed(a, runs) != CP_OK)
        goto nomem;
    for (size_t i = 0; i < a->nseries; i++) {
        judge_series(a, &a->series[i], opts.tolerance);
        explain_series_errors(&a->series[i], scratch);
    }
    if (probe_noise_notes(a, probe, opts.tolerance) != CP_OK)
        goto nomem;
    free(scratch);
    free(sorted);
    free(groups);
    *out = a;
    return 0;
nomem:
    free(scratch);
    free(sorted);
    free(groups);
    analysis_free(a);
    return cp_err_set(err, CP_ENOMEM, "out of memory analysing %s", runs->path);
interrupted:
    free(scratch);
    free(sorted);
    free(groups);
    analysis_free(a);
    return cp_err_set(err, CP_EINTR, "interrupted");
}
