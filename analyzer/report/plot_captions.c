/* plot_captions.c - the words of the plots: key titles, labels and the one-sentence
 * caption under each plot (plot_captions.h). */
#include "report/plot_captions.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/crossover.h"
#include "model/stats.h"
#include "report/figure_text.h"
#include "report/cause_text.h"
#include "report/plot_series.h"
#include "report/strbuf.h"

/* ---- titles and labels ---------------------------------------------------------------- */

const char *plot_series_title(const analysis_series_t *s, bool multi_codec, char *buf,
                              size_t cap)
{
    char tag[64] = "";
    char rate[32];
    if (s->cpu_ceiling)
        snprintf(tag, sizeof tag, " (CPU only)");
    else if (s->emulated == 1 && s->rate_cap_bps > 0.0)
        snprintf(tag, sizeof tag, " (emulated %s%s)",
                 analysis_format_rate(s->rate_cap_bps, rate, sizeof rate),
                 s->disk_emulated ? " disk" : "");
    else if (s->emulated == 1)
        snprintf(tag, sizeof tag, " (emulated)");
    else if (s->ram == 1)
        snprintf(tag, sizeof tag, " (RAM)");
    if (multi_codec && s->codec[0])
        snprintf(buf, cap, "%s %s%s", s->name, s->codec, tag);
    else
        snprintf(buf, cap, "%s%s", s->name, tag);
    return buf;
}

const char *plot_series_name(const analysis_series_t *s, bool multi_codec, char *buf,
                             size_t cap)
{
    if (multi_codec && s->codec[0])
        snprintf(buf, cap, "%.120s (%.120s)", s->name, s->codec);
    else
        snprintf(buf, cap, "%s", s->name);
    return buf;
}

const char *plot_target_title(const char *target, int emulated, int ram, char *buf,
                              size_t cap)
{
    snprintf(buf, cap, "%s%s", target, emulated == 1 ? " (emulated)" : ram == 1 ? " (RAM)" : "");
    return buf;
}

void plot_measured_text(const analysis_t *a, bool bars, char *buf, size_t cap)
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
        if (s->cpu_ceiling)
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
        len = (size_t)snprintf(buf, cap, "median of %zu runs%s", nmax,
                               bars ? ", bars min to max" : "");
    else
        len = (size_t)snprintf(buf, cap, "median of %zu-%zu runs%s", nmin, nmax,
                               bars ? ", bars min to max" : "");
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

void plot_doubling_text(double b, char *buf, size_t cap)
{
    double cut = 1.0 - pow(2.0, -b);
    if (cut >= 0.0)
        snprintf(buf, cap, "doubling threads cuts time by %.0f%%", 100.0 * cut);
    else
        snprintf(buf, cap, "doubling threads adds %.0f%% to the time", -100.0 * cut);
}

void plot_usl_label(const fit_result_t *usl, char *buf, size_t cap)
{
    if (!usl->fitted)
        snprintf(buf, cap, "%s", "");
    else if (isfinite(usl->peak_threads) && usl->peak_threads < ANALYSIS_CROSSOVER_MAX_THREADS)
        snprintf(buf, cap, "USL, peaks at T = %.0f", usl->peak_threads);
    else
        snprintf(buf, cap, "USL, no peak");
}

void plot_cpu_title(const analysis_ceiling_t *ce, bool multi_codec, char *buf, size_t cap)
{
    snprintf(buf, cap, "CPU rate%s%s (%s)", multi_codec ? " " : "", multi_codec ? ce->codec : "",
             ce->estimated ? "estimated: fastest target" : "mem target");
}

/* Appends " (emulated 20.0 MB/s read cap)" (" (emulated read cap)" when the cap is not
 * given) when the target's rows of op were paced by an emulated cap; nothing otherwise.
 * inner: without the parentheses, after ", ". */
static void append_emulated(const probe_table_t *p, const char *target, probe_speed_op_t op,
                            bool inner, char *buf, size_t cap)
{
    double cap_bps;
    if (!probe_table_emulated(p, target, op, &cap_bps))
        return;
    char rate[32];
    strbuf_appendf(buf, cap, "%semulated %s%s%s cap%s", inner ? ", " : " (",
                   cap_bps > 0.0 ? analysis_format_rate(cap_bps, rate, sizeof rate) : "",
                   cap_bps > 0.0 ? " " : "", op == PROBE_OP_READ ? "read" : "write",
                   inner ? "" : ")");
}

void plot_ceiling_title(const analysis_series_t *s, bool multi_codec, bool read, double bps,
                        bool above, const probe_table_t *probe, char *buf, size_t cap)
{
    char name[256], rate[32];
    plot_series_name(s, multi_codec, name, sizeof name);
    if (read) {
        snprintf(buf, cap, "read ceiling %s (from %s",
                 analysis_format_rate(bps, rate, sizeof rate), s->read_from);
        append_emulated(probe, s->read_from, PROBE_OP_READ, true, buf, cap);
        strbuf_appendf(buf, cap, ")");
    }
    else if (s->output_ratio > 0.0)
        snprintf(buf, cap, "%s write ceiling %s (ratio %.2f%s)", name,
                 analysis_format_rate(bps, rate, sizeof rate), s->output_ratio,
                 strcmp(write_speed_kind(s), "emulated") == 0 ? ", emulated cap" : "");
    else
        snprintf(buf, cap, "%s write ceiling %s%s", name,
                 analysis_format_rate(bps, rate, sizeof rate),
                 strcmp(write_speed_kind(s), "emulated") == 0 ? " (emulated cap)" : "");
    if (above)
        strbuf_appendf(buf, cap, ", above the plot");
}

const char *plot_crossover_term_words(const analysis_series_t *s)
{
    /* What takes over: the term that sets the time there, or the volume's when it is
     * balanced with the compute term. */
    wbm_term_t t = s->crossover_lead < TERM_COUNT && s->crossover_lead != TERM_COMPUTE
                       ? s->crossover_lead
                       : s->crossover_term;
    switch (t) {
    case TERM_IO_CPU: return s->decompress ? "the I/O's CPU work" : "writing's CPU work";
    case TERM_READ: return s->decompress ? "reading the archive" : "reading the input";
    case TERM_WRITE: return "the disk writing";
    case TERM_FLUSH: return "the disk's flush";
    default: return "the volume";
    }
}

void plot_crossover_label(const analysis_series_t *s, bool multi_codec, char *buf,
                          size_t cap)
{
    char name[256];
    /* one decimal, as the analysis' own text gives T: 2.5, 12.5, 123.0 */
    snprintf(buf, cap, "%s: %s from T = %.1f",
             plot_series_name(s, multi_codec, name, sizeof name), plot_crossover_term_words(s),
             s->crossover_threads);
}

void plot_crossover_text(const char *name, const char *kind, double limit_bps,
                         double crossover_threads, bool has_model, int lo, int hi,
                         const char *who, char *buf, size_t cap)
{
    char rate[32];
    analysis_format_rate(limit_bps, rate, sizeof rate);
    if (isfinite(crossover_threads) && crossover_threads > ANALYSIS_EXTRAPOLATION_REACH * hi) {
        snprintf(buf, cap, "%s's %s ceiling (%s) is not within reach of the measured range "
                 "(%d..%d threads)", name, kind, rate, lo, hi);
    } else if (isfinite(crossover_threads)) {
        /* Thread counts are whole: the first one past the crossing is where it limits,
         * said the way the text report says it. */
        int whole = figure_threads_from(crossover_threads);
        snprintf(buf, cap, "%s (%s ceiling %s) starts to limit the job at T = %.1f, so from "
                 "%d thread%s on %s sets the time", name, kind, rate,
                 crossover_threads, whole, whole == 1 ? "" : "s",
                 who != NULL ? who : "the volume");
        if (crossover_threads > hi)
            strbuf_appendf(buf, cap, " (extrapolated beyond the measured %d..%d threads)", lo,
                           hi);
    } else if (has_model) {
        snprintf(buf, cap, "%s's %s ceiling (%s) never limits the job up to %g threads",
                 name, kind, rate, ANALYSIS_CROSSOVER_MAX_THREADS);
    } else {
        snprintf(buf, cap, "%s's %s ceiling is %s (the CPU rate has no model to meet it)",
                 name, kind, rate);
    }
}

/* ---- captions ------------------------------------------------------------------------- */

void plot_caption_time(const analysis_t *a, bool multi_codec, char *buf, size_t cap)
{
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
    plot_series_name(best, multi_codec, name, sizeof name);
    plot_doubling_text(m->param[1], dbl, sizeof dbl);
    if (worst == best) {
        snprintf(buf, cap, "%s scales as %s: %s.", name,
                 analysis_format_model(m, eq, sizeof eq), dbl);
        return;
    }
    snprintf(buf, cap, "%s scales best, as %s (%s), ", name,
             analysis_format_model(m, eq, sizeof eq), dbl);
    m = &worst->models[FIT_POWER_TIME];
    plot_doubling_text(m->param[1], dbl, sizeof dbl);
    strbuf_appendf(buf, cap, "and %s worst, as %s (%s).",
           plot_series_name(worst, multi_codec, name, sizeof name),
           analysis_format_model(m, eq, sizeof eq), dbl);
}

void plot_caption_rate(const analysis_t *a, bool multi_codec, char *buf, size_t cap)
{
    const analysis_ceiling_t *ce = a->nceilings > 0 ? &a->ceilings[0] : NULL;
    if (ce == NULL) {
        snprintf(buf, cap, "No CPU ceiling could be formed from these runs.");
        return;
    }
    const fit_result_t *models = ce->mem ? ce->mem->models : ce->models;
    char who[300], rate[32];
    if (ce->mem != NULL)
        plot_series_name(ce->mem, multi_codec, who, sizeof who);
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
        strbuf_appendf(buf, cap, "; too few thread counts for the USL curve.");
    else if (isfinite(usl->peak_threads) && usl->peak_threads < ANALYSIS_CROSSOVER_MAX_THREADS)
        strbuf_appendf(buf, cap, ", and the USL curve (contention %.2g, coherency %.2g) peaks at "
               "%.0f threads.", usl->param[1], usl->param[2], usl->peak_threads);
    else
        strbuf_appendf(buf, cap, ", and the USL curve (contention %.2g) has no peak: more threads "
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

void plot_caption_bottleneck(const analysis_t *a, bool multi_codec, char *buf, size_t cap)
{
    buf[0] = '\0';
    char name[256], clause[768];
    size_t told = 0, left = 0;
    const analysis_series_t **order = malloc((a->nseries ? a->nseries : 1) * sizeof *order);
    if (order == NULL) {
        snprintf(buf, cap, "The CPU rate against each volume's ceiling.");
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < a->nseries; i++)
        if (plot_has_volume_ceiling(&a->series[i]))
            order[n++] = &a->series[i];
    qsort(order, n, sizeof *order, compare_crossover);
    for (size_t i = 0; i < n; i++) {
        const analysis_series_t *s = order[i];
        if (told == 3) {
            left++;
            continue;
        }
        plot_series_name(s, multi_codec, name, sizeof name);
        verdict_kind_t ceiling = s->crossover_limit;
        if (!(plot_crossover_limit_bps(s) > 0.0)) /* not known: the one rule's choice */
            ceiling = crossover_ceiling(s->write_ceiling_bps, s->read_ceiling_bps);
        const char *kind = ceiling == VERDICT_READ ? "read" : "write";
        double limit = ceiling == VERDICT_READ ? s->read_ceiling_bps : s->write_ceiling_bps;
        /* The measured range (unknown: no claim of extrapolation). */
        int lo = s->npoints > 0 ? s->points[0].threads : 1;
        int hi = s->npoints > 0 ? s->points[s->npoints - 1].threads
                                : (int)ANALYSIS_CROSSOVER_MAX_THREADS;
        /* Writing's own CPU work is named; the disk's terms are the volume's. */
        plot_crossover_text(name, kind, limit, s->crossover_threads, s->crossover_model >= 0,
                            lo, hi,
                            s->crossover_lead == TERM_IO_CPU ? plot_crossover_term_words(s)
                                                             : NULL,
                            clause, sizeof clause);
        strbuf_appendf(buf, cap, "%s%s", told ? "; " : "", clause);
        told++;
    }
    free(order);
    if (left > 0)
        strbuf_appendf(buf, cap, "; %zu more target%s in the plot", left, left == 1 ? "" : "s");
    strbuf_appendf(buf, cap, ".");
}

/* After a probed write speed wb (a file through its fsync): the volume's own write speed
 * when the probe measured its drain, named as the verdict tables name it, so the caption
 * and the tables give one figure per meaning. */
static void append_drain(const probe_table_t *p, const char *target, double wb, char *buf,
                         size_t cap)
{
    double drain = probe_table_speed(p, target, PROBE_OP_DRAIN);
    char d[32];
    if (drain > 0.0 && isfinite(drain) && fabs(drain / wb - 1.0) >= 0.005)
        strbuf_appendf(buf, cap, " with the fsync (volume writes %s: its drain rate, as in "
                       "the verdicts)", analysis_format_rate(drain, d, sizeof d));
}

void plot_caption_probe(const probe_table_t *p, const char *const *targets, size_t n,
                        char *buf, size_t cap)
{
    snprintf(buf, cap, "At the largest file size, ");
    char w[32], r[32];
    size_t told = 0;
    for (size_t k = 0; k < n && told < 4; k++) {
        double wb = probe_table_speed(p, targets[k], PROBE_OP_WRITE);
        double rb = probe_table_speed(p, targets[k], PROBE_OP_READ);
        if (!isfinite(wb) && !isfinite(rb))
            continue;
        strbuf_appendf(buf, cap, "%s%s ", told ? "; " : "", targets[k]);
        if (isfinite(wb)) {
            strbuf_appendf(buf, cap, "writes %s", analysis_format_rate(wb, w, sizeof w));
            append_emulated(p, targets[k], PROBE_OP_WRITE, false, buf, cap);
            append_drain(p, targets[k], wb, buf, cap);
        }
        if (isfinite(wb) && isfinite(rb))
            strbuf_appendf(buf, cap, " and ");
        if (isfinite(rb)) {
            strbuf_appendf(buf, cap, "reads %s", analysis_format_rate(rb, r, sizeof r));
            append_emulated(p, targets[k], PROBE_OP_READ, false, buf, cap);
        }
        told++;
    }
    strbuf_appendf(buf, cap, "%s.", n > told ? " (more in the plot)" : "");
}

void plot_caption_sustained(const probe_table_t *p, const char *const *targets, size_t n,
                            char *buf, size_t cap)
{
    snprintf(buf, cap, "Over one long write, ");
    double *rates = malloc((p->nrows ? p->nrows : 1) * sizeof *rates);
    if (rates == NULL) {
        snprintf(buf, cap, "Write speed over one long write.");
        return;
    }
    size_t told = 0;
    char lo[32], hi[32], med[32];
    for (size_t k = 0; k < n && told < 3; k++) {
        size_t m = 0;
        for (size_t i = 0; i < p->nrows; i++)
            if (p->rows[i].op == PROBE_OP_SUSTAINED && strcmp(p->rows[i].target, targets[k]) == 0)
                rates[m++] = p->rows[i].bytes_per_s;
        if (m == 0)
            continue;
        qsort(rates, m, sizeof *rates, plot_compare_double);
        strbuf_appendf(buf, cap, "%s%s ran between %s and %s (median %s)", told ? "; " : "",
               targets[k], analysis_format_rate(rates[0], lo, sizeof lo),
               analysis_format_rate(rates[m - 1], hi, sizeof hi),
               analysis_format_rate(stats_median(rates, m), med, sizeof med));
        told++;
    }
    strbuf_appendf(buf, cap, "; a falling line means a cache filling up or a drive slowing down.");
    free(rates);
}

void plot_caption_rate_vs_write(const analysis_t *a, bool multi_codec, char *buf,
                                size_t cap)
{
    buf[0] = '\0';
    char name[256], w[32], r[32];
    size_t told = 0;
    int threads = -1;
    double cpu = NAN;
    for (size_t i = 0; i < a->nseries && told < 4; i++) {
        const analysis_series_t *s = &a->series[i];
        if (!plot_on_rate_vs_write(s))
            continue;
        const analysis_point_t *top = &s->points[s->npoints - 1];
        if (told == 0) {
            threads = top->threads;
            cpu = s->verdicts[s->npoints - 1].cpu_ceiling_bps;
            snprintf(buf, cap, "At %d thread%s, ", threads, threads == 1 ? "" : "s");
        } else if (top->threads != threads) {
            threads = 0;
        }
        strbuf_appendf(buf, cap, "%s%s (writing %s) compresses at %s", told ? "; " : "",
               plot_series_name(s, multi_codec, name, sizeof name),
               analysis_format_rate(s->write_speed_bps, w, sizeof w),
               analysis_format_rate(top->bytes_per_s, r, sizeof r));
        if (threads == 0)
            strbuf_appendf(buf, cap, " at %d thread%s", top->threads,
                           top->threads == 1 ? "" : "s");
        told++;
    }
    if (threads > 0 && isfinite(cpu) && !multi_codec)
        strbuf_appendf(buf, cap, ", against a CPU ceiling of %s", analysis_format_rate(cpu, r, sizeof r));
    strbuf_appendf(buf, cap, ".");
}

void plot_caption_time_split(const analysis_t *a, char *buf, size_t cap)
{
    snprintf(buf, cap, "Each bar is one target and thread count: the wall time of its median "
             "run, each moment counted once by what the job as a whole waited for (its critical "
             "path): the codec, a core, the reader or writer on a core, a read or a write "
             "blocked on the disk. The threads' own figures are in the report's details.");
    size_t told = 0;
    for (size_t i = 0; i < a->nseries && told < 4; i++) {
        const analysis_series_t *s = &a->series[i];
        const analysis_point_t *top = &s->points[s->npoints - 1];
        analysis_path_split_t t;
        if (!analysis_path_split(top, &t))
            continue;
        strbuf_appendf(buf, cap, "%s %s at %d thread%s: %.3f s, %.0f%% waiting for writes, "
                       "%.0f%% for reads, %.0f%% for the codec", told ? ";" : "", s->name,
                       top->threads, top->threads == 1 ? "" : "s", t.seconds,
                       100.0 * t.write_blocked_s / t.seconds,
                       100.0 * t.read_blocked_s / t.seconds, 100.0 * t.compute_s / t.seconds);
        told++;
    }
    strbuf_appendf(buf, cap, told ? "." : "");
}
