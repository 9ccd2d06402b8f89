/* compare_plot.c - data files, captions and gnuplot runs for compare (compare_plot.h). */
#include "report/compare_plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/compare_out.h"
#include "report/datafile.h"
#include "report/figure_text.h"
#include "report/gnuplot_vars.h"
#include "report/plot_gnuplot.h"
#include "report/plot_series.h"


/* A series of one study drawn in the overlays: its colour is its study's. */
typedef struct line {
    size_t study;
    const analysis_series_t *s;
} line_t;

typedef struct lines {
    line_t items[2 * 256];
    size_t n;
} lines_t;

static void lines_add(lines_t *l, size_t study, const analysis_series_t *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].study == study && l->items[i].s == s)
            return;
    if (l->n < sizeof l->items / sizeof l->items[0])
        l->items[l->n++] = (line_t){.study = study, .s = s};
}

/* ---- files ---------------------------------------------------------------------------- */

static void line_title(const compare_study_t *studies, const line_t *l, char *buf, size_t cap)
{
    char label[300];
    figure_series_label(l->s, false, label, sizeof label);
    snprintf(buf, cap, "%c: %s", l->study < 26 ? (char)('A' + l->study) : '?', label);
    (void)studies;
}

static void write_points(FILE *f, const lines_t *L, const compare_study_t *st)
{
    fputs("# columns: threads seconds seconds_min seconds_max rate_MBps rate_min_MBps "
          "rate_max_MBps runs\n", f);
    for (size_t k = 0; k < L->n; k++) {
        char title[400];
        line_title(st, &L->items[k], title, sizeof title);
        gnuplot_block_start(f, k, title);
        const analysis_series_t *s = L->items[k].s;
        for (size_t i = 0; i < s->npoints; i++) {
            const analysis_point_t *p = &s->points[i];
            fprintf(f, "%d", p->threads);
            gnuplot_value(f, 8, p->seconds);
            gnuplot_value(f, 8, p->seconds_min);
            gnuplot_value(f, 8, p->seconds_max);
            gnuplot_value(f, 8, p->bytes_per_s / 1e6);
            gnuplot_value(f, 8, p->input_bytes / p->seconds_max / 1e6);
            gnuplot_value(f, 8, p->input_bytes / p->seconds_min / 1e6);
            fprintf(f, " %zu\n", p->n);
        }
    }
}

static void write_fits(FILE *f, const lines_t *L, const compare_study_t *st, bool time)
{
    fputs(time ? "# columns: threads seconds (power_time fit)\n"
               : "# columns: threads linear_rate_MBps usl_rate_MBps\n", f);
    for (size_t k = 0; k < L->n; k++) {
        char title[400];
        line_title(st, &L->items[k], title, sizeof title);
        gnuplot_block_start(f, k, title);
        const analysis_series_t *s = L->items[k].s;
        double lo = s->points[0].threads, hi = s->points[s->npoints - 1].threads;
        for (int i = 0; i < PLOT_CURVE_SAMPLES; i++) {
            double frac = (double)i / (PLOT_CURVE_SAMPLES - 1);
            double T = time ? lo * pow(hi / lo, frac) : lo + (hi - lo) * frac;
            fprintf(f, "%.6g", T);
            if (time) {
                gnuplot_value(f, 8, fit_time_at(&s->models[FIT_POWER_TIME], T));
            } else {
                gnuplot_value(f, 8, fit_rate_at(&s->models[FIT_LINEAR_RATE], T) / 1e6);
                gnuplot_value(f, 8, fit_rate_at(&s->models[FIT_USL], T) / 1e6);
            }
            fputc('\n', f);
        }
    }
}

static void write_ratio(FILE *f, const compare_result_t *r, const compare_study_t *st)
{
    fputs("# columns: threads rate_ratio ci_low ci_high has_ci (without an interval ci_low "
          "and ci_high repeat the ratio)\n", f);
    for (size_t k = 0; k < r->npairs; k++) {
        const compare_pair_t *p = &r->pairs[k];
        char lb[300], title[800];
        figure_series_label(p->b, false, lb, sizeof lb);
        snprintf(title, sizeof title, "%s / %s (%s)", st[p->study_b].label, st[0].label, lb);
        gnuplot_block_start(f, k, title);
        if (p->npoints == 0)
            fputs("NaN NaN NaN NaN 0\n", f);
        for (size_t i = 0; i < p->npoints; i++) {
            const compare_point_t *c = &p->points[i];
            bool ci = isfinite(c->ci_low) && isfinite(c->ci_high);
            fprintf(f, "%d", c->threads);
            gnuplot_value(f, 8, c->rate_ratio);
            gnuplot_value(f, 8, ci ? c->ci_low : c->rate_ratio);
            gnuplot_value(f, 8, ci ? c->ci_high : c->rate_ratio);
            fprintf(f, " %d\n", ci);
        }
    }
}

static void write_vars(FILE *f, const lines_t *L, const compare_result_t *r,
                       const compare_study_t *st)
{
    bool seen[RUNS_THREADS_MAX + 1] = {false};
    int tmin = 0, tmax = 0;
    size_t nthreads = 0;
    for (size_t k = 0; k < L->n; k++)
        for (size_t i = 0; i < L->items[k].s->npoints; i++) {
            int T = L->items[k].s->points[i].threads;
            if (T < 1 || T > RUNS_THREADS_MAX || seen[T])
                continue;
            seen[T] = true;
            nthreads++;
            tmin = tmin == 0 || T < tmin ? T : tmin;
            tmax = T > tmax ? T : tmax;
        }
    gnuplot_var_string(f, "measured", "");
    gnuplot_var_string(f, "codec", "");
    gnuplot_var_number(f, "threads_min", 10, tmin);
    gnuplot_var_number(f, "threads_max", 10, tmax);
    gnuplot_var_number(f, "threshold", 8, r->options.threshold);
    gnuplot_var_number(f, "fail_threshold", 8, isfinite(r->options.fail_threshold)
                       ? r->options.fail_threshold : -1.0);
    gnuplot_array(f, "threads_list", nthreads);
    size_t j = 0;
    for (int T = 1; T <= RUNS_THREADS_MAX; T++)
        if (seen[T])
            gnuplot_array_number(f, "threads_list", j++, T);
    gnuplot_array(f, "line_title", L->n);
    gnuplot_array(f, "line_study", L->n);
    gnuplot_array(f, "line_series", L->n);
    gnuplot_array(f, "power_eq", L->n);
    gnuplot_array(f, "linear_eq", L->n);
    for (size_t k = 0; k < L->n; k++) {
        char title[400], eq[160];
        line_title(st, &L->items[k], title, sizeof title);
        gnuplot_array_string(f, "line_title", k, title);
        gnuplot_array_number(f, "line_study", k, (double)(L->items[k].study + 1));
        /* Point type per series name: the same target looks the same in every study. */
        size_t series = 1;
        for (size_t m = 0; m < k && strcmp(L->items[m].s->name, L->items[k].s->name) != 0; m++) {
            bool first = true; /* count each name once, at its first line */
            for (size_t q = 0; q < m; q++)
                first &= strcmp(L->items[q].s->name, L->items[m].s->name) != 0;
            series += first;
        }
        gnuplot_array_number(f, "line_series", k, (double)series);
        const fit_result_t *pw = &L->items[k].s->models[FIT_POWER_TIME];
        const fit_result_t *lin = &L->items[k].s->models[FIT_LINEAR_RATE];
        if (pw->fitted)
            snprintf(eq, sizeof eq, "t = %.4g / T^%.3f", pw->param[0], pw->param[1]);
        else
            snprintf(eq, sizeof eq, "power law not fitted");
        gnuplot_array_string(f, "power_eq", k, eq);
        if (lin->fitted)
            snprintf(eq, sizeof eq, "rate = %.4g + %.4g T MB/s", lin->param[0] / 1e6,
                     lin->param[1] / 1e6);
        else
            snprintf(eq, sizeof eq, "linear rate not fitted");
        gnuplot_array_string(f, "linear_eq", k, eq);
    }
    gnuplot_array(f, "pair_title", r->npairs);
    for (size_t k = 0; k < r->npairs; k++) {
        char lb[300], title[400];
        figure_series_label(r->pairs[k].b, false, lb, sizeof lb);
        snprintf(title, sizeof title, "%c/A: %s", r->pairs[k].study_b < 26
                 ? (char)('A' + r->pairs[k].study_b) : '?', lb);
        gnuplot_array_string(f, "pair_title", k, title);
    }
}

typedef enum { FILE_POINTS, FILE_TIME, FILE_RATE, FILE_RATIO, FILE_VARS, FILE_COUNT } file_t;
static const char *const file_names[FILE_COUNT] = {
    "points.dat", "time_fit.dat", "rate_fit.dat", "ratio.dat", "vars.gp",
};

static int write_files(const owned_dir_t *datadir, const lines_t *L, const compare_result_t *r,
                       const compare_study_t *st, cp_err_t *err)
{
    for (int k = 0; k < FILE_COUNT; k++) {
        datafile_t d;
        int rc = datafile_open(&d, datadir, file_names[k], "compare", err);
        if (rc != CP_OK)
            return rc;
        switch ((file_t)k) {
        case FILE_POINTS: write_points(d.f, L, st); break;
        case FILE_TIME: write_fits(d.f, L, st, true); break;
        case FILE_RATE: write_fits(d.f, L, st, false); break;
        case FILE_RATIO: write_ratio(d.f, r, st); break;
        default: write_vars(d.f, L, r, st); break;
        }
        rc = datafile_commit(&d, err);
        if (rc != CP_OK)
            return rc;
    }
    return CP_OK;
}

/* ---- captions ------------------------------------------------------------------------- */

static void caption_fits(const compare_result_t *r, const compare_study_t *st, bool time,
                         char *buf, size_t cap)
{
    size_t used = (size_t)snprintf(buf, cap, time
        ? "Time against threads, log-log, one colour per study (power laws dashed): "
        : "Rate against threads, one colour per study (linear fits dashed): ");
    for (size_t k = 0; k < r->npairs && used < cap; k++) {
        const compare_pair_t *p = &r->pairs[k];
        char lb[300];
        figure_series_label(p->b, false, lb, sizeof lb);
        int n;
        if (time)
            n = snprintf(buf + used, cap - used, "%s%s: exponent %.3f in %s against %.3f in A",
                         k ? "; " : "", lb, p->exponent_b, st[p->study_b].label, p->exponent_a);
        else
            n = snprintf(buf + used, cap - used, "%s%s: slope ratio %.3f (%s over A)",
                         k ? "; " : "", lb, p->slope_ratio, st[p->study_b].label);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    if (used < cap)
        snprintf(buf + used, cap - used, ".");
}

static void caption_ratio(const compare_result_t *r, char *buf, size_t cap)
{
    size_t used = (size_t)snprintf(buf, cap, "B/A per thread count with its interval; the "
                                   "grey band is the +-%.3g%% threshold. ",
                                   r->options.threshold * 100.0);
    for (size_t k = 0; k < r->npairs && used < cap; k++) {
        char sum[256], lb[300];
        compare_pair_summary(r, &r->pairs[k], sum, sizeof sum);
        figure_series_label(r->pairs[k].b, false, lb, sizeof lb);
        int n = snprintf(buf + used, cap - used, "%s%s: %s", k ? "; " : "", lb, sum);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    if (used < cap)
        snprintf(buf + used, cap - used, ".");
}

/* ---- drawing -------------------------------------------------------------------------- */

static int draw(const owned_dir_t *top, const owned_dir_t *datadir, const compare_result_t *r,
                const compare_study_t *studies, plot_format_t fmt, bool replace,
                plot_set_t *out, cp_err_t *err);

int compare_plot_render(const char *dir, const compare_result_t *r,
                        const compare_study_t *studies, size_t nstudies, plot_format_t fmt,
                        bool replace, plot_set_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    (void)nstudies;
    owned_dir_t top = OWNED_DIR_INIT, datadir = OWNED_DIR_INIT;
    int rc = owned_dir_open(&top, dir, true, err);
    if (rc == CP_OK)
        rc = owned_dir_open_in(&datadir, &top, COMPARE_PLOT_DATA_DIR, true, err);
    if (rc == CP_OK)
        rc = draw(&top, &datadir, r, studies, fmt, replace, out, err);
    owned_dir_close(&datadir);
    owned_dir_close(&top);
    return rc;
}

/* compare_plot_render's work once its directories are open. */
static int draw(const owned_dir_t *top, const owned_dir_t *datadir, const compare_result_t *r,
                const compare_study_t *studies, plot_format_t fmt, bool replace,
                plot_set_t *out, cp_err_t *err)
{
    lines_t *L = calloc(1, sizeof *L);
    if (L == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    for (size_t k = 0; k < r->npairs; k++) {
        lines_add(L, 0, r->pairs[k].a);
        lines_add(L, r->pairs[k].study_b, r->pairs[k].b);
    }
    int rc = write_files(datadir, L, r, studies, err);
    free(L);
    if (rc != CP_OK)
        return rc;
    static const char *const names[] = {"compare_time", "compare_rate", "compare_ratio"};
    for (size_t i = 0; i < 3; i++) {
        plot_file_t *pf = &out->plots[out->n++];
        snprintf(pf->name, sizeof pf->name, "%s", names[i]);
        if (i < 2)
            caption_fits(r, studies, i == 0, pf->caption, sizeof pf->caption);
        else
            caption_ratio(r, pf->caption, sizeof pf->caption);
    }
    return plot_gnuplot_draw_set(top, datadir, COMPARE_PLOT_DATA_DIR, fmt, replace, out, err);
}
