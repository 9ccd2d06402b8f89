#include "report/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    }
    free(a->series);
    free(a->ceilings);
    free(a->runs_path);
    free(a->probe_path);
    free(a);
}

static bool same_series(const run_row_t *r, const analysis_series_t *s)
{
    return strcmp(r->target, s->name) == 0 && strcmp(r->codec, s->codec) == 0;
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Median of a per-row quantity over the rows of series s at T; NAN when no row knows it. */
typedef double (*row_value_fn)(const run_row_t *r);

static double row_seconds(const run_row_t *r) { return r->seconds; }
static double row_input(const run_row_t *r) { return r->input_bytes; }
static double row_output(const run_row_t *r) { return r->output_bytes; }
static double row_user(const run_row_t *r) { return r->cpu_user_s; }
static double row_sys(const run_row_t *r) { return r->cpu_sys_s; }
static double row_ratio(const run_row_t *r) { return r->output_bytes / r->input_bytes; }
static double row_reader(const run_row_t *r) { return r->stage_s[RUN_STAGE_READER_BUSY] / r->seconds; }
static double row_writer(const run_row_t *r) { return r->stage_s[RUN_STAGE_WRITER_BUSY] / r->seconds; }
static double row_compress(const run_row_t *r)
{
    return r->stage_s[RUN_STAGE_COMPRESS_BUSY] / ((double)r->threads * r->seconds);
}

static double series_median(const runs_table_t *runs, const analysis_series_t *s, int threads,
                            row_value_fn value, double *scratch, double *min, double *max)
{
    size_t n = 0;
    for (size_t i = 0; i < runs->nrows; i++) {
        const run_row_t *r = &runs->rows[i];
        if (same_series(r, s) && (threads == 0 || r->threads == threads)) {
            double v = value(r);
            if (!isnan(v))
                scratch[n++] = v;
        }
    }
    if (min != NULL && max != NULL) {
        *min = INFINITY, *max = -INFINITY;
        for (size_t i = 0; i < n; i++)
            *min = fmin(*min, scratch[i]), *max = fmax(*max, scratch[i]);
    }
    return stats_median(scratch, n);
}

/* Builds the points of series s from the runs; returns -1 on allocation failure. */
static int build_points(const runs_table_t *runs, analysis_series_t *s, double *scratch,
                        int *threads_scratch)
{
    size_t nt = 0;
    for (size_t i = 0; i < runs->nrows; i++)
        if (same_series(&runs->rows[i], s))
            threads_scratch[nt++] = runs->rows[i].threads;
    qsort(threads_scratch, nt, sizeof *threads_scratch, compare_int);
    size_t unique = 0;
    for (size_t i = 0; i < nt; i++)
        if (unique == 0 || threads_scratch[unique - 1] != threads_scratch[i])
            threads_scratch[unique++] = threads_scratch[i];
    s->points = calloc(unique, sizeof *s->points);
    s->verdicts = calloc(unique, sizeof *s->verdicts);
    if (s->points == NULL || s->verdicts == NULL)
        return -1;
    s->npoints = unique;
    for (size_t k = 0; k < unique; k++) {
        analysis_point_t *p = &s->points[k];
        int T = threads_scratch[k];
        p->threads = T;
        for (size_t i = 0; i < runs->nrows; i++)
            if (same_series(&runs->rows[i], s) && runs->rows[i].threads == T)
                p->n++;
        p->seconds = series_median(runs, s, T, row_seconds, scratch, &p->seconds_min,
                                   &p->seconds_max);
        p->input_bytes = series_median(runs, s, T, row_input, scratch, NULL, NULL);
        p->output_bytes = series_median(runs, s, T, row_output, scratch, NULL, NULL);
        p->bytes_per_s = p->input_bytes / p->seconds;
        p->cpu_user_s = series_median(runs, s, T, row_user, scratch, NULL, NULL);
        p->cpu_sys_s = series_median(runs, s, T, row_sys, scratch, NULL, NULL);
        p->reader_busy = series_median(runs, s, T, row_reader, scratch, NULL, NULL);
        p->compress_busy = series_median(runs, s, T, row_compress, scratch, NULL, NULL);
        p->writer_busy = series_median(runs, s, T, row_writer, scratch, NULL, NULL);
    }
    s->output_ratio = series_median(runs, s, 0, row_ratio, scratch, NULL, NULL);
    return 0;
}

static void fit_series_points(const analysis_point_t *pts, size_t n, fit_result_t *models,
                              int *best)
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
    *best = fit_best_rate_model(models);
}

static const analysis_point_t *point_at(const analysis_series_t *s, int threads)
{
    for (size_t i = 0; i < s->npoints; i++)
        if (s->points[i].threads == threads)
            return &s->points[i];
    return NULL;
}

/* The fastest series of a codec at T (measured), or NULL when none has that T. */
static const analysis_series_t *fastest_at(const analysis_t *a, const char *codec, int threads)
{
    const analysis_series_t *best = NULL;
    double best_rate = -1.0;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        const analysis_point_t *p = strcmp(s->codec, codec) == 0 ? point_at(s, threads) : NULL;
        if (p != NULL && p->bytes_per_s > best_rate)
            best = s, best_rate = p->bytes_per_s;
    }
    return best;
}

/* One ceiling per codec: the mem series' points and fits, or the fastest series at each
 * thread count (estimated) with models fitted to that envelope. */
static int build_ceilings(analysis_t *a)
{
    a->ceilings = calloc(a->nseries, sizeof *a->ceilings);
    if (a->ceilings == NULL)
        return -1;
    for (size_t i = 0; i < a->nseries; i++) {
        analysis_series_t *s = &a->series[i];
        size_t c = 0;
        while (c < a->nceilings && strcmp(a->ceilings[c].codec, s->codec) != 0)
            c++;
        s->ceiling = c;
        if (c < a->nceilings)
            continue;
        a->nceilings++;
        analysis_ceiling_t *ceil = &a->ceilings[c];
        memcpy(ceil->codec, s->codec, sizeof ceil->codec);
        const analysis_series_t *mem = NULL;
        for (size_t j = 0; j < a->nseries; j++)
            if (a->series[j].is_mem && strcmp(a->series[j].codec, s->codec) == 0)
                mem = &a->series[j];
        ceil->estimated = (mem == NULL);
        /* Thread counts: mem's, or every T any series of the codec has. */
        int Ts[RUNS_THREADS_MAX];
        size_t nt = 0;
        for (size_t j = 0; j < a->nseries; j++) {
            const analysis_series_t *o = &a->series[j];
            if ((mem != NULL && o != mem) || strcmp(o->codec, s->codec) != 0)
                continue;
            for (size_t k = 0; k < o->npoints; k++) {
                bool seen = false;
                for (size_t m = 0; m < nt; m++)
                    seen = seen || Ts[m] == o->points[k].threads;
                if (!seen && nt < RUNS_THREADS_MAX)
                    Ts[nt++] = o->points[k].threads;
            }
        }
        qsort(Ts, nt, sizeof *Ts, compare_int);
        ceil->threads = calloc(nt ? nt : 1, sizeof *ceil->threads);
        ceil->bytes_per_s = calloc(nt ? nt : 1, sizeof *ceil->bytes_per_s);
        analysis_point_t *pts = calloc(nt ? nt : 1, sizeof *pts);
        if (ceil->threads == NULL || ceil->bytes_per_s == NULL || pts == NULL) {
            free(pts);
            return -1;
        }
        for (size_t k = 0; k < nt; k++) {
            const analysis_series_t *src = mem ? mem : fastest_at(a, s->codec, Ts[k]);
            pts[k] = *point_at(src, Ts[k]);
            ceil->threads[k] = Ts[k];
            ceil->bytes_per_s[k] = pts[k].bytes_per_s;
        }
        ceil->npoints = nt;
        fit_series_points(pts, nt, ceil->models, &ceil->best_rate_model);
        free(pts);
    }
    return 0;
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

static void judge_series(const analysis_t *a, analysis_series_t *s, double tolerance)
{
    const analysis_ceiling_t *ceil = &a->ceilings[s->ceiling];
    const analysis_series_t *mem = NULL;
    for (size_t j = 0; j < a->nseries; j++)
        if (a->series[j].is_mem && strcmp(a->series[j].codec, s->codec) == 0)
            mem = &a->series[j];
    for (size_t k = 0; k < s->npoints; k++) {
        const analysis_point_t *p = &s->points[k];
        analysis_verdict_t *v = &s->verdicts[k];
        v->threads = p->threads;
        v->bytes_per_s = p->bytes_per_s;
        v->write_ceiling_bps = s->write_ceiling_bps;
        v->read_ceiling_bps = s->read_ceiling_bps;
        const analysis_series_t *fastest = fastest_at(a, s->codec, p->threads);
        double fastest_rate = point_at(fastest, p->threads)->bytes_per_s;
        v->fastest = fastest->name;
        v->relative_speed = p->bytes_per_s / fastest_rate;
        const analysis_point_t *mp = mem ? point_at(mem, p->threads) : NULL;
        double model_rate = mem ? fit_rate_at(mem->best_rate_model >= 0
                                              ? &mem->models[mem->best_rate_model] : NULL,
                                              p->threads) : NAN;
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
        v->verdict = verdict_classify(p->bytes_per_s, v->cpu_ceiling_bps, v->write_ceiling_bps,
                                      v->read_ceiling_bps, tolerance);
        v->efficiency = verdict_efficiency(p->bytes_per_s, v->cpu_ceiling_bps,
                                           v->write_ceiling_bps, v->read_ceiling_bps);
        v->stage_verdict = stage_verdict(p, &v->has_stage_verdict);
        v->stage_disagrees = v->has_stage_verdict && v->verdict != VERDICT_UNEXPLAINED &&
                             v->stage_verdict != v->verdict;
    }
    const analysis_verdict_t *last = &s->verdicts[s->npoints - 1];
    const analysis_point_t *top = &s->points[s->npoints - 1];
    s->verdict = last->verdict;

    /* Crossover against the lower volume ceiling. */
    double limit = NAN;
    s->crossover_limit = VERDICT_WRITE;
    if (s->write_ceiling_bps > 0.0)
        limit = s->write_ceiling_bps;
    if (s->read_ceiling_bps > 0.0 && !(s->read_ceiling_bps >= limit)) {
        limit = s->read_ceiling_bps;
        s->crossover_limit = VERDICT_READ;
    }
    s->crossover_model = ceil->best_rate_model;
    s->crossover_threads = (s->crossover_model >= 0 && !s->is_mem)
        ? verdict_crossover(&ceil->models[s->crossover_model], limit,
                            ANALYSIS_CROSSOVER_MAX_THREADS)
        : NAN;

    /* What-if at the largest T: the write speed that would let the job run at the CPU
     * ceiling (or at the read ceiling when that is lower), and how long it would take. */
    s->whatif_threads = 0;
    s->whatif_write_bps = s->whatif_seconds = NAN;
    if (!s->is_mem) {
        double run_rate = last->cpu_ceiling_bps;
        if (s->read_ceiling_bps < run_rate)
            run_rate = s->read_ceiling_bps;
        double ratio = s->output_ratio > 0.0 ? s->output_ratio : 1.0;
        s->whatif_threads = top->threads;
        s->whatif_write_bps = run_rate * ratio;
        s->whatif_seconds = top->input_bytes / run_rate;
    }
}

int analysis_run(const runs_table_t *runs, const probe_table_t *probe,
                 const analysis_options_t *options, analysis_t **out, cp_err_t *err)
{
    *out = NULL;
    analysis_options_t opts = options ? *options : analysis_defaults();
    if (runs == NULL || runs->nrows == 0)
        return cp_err_set(err, CP_EDATA, "%s: no usable runs (%zu failed runs skipped)",
                          runs && runs->path ? runs->path : "runs", runs ? runs->skipped_failed : 0);
    if (!(opts.tolerance >= 0.0 && opts.tolerance < 1.0))
        return cp_err_set(err, CP_EUSAGE, "tolerance %g is not in [0, 1)", opts.tolerance);

    analysis_t *a = calloc(1, sizeof *a);
    double *scratch = malloc(runs->nrows * sizeof *scratch);
    int *threads_scratch = malloc(runs->nrows * sizeof *threads_scratch);
    if (a == NULL || scratch == NULL || threads_scratch == NULL)
        goto nomem;
    a->tolerance = opts.tolerance;
    a->runs_used = runs->nrows;
    a->runs_skipped = runs->skipped_failed;
    if ((a->runs_path = strdup(runs->path ? runs->path : "runs")) == NULL)
        goto nomem;
    if (probe != NULL && (a->probe_path = strdup(probe->path ? probe->path : "probe")) == NULL)
        goto nomem;
    a->series = calloc(runs->nrows, sizeof *a->series);
    if (a->series == NULL)
        goto nomem;

    for (size_t i = 0; i < runs->nrows; i++) {
        const run_row_t *r = &runs->rows[i];
        size_t k = 0;
        while (k < a->nseries && !same_series(r, &a->series[k]))
            k++;
        if (k < a->nseries)
            continue;
        analysis_series_t *s = &a->series[a->nseries++];
        memcpy(s->name, r->target, sizeof s->name);
        memcpy(s->codec, r->codec, sizeof s->codec);
        s->is_mem = strcmp(r->target, ANALYSIS_MEM_TARGET) == 0;
        s->write_bps = s->is_mem ? NAN : probe_table_speed(probe, r->target, PROBE_OP_WRITE);
        if (r->layout == RUN_LAYOUT_SAME && !s->is_mem)
            memcpy(s->read_from, s->name, sizeof s->read_from);
        else if (r->layout != RUN_LAYOUT_SAME)
            memcpy(s->read_from, r->input_target, sizeof s->read_from);
        s->read_bps = s->read_from[0] ? probe_table_speed(probe, s->read_from, PROBE_OP_READ)
                                      : NAN;
        if (isnan(s->read_bps))
            s->read_from[0] = '\0';
        if (build_points(runs, s, scratch, threads_scratch) != 0)
            goto nomem;
        s->write_ceiling_bps = verdict_write_ceiling(s->write_bps, s->output_ratio);
        s->read_ceiling_bps = s->read_bps;
        fit_series_points(s->points, s->npoints, s->models, &s->best_rate_model);
    }
    if (build_ceilings(a) != 0)
        goto nomem;
    for (size_t i = 0; i < a->nseries; i++)
        judge_series(a, &a->series[i], opts.tolerance);
    free(scratch);
    free(threads_scratch);
    *out = a;
    return 0;
nomem:
    free(scratch);
    free(threads_scratch);
    analysis_free(a);
    return cp_err_set(err, CP_ENOMEM, "out of memory analysing %s", runs->path);
}
