#include "report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "model/stats.h"
#include "report/analysis_text.h"

extern char **environ;

#define CURVE_SAMPLES 121 /* points per fitted curve: smooth at 1000 px wide */
#define MB 1e6            /* rates and sizes in the data files are decimal MB */

int plot_format_parse(const char *text, plot_format_t *out, cp_err_t *err)
{
    if (strcmp(text, "png") == 0)
        *out = PLOT_PNG;
    else if (strcmp(text, "svg") == 0)
        *out = PLOT_SVG;
    else if (strcmp(text, "both") == 0)
        *out = PLOT_BOTH;
    else
        return cp_err_set(err, CP_EUSAGE, "--format '%s': expected png, svg or both", text);
    return 0;
}

size_t plot_gnuplot_quote(const char *s, char *out, size_t cap)
{
    size_t n = 0;
#define PUT(c) do { if (n + 1 < cap) out[n] = (c); n++; } while (0)
    PUT('\'');
    for (; *s; s++) {
        if (*s == '\'')
            PUT('\'');
        PUT(*s);
    }
    PUT('\'');
#undef PUT
    if (cap > 0)
        out[n < cap ? n : cap - 1] = '\0';
    return n;
}

/* ---- data files: written beside their final name, renamed into place ----------------- */

typedef struct datafile {
    FILE *f;
    char path[PATH_MAX];
    char tmp[PATH_MAX + 32];
    int slot;
} datafile_t;

static int datafile_open(datafile_t *d, const char *dir, const char *name, cp_err_t *err)
{
    memset(d, 0, sizeof *d);
    d->slot = -1;
    if ((size_t)snprintf(d->path, sizeof d->path, "%s/%s", dir, name) >= sizeof d->path)
        return cp_err_set(err, CP_EIO, "%s/%s: path too long", dir, name);
    snprintf(d->tmp, sizeof d->tmp, "%s.chokepoint-tmp.XXXXXX", d->path);
    int fd = mkstemp(d->tmp);
    if (fd < 0) {
        d->f = NULL;
        return cp_err_errno(err, CP_EIO, errno, "%s: cannot create", d->path);
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    d->slot = cp_cleanup_track(d->tmp);
    d->f = fdopen(fd, "w");
    if (d->f == NULL) {
        int rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot open", d->tmp);
        close(fd);
        unlink(d->tmp);
        cp_cleanup_forget(d->slot);
        return rc;
    }
    fprintf(d->f, "# %s - written by chokepoint plot; regenerated on every run\n", name);
    return 0;
}

/* Closes the file and renames it into place, or removes it on any failure. */
static int datafile_commit(datafile_t *d, cp_err_t *err)
{
    int rc = 0;
    if (ferror(d->f) || fflush(d->f) != 0)
        rc = cp_err_errno(err, CP_EIO, errno ? errno : EIO, "%s: cannot write", d->path);
    if (fclose(d->f) != 0 && rc == 0)
        rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot write", d->path);
    d->f = NULL;
    if (rc == 0 && rename(d->tmp, d->path) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot rename into place", d->path);
    if (rc != 0)
        unlink(d->tmp);
    if (d->slot >= 0)
        cp_cleanup_forget(d->slot);
    return rc;
}

/* Closes and removes an unfinished data file. */
static void datafile_abort(datafile_t *d)
{
    if (d->f != NULL)
        fclose(d->f);
    d->f = NULL;
    unlink(d->tmp);
    if (d->slot >= 0)
        cp_cleanup_forget(d->slot);
}

/* Appends printf text to buf (cap bytes), never overflowing. */
__attribute__((format(printf, 3, 4)))
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

/* ---- labels -------------------------------------------------------------------------- */

typedef struct plot_ctx {
    const analysis_t *a;
    const probe_table_t *probe;
    char datadir[PATH_MAX];
    bool multi_codec;       /* series differ in codec: titles name it */
    int tmin, tmax;         /* thread counts measured, over all series */
    double bottleneck_xmax; /* x range of the bottleneck plot (crossovers included) */
    double bottleneck_ymax; /* its y range in MB/s: the data and the ceilings near it */
} plot_ctx_t;

static const char *series_title(const plot_ctx_t *c, const analysis_series_t *s, char *buf,
                                size_t cap)
{
    char tag[64] = "";
    char rate[32];
    if (s->is_mem)
        snprintf(tag, sizeof tag, " (CPU only)");
    else if (s->emulated == 1 && s->rate_cap_bps > 0.0)
        snprintf(tag, sizeof tag, " (emulated %s)",
                 analysis_format_rate(s->rate_cap_bps, rate, sizeof rate));
    else if (s->emulated == 1)
        snprintf(tag, sizeof tag, " (emulated)");
    else if (s->ram == 1)
        snprintf(tag, sizeof tag, " (RAM)");
    if (c->multi_codec && s->codec[0])
        snprintf(buf, cap, "%s %s%s", s->name, s->codec, tag);
    else
        snprintf(buf, cap, "%s%s", s->name, tag);
    return buf;
}

/* A series as captions name it: the target (and codec when several are plotted). */
static const char *caption_name(const plot_ctx_t *c, const analysis_series_t *s, char *buf,
                                size_t cap)
{
    if (c->multi_codec && s->codec[0])
        snprintf(buf, cap, "%.120s (%.120s)", s->name, s->codec);
    else
        snprintf(buf, cap, "%s", s->name);
    return buf;
}

/* "median of 3 runs, fsync'd": how the points were measured, as far as the runs tell. */
static void measured_text(const analysis_t *a, char *buf, size_t cap)
{
    size_t nmin = (size_t)-1, nmax = 0;
    const char *sync = NULL;
    bool same_sync = true;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        for (size_t k = 0; k < s->npoints; k++) {
            nmin = s->points[k].n < nmin ? s->points[k].n : nmin;
            nmax = s->points[k].n > nmax ? s->points[k].n : nmax;
        }
        if (s->is_mem)
            continue; /* mem writes nothing, so its sync mode says nothing */
        if (sync == NULL)
            sync = s->sync;
        else if (strcmp(sync, s->sync) != 0)
            same_sync = false;
    }
    size_t len;
    if (nmax <= 1)
        len = (size_t)snprintf(buf, cap, "one run per point");
    else if (nmin == nmax)
        len = (size_t)snprintf(buf, cap, "median of %zu runs, bars min to max", nmax);
    else
        len = (size_t)snprintf(buf, cap, "median of %zu-%zu runs, bars min to max", nmin, nmax);
    const char *how = NULL;
    if (sync != NULL && same_sync) {
        if (strcmp(sync, "fsync") == 0)
            how = "fsync'd";
        else if (strcmp(sync, "direct") == 0)
            how = "O_DIRECT";
        else if (strcmp(sync, "none") == 0)
            how = "not fsync'd";
    }
    if (how != NULL && len < cap)
        snprintf(buf + len, cap - len, ", %s", how);
}

/* ---- vars.gp helpers ---------------------------------------------------------------- */

static void var_string(FILE *f, const char *name, const char *value)
{
    char quoted[1024];
    plot_gnuplot_quote(value, quoted, sizeof quoted);
    fprintf(f, "%s = %s\n", name, quoted);
}

static void var_number(FILE *f, const char *name, double value)
{
    if (isfinite(value))
        fprintf(f, "%s = %.10g\n", name, value);
    else
        fprintf(f, "%s = NaN\n", name);
}

/* Declares an array of n elements and its count n_NAME. Gnuplot needs at least one
 * element, so an empty array gets one '' that templates never show. */
static void var_array(FILE *f, const char *name, size_t n)
{
    fprintf(f, "\nn_%s = %zu\narray %s[%zu]\n", name, n, name, n ? n : 1);
    if (n == 0)
        fprintf(f, "%s[1] = ''\n", name);
}

static void var_array_string(FILE *f, const char *name, size_t i, const char *value)
{
    char quoted[1024];
    plot_gnuplot_quote(value, quoted, sizeof quoted);
    fprintf(f, "%s[%zu] = %s\n", name, i + 1, quoted);
}

static void var_array_number(FILE *f, const char *name, size_t i, double value)
{
    if (isfinite(value))
        fprintf(f, "%s[%zu] = %.10g\n", name, i + 1, value);
    else
        fprintf(f, "%s[%zu] = NaN\n", name, i + 1);
}

/* Gnuplot indexes data blocks separated by two blank lines. */
static void block_start(FILE *f, size_t index, const char *what)
{
    if (index > 0)
        fputs("\n\n", f);
    fprintf(f, "# index %zu: %s\n", index, what);
}

static void put_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.6g", v);
    else
        fputs(" NaN", f);
}

/* T values from lo to hi, geometric when log (for log axes) or evenly spaced. */
static double sample_threads(double lo, double hi, int i, int n, bool log_spaced)
{
    double f = n > 1 ? (double)i / (n - 1) : 0.0;
    return log_spaced ? lo * pow(hi / lo, f) : lo + (hi - lo) * f;
}

/* ---- series data: points, time and rate curves ---------------------------------------- */

static void write_points(const plot_ctx_t *c, FILE *f)
{
    fputs("# columns: threads seconds seconds_min seconds_max rate_MBps rate_min_MBps "
          "rate_max_MBps runs\n", f);
    char title[256];
    for (size_t i = 0; i < c->a->nseries; i++) {
        const analysis_series_t *s = &c->a->series[i];
        block_start(f, i, series_title(c, s, title, sizeof title));
        for (size_t k = 0; k < s->npoints; k++) {
            const analysis_point_t *p = &s->points[k];
            fprintf(f, "%d", p->threads);
            put_number(f, p->seconds);
            put_number(f, p->seconds_min);
            put_number(f, p->seconds_max);
            put_number(f, p->bytes_per_s / MB);
            put_number(f, p->input_bytes / p->seconds_max / MB);
            put_number(f, p->input_bytes / p->seconds_min / MB);
            fprintf(f, " %zu\n", p->n);
        }
    }
}

static void write_time_fit(const plot_ctx_t *c, FILE *f)
{
    fputs("# columns: threads seconds (power_time fit); NaN when not fitted\n", f);
    char title[256];
    for (size_t i = 0; i < c->a->nseries; i++) {
        const analysis_series_t *s = &c->a->series[i];
        const fit_result_t *m = &s->models[FIT_POWER_TIME];
        block_start(f, i, series_title(c, s, title, sizeof title));
        double lo = s->points[0].threads, hi = s->points[s->npoints - 1].threads;
        if (!m->fitted || hi <= lo) {
            fputs("1 NaN\n", f);
            continue;
        }
        for (int k = 0; k < CURVE_SAMPLES; k++) {
            double T = sample_threads(lo, hi, k, CURVE_SAMPLES, true);
            fprintf(f, "%.6g", T);
            put_number(f, fit_time_at(m, T));
            fputc('\n', f);
        }
    }
}

static void write_rate_fit(const plot_ctx_t *c, FILE *f)
{
    fputs("# columns: threads linear_rate_MBps usl_rate_MBps; NaN when not fitted\n", f);
    char title[256];
    for (size_t i = 0; i < c->a->nseries; i++) {
        const analysis_series_t *s = &c->a->series[i];
        block_start(f, i, series_title(c, s, title, sizeof title));
        double lo = s->points[0].threads, hi = s->points[s->npoints - 1].threads;
        if (hi <= lo) {
            fputs("1 NaN NaN\n", f);
            continue;
        }
        for (int k = 0; k < CURVE_SAMPLES; k++) {
            double T = sample_threads(lo, hi, k, CURVE_SAMPLES, false);
            fprintf(f, "%.6g", T);
            put_number(f, fit_rate_at(&s->models[FIT_LINEAR_RATE], T) / MB);
            put_number(f, fit_rate_at(&s->models[FIT_USL], T) / MB);
            fputc('\n', f);
        }
    }
}

static void write_series_vars(const plot_ctx_t *c, FILE *f)
{
    const analysis_t *a = c->a;
    char buf[512];
    var_array(f, "series_title", a->nseries);
    for (size_t i = 0; i < a->nseries; i++)
        var_array_string(f, "series_title", i, series_title(c, &a->series[i], buf, sizeof buf));
    var_array(f, "series_name", a->nseries); /* without the tags, for long key entries */
    for (size_t i = 0; i < a->nseries; i++)
        var_array_string(f, "series_name", i, caption_name(c, &a->series[i], buf, sizeof buf));
    static const struct { const char *name; fit_kind_t kind; } eqs[] = {
        {"power_eq", FIT_POWER_TIME}, {"linear_eq", FIT_LINEAR_RATE}, {"usl_eq", FIT_USL},
    };
    for (size_t e = 0; e < sizeof eqs / sizeof eqs[0]; e++) {
        var_array(f, eqs[e].name, a->nseries);
        for (size_t i = 0; i < a->nseries; i++) {
            const fit_result_t *m = &a->series[i].models[eqs[e].kind];
            var_array_string(f, eqs[e].name, i,
                             m->fitted ? analysis_format_model(m, buf, sizeof buf) : "");
        }
    }
    /* A short USL label for the key: where the curve peaks. */
    var_array(f, "usl_short", a->nseries);
    for (size_t i = 0; i < a->nseries; i++) {
        const fit_result_t *m = &a->series[i].models[FIT_USL];
        if (!m->fitted)
            buf[0] = '\0';
        else if (isfinite(m->peak_threads) && m->peak_threads < ANALYSIS_CROSSOVER_MAX_THREADS)
            snprintf(buf, sizeof buf, "USL, peaks at T = %.0f", m->peak_threads);
        else
            snprintf(buf, sizeof buf, "USL, no peak");
        var_array_string(f, "usl_short", i, buf);
    }
    var_array(f, "series_is_mem", a->nseries);
    for (size_t i = 0; i < a->nseries; i++)
        var_array_number(f, "series_is_mem", i, a->series[i].is_mem ? 1 : 0);

    /* The thread counts measured, for axis tics. */
    bool seen[RUNS_THREADS_MAX + 1] = {false};
    size_t nthreads = 0;
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++)
            if (!seen[a->series[i].points[k].threads]) {
                seen[a->series[i].points[k].threads] = true;
                nthreads++;
            }
    var_array(f, "threads_list", nthreads);
    for (int T = 1, i = 0; T <= RUNS_THREADS_MAX; T++)
        if (seen[T])
            var_array_number(f, "threads_list", (size_t)i++, T);
}

/* ---- the bottleneck picture: CPU rate, volume ceilings, crossovers -------------------- */

static const analysis_ceiling_t *series_ceiling(const analysis_t *a, const analysis_series_t *s)
{
    return s->ceiling < a->nceilings ? &a->ceilings[s->ceiling] : NULL;
}

static bool has_volume_ceiling(const analysis_series_t *s)
{
    return !s->is_mem && (s->write_ceiling_bps > 0.0 || s->read_ceiling_bps > 0.0);
}

/* Crossovers close enough to the measured range are drawn; farther ones only told. */
static bool crossover_drawn(const plot_ctx_t *c, const analysis_series_t *s)
{
    return isfinite(s->crossover_threads) && s->crossover_threads <= 2.0 * c->tmax;
}

static double crossover_limit_bps(const analysis_series_t *s)
{
    return s->crossover_limit == VERDICT_READ ? s->read_ceiling_bps : s->write_ceiling_bps;
}

static void write_cpu(const plot_ctx_t *c, FILE *f, FILE *fit)
{
    fputs("# columns: threads cpu_ceiling_rate_MBps (measured)\n", f);
    fputs("# columns: threads cpu_ceiling_rate_MBps (the ceiling's best rate model)\n", fit);
    for (size_t i = 0; i < c->a->nceilings; i++) {
        const analysis_ceiling_t *ce = &c->a->ceilings[i];
        block_start(f, i, ce->codec[0] ? ce->codec : "CPU ceiling");
        block_start(fit, i, ce->codec[0] ? ce->codec : "CPU ceiling");
        for (size_t k = 0; k < ce->npoints; k++)
            fprintf(f, "%d %.6g\n", ce->threads[k], ce->bytes_per_s[k] / MB);
        if (ce->best_rate_model < 0) {
            fputs("1 NaN\n", fit);
            continue;
        }
        for (int k = 0; k < CURVE_SAMPLES; k++) {
            double T = sample_threads(1.0, c->bottleneck_xmax, k, CURVE_SAMPLES, false);
            fprintf(fit, "%.6g", T);
            put_number(fit, fit_rate_at(&ce->models[ce->best_rate_model], T) / MB);
            fputc('\n', fit);
        }
    }
}

/* One horizontal line per volume ceiling: each series' write ceiling, and its read
 * ceiling when that is what limits it (read ceilings are shared, so drawn once). */
static size_t write_ceilings(const plot_ctx_t *c, FILE *f, FILE *vars)
{
    const analysis_t *a = c->a;
    fputs("# columns: threads ceiling_rate_MBps (two points: a horizontal line)\n", f);
    size_t n = 0;
    char title[512], name[256], rate[32];
    /* Count first: vars.gp declares the arrays before their elements. */
    double drawn_reads[ANALYSIS_SERIES_MAX];
    size_t nreads = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            var_array(vars, "ceiling_title", n);
            var_array(vars, "ceiling_series", n);
            var_array(vars, "ceiling_is_read", n);
        }
        n = 0;
        nreads = 0;
        for (size_t i = 0; i < a->nseries; i++) {
            const analysis_series_t *s = &a->series[i];
            if (!has_volume_ceiling(s))
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
                    caption_name(c, s, name, sizeof name);
                    if (read)
                        snprintf(title, sizeof title, "read ceiling %s (from %s)",
                                 analysis_format_rate(bps, rate, sizeof rate), s->read_from);
                    else if (s->output_ratio > 0.0)
                        snprintf(title, sizeof title, "%s write ceiling %s (ratio %.2f)",
                                 name, analysis_format_rate(bps, rate, sizeof rate),
                                 s->output_ratio);
                    else
                        snprintf(title, sizeof title, "%s write ceiling %s", name,
                                 analysis_format_rate(bps, rate, sizeof rate));
                    if (bps / MB > c->bottleneck_ymax)
                        append(title, sizeof title, ", above the plot");
                    block_start(f, n, title);
                    fprintf(f, "1 %.6g\n%.6g %.6g\n", bps / MB, c->bottleneck_xmax, bps / MB);
                    var_array_string(vars, "ceiling_title", n, title);
                    var_array_number(vars, "ceiling_series", n, (double)i + 1);
                    var_array_number(vars, "ceiling_is_read", n, read);
                }
                n++;
            }
        }
    }
    return n;
}

static void write_crossovers(const plot_ctx_t *c, FILE *f, FILE *vars)
{
    const analysis_t *a = c->a;
    fputs("# columns: threads rate_MBps series (1-based index in points.dat + 1)\n"
          "# where the CPU ceiling's fitted rate reaches the series' volume ceiling\n", f);
    size_t n = 0;
    for (size_t i = 0; i < a->nseries; i++)
        n += crossover_drawn(c, &a->series[i]);
    var_array(vars, "cross_label", n);
    char name[256], label[320];
    n = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (!crossover_drawn(c, s))
            continue;
        fprintf(f, "%.6g %.6g %zu\n", s->crossover_threads, crossover_limit_bps(s) / MB, i + 1);
        snprintf(label, sizeof label, "%s: T = %.3g", caption_name(c, s, name, sizeof name),
                 s->crossover_threads);
        var_array_string(vars, "cross_label", n++, label);
    }
    if (n == 0)
        fputs("NaN NaN 0\n", f);
}

/* ---- probe speeds --------------------------------------------------------------------- */

typedef struct probe_targets {
    const char **names; /* into the probe table */
    size_t n;
} probe_targets_t;

static int probe_targets(const probe_table_t *p, probe_targets_t *out)
{
    out->n = 0;
    out->names = malloc((p->nrows ? p->nrows : 1) * sizeof *out->names);
    if (out->names == NULL)
        return CP_ENOMEM;
    for (size_t i = 0; i < p->nrows; i++) {
        bool seen = false;
        for (size_t k = 0; k < out->n && !seen; k++)
            seen = strcmp(out->names[k], p->rows[i].target) == 0;
        if (!seen)
            out->names[out->n++] = p->rows[i].target;
    }
    return 0;
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

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
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
    qsort(sizes, nsizes, sizeof *sizes, compare_double);
    size_t written = 0;
    for (size_t k = 0; k < nsizes; k++) {
        if (k > 0 && sizes[k] == sizes[k - 1])
            continue;
        size_t m = 0;
        for (size_t i = 0; i < p->nrows; i++)
            if (p->rows[i].op == op && strcmp(p->rows[i].target, target) == 0 &&
                p->rows[i].size_bytes == sizes[k])
                rates[m++] = p->rows[i].bytes_per_s;
        qsort(rates, m, sizeof *rates, compare_double);
        fprintf(f, "%.6g %.6g %.6g %.6g %zu\n", sizes[k] / MB, stats_median(rates, m) / MB,
                rates[0] / MB, rates[m - 1] / MB, m);
        written++;
    }
    if (written == 0)
        fputs("NaN NaN NaN NaN 0\n", f);
    free(sizes);
    free(rates);
    return 0;
}

static const char *probe_title(const probe_table_t *p, const char *target, char *buf, size_t cap)
{
    int emulated = -1, ram = -1;
    for (size_t i = 0; i < p->nrows; i++)
        if (strcmp(p->rows[i].target, target) == 0) {
            emulated = emulated == 1 ? 1 : p->rows[i].emulated;
            ram = ram == 1 ? 1 : p->rows[i].ram;
        }
    snprintf(buf, cap, "%s%s", target, emulated == 1 ? " (emulated)" : ram == 1 ? " (RAM)" : "");
    return buf;
}

static int write_probe(const plot_ctx_t *c, const probe_targets_t *t, FILE *f, FILE *vars)
{
    fputs("# columns: size_MB median_MBps min_MBps max_MBps reps\n"
          "# blocks: for each target, its writes (index 2k) then its reads (index 2k+1)\n", f);
    char title[256], what[300];
    var_array(vars, "probe_title", t->n);
    for (size_t k = 0; k < t->n; k++) {
        probe_title(c->probe, t->names[k], title, sizeof title);
        var_array_string(vars, "probe_title", k, title);
        for (int op = 0; op < 2; op++) {
            snprintf(what, sizeof what, "%s %s", t->names[k], op ? "read" : "write");
            block_start(f, 2 * k + (size_t)op, what);
            int rc = write_probe_block(c->probe, t->names[k],
                                       op ? PROBE_OP_READ : PROBE_OP_WRITE, f);
            if (rc != 0)
                return rc;
        }
    }
    var_array(vars, "probe_has_read", t->n);
    for (size_t k = 0; k < t->n; k++)
        var_array_number(vars, "probe_has_read", k,
                         probe_has(c->probe, t->names[k], PROBE_OP_READ, true));
    var_array(vars, "probe_has_write", t->n);
    for (size_t k = 0; k < t->n; k++)
        var_array_number(vars, "probe_has_write", k,
                         probe_has(c->probe, t->names[k], PROBE_OP_WRITE, true));
    return 0;
}

/* Sustained samples per target: seconds since the start (or GB written when the file
 * has no seconds) against MB/s over the interval. */
static size_t write_sustained(const plot_ctx_t *c, const probe_targets_t *t, FILE *f,
                              FILE *vars)
{
    const probe_table_t *p = c->probe;
    bool by_time = true;
    for (size_t i = 0; i < p->nrows; i++)
        if (p->rows[i].op == PROBE_OP_SUSTAINED && !isfinite(p->rows[i].seconds))
            by_time = false;
    fprintf(f, "# columns: %s rate_MBps\n", by_time ? "seconds" : "GB_written");
    var_string(vars, "sustained_xlabel", by_time ? "time since the start of the write (s)"
                                                 : "data written (GB)");
    size_t n = 0;
    for (size_t k = 0; k < t->n; k++)
        n += probe_has(p, t->names[k], PROBE_OP_SUSTAINED, false);
    var_array(vars, "sustained_title", n);
    char title[256];
    n = 0;
    for (size_t k = 0; k < t->n; k++) {
        if (!probe_has(p, t->names[k], PROBE_OP_SUSTAINED, false))
            continue;
        block_start(f, n, t->names[k]);
        var_array_string(vars, "sustained_title", n++,
                         probe_title(p, t->names[k], title, sizeof title));
        for (size_t i = 0; i < p->nrows; i++) {
            const probe_speed_row_t *r = &p->rows[i];
            if (r->op != PROBE_OP_SUSTAINED || strcmp(r->target, t->names[k]) != 0)
                continue;
            double x = by_time ? r->seconds : r->size_bytes / 1e9;
            put_number(f, x);
            put_number(f, r->bytes_per_s / MB);
            fputc('\n', f);
        }
    }
    return n;
}

/* ---- compression rate against write speed --------------------------------------------- */

static bool on_rate_vs_write(const analysis_series_t *s)
{
    return !s->is_mem && s->write_bps > 0.0;
}

static size_t write_rate_vs_write(const plot_ctx_t *c, FILE *f, FILE *vars)
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
        n += on_rate_vs_write(&a->series[i]);
    var_array(vars, "rvw_label", n);
    char name[256];
    n = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (!on_rate_vs_write(s))
            continue;
        const analysis_point_t *top = &s->points[s->npoints - 1];
        const analysis_verdict_t *v = &s->verdicts[s->npoints - 1];
        fprintf(f, "%.6g %.6g %d", s->write_bps / MB, top->bytes_per_s / MB, top->threads);
        put_number(f, s->output_ratio);
        put_number(f, v->cpu_ceiling_bps / MB);
        fputc('\n', f);
        var_array_string(vars, "rvw_label", n++, series_title(c, s, name, sizeof name));
        if (s->output_ratio > 0.0)
            ratios[nratios++] = s->output_ratio;
        /* One CPU line only makes sense when every point is at the same T and codec. */
        if (threads == -1) {
            threads = top->threads;
            cpu = v->cpu_ceiling_bps;
        } else if (threads != top->threads || series_ceiling(a, s) != series_ceiling(a, &a->series[0]))
            threads = 0;
    }
    if (n == 0)
        fputs("NaN NaN 0 NaN NaN\n", f);
    var_number(vars, "rvw_ratio", nratios ? stats_median(ratios, nratios) : 1.0);
    var_number(vars, "rvw_threads", threads > 0 ? threads : NAN);
    var_number(vars, "rvw_cpu", threads > 0 && !c->multi_codec ? cpu / MB : NAN);
    return n;
}

/* ---- captions: one sentence of reading per plot ---------------------------------------- */

static void doubling_text(double b, char *buf, size_t cap)
{
    double cut = 1.0 - pow(2.0, -b);
    if (cut >= 0.0)
        snprintf(buf, cap, "doubling threads cuts time by %.0f%%", 100.0 * cut);
    else
        snprintf(buf, cap, "doubling threads adds %.0f%% to the time", -100.0 * cut);
}

static void caption_time(const plot_ctx_t *c, char *buf, size_t cap)
{
    const analysis_t *a = c->a;
    const analysis_series_t *best = NULL, *worst = NULL;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (!s->models[FIT_POWER_TIME].fitted)
            continue;
        double b = s->models[FIT_POWER_TIME].param[1];
        if (best == NULL || b > best->models[FIT_POWER_TIME].param[1])
            best = s;
        if (worst == NULL || b < worst->models[FIT_POWER_TIME].param[1])
            worst = s;
    }
    if (best == NULL) {
        snprintf(buf, cap, "No target was measured at two thread counts, so no power law is "
                           "drawn; points are medians with min-max bars.");
        return;
    }
    char name[256], eq[128], dbl[96];
    const fit_result_t *m = &best->models[FIT_POWER_TIME];
    caption_name(c, best, name, sizeof name);
    doubling_text(m->param[1], dbl, sizeof dbl);
    if (worst == best) {
        snprintf(buf, cap, "%s scales as %s: %s.", name,
                 analysis_format_model(m, eq, sizeof eq), dbl);
        return;
    }
    snprintf(buf, cap, "%s scales best, as %s (%s), ", name,
             analysis_format_model(m, eq, sizeof eq), dbl);
    m = &worst->models[FIT_POWER_TIME];
    doubling_text(m->param[1], dbl, sizeof dbl);
    append(buf, cap, "and %s worst, as %s (%s).", caption_name(c, worst, name, sizeof name),
           analysis_format_model(m, eq, sizeof eq), dbl);
}

static void caption_rate(const plot_ctx_t *c, char *buf, size_t cap)
{
    const analysis_t *a = c->a;
    const analysis_ceiling_t *ce = a->nceilings > 0 ? &a->ceilings[0] : NULL;
    if (ce == NULL) {
        snprintf(buf, cap, "No CPU ceiling could be formed from these runs.");
        return;
    }
    const fit_result_t *models = ce->mem ? ce->mem->models : ce->models;
    char who[300], rate[32];
    if (ce->mem != NULL)
        caption_name(c, ce->mem, who, sizeof who);
    else
        snprintf(who, sizeof who, "The fastest target at each thread count");
    const fit_result_t *lin = &models[FIT_LINEAR_RATE], *usl = &models[FIT_USL];
    if (!lin->fitted) {
        snprintf(buf, cap, "%s was measured at too few thread counts to fit a rate model.", who);
        return;
    }
    snprintf(buf, cap, "%s %s %s per added thread on the linear fit", who,
             lin->param[1] >= 0.0 ? "gains" : "loses",
             analysis_format_rate(fabs(lin->param[1]), rate, sizeof rate));
    if (!usl->fitted)
        append(buf, cap, "; too few thread counts for the USL curve.");
    else if (isfinite(usl->peak_threads) && usl->peak_threads < ANALYSIS_CROSSOVER_MAX_THREADS)
        append(buf, cap, ", and the USL curve (contention %.2g, coherency %.2g) peaks at "
               "%.0f threads.", usl->param[1], usl->param[2], usl->peak_threads);
    else
        append(buf, cap, ", and the USL curve (contention %.2g) has no peak: more threads "
               "keep helping.", usl->param[1]);
}

/* Earliest crossover first; series that never cross last, in their own order. */
static int compare_crossover(const void *x, const void *y)
{
    const analysis_series_t *a = *(const analysis_series_t *const *)x;
    const analysis_series_t *b = *(const analysis_series_t *const *)y;
    double ta = isfinite(a->crossover_threads) ? a->crossover_threads : INFINITY;
    double tb = isfinite(b->crossover_threads) ? b->crossover_threads : INFINITY;
    if (ta != tb)
        return ta < tb ? -1 : 1;
    return (a > b) - (a < b);
}

static void caption_bottleneck(const plot_ctx_t *c, char *buf, size_t cap)
{
    const analysis_t *a = c->a;
    buf[0] = '\0';
    char name[256], rate[32];
    size_t told = 0, left = 0;
    const analysis_series_t **order = malloc((a->nseries ? a->nseries : 1) * sizeof *order);
    if (order == NULL) {
        snprintf(buf, cap, "The CPU rate against each volume's ceiling.");
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < a->nseries; i++)
        if (has_volume_ceiling(&a->series[i]))
            order[n++] = &a->series[i];
    qsort(order, n, sizeof *order, compare_crossover);
    for (size_t i = 0; i < n; i++) {
        const analysis_series_t *s = order[i];
        if (told == 3) {
            left++;
            continue;
        }
        caption_name(c, s, name, sizeof name);
        const char *kind = s->crossover_limit == VERDICT_READ ? "read" : "write";
        double limit = crossover_limit_bps(s);
        if (!(limit > 0.0)) {
            limit = s->write_ceiling_bps > 0.0 ? s->write_ceiling_bps : s->read_ceiling_bps;
            kind = s->write_ceiling_bps > 0.0 ? "write" : "read";
        }
        append(buf, cap, "%s", told ? "; " : "");
        if (isfinite(s->crossover_threads))
            append(buf, cap, "%s's %s ceiling (%s) meets the CPU rate at T = %.2g, so beyond "
                   "%d thread%s the volume limits the job", name, kind,
                   analysis_format_rate(limit, rate, sizeof rate), s->crossover_threads,
                   (int)floor(s->crossover_threads),
                   (int)floor(s->crossover_threads) == 1 ? "" : "s");
        else if (s->crossover_model >= 0)
            append(buf, cap, "%s's %s ceiling (%s) stays above the CPU rate up to %g threads",
                   name, kind, analysis_format_rate(limit, rate, sizeof rate),
                   ANALYSIS_CROSSOVER_MAX_THREADS);
        else
            append(buf, cap, "%s's %s ceiling is %s (the CPU rate has no model to meet it)",
                   name, kind, analysis_format_rate(limit, rate, sizeof rate));
        told++;
    }
    free(order);
    if (left > 0)
        append(buf, cap, "; %zu more target%s in the plot", left, left == 1 ? "" : "s");
    append(buf, cap, ".");
}

static void caption_probe(const plot_ctx_t *c, const probe_targets_t *t, char *buf, size_t cap)
{
    snprintf(buf, cap, "At the largest file size, ");
    char w[32], r[32];
    size_t told = 0;
    for (size_t k = 0; k < t->n && told < 4; k++) {
        double wb = probe_table_speed(c->probe, t->names[k], PROBE_OP_WRITE);
        double rb = probe_table_speed(c->probe, t->names[k], PROBE_OP_READ);
        if (!isfinite(wb) && !isfinite(rb))
            continue;
        append(buf, cap, "%s%s ", told ? "; " : "", t->names[k]);
        if (isfinite(wb))
            append(buf, cap, "writes %s", analysis_format_rate(wb, w, sizeof w));
        if (isfinite(wb) && isfinite(rb))
            append(buf, cap, " and ");
        if (isfinite(rb))
            append(buf, cap, "reads %s", analysis_format_rate(rb, r, sizeof r));
        told++;
    }
    append(buf, cap, "%s.", t->n > told ? " (more in the plot)" : "");
}

static void caption_sustained(const plot_ctx_t *c, const probe_targets_t *t, char *buf,
                              size_t cap)
{
    const probe_table_t *p = c->probe;
    snprintf(buf, cap, "Over one long write, ");
    double *rates = malloc((p->nrows ? p->nrows : 1) * sizeof *rates);
    if (rates == NULL) {
        snprintf(buf, cap, "Write speed over one long write.");
        return;
    }
    size_t told = 0;
    char lo[32], hi[32], med[32];
    for (size_t k = 0; k < t->n && told < 3; k++) {
        size_t m = 0;
        for (size_t i = 0; i < p->nrows; i++)
            if (p->rows[i].op == PROBE_OP_SUSTAINED && strcmp(p->rows[i].target, t->names[k]) == 0)
                rates[m++] = p->rows[i].bytes_per_s;
        if (m == 0)
            continue;
        qsort(rates, m, sizeof *rates, compare_double);
        append(buf, cap, "%s%s ran between %s and %s (median %s)", told ? "; " : "",
               t->names[k], analysis_format_rate(rates[0], lo, sizeof lo),
               analysis_format_rate(rates[m - 1], hi, sizeof hi),
               analysis_format_rate(stats_median(rates, m), med, sizeof med));
        told++;
    }
    append(buf, cap, "; a falling line means a cache filling up or a drive slowing down.");
    free(rates);
}

static void caption_rate_vs_write(const plot_ctx_t *c, char *buf, size_t cap)
{
    const analysis_t *a = c->a;
    buf[0] = '\0';
    char name[256], w[32], r[32];
    size_t told = 0;
    int threads = -1;
    double cpu = NAN;
    for (size_t i = 0; i < a->nseries && told < 4; i++) {
        const analysis_series_t *s = &a->series[i];
        if (!on_rate_vs_write(s))
            continue;
        const analysis_point_t *top = &s->points[s->npoints - 1];
        if (told == 0) {
            threads = top->threads;
            cpu = s->verdicts[s->npoints - 1].cpu_ceiling_bps;
            snprintf(buf, cap, "At %d thread%s, ", threads, threads == 1 ? "" : "s");
        } else if (top->threads != threads) {
            threads = 0;
        }
        append(buf, cap, "%s%s (writing %s) compresses at %s", told ? "; " : "",
               caption_name(c, s, name, sizeof name),
               analysis_format_rate(s->write_bps, w, sizeof w),
               analysis_format_rate(top->bytes_per_s, r, sizeof r));
        if (threads == 0)
            append(buf, cap, " at %d threads", top->threads);
        told++;
    }
    if (threads > 0 && isfinite(cpu) && !c->multi_codec)
        append(buf, cap, ", against a CPU ceiling of %s", analysis_format_rate(cpu, r, sizeof r));
    append(buf, cap, ".");
}

/* ---- gnuplot ------------------------------------------------------------------------- */

static const char *gnuplot_program(void)
{
    const char *env = getenv("CHOKEPOINT_GNUPLOT");
    return env != NULL && env[0] != '\0' ? env : "gnuplot";
}

/* Whether program (a path, or a name looked up in PATH) can be executed. */
static bool program_found(const char *program)
{
    if (strchr(program, '/') != NULL)
        return access(program, X_OK) == 0;
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/usr/bin:/bin";
    char candidate[PATH_MAX];
    while (*path) {
        size_t len = strcspn(path, ":");
        if ((size_t)snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len,
                             len ? path : ".", program) < sizeof candidate &&
            access(candidate, X_OK) == 0)
            return true;
        path += len + (path[len] == ':');
    }
    return false;
}

static bool dir_has_templates(const char *dir)
{
    char probe[PATH_MAX];
    if ((size_t)snprintf(probe, sizeof probe, "%s/time_vs_threads.gp", dir) >= sizeof probe)
        return false;
    return access(probe, R_OK) == 0;
}

int plot_templates_dir(char *buf, size_t cap, cp_err_t *err)
{
    const char *env = getenv("CHOKEPOINT_PLOTS_DIR");
    if (env != NULL && env[0] != '\0') {
        if (!dir_has_templates(env))
            return cp_err_set(err, CP_EIO, "CHOKEPOINT_PLOTS_DIR=%s: no time_vs_threads.gp "
                              "there", env);
        snprintf(buf, cap, "%s", env);
        return 0;
    }
#ifdef CHOKEPOINT_PLOTS_DIR
    if (dir_has_templates(CHOKEPOINT_PLOTS_DIR)) {
        snprintf(buf, cap, "%s", CHOKEPOINT_PLOTS_DIR);
        return 0;
    }
#endif
    /* Relative to the executable: build/chokepoint, build/tests/X, or an installed
     * bin/chokepoint with share/chokepoint/plots beside it. */
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash != NULL)
            *slash = '\0';
        static const char *const rel[] = {"/../scripts/plots", "/../../scripts/plots",
                                          "/../share/chokepoint/plots"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            char dir[PATH_MAX];
            if ((size_t)snprintf(dir, sizeof dir, "%s%s", exe, rel[i]) < sizeof dir &&
                dir_has_templates(dir)) {
                char *real = realpath(dir, NULL);
                snprintf(buf, cap, "%s", real ? real : dir);
                free(real);
                return 0;
            }
        }
    }
    return cp_err_set(err, CP_EIO, "plot templates (scripts/plots/*.gp) not found near %s; "
                      "set CHOKEPOINT_PLOTS_DIR", len > 0 ? exe : "the executable");
}

/* The last non-blank line of gnuplot's output, for the error message. */
static void last_line(const char *text, char *out, size_t cap)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(out, cap, "%.*s", (int)(end - start), start);
    if (out[0] == '\0')
        snprintf(out, cap, "no message");
}

/* Runs gnuplot on one template. Returns 0, CP_EIO (message names the template), or 1 when
 * the program cannot be executed at all (the caller treats it as missing). */
static int run_gnuplot(const char *program, const char *template_path, const char *plotsdir,
                       const char *datadir, const char *outfile, const char *fmt, cp_err_t *err)
{
    char q_data[PATH_MAX * 2 + 3], q_plots[PATH_MAX * 2 + 3], q_out[PATH_MAX * 2 + 3];
    plot_gnuplot_quote(datadir, q_data, sizeof q_data);
    plot_gnuplot_quote(plotsdir, q_plots, sizeof q_plots);
    plot_gnuplot_quote(outfile, q_out, sizeof q_out);
    size_t elen = strlen(q_data) + strlen(q_plots) + strlen(q_out) + 80;
    char *expr = malloc(elen);
    if (expr == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    snprintf(expr, elen, "datadir=%s; plotsdir=%s; outfile=%s; fmt='%s'", q_data, q_plots,
             q_out, fmt);
    char *argv[] = {(char *)program, "-e", expr, (char *)template_path, NULL};

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        free(expr);
        return cp_err_errno(err, CP_EIO, errno, "cannot create a pipe for gnuplot");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    pid_t pid;
    int spawn_rc = posix_spawnp(&pid, program, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    free(expr);
    if (spawn_rc != 0) {
        close(fds[0]);
        return 1;
    }
    /* Keep the end of what gnuplot says: its error is the last line. */
    char output[4096];
    size_t have = 0;
    for (;;) {
        char chunk[1024];
        ssize_t got = read(fds[0], chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (have + (size_t)got >= sizeof output) {
            size_t drop = have + (size_t)got - (sizeof output - 1);
            drop = drop > have ? have : drop;
            memmove(output, output + drop, have - drop);
            have -= drop;
        }
        size_t take = (size_t)got < sizeof output - 1 - have ? (size_t)got : sizeof output - 1 - have;
        memcpy(output + have, chunk + (size_t)got - take, take);
        have += take;
    }
    output[have] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return cp_err_errno(err, CP_EIO, errno, "%s: cannot wait for gnuplot", template_path);
    if (cp_interrupted())
        return cp_err_set(err, CP_EINTR, "interrupted");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && have == 0)
        return 1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char line[300];
        last_line(output, line, sizeof line);
        return cp_err_set(err, CP_EIO, "%s: gnuplot failed (%s %d): %s", template_path,
                          WIFEXITED(status) ? "exit" : "signal",
                          WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), line);
    }
    return 0;
}

/* Draws one plot in one format: gnuplot writes a temporary file that is renamed into
 * place only when gnuplot succeeded and wrote something. */
static int draw(const char *program, const char *plotsdir, const char *datadir,
                const char *results_dir, plot_file_t *pf, int slot, cp_err_t *err)
{
    const char *ext = slot == 0 ? "png" : "svg";
    char templ[PATH_MAX], final[PATH_MAX], tmp[PATH_MAX + 32];
    if ((size_t)snprintf(templ, sizeof templ, "%s/%s.gp", plotsdir, pf->name) >= sizeof templ ||
        (size_t)snprintf(final, sizeof final, "%s/%s.%s", results_dir, pf->name, ext) >= sizeof final)
        return cp_err_set(err, CP_EIO, "%s: path too long", results_dir);
    if (access(templ, R_OK) != 0)
        return cp_err_errno(err, CP_EIO, errno, "%s: cannot read the plot template", templ);
    snprintf(tmp, sizeof tmp, "%s.chokepoint-tmp.XXXXXX", final);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return cp_err_errno(err, CP_EIO, errno, "%s: cannot create", final);
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    int slot_id = cp_cleanup_track(tmp);
    int rc = run_gnuplot(program, templ, plotsdir, datadir, tmp, ext, err);
    struct stat st;
    if (rc == 0 && (stat(tmp, &st) != 0 || st.st_size == 0))
        rc = cp_err_set(err, CP_EIO, "%s: gnuplot wrote nothing", templ);
    if (rc == 0 && rename(tmp, final) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot rename into place", final);
    if (rc != 0)
        unlink(tmp);
    if (slot_id >= 0)
        cp_cleanup_forget(slot_id);
    if (rc == 0)
        snprintf(pf->files[slot], sizeof pf->files[slot], "%s", final);
    return rc;
}

/* ---- putting it together -------------------------------------------------------------- */

static plot_file_t *add_plot(plot_set_t *set, const char *name)
{
    if (set->n >= PLOT_MAX)
        return NULL;
    plot_file_t *pf = &set->plots[set->n++];
    memset(pf, 0, sizeof *pf);
    snprintf(pf->name, sizeof pf->name, "%s", name);
    return pf;
}

static void add_skipped(plot_set_t *set, const char *name, const char *reason)
{
    if (set->nskipped < PLOT_MAX)
        snprintf(set->skipped[set->nskipped++], sizeof set->skipped[0], "%s: %s", name, reason);
}

static void context_init(plot_ctx_t *c, const analysis_t *a, const probe_table_t *probe)
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

    /* A ceiling far above every rate would flatten the picture: the y range covers the
     * rates and only the ceilings within 2.5 times of them. */
    double top = 0.0;
    for (size_t i = 0; i < a->nceilings; i++) {
        const analysis_ceiling_t *ce = &a->ceilings[i];
        for (size_t k = 0; k < ce->npoints; k++)
            top = fmax(top, ce->bytes_per_s[k]);
        for (int k = 0; ce->best_rate_model >= 0 && k < CURVE_SAMPLES; k++) {
            double r = fit_rate_at(&ce->models[ce->best_rate_model],
                                   sample_threads(1.0, c->bottleneck_xmax, k, CURVE_SAMPLES, false));
            if (isfinite(r))
                top = fmax(top, r);
        }
    }
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++)
            top = fmax(top, a->series[i].points[k].bytes_per_s);
    double ymax = top;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        if (s->write_ceiling_bps <= 2.5 * top)
            ymax = fmax(ymax, s->write_ceiling_bps);
        if (s->read_ceiling_bps <= 2.5 * top)
            ymax = fmax(ymax, s->read_ceiling_bps);
    }
    c->bottleneck_ymax = ymax * 1.12 / MB;
}

/* Writes every data file and fills set with the plots to draw and their captions. */
static int write_data(plot_ctx_t *c, plot_set_t *set, cp_err_t *err)
{
    const analysis_t *a = c->a;
    datafile_t vars, d;
    int rc = datafile_open(&vars, c->datadir, "vars.gp", err);
    if (rc != 0)
        return rc;
    FILE *v = vars.f;
    char measured[160];
    measured_text(a, measured, sizeof measured);
    var_string(v, "measured", measured);
    var_string(v, "codec", c->multi_codec ? "" : a->series[0].codec);
    var_number(v, "threads_min", c->tmin);
    var_number(v, "threads_max", c->tmax);
    var_number(v, "bottleneck_xmax", c->bottleneck_xmax);
    var_number(v, "bottleneck_ymax", c->bottleneck_ymax);
    write_series_vars(c, v);

#define DATA(name, body)                                   \
    do {                                                   \
        if (rc == 0 && (rc = datafile_open(&d, c->datadir, name, err)) == 0) { \
            body;                                          \
            rc = datafile_commit(&d, err);                 \
        }                                                  \
    } while (0)

    DATA("points.dat", write_points(c, d.f));
    DATA("time_fit.dat", write_time_fit(c, d.f));
    DATA("rate_fit.dat", write_rate_fit(c, d.f));
    plot_file_t *pf;
    if ((pf = add_plot(set, "time_vs_threads")) != NULL)
        caption_time(c, pf->caption, sizeof pf->caption);
    if ((pf = add_plot(set, "rate_vs_threads")) != NULL)
        caption_rate(c, pf->caption, sizeof pf->caption);

    /* The bottleneck picture needs at least one volume ceiling. */
    datafile_t fit;
    if (rc == 0 && (rc = datafile_open(&d, c->datadir, "cpu.dat", err)) == 0) {
        if ((rc = datafile_open(&fit, c->datadir, "cpu_fit.dat", err)) != 0) {
            datafile_abort(&d);
        } else {
            write_cpu(c, d.f, fit.f);
            rc = datafile_commit(&fit, err);
            if (rc == 0)
                rc = datafile_commit(&d, err);
            else
                datafile_abort(&d);
        }
    }
    var_array(v, "cpu_title", a->nceilings);
    for (size_t i = 0; i < a->nceilings; i++) {
        char title[300];
        const analysis_ceiling_t *ce = &a->ceilings[i];
        snprintf(title, sizeof title, "CPU rate%s%s (%s)", c->multi_codec ? " " : "",
                 c->multi_codec ? ce->codec : "",
                 ce->estimated ? "estimated: fastest target" : "mem target");
        var_array_string(v, "cpu_title", i, title);
    }
    size_t nceil = 0;
    DATA("ceilings.dat", nceil = write_ceilings(c, d.f, v));
    DATA("crossovers.dat", write_crossovers(c, d.f, v));
    if (nceil > 0) {
        if ((pf = add_plot(set, "bottleneck")) != NULL)
            caption_bottleneck(c, pf->caption, sizeof pf->caption);
    } else {
        add_skipped(set, "bottleneck", c->probe == NULL
                    ? "no probe.csv, so no volume write speeds to draw as ceilings"
                    : "the probe table has no write speeds for these targets");
    }

    /* Probe speeds by file size, and the sustained run when there is one. */
    probe_targets_t targets = {NULL, 0};
    if (rc == 0 && c->probe != NULL && probe_targets(c->probe, &targets) != 0)
        rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    bool sized = probe_has(c->probe, NULL, PROBE_OP_WRITE, true) ||
                 probe_has(c->probe, NULL, PROBE_OP_READ, true);
    if (c->probe != NULL && sized) {
        DATA("probe.dat", rc = write_probe(c, &targets, d.f, v));
        if ((pf = add_plot(set, "probe")) != NULL)
            caption_probe(c, &targets, pf->caption, sizeof pf->caption);
    } else {
        add_skipped(set, "probe", c->probe == NULL ? "no probe.csv"
                    : "the probe table has no write or read rows with a size_bytes");
    }
    if (c->probe != NULL && probe_has(c->probe, NULL, PROBE_OP_SUSTAINED, false)) {
        DATA("probe_sustained.dat", write_sustained(c, &targets, d.f, v));
        if ((pf = add_plot(set, "probe_sustained")) != NULL)
            caption_sustained(c, &targets, pf->caption, sizeof pf->caption);
    }
    free(targets.names);

    size_t nrvw = 0;
    DATA("rate_vs_write.dat", nrvw = write_rate_vs_write(c, d.f, v));
    if (nrvw > 0) {
        if ((pf = add_plot(set, "rate_vs_write")) != NULL)
            caption_rate_vs_write(c, pf->caption, sizeof pf->caption);
    } else {
        add_skipped(set, "rate_vs_write", c->probe == NULL
                    ? "no probe.csv, so no measured write speeds"
                    : "no target with runs has a write speed in the probe table");
    }
#undef DATA
    if (rc == 0)
        rc = datafile_commit(&vars, err);
    else
        datafile_abort(&vars);
    return rc;
}

int plot_render(const char *results_dir, const analysis_t *a, const probe_table_t *probe,
                plot_format_t fmt, plot_set_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (a == NULL || a->nseries == 0)
        return cp_err_set(err, CP_EDATA, "nothing to plot: the analysis has no series");
    if (!(fmt & PLOT_BOTH))
        return cp_err_set(err, CP_EUSAGE, "plot format %d is not png, svg or both", (int)fmt);
    plot_ctx_t c;
    context_init(&c, a, probe);
    if ((size_t)snprintf(c.datadir, sizeof c.datadir, "%s/%s", results_dir, PLOT_DATA_DIR) >=
        sizeof c.datadir)
        return cp_err_set(err, CP_EIO, "%s: path too long", results_dir);
    if (mkdir(c.datadir, 0777) != 0 && errno != EEXIST)
        return cp_err_errno(err, CP_EIO, errno, "%s: cannot create", c.datadir);
    int rc = write_data(&c, out, err);
    if (rc != 0)
        return rc;

    const char *program = gnuplot_program();
    if (!program_found(program)) {
        out->gnuplot_missing = true;
        snprintf(out->notice, sizeof out->notice, "gnuplot not found (CHOKEPOINT_GNUPLOT=%s); "
                 "plots skipped, data in %s/", program, PLOT_DATA_DIR);
        return 0;
    }
    char plotsdir[PATH_MAX];
    rc = plot_templates_dir(plotsdir, sizeof plotsdir, err);
    for (size_t i = 0; i < out->n && rc == 0; i++)
        for (int slot = 0; slot < 2 && rc == 0; slot++) {
            if (!(fmt & (slot == 0 ? PLOT_PNG : PLOT_SVG)))
                continue;
            if (cp_interrupted())
                return cp_err_set(err, CP_EINTR, "interrupted");
            rc = draw(program, plotsdir, c.datadir, results_dir, &out->plots[i], slot, err);
            if (rc == 1) { /* found, yet cannot be executed */
                out->gnuplot_missing = true;
                snprintf(out->notice, sizeof out->notice, "gnuplot cannot be run "
                         "(CHOKEPOINT_GNUPLOT=%s); plots skipped, data in %s/", program,
                         PLOT_DATA_DIR);
                return 0;
            }
        }
    return rc;
}
