/* plot_data.c - the data files behind every plot: what gnuplot reads, precomputed so
 * that a template knows nothing of the models and can be restyled freely. Titles and
 * labels come from plot_captions.c; the columns are described in each file's header. */
#include "report/plot_data.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis_explain.h"
#include "model/stats.h"
#include "report/datafile.h"
#include "report/figure_text.h"
#include "report/gnuplot_vars.h"
#include "report/plot.h"
#include "report/plot_captions.h"
#include "report/plot_kinds.h"
#include "report/plot_series.h"
#include "report/strbuf.h"

/* T values from lo to hi, geometric when log (for log axes) or evenly spaced. */
static double sample_threads(double lo, double hi, int i, int n, bool log_spaced)
{
    double f = n > 1 ? (double)i / (n - 1) : 0.0;
    return log_spaced ? lo * pow(hi / lo, f) : lo + (hi - lo) * f;
}

/* ---- series data: points, time and rate curves ---------------------------------------- */

static void write_points(const plot_data_t *c, FILE *f)
{
    fputs("# columns: threads seconds seconds_min seconds_max rate_MBps rate_min_MBps "
          "rate_max_MBps runs predicted_rate_MBps (the write-back model; NaN when none) "
          "oversubscribed (1: more threads than CPUs online)\n", f);
    char title[256];
    for (size_t i = 0; i < c->a->nseries; i++) {
        const analysis_series_t *s = &c->a->series[i];
        gnuplot_block_start(f, i, plot_series_title(s, c->multi_codec, title, sizeof title));
        for (size_t k = 0; k < s->npoints; k++) {
            const analysis_point_t *p = &s->points[k];
            fprintf(f, "%d", p->threads);
            gnuplot_value(f, 6, p->seconds);
            gnuplot_value(f, 6, p->seconds_min);
            gnuplot_value(f, 6, p->seconds_max);
            gnuplot_value(f, 6, p->bytes_per_s / PLOT_MB);
            gnuplot_value(f, 6, p->input_bytes / p->seconds_max / PLOT_MB);
            gnuplot_value(f, 6, p->input_bytes / p->seconds_min / PLOT_MB);
            fprintf(f, " %zu", p->n);
            gnuplot_value(f, 6, p->predicted_seconds > 0.0
                                    ? p->input_bytes / p->predicted_seconds / PLOT_MB
                                    : NAN);
            fprintf(f, " %d\n", (p->flags & POINT_OVERSUBSCRIBED) ? 1 : 0);
        }
    }
}

static int write_time_fit(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    (void)vars;
    *drawn = 1;
    fputs("# columns: threads seconds (power_time fit); NaN when not fitted\n", f);
    char title[256];
    for (size_t i = 0; i < c->a->nseries; i++) {
        const analysis_series_t *s = &c->a->series[i];
        const fit_result_t *m = &s->models[FIT_POWER_TIME];
        gnuplot_block_start(f, i, plot_series_title(s, c->multi_codec, title, sizeof title));
        double lo = s->points[0].threads, hi = s->points[s->npoints - 1].threads;
        if (!m->fitted || hi <= lo) {
            fputs("1 NaN\n", f);
            continue;
        }
        for (int k = 0; k < PLOT_CURVE_SAMPLES; k++) {
            double T = sample_threads(lo, hi, k, PLOT_CURVE_SAMPLES, true);
            fprintf(f, "%.6g", T);
            gnuplot_value(f, 6, fit_time_at(m, T));
            fputc('\n', f);
        }
    }
    return CP_OK;
}

static int write_rate_fit(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    (void)vars;
    *drawn = 1;
    fputs("# columns: threads linear_rate_MBps usl_rate_MBps; NaN when not fitted\n", f);
    char title[256];
    for (size_t i = 0; i < c->a->nseries; i++) {
        const analysis_series_t *s = &c->a->series[i];
        gnuplot_block_start(f, i, plot_series_title(s, c->multi_codec, title, sizeof title));
        double lo = s->points[0].threads, hi = s->points[s->npoints - 1].threads;
        if (hi <= lo) {
            fputs("1 NaN NaN\n", f);
            continue;
        }
        for (int k = 0; k < PLOT_CURVE_SAMPLES; k++) {
            double T = sample_threads(lo, hi, k, PLOT_CURVE_SAMPLES, false);
            fprintf(f, "%.6g", T);
            gnuplot_value(f, 6, fit_rate_at(&s->models[FIT_LINEAR_RATE], T) / PLOT_MB);
            gnuplot_value(f, 6, fit_rate_at(&s->models[FIT_USL], T) / PLOT_MB);
            fputc('\n', f);
        }
    }
    return CP_OK;
}

static void write_series_vars(const plot_data_t *c, FILE *f)
{
    const analysis_t *a = c->a;
    char buf[512];
    gnuplot_array(f, "series_title", a->nseries);
    for (size_t i = 0; i < a->nseries; i++)
        gnuplot_array_string(f, "series_title", i,
                         plot_series_title(&a->series[i], c->multi_codec, buf, sizeof buf));
    gnuplot_array(f, "series_name", a->nseries); /* without the tags, for long key entries */
    for (size_t i = 0; i < a->nseries; i++)
        gnuplot_array_string(f, "series_name", i,
                         plot_series_name(&a->series[i], c->multi_codec, buf, sizeof buf));
    static const struct { const char *name; fit_kind_t kind; } eqs[] = {
        {"power_eq", FIT_POWER_TIME}, {"linear_eq", FIT_LINEAR_RATE}, {"usl_eq", FIT_USL},
    };
    for (size_t e = 0; e < sizeof eqs / sizeof eqs[0]; e++) {
        gnuplot_array(f, eqs[e].name, a->nseries);
        for (size_t i = 0; i < a->nseries; i++) {
            const fit_result_t *m = &a->series[i].models[eqs[e].kind];
            /* In the rate axis' unit (MB/s), so the key and the axis read alike. */
            gnuplot_array_string(f, eqs[e].name, i,
                             m->fitted ? analysis_format_model_in(m, 1e6, "MB/s", buf, sizeof buf)
                                       : "");
        }
    }
    /* A short USL label for the key: where the curve peaks. */
    gnuplot_array(f, "usl_short", a->nseries);
    for (size_t i = 0; i < a->nseries; i++) {
        plot_usl_label(&a->series[i].models[FIT_USL], buf, sizeof buf);
        gnuplot_array_string(f, "usl_short", i, buf);
    }
    gnuplot_array(f, "series_is_mem", a->nseries);
    for (size_t i = 0; i < a->nseries; i++)
        gnuplot_array_number(f, "series_is_mem", i, a->series[i].cpu_ceiling ? 1 : 0);

    /* The thread counts measured, for axis tics. */
    bool seen[RUNS_THREADS_MAX + 1] = {false};
    size_t nthreads = 0;
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++)
            if (!seen[a->series[i].points[k].threads]) {
                seen[a->series[i].points[k].threads] = true;
                nthreads++;
            }
    gnuplot_array(f, "threads_list", nthreads);
    for (int T = 1, i = 0; T <= RUNS_THREADS_MAX; T++)
        if (seen[T])
            gnuplot_array_number(f, "threads_list", (size_t)i++, T);
}

/* ---- the bottleneck picture: CPU rate, volume ceilings, crossovers -------------------- */

static const analysis_ceiling_t *series_ceiling(const analysis_t *a, const analysis_series_t *s)
{
    return s->ceiling < a->nceilings ? &a->ceilings[s->ceiling] : NULL;
}

/* Crossovers close enough to the measured range are drawn; farther ones only told. */
static bool crossover_drawn(const plot_data_t *c, const analysis_series_t *s)
{
    return isfinite(s->crossover_threads) && s->crossover_threads <= 2.0 * c->tmax;
}

static void write_cpu(const plot_data_t *c, FILE *f, FILE *fit)
{
    fputs("# columns: threads cpu_ceiling_rate_MBps (measured)\n", f);
    fputs("# columns: threads cpu_ceiling_rate_MBps (the ceiling's best rate model)\n", fit);
    for (size_t i = 0; i < c->a->nceilings; i++) {
        const analysis_ceiling_t *ce = &c->a->ceilings[i];
        gnuplot_block_start(f, i, ce->codec[0] ? ce->codec : "CPU ceiling");
        gnuplot_block_start(fit, i, ce->codec[0] ? ce->codec : "CPU ceiling");
        for (size_t k = 0; k < ce->npoints; k++)
            fprintf(f, "%d %.6g\n", ce->threads[k], ce->bytes_per_s[k] / PLOT_MB);
        if (ce->best_rate_model < 0) {
            fputs("1 NaN\n", fit);
            continue;
        }
        for (int k = 0; k < PLOT_CURVE_SAMPLES; k++) {
            double T = sample_threads(1.0, c->bottleneck_xmax, k, PLOT_CURVE_SAMPLES, false);
            fprintf(fit, "%.6g", T);
            gnuplot_value(fit, 6, fit_rate_at(&ce->models[ce->best_rate_model], T) / PLOT_MB);
            fputc('\n', fit);
        }
    }
}

/* One horizontal line per volume ceiling: each series' write ceiling, and its read
 * ceiling when that is what limits it (read ceilings are shared, so drawn once). */
static int write_ceilings(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    const analysis_t *a = c->a;
    fputs("# columns: threads ceiling_rate_MBps (two points: a horizontal line)\n", f);
    size_t n = 0;
    char title[512];
    /* Count first: vars.gp declares the arrays before their elements. */
    double drawn_reads[ANALYSIS_SERIES_MAX];
    size_t nreads = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            gnuplot_array(vars, "ceiling_title", n);
            gnuplot_array(vars, "ceiling_series", n);
            gnuplot_array(vars, "ceiling_is_read", n);
        }
        n = 0;
        nreads = 0;
        for (size_t i = 0; i < a->nseries; i++) {
            const analysis_series_t *s = &a->series[i];
            if (!plot_has_volume_ceiling(s))
                continue;
            for (int read = 0; read < 2; read++) {
                double bps = read ? s->read_ceiling_bps : s->write_ceiling_bps;
                if (!(bps > 0.0) || (read && s->crossover_limit != VERDICT_READ))
                    continue;
                if (read) {
                    bool dup = false;
                    for (size_t k = 0; k < nreads; k++)
                        dup = dup || drawn_reads[k] == bps;
                    if (dup)
                        continue;
                    drawn_reads[nreads++] = bps;
                }
                if (pass == 1) {
                    plot_ceiling_title(s, c->multi_codec, read, bps,
                                       bps / PLOT_MB > c->bottleneck_ymax, c->probe, title,
                                       sizeof title);
                    gnuplot_block_start(f, n, title);
                    fprintf(f, "1 %.6g\n%.6g %.6g\n", bps / PLOT_MB, c->bottleneck_xmax,
                            bps / PLOT_MB);
                    gnuplot_array_string(vars, "ceiling_title", n, title);
                    gnuplot_array_number(vars, "ceiling_series", n, (double)i + 1);
                    gnuplot_array_number(vars, "ceiling_is_read", n, read);
                }
                n++;
            }
        }
    }
    *drawn = n;
    return CP_OK;
}

static int write_crossovers(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    const analysis_t *a = c->a;
    fputs("# columns: threads rate_MBps series (1-based index in points.dat + 1)\n"
          "# where the CPU ceiling's fitted rate reaches the series' volume ceiling\n", f);
    size_t n = 0;
    for (size_t i = 0; i < a->nseries; i++)
        n += crossover_drawn(c, &a->series[i]);
    gnuplot_array(vars, "cross_label", n);
    char label[320];
    n = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (!crossover_drawn(c, s))
            continue;
        fprintf(f, "%.6g %.6g %zu\n", s->crossover_threads,
                plot_crossover_rate_bps(s) / PLOT_MB, i + 1);
        plot_crossover_label(s, c->multi_codec, label, sizeof label);
        gnuplot_array_string(vars, "cross_label", n++, label);
    }
    if (n == 0)
        fputs("NaN NaN 0\n", f);
    *drawn = n;
    return CP_OK;
}

/* Each series' model along the CPU curve (explain_model_rate_at), the curve its crossover
 * lies on: samples over the plot's thread range, the crossover itself among them. */
static int write_model_rates(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    (void)vars;
    const analysis_t *a = c->a;
    fputs("# columns: threads model_rate_MBps (the write-back model along the CPU ceiling's "
          "held best rate model; NaN when none)\n", f);
    char title[256];
    size_t curves = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        const analysis_ceiling_t *ce = series_ceiling(a, s);
        gnuplot_block_start(f, i, plot_series_title(s, c->multi_codec, title, sizeof title));
        bool any = false;
        double cross = crossover_drawn(c, s) ? s->crossover_threads : NAN;
        for (int k = 0; ce != NULL && plot_has_volume_ceiling(s) && k < PLOT_CURVE_SAMPLES;
             k++) {
            double T = sample_threads(1.0, c->bottleneck_xmax, k, PLOT_CURVE_SAMPLES, false);
            if (cross < T) { /* the crossover, in its place */
                T = cross;
                cross = NAN;
                k--;
            }
            wbm_term_t lead;
            double bps = explain_model_rate_at(s, ce, a->tolerance, T, &lead);
            if (!(bps > 0.0))
                continue;
            fprintf(f, "%.6g", T);
            gnuplot_value(f, 6, bps / PLOT_MB);
            fputc('\n', f);
            any = true;
        }
        if (!any)
            fputs("1 NaN\n", f);
        curves += any;
    }
    *drawn = curves;
    return CP_OK;
}

/* The bottleneck plot's title: where the disk takes over only when a drawn crossover is
 * the disk's (its writing, flush or reading), else what the plot shows. */
static void write_bottleneck_title(const plot_data_t *c, FILE *vars)
{
    bool disk = false, io_cpu = false;
    for (size_t i = 0; i < c->a->nseries; i++) {
        const analysis_series_t *s = &c->a->series[i];
        if (!crossover_drawn(c, s))
            continue;
        wbm_term_t lead = s->crossover_lead;
        io_cpu = io_cpu || lead == TERM_IO_CPU;
        disk = disk || lead == TERM_READ || lead == TERM_WRITE || lead == TERM_FLUSH ||
               lead == TERM_COMPUTE || lead == TERM_COUNT;
    }
    gnuplot_var_string(vars, "bottleneck_title",
                       disk     ? "Where the disk takes over: CPU rate against each volume's "
                                  "ceiling"
                       : io_cpu ? "Where writing's CPU work takes over: CPU rate, each "
                                  "volume's ceiling and the model"
                                : "CPU rate against each volume's ceiling, and the model per "
                                  "target");
}

/* ---- probe speeds --------------------------------------------------------------------- */

/* The probe table's targets into c->targets, in the order they first appear. */
static int probe_targets(plot_data_t *c, const probe_table_t *p)
{
    c->ntargets = 0;
    c->targets = malloc((p->nrows ? p->nrows : 1) * sizeof *c->targets);
    if (c->targets == NULL)
        return CP_ENOMEM;
    for (size_t i = 0; i < p->nrows; i++) {
        bool seen = false;
        for (size_t k = 0; k < c->ntargets && !seen; k++)
            seen = strcmp(c->targets[k], p->rows[i].target) == 0;
        if (!seen)
            c->targets[c->ntargets++] = p->rows[i].target;
    }
    return CP_OK;
}

static bool probe_has(const probe_table_t *p, const char *target, probe_speed_op_t op,
                      bool need_size)
{
    for (size_t i = 0; p != NULL && i < p->nrows; i++)
        if (p->rows[i].op == op && (target == NULL || strcmp(p->rows[i].target, target) == 0) &&
            (!need_size || p->rows[i].size_bytes > 0.0))
            return true;
    return false;
}

/* One block of "size_MB median min max n" for a target and op, sizes ascending. */
static int write_probe_block(const probe_table_t *p, const char *target, probe_speed_op_t op,
                             FILE *f)
{
    double *sizes = malloc((p->nrows ? p->nrows : 1) * sizeof *sizes);
    double *rates = malloc((p->nrows ? p->nrows : 1) * sizeof *rates);
    if (sizes == NULL || rates == NULL) {
        free(sizes);
        free(rates);
        return CP_ENOMEM;
    }
    size_t nsizes = 0;
    for (size_t i = 0; i < p->nrows; i++)
        if (p->rows[i].op == op && strcmp(p->rows[i].target, target) == 0 &&
            p->rows[i].size_bytes > 0.0)
            sizes[nsizes++] = p->rows[i].size_bytes;
    qsort(sizes, nsizes, sizeof *sizes, plot_compare_double);
    size_t written = 0;
    for (size_t k = 0; k < nsizes; k++) {
        if (k > 0 && sizes[k] == sizes[k - 1])
            continue;
        size_t m = 0;
        for (size_t i = 0; i < p->nrows; i++)
            if (p->rows[i].op == op && strcmp(p->rows[i].target, target) == 0 &&
                p->rows[i].size_bytes == sizes[k])
                rates[m++] = p->rows[i].bytes_per_s;
        qsort(rates, m, sizeof *rates, plot_compare_double);
        fprintf(f, "%.6g %.6g %.6g %.6g %zu\n", sizes[k] / PLOT_MB,
                stats_median(rates, m) / PLOT_MB, rates[0] / PLOT_MB, rates[m - 1] / PLOT_MB, m);
        written++;
    }
    if (written == 0)
        fputs("NaN NaN NaN NaN 0\n", f);
    free(sizes);
    free(rates);
    return 0;
}

/* A target's key title for one op's curve, "ssd (emulated) write": emulated when a row of
 * that op was paced (a write cap does not pace the reads), RAM when any row says so. */
static const char *probe_title(const probe_table_t *p, const char *target, probe_speed_op_t op,
                               char *buf, size_t cap)
{
    int ram = -1;
    for (size_t i = 0; i < p->nrows; i++)
        if (strcmp(p->rows[i].target, target) == 0)
            ram = ram == 1 ? 1 : p->rows[i].ram;
    int emulated = probe_table_emulated(p, target, op, NULL) ? 1 : 0;
    plot_target_title(target, emulated, ram, buf, cap);
    strbuf_appendf(buf, cap, op == PROBE_OP_READ ? " read" : " write");
    return buf;
}

static int write_probe(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    *drawn = 1;
    const char *const *names = c->targets;
    size_t ntargets = c->ntargets;
    fputs("# columns: size_MB median_MBps min_MBps max_MBps reps\n"
          "# blocks: for each target, its writes (index 2k) then its reads (index 2k+1)\n", f);
    char title[256], what[300];
    gnuplot_array(vars, "probe_write_title", ntargets);
    gnuplot_array(vars, "probe_read_title", ntargets);
    for (size_t k = 0; k < ntargets; k++) {
        probe_title(c->probe, names[k], PROBE_OP_WRITE, title, sizeof title);
        gnuplot_array_string(vars, "probe_write_title", k, title);
        probe_title(c->probe, names[k], PROBE_OP_READ, title, sizeof title);
        gnuplot_array_string(vars, "probe_read_title", k, title);
        for (int op = 0; op < 2; op++) {
            snprintf(what, sizeof what, "%s %s", names[k], op ? "read" : "write");
            gnuplot_block_start(f, 2 * k + (size_t)op, what);
            int rc = write_probe_block(c->probe, names[k],
                                       op ? PROBE_OP_READ : PROBE_OP_WRITE, f);
            if (rc != 0)
                return rc;
        }
    }
    gnuplot_array(vars, "probe_has_read", ntargets);
    for (size_t k = 0; k < ntargets; k++)
        gnuplot_array_number(vars, "probe_has_read", k,
                         probe_has(c->probe, names[k], PROBE_OP_READ, true));
    gnuplot_array(vars, "probe_has_write", ntargets);
    for (size_t k = 0; k < ntargets; k++)
        gnuplot_array_number(vars, "probe_has_write", k,
                         probe_has(c->probe, names[k], PROBE_OP_WRITE, true));
    return CP_OK;
}

/* Sustained samples per target: seconds since the start (or GB written when the file
 * has no seconds) against MB/s over the interval. */
static int write_sustained(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    const char *const *names = c->targets;
    size_t ntargets = c->ntargets;
    const probe_table_t *p = c->probe;
    bool by_time = true;
    for (size_t i = 0; i < p->nrows; i++)
        if (p->rows[i].op == PROBE_OP_SUSTAINED && !isfinite(p->rows[i].seconds))
            by_time = false;
    fprintf(f, "# columns: %s rate_MBps\n", by_time ? "seconds" : "GB_written");
    gnuplot_var_string(vars, "sustained_xlabel",
                       by_time ? "time since the start of the write (s)" : "data written (GB)");
    size_t n = 0;
    for (size_t k = 0; k < ntargets; k++)
        n += probe_has(p, names[k], PROBE_OP_SUSTAINED, false);
    gnuplot_array(vars, "sustained_title", n);
    char title[256];
    n = 0;
    for (size_t k = 0; k < ntargets; k++) {
        if (!probe_has(p, names[k], PROBE_OP_SUSTAINED, false))
            continue;
        gnuplot_block_start(f, n, names[k]);
        gnuplot_array_string(vars, "sustained_title", n++,
                         probe_title(p, names[k], PROBE_OP_SUSTAINED, title, sizeof title));
        for (size_t i = 0; i < p->nrows; i++) {
            const probe_speed_row_t *r = &p->rows[i];
            if (r->op != PROBE_OP_SUSTAINED || strcmp(r->target, names[k]) != 0)
                continue;
            double x = by_time ? r->seconds : r->size_bytes / 1e9;
            gnuplot_value(f, 6, x);
            gnuplot_value(f, 6, r->bytes_per_s / PLOT_MB);
            fputc('\n', f);
        }
    }
    *drawn = n;
    return CP_OK;
}

/* ---- compression rate against write speed --------------------------------------------- */

/* ---- where the time went: a stacked bar per target and thread count ------------------ */

/* The time split's rows of one codec (ceiling index codec), each with its label in
 * ts_label from *n on; returns how many. With f NULL, only counts them. */
static size_t write_time_split_codec(const plot_data_t *c, size_t codec, FILE *f, FILE *vars,
                                     size_t *n)
{
    const analysis_t *a = c->a;
    analysis_path_split_t t;
    char name[256], label[300];
    size_t rows = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        for (size_t k = 0; s->ceiling == codec && k < s->npoints; k++) {
            if (!analysis_path_split(&s->points[k], &t))
                continue;
            rows++;
            if (f == NULL)
                continue;
            fprintf(f, "%.6g %.6g %.6g %.6g %.6g %.6g %.6g %d\n", t.compute_s, t.core_wait_s,
                    t.io_cpu_s, t.read_blocked_s, t.write_blocked_s, t.other_s, t.seconds,
                    s->points[k].threads);
            snprintf(label, sizeof label, "%s T=%d", plot_series_name(s, false, name, sizeof name),
                     s->points[k].threads);
            gnuplot_array_string(vars, "ts_label", (*n)++, label);
        }
    }
    return rows;
}

static int write_time_split(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    const analysis_t *a = c->a;
    fputs("# columns: compute_s core_wait_s io_cpu_s read_blocked_s write_blocked_s other_s "
          "seconds threads\n"
          "# one row per target and thread count: the wall time of its median run along its "
          "critical path, each moment counted once by what the job waited for (docs/method.md, "
          "\"Where the time went\"); one block per codec (index c-1: ts_first[c] is its first "
          "label in ts_label, ts_count[c] its rows, in vars.gp)\n", f);
    size_t n = 0;
    for (size_t ce = 0; ce < a->nceilings; ce++)
        n += write_time_split_codec(c, ce, NULL, vars, NULL);
    gnuplot_array(vars, "ts_label", n);
    gnuplot_array(vars, "ts_first", a->nceilings);
    gnuplot_array(vars, "ts_count", a->nceilings);
    n = 0;
    for (size_t ce = 0; ce < a->nceilings; ce++) {
        gnuplot_block_start(f, ce, a->ceilings[ce].codec);
        gnuplot_array_number(vars, "ts_first", ce, (double)n + 1);
        size_t rows = write_time_split_codec(c, ce, f, vars, &n);
        gnuplot_array_number(vars, "ts_count", ce, (double)rows);
        if (rows == 0)
            fputs("NaN NaN NaN NaN NaN NaN NaN 0\n", f);
    }
    *drawn = n;
    return CP_OK;
}

static int write_rate_vs_write(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn)
{
    const analysis_t *a = c->a;
    fputs("# columns: write_MBps rate_MBps threads output_ratio cpu_ceiling_MBps\n"
          "# one row per target: its rate at its largest thread count\n", f);
    size_t n = 0;
    double ratios[ANALYSIS_SERIES_MAX];
    size_t nratios = 0;
    int threads = -1;
    double cpu = NAN;
    for (size_t i = 0; i < a->nseries; i++)
        n += plot_on_rate_vs_write(&a->series[i]);
    gnuplot_array(vars, "rvw_label", n);
    char name[256];
    n = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (!plot_on_rate_vs_write(s))
            continue;
        const analysis_point_t *top = &s->points[s->npoints - 1];
        const analysis_verdict_t *v = &s->verdicts[s->npoints - 1];
        fprintf(f, "%.6g %.6g %d", s->write_speed_bps / PLOT_MB, top->bytes_per_s / PLOT_MB,
                top->threads);
        gnuplot_value(f, 6, s->output_ratio);
        gnuplot_value(f, 6, v->cpu_ceiling_bps / PLOT_MB);
        fputc('\n', f);
        gnuplot_array_string(vars, "rvw_label", n++,
                         plot_series_title(s, c->multi_codec, name, sizeof name));
        if (s->output_ratio > 0.0)
            ratios[nratios++] = s->output_ratio;
        /* One CPU line only makes sense when every point is at the same T and codec. */
        if (threads == -1) {
            threads = top->threads;
            cpu = v->cpu_ceiling_bps;
        } else if (threads != top->threads ||
                   series_ceiling(a, s) != series_ceiling(a, &a->series[0])) {
            threads = 0;
        }
    }
    if (n == 0)
        fputs("NaN NaN 0 NaN NaN\n", f);
    gnuplot_var_number(vars, "rvw_ratio", 10, nratios ? stats_median(ratios, nratios) : 1.0);
    gnuplot_var_number(vars, "rvw_threads", 10, threads > 0 ? threads : NAN);
    gnuplot_var_number(vars, "rvw_cpu", 10, threads > 0 && !c->multi_codec ? cpu / PLOT_MB : NAN);
    *drawn = n;
    return CP_OK;
}

/* ---- putting the files together ------------------------------------------------------- */

#define ALL_CODECS ((size_t)-1)

/* The bottleneck picture's y range for one codec's panel (its ceiling index), or for all
 * (ALL_CODECS): the rates, and only the volume ceilings within 2.5 times of them, since
 * a ceiling far above every rate would flatten the picture. */
static double bottleneck_ymax(const plot_data_t *c, size_t codec)
{
    const analysis_t *a = c->a;
    double top = 0.0;
    for (size_t i = 0; i < a->nceilings; i++) {
        const analysis_ceiling_t *ce = &a->ceilings[i];
        if (codec != ALL_CODECS && i != codec)
            continue;
        for (size_t k = 0; k < ce->npoints; k++)
            top = fmax(top, ce->bytes_per_s[k]);
        for (int k = 0; ce->best_rate_model >= 0 && k < PLOT_CURVE_SAMPLES; k++) {
            double T = sample_threads(1.0, c->bottleneck_xmax, k, PLOT_CURVE_SAMPLES, false);
            double r = fit_rate_at(&ce->models[ce->best_rate_model], T);
            if (isfinite(r))
                top = fmax(top, r);
        }
    }
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; (codec == ALL_CODECS || a->series[i].ceiling == codec) &&
                           k < a->series[i].npoints; k++)
            top = fmax(top, a->series[i].points[k].bytes_per_s);
    double ymax = top;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (codec != ALL_CODECS && s->ceiling != codec)
            continue;
        if (s->write_ceiling_bps <= 2.5 * top)
            ymax = fmax(ymax, s->write_ceiling_bps);
        if (s->read_ceiling_bps <= 2.5 * top)
            ymax = fmax(ymax, s->read_ceiling_bps);
    }
    return ymax * 1.12 / PLOT_MB;
}

/* The place of series i's target among the targets other than memory, in the order they
 * first appear (0-based). */
static size_t target_index(const analysis_t *a, size_t i)
{
    size_t t = 0;
    for (size_t j = 0; j < a->nseries; j++) {
        if (strcmp(a->series[j].name, a->series[i].name) == 0)
            return t;
        bool first = true;
        for (size_t k = 0; k < j && first; k++)
            first = strcmp(a->series[k].name, a->series[j].name) != 0;
        t += first && !a->series[j].cpu_ceiling;
    }
    return t;
}

/* Per codec (in the ceilings' order), for plots with one panel per codec: its name, its
 * bottleneck y range, and each series' codec (1-based). */
static void write_codec_vars(const plot_data_t *c, FILE *v)
{
    const analysis_t *a = c->a;
    gnuplot_array(v, "codec_name", a->nceilings);
    gnuplot_array(v, "panel_ymax", a->nceilings);
    for (size_t i = 0; i < a->nceilings; i++) {
        gnuplot_array_string(v, "codec_name", i, a->ceilings[i].codec);
        gnuplot_array_number(v, "panel_ymax", i, bottleneck_ymax(c, i));
    }
    gnuplot_array(v, "series_codec", a->nseries);
    for (size_t i = 0; i < a->nseries; i++)
        gnuplot_array_number(v, "series_codec", i, (double)a->series[i].ceiling + 1);
    /* One colour per target name, the same in every panel; never black (linetype 7),
     * which is the CPU's. */
    static const int colours[] = {1, 2, 3, 4, 5, 6, 8};
    gnuplot_array(v, "series_colour", a->nseries);
    for (size_t i = 0; i < a->nseries; i++)
        gnuplot_array_number(v, "series_colour", i, colours[target_index(a, i) % 7]);
}

int plot_data_init(plot_data_t *c, const analysis_t *a, const probe_table_t *probe,
                   cp_err_t *err)
{
    memset(c, 0, sizeof *c);
    c->a = a;
    c->probe = probe;
    c->tmin = RUNS_THREADS_MAX;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (strcmp(s->codec, a->series[0].codec) != 0)
            c->multi_codec = true;
        if (s->npoints > 0) {
            c->tmin = s->points[0].threads < c->tmin ? s->points[0].threads : c->tmin;
            c->tmax = s->points[s->npoints - 1].threads > c->tmax
                ? s->points[s->npoints - 1].threads : c->tmax;
        }
    }
    c->bottleneck_xmax = c->tmax;
    for (size_t i = 0; i < a->nseries; i++)
        if (crossover_drawn(c, &a->series[i]) &&
            a->series[i].crossover_threads * 1.15 > c->bottleneck_xmax)
            c->bottleneck_xmax = a->series[i].crossover_threads * 1.15;
    if (c->bottleneck_xmax <= 1.0)
        c->bottleneck_xmax = 2.0;

    c->bottleneck_ymax = bottleneck_ymax(c, ALL_CODECS);

    if (probe != NULL) {
        if (probe_targets(c, probe) != CP_OK)
            return cp_err_set(err, CP_ENOMEM, "out of memory");
        c->probe_sized = probe_has(probe, NULL, PROBE_OP_WRITE, true) ||
                         probe_has(probe, NULL, PROBE_OP_READ, true);
        c->probe_sustained = probe_has(probe, NULL, PROBE_OP_SUSTAINED, false);
    }
    return CP_OK;
}

void plot_data_free(plot_data_t *c)
{
    free(c->targets);
    c->targets = NULL;
    c->ntargets = 0;
}

/* ---- the plots: each one's data files, why it is left out, and its caption ------------ */

/* What fills one data file: writes it into f (and its variables into vars), sets *drawn
 * to what the plot has to draw (0: nothing). CP_OK, or CP_ENOMEM. */
typedef int (*data_body_fn)(const plot_data_t *c, FILE *f, FILE *vars, size_t *drawn);

/* datadir/name filled by body, renamed into place only when complete. */
static int data_file(const plot_data_t *c, const owned_dir_t *datadir, const char *name, FILE *vars,
                     data_body_fn body, size_t *drawn, cp_err_t *err)
{
    datafile_t d;
    int rc = datafile_open(&d, datadir, name, "plot", err);
    if (rc != CP_OK)
        return rc;
    if ((rc = body(c, d.f, vars, drawn)) != CP_OK) {
        datafile_abort(&d);
        return cp_err_set(err, rc, "%s: out of memory", name);
    }
    return datafile_commit(&d, err);
}

static int write_time_vs_threads(const plot_data_t *c, const owned_dir_t *datadir, FILE *vars,
                                 size_t *drawn, cp_err_t *err)
{
    return data_file(c, datadir, "time_fit.dat", vars, write_time_fit, drawn, err);
}

static int write_rate_vs_threads(const plot_data_t *c, const owned_dir_t *datadir, FILE *vars,
                                 size_t *drawn, cp_err_t *err)
{
    return data_file(c, datadir, "rate_fit.dat", vars, write_rate_fit, drawn, err);
}

/* The bottleneck picture: CPU rates, volume ceilings and where they meet; drawn when
 * there is a volume ceiling. */
static int write_bottleneck(const plot_data_t *c, const owned_dir_t *datadir, FILE *vars,
                            size_t *drawn, cp_err_t *err)
{
    const analysis_t *a = c->a;
    datafile_t d, fit;
    int rc = datafile_open(&d, datadir, "cpu.dat", "plot", err);
    if (rc != CP_OK)
        return rc;
    if ((rc = datafile_open(&fit, datadir, "cpu_fit.dat", "plot", err)) != CP_OK) {
        datafile_abort(&d);
        return rc;
    }
    write_cpu(c, d.f, fit.f);
    rc = datafile_commit(&fit, err);
    if (rc == CP_OK)
        rc = datafile_commit(&d, err);
    else
        datafile_abort(&d);
    if (rc != CP_OK)
        return rc;
    gnuplot_array(vars, "cpu_title", a->nceilings);
    for (size_t i = 0; i < a->nceilings; i++) {
        char title[300];
        plot_cpu_title(&a->ceilings[i], c->multi_codec, title, sizeof title);
        gnuplot_array_string(vars, "cpu_title", i, title);
    }
    size_t crossings, curves;
    rc = data_file(c, datadir, "ceilings.dat", vars, write_ceilings, drawn, err);
    if (rc == CP_OK)
        rc = data_file(c, datadir, "crossovers.dat", vars, write_crossovers, &crossings, err);
    if (rc == CP_OK)
        rc = data_file(c, datadir, "model_rate.dat", vars, write_model_rates, &curves, err);
    if (rc == CP_OK)
        write_bottleneck_title(c, vars);
    return rc;
}

static const char *bottleneck_not_drawn(const plot_data_t *c)
{
    return c->probe == NULL ? "no probe.csv, so no volume write speeds to draw as ceilings"
                            : "the probe table has no write speeds for these targets";
}

/* Probe speeds by file size: only from probe rows with a size. */
static int write_probe_sizes(const plot_data_t *c, const owned_dir_t *datadir, FILE *vars,
                             size_t *drawn, cp_err_t *err)
{
    *drawn = 0;
    return c->probe_sized ? data_file(c, datadir, "probe.dat", vars, write_probe, drawn, err)
                          : CP_OK;
}

static const char *probe_not_drawn(const plot_data_t *c)
{
    return c->probe == NULL ? "no probe.csv"
                            : "the probe table has no write or read rows with a size_bytes";
}

/* The sustained write: only from probe sustained rows (left out without a word). */
static int write_probe_sustained(const plot_data_t *c, const owned_dir_t *datadir, FILE *vars,
                                 size_t *drawn, cp_err_t *err)
{
    *drawn = 0;
    return c->probe_sustained
               ? data_file(c, datadir, "probe_sustained.dat", vars, write_sustained, drawn, err)
               : CP_OK;
}

static int write_rate_against_write(const plot_data_t *c, const owned_dir_t *datadir, FILE *vars,
                                    size_t *drawn, cp_err_t *err)
{
    return data_file(c, datadir, "rate_vs_write.dat", vars, write_rate_vs_write, drawn, err);
}

static const char *rate_vs_write_not_drawn(const plot_data_t *c)
{
    return c->probe == NULL ? "no probe.csv, so no measured write speeds"
                            : "no target with runs has a write speed in the probe table";
}

static int write_time_split_file(const plot_data_t *c, const owned_dir_t *datadir, FILE *vars,
                                 size_t *drawn, cp_err_t *err)
{
    return data_file(c, datadir, "time_split.dat", vars, write_time_split, drawn, err);
}

static const char *time_split_not_drawn(const plot_data_t *c)
{
    (void)c;
    return "no run recorded its critical path (runs.csv path_*_s; a command's runs are not "
           "split)";
}

/* The captions (plot_captions.h) from what the plot data hold. */
static void caption_time(const plot_data_t *c, char *buf, size_t cap)
{
    plot_caption_time(c->a, c->multi_codec, buf, cap);
}

static void caption_rate(const plot_data_t *c, char *buf, size_t cap)
{
    plot_caption_rate(c->a, c->multi_codec, buf, cap);
}

static void caption_bottleneck(const plot_data_t *c, char *buf, size_t cap)
{
    plot_caption_bottleneck(c->a, c->multi_codec, buf, cap);
}

static void caption_probe(const plot_data_t *c, char *buf, size_t cap)
{
    plot_caption_probe(c->probe, c->targets, c->ntargets, buf, cap);
}

static void caption_sustained(const plot_data_t *c, char *buf, size_t cap)
{
    plot_caption_sustained(c->probe, c->targets, c->ntargets, buf, cap);
}

static void caption_rate_vs_write(const plot_data_t *c, char *buf, size_t cap)
{
    plot_caption_rate_vs_write(c->a, c->multi_codec, buf, cap);
}

static void caption_time_split(const plot_data_t *c, char *buf, size_t cap)
{
    plot_caption_time_split(c->a, buf, cap);
}

/* The rows of the plots of an analysis; report order is plot_kinds.c's list. */
const plot_kind_t plot_kind_time_vs_threads = {
    .name = "time_vs_threads", .heading = "Time against threads",
    .write = write_time_vs_threads, .caption = caption_time,
};
const plot_kind_t plot_kind_rate_vs_threads = {
    .name = "rate_vs_threads", .heading = "Rate against threads",
    .write = write_rate_vs_threads, .caption = caption_rate,
};
const plot_kind_t plot_kind_bottleneck = {
    .name = "bottleneck", .heading = "Where the disk takes over",
    .write = write_bottleneck, .not_drawn = bottleneck_not_drawn,
    .caption = caption_bottleneck,
};
const plot_kind_t plot_kind_probe = {
    .name = "probe", .heading = "Volume speeds by file size",
    .write = write_probe_sizes, .not_drawn = probe_not_drawn, .caption = caption_probe,
};
const plot_kind_t plot_kind_probe_sustained = {
    .name = "probe_sustained", .heading = "One long write",
    .write = write_probe_sustained, .caption = caption_sustained,
};
const plot_kind_t plot_kind_rate_vs_write = {
    .name = "rate_vs_write", .heading = "Compression rate against write speed",
    .write = write_rate_against_write, .not_drawn = rate_vs_write_not_drawn,
    .caption = caption_rate_vs_write,
};
const plot_kind_t plot_kind_time_split = {
    .name = "time_split", .heading = "Where the time went",
    .write = write_time_split_file, .not_drawn = time_split_not_drawn,
    .caption = caption_time_split,
};

/* ---- putting the files together ------------------------------------------------------- */

int plot_data_write(plot_data_t *c, const owned_dir_t *datadir, cp_err_t *err)
{
    const analysis_t *a = c->a;
    memset(c->drawn, 0, sizeof c->drawn);
    if (plot_kinds_count > PLOT_MAX)
        return cp_err_set(err, CP_EIO, "%zu plots in the registry, at most %d", plot_kinds_count,
                          PLOT_MAX);
    datafile_t vars, d;
    int rc = datafile_open(&vars, datadir, "vars.gp", "plot", err);
    if (rc != CP_OK)
        return rc;
    FILE *v = vars.f;
    char measured[160];
    plot_measured_text(a, true, measured, sizeof measured);
    gnuplot_var_string(v, "measured", measured);
    plot_measured_text(a, false, measured, sizeof measured);
    gnuplot_var_string(v, "measured_nobars", measured); /* for plots without min-max bars */
    gnuplot_var_string(v, "codec", c->multi_codec ? "" : a->series[0].codec);
    gnuplot_var_number(v, "threads_min", 10, c->tmin);
    gnuplot_var_number(v, "threads_max", 10, c->tmax);
    size_t oversubscribed = 0;
    for (size_t i = 0; i < c->a->nseries; i++)
        for (size_t k = 0; k < c->a->series[i].npoints; k++)
            oversubscribed += (c->a->series[i].points[k].flags & POINT_OVERSUBSCRIBED) != 0;
    gnuplot_var_number(v, "n_oversubscribed", 10, (double)oversubscribed);
    gnuplot_var_number(v, "bottleneck_xmax", 10, c->bottleneck_xmax);
    gnuplot_var_number(v, "bottleneck_ymax", 10, c->bottleneck_ymax);
    write_series_vars(c, v);
    write_codec_vars(c, v);

    /* The points, which several plots draw, then each plot's own files in report order. */
    if ((rc = datafile_open(&d, datadir, "points.dat", "plot", err)) == CP_OK) {
        write_points(c, d.f);
        rc = datafile_commit(&d, err);
    }
    for (size_t i = 0; i < plot_kinds_count && rc == CP_OK; i++)
        rc = plot_kinds[i]->write(c, datadir, v, &c->drawn[i], err);
    if (rc == CP_OK)
        rc = datafile_commit(&vars, err);
    else
        datafile_abort(&vars);
    return rc;
}
