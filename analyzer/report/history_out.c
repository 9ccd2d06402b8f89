/* history_out.c - history results as JSON, text and Markdown (history_out.h). */
#include "report/history_out.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "model/data_source.h"
#include "report/compare_out.h"
#include "report/history_plot.h"
#include "report/md_figures.h"
#include "tables/json_number.h"

/* The status recorded in meta.json of the study at index i of the set. */
static const char *study_status(const history_set_t *set, size_t i)
{
    return set->entries[i].status;
}

/* The program that measured an imported study's runs ("fio", "hyperfine"); NULL for
 * chokepoint's own and for runs that name no single program, which the reports leave
 * unsaid as they always have. */
static const char *imported_source(const history_study_t *s)
{
    return s->source != DATA_SOURCE_CHOKEPOINT ? data_source_name(s->source) : NULL;
}

/* ---- JSON --------------------------------------------------------------------------- */

static json_t *host_json(const history_host_t *h, const history_set_t *set,
                         const history_study_t *studies)
{
    json_t *o = json_object(), *st = json_array(), *lines = json_array();
    json_object_set_new(o, "host", json_string(h->host));
    for (size_t k = 0; k < h->nstudies; k++) {
        const history_study_t *s = &studies[h->studies[k]];
        json_t *so = json_pack("{s:s, s:s, s:f, s:s}", "path", s->label, "started",
                               s->started_text, "started_unix", s->started, "status",
                               study_status(set, h->studies[k]));
        if (imported_source(s) != NULL)
            json_object_set_new(so, "source", json_string(imported_source(s)));
        json_array_append_new(st, so);
    }
    json_object_set_new(o, "studies", st);
    for (size_t j = 0; j < h->nlines; j++) {
        const history_line_t *l = &h->lines[j];
        json_t *lo = json_object(), *pts = json_array();
        json_object_set_new(lo, "target", json_string(l->target));
        json_object_set_new(lo, "codec", l->codec[0] ? json_string(l->codec) : json_null());
        json_object_set_new(lo, "threads", json_integer(l->threads));
        for (size_t i = 0; i < l->npoints; i++) {
            const history_point_t *p = &l->points[i];
            json_t *po = json_object();
            json_object_set_new(po, "study", json_string(studies[p->study].label));
            json_object_set_new(po, "started", json_string(studies[p->study].started_text));
            json_object_set_new(po, "rate_bytes_per_s", json_number_or_null(p->rate));
            json_object_set_new(po, "rate_min_bytes_per_s", json_number_or_null(p->rate_min));
            json_object_set_new(po, "rate_max_bytes_per_s", json_number_or_null(p->rate_max));
            json_object_set_new(po, "runs", json_integer((json_int_t)p->n));
            json_array_append_new(pts, po);
        }
        json_object_set_new(lo, "points", pts);
        json_array_append_new(lines, lo);
    }
    json_object_set_new(o, "series", lines);
    json_object_set_new(o, "latest", h->latest ? compare_result_json(h->latest, h->pair, 2)
                                               : json_null());
    json_object_set_new(o, "note", h->note[0] ? json_string(h->note) : json_null());
    return o;
}

int history_write_json(const history_result_t *r, const history_set_t *set,
                       const history_study_t *studies, FILE *out, cp_err_t *err)
{
    json_t *root = json_object(), *skipped = json_array(), *hosts = json_array();
    if (root == NULL || skipped == NULL || hosts == NULL) {
        json_decref(root);
        json_decref(skipped);
        json_decref(hosts);
        return cp_err_set(err, CP_ENOMEM, "out of memory building JSON");
    }
    json_object_set_new(root, "root", json_string(set->root));
    json_object_set_new(root, "studies", json_integer((json_int_t)set->n));
    for (size_t i = 0; i < set->nskipped; i++)
        json_array_append_new(skipped, json_pack("{s:s, s:s}", "path", set->skipped[i].path,
                                                 "reason", set->skipped[i].reason));
    json_object_set_new(root, "skipped", skipped);
    json_object_set_new(root, "threshold", json_number_or_null(r->options.threshold));
    json_object_set_new(root, "fail_on_regression", json_number_or_null(r->options.fail_threshold));
    json_object_set_new(root, "regressions", json_integer((json_int_t)r->regressions));
    for (size_t i = 0; i < r->nhosts; i++)
        json_array_append_new(hosts, host_json(&r->hosts[i], set, studies));
    json_object_set_new(root, "hosts", hosts);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (rc != 0 || fputc('\n', out) == EOF)
        return cp_err_errno(err, CP_EIO, errno, "cannot write the JSON history");
    return CP_OK;
}

/* ---- text and Markdown ---------------------------------------------------------------- */

static void line_label(const history_line_t *l, char *buf, size_t cap)
{
    if (l->codec[0])
        snprintf(buf, cap, "%s (%s)", l->target, l->codec);
    else
        snprintf(buf, cap, "%s", l->target);
}

/* The rate of line l in the study at index study, or NULL when l has none there. */
static const history_point_t *point_of(const history_line_t *l, size_t study)
{
    for (size_t i = 0; i < l->npoints; i++)
        if (l->points[i].study == study)
            return &l->points[i];
    return NULL;
}

static void intro(FILE *out, const history_result_t *r, const history_set_t *set,
                  const char *bullet)
{
    fprintf(out, "%zu stud%s under %s on %zu host%s", set->n, set->n == 1 ? "y" : "ies",
            set->root, r->nhosts, r->nhosts == 1 ? "" : "s");
    if (set->nskipped > 0)
        fprintf(out, "; %zu director%s skipped:\n", set->nskipped,
                set->nskipped == 1 ? "y" : "ies");
    else
        fputs(".\n", out);
    for (size_t i = 0; i < set->nskipped; i++)
        fprintf(out, "%s%s: %s\n", bullet, set->skipped[i].path, set->skipped[i].reason);
    fprintf(out, "\nRates are input bytes per second over the median time (MB = 10^6 bytes). "
            "The latest study of each host is compared with the one before it as 'compare' "
            "compares them: B/A per thread count, on a bootstrap %.0f%% interval when both "
            "have %d or more repetitions, else on the ratio; changes within %.3g%% are "
            "'same'.", r->options.confidence * 100.0, COMPARE_MIN_REPS,
            r->options.threshold * 100.0);
    if (isfinite(r->options.fail_threshold))
        fprintf(out, " Regression limit: %.3g%% slower (%zu point%s beyond it).",
                r->options.fail_threshold * 100.0, r->regressions,
                r->regressions == 1 ? "" : "s");
    fputc('\n', out);
}

int history_write_text(const history_result_t *r, const history_set_t *set,
                       const history_study_t *studies, FILE *out, cp_err_t *err)
{
    fputs("History: ", out);
    intro(out, r, set, "  ");
    for (size_t k = 0; k < r->nhosts; k++) {
        const history_host_t *h = &r->hosts[k];
        fprintf(out, "\nHost %s: %zu stud%s, oldest first\n", h->host, h->nstudies,
                h->nstudies == 1 ? "y" : "ies");
        for (size_t i = 0; i < h->nstudies; i++) {
            const history_study_t *s = &studies[h->studies[i]];
            const char *status = study_status(set, h->studies[i]);
            const char *source = imported_source(s);
            fprintf(out, "  #%-3zu %s  %s%s%s%s%s%s\n", i + 1, s->started_text, s->label,
                    status[0] ? " (" : "", status, status[0] ? ")" : "",
                    source ? ", imported from " : "", source ? source : "");
        }
        int width = 6;
        for (size_t j = 0; j < h->nlines; j++) {
            char label[300];
            line_label(&h->lines[j], label, sizeof label);
            width = (int)strlen(label) > width ? (int)strlen(label) : width;
        }
        fprintf(out, "\n  rate MB/s by study\n  %-*s %7s", width, "series", "threads");
        for (size_t i = 0; i < h->nstudies; i++) {
            char col[32];
            snprintf(col, sizeof col, "#%zu", i + 1);
            fprintf(out, " %12s", col);
        }
        fputc('\n', out);
        for (size_t j = 0; j < h->nlines; j++) {
            char label[300];
            line_label(&h->lines[j], label, sizeof label);
            fprintf(out, "  %-*s %7d", width, label, h->lines[j].threads);
            for (size_t i = 0; i < h->nstudies; i++) {
                const history_point_t *p = point_of(&h->lines[j], h->studies[i]);
                if (p != NULL)
                    fprintf(out, " %12.1f", p->rate / 1e6);
                else
                    fprintf(out, " %12s", "-");
            }
            fputc('\n', out);
        }
        if (h->latest == NULL) {
            fprintf(out, "\n  latest against the one before: %s\n", h->note);
            continue;
        }
        fprintf(out, "\n  Latest (#%zu, B) against the one before (#%zu, A):\n", h->nstudies,
                h->nstudies - 1);
        int rc = compare_write_text_pairs(h->latest, h->pair, 2, out, err);
        if (rc != CP_OK)
            return rc;
    }
    if (ferror(out))
        return cp_err_errno(err, CP_EIO, errno ? errno : EIO, "cannot write the history");
    return CP_OK;
}

int history_write_markdown(const history_result_t *r, const history_set_t *set,
                           const history_study_t *studies, const plot_set_t *plots,
                           FILE *out, cp_err_t *err)
{
    fputs("# chokepoint history\n\n", out);
    intro(out, r, set, "- ");
    for (size_t k = 0; k < r->nhosts; k++) {
        const history_host_t *h = &r->hosts[k];
        fprintf(out, "\n## %s\n\n| # | started | study | status |\n|---:|---|---|---|\n",
                h->host);
        for (size_t i = 0; i < h->nstudies; i++) {
            const history_study_t *s = &studies[h->studies[i]];
            const char *source = imported_source(s);
            fprintf(out, "| %zu | %s | %s%s%s%s | %s |\n", i + 1, s->started_text, s->label,
                    source ? " (imported from " : "", source ? source : "", source ? ")" : "",
                    study_status(set, h->studies[i]));
        }
        fputs("\nRate (MB/s of input) by study:\n\n| series | threads |", out);
        for (size_t i = 0; i < h->nstudies; i++)
            fprintf(out, " #%zu |", i + 1);
        fputs("\n|---|---:|", out);
        for (size_t i = 0; i < h->nstudies; i++)
            fputs("---:|", out);
        fputc('\n', out);
        for (size_t j = 0; j < h->nlines; j++) {
            char label[300];
            line_label(&h->lines[j], label, sizeof label);
            fprintf(out, "| %s | %d |", label, h->lines[j].threads);
            for (size_t i = 0; i < h->nstudies; i++) {
                const history_point_t *p = point_of(&h->lines[j], h->studies[i]);
                if (p != NULL)
                    fprintf(out, " %.1f |", p->rate / 1e6);
                else
                    fputs(" - |", out);
            }
            fputc('\n', out);
        }
        if (plots != NULL) {
            const plot_set_t *ps = &plots[k];
            if (ps->gnuplot_missing)
                fprintf(out, "\n%s\n", ps->notice);
            char hostdir[256];
            history_plot_host_dir(h->host, hostdir, sizeof hostdir);
            const md_figures_style_t style = {.dir = hostdir, .blank_before = true};
            md_figures_write(out, ps, &style);
        }
        if (h->latest == NULL) {
            fprintf(out, "\nLatest against the one before: %s\n", h->note);
            continue;
        }
        fprintf(out, "\n### Latest (#%zu, B) against the one before (#%zu, A)\n",
                h->nstudies, h->nstudies - 1);
        int rc = compare_write_markdown_pairs(h->latest, h->pair, 2, "####", out, err);
        if (rc != CP_OK)
            return rc;
    }
    if (ferror(out))
        return cp_err_errno(err, CP_EIO, errno ? errno : EIO, "cannot write the history");
    return CP_OK;
}
