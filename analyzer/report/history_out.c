/* history_out.c - history results as JSON, and in every text-like format (text, Markdown)
 * written once through the renderer (report/doc_writer.h): the document report_write
 * takes, history_document (history_out.h). */
#include "report/history_out.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/data_source.h"
#include "report/compare_out.h"
#include "report/doc_writer.h"
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

static void intro(const doc_t *d, const history_result_t *r, const history_set_t *set)
{
    FILE *out = d->out;
    const char *bullet = doc_item(d, "  ");
    char root[2 * PATH_MAX], path[2 * PATH_MAX], reason[1024];
    fprintf(out, "%zu stud%s under %s on %zu host%s", set->n, set->n == 1 ? "y" : "ies",
            doc_escape(d, set->root, root, sizeof root), r->nhosts, r->nhosts == 1 ? "" : "s");
    if (set->nskipped > 0)
        fprintf(out, "; %zu director%s skipped:\n", set->nskipped,
                set->nskipped == 1 ? "y" : "ies");
    else
        fputs(".\n", out);
    for (size_t i = 0; i < set->nskipped; i++)
        fprintf(out, "%s%s: %s\n", bullet, doc_escape(d, set->skipped[i].path, path, sizeof path),
                doc_escape(d, set->skipped[i].reason, reason, sizeof reason));
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

/* The studies of host h, oldest first. Two shapes, not two spellings: a list in text
 * (numbered lines, the status beside the label), a table in Markdown. */
static void write_studies(const doc_t *d, const history_host_t *h, const history_set_t *set,
                          const history_study_t *studies)
{
    FILE *out = d->out;
    if (doc_is_markdown(d))
        fputs("| # | started | study | status |\n|---:|---|---|---|\n", out);
    for (size_t i = 0; i < h->nstudies; i++) {
        const history_study_t *s = &studies[h->studies[i]];
        const char *status = study_status(set, h->studies[i]);
        const char *source = imported_source(s);
        char label[2 * PATH_MAX], started[256], shown_status[256];
        doc_escape(d, s->label, label, sizeof label);
        doc_escape(d, s->started_text, started, sizeof started);
        status = doc_escape(d, status, shown_status, sizeof shown_status);
        if (doc_is_markdown(d))
            fprintf(out, "| %zu | %s | %s%s%s%s | %s |\n", i + 1, started, label,
                    source ? " (imported from " : "", source ? source : "", source ? ")" : "",
                    status);
        else
            fprintf(out, "  #%-3zu %s  %s%s%s%s%s%s\n", i + 1, started, label,
                    status[0] ? " (" : "", status, status[0] ? ")" : "",
                    source ? ", imported from " : "", source ? source : "");
    }
}

/* Host h's rate table: a row per series, a column per study. CP_ENOMEM when the columns
 * cannot be allocated. */
static int write_rates(const doc_t *d, const history_host_t *h, cp_err_t *err)
{
    enum { TITLE = 24, CELL = 32 };
    size_t ncols = h->nstudies + 2;
    doc_column_t *cols = calloc(ncols, sizeof *cols);
    const char **cells = calloc(ncols, sizeof *cells);
    char *titles = calloc(h->nstudies + 1, TITLE), *values = calloc(h->nstudies + 1, CELL);
    if (cols == NULL || cells == NULL || titles == NULL || values == NULL) {
        free(cols);
        free(cells);
        free(titles);
        free(values);
        return cp_err_set(err, CP_ENOMEM, "out of memory writing the history");
    }
    int width = 6;
    for (size_t j = 0; j < h->nlines; j++) {
        char label[300];
        line_label(&h->lines[j], label, sizeof label);
        width = (int)strlen(label) > width ? (int)strlen(label) : width;
    }
    cols[0] = (doc_column_t){.title = "series", .left = true, .width = width};
    cols[1] = (doc_column_t){.title = "threads", .width = 7};
    for (size_t i = 0; i < h->nstudies; i++) {
        snprintf(titles + i * TITLE, TITLE, "#%zu", i + 1);
        cols[i + 2] = (doc_column_t){.title = titles + i * TITLE, .width = 12};
    }
    const doc_table_t table = {.columns = cols, .ncolumns = ncols, .indent = "  "};
    fputc('\n', d->out);
    doc_section(d, 0, "  rate MB/s by study\n", "Rate (MB/s of input) by study:");
    doc_table_head(d, &table);
    for (size_t j = 0; j < h->nlines; j++) {
        char label[300], threads[16];
        line_label(&h->lines[j], label, sizeof label);
        snprintf(threads, sizeof threads, "%d", h->lines[j].threads);
        cells[0] = label;
        cells[1] = threads;
        for (size_t i = 0; i < h->nstudies; i++) {
            const history_point_t *p = point_of(&h->lines[j], h->studies[i]);
            char *v = values + i * CELL;
            if (p != NULL)
                snprintf(v, CELL, "%.1f", p->rate / 1e6);
            else
                snprintf(v, CELL, "-");
            cells[i + 2] = v;
        }
        doc_table_row(d, &table, cells, NULL);
    }
    free(cols);
    free(cells);
    free(titles);
    free(values);
    return CP_OK;
}

/* The whole history in d's style (report_render_fn; view is a const history_doc_t *);
 * in Markdown its plots (NULL for none) add each host's figures. */
static int render(const void *view, const doc_t *d, cp_err_t *err)
{
    const history_doc_t *v = view;
    const history_result_t *r = v->r;
    const history_set_t *set = v->set;
    FILE *out = d->out;
    doc_section(d, 1, "History: ", "chokepoint history");
    intro(d, r, set);
    for (size_t k = 0; k < r->nhosts; k++) {
        const history_host_t *h = &r->hosts[k];
        char title[400];
        snprintf(title, sizeof title, "Host %s: %zu stud%s, oldest first\n", h->host,
                 h->nstudies, h->nstudies == 1 ? "y" : "ies");
        fputc('\n', out);
        doc_section(d, 2, title, h->host);
        write_studies(d, h, set, v->studies);
        int rc = write_rates(d, h, err);
        if (rc != CP_OK)
            return rc;
        /* Only Markdown has the figures: md_figures writes Markdown (--plots asks for it). */
        if (v->plots != NULL && doc_is_markdown(d)) {
            const plot_set_t *ps = &v->plots[k];
            if (ps->gnuplot_missing) {
                fputc('\n', out);
                doc_text(d, ps->notice); /* it names paths */
                fputc('\n', out);
            }
            char hostdir[256];
            history_plot_host_dir(h->host, hostdir, sizeof hostdir);
            const md_figures_style_t style = {.dir = hostdir, .blank_before = true};
            md_figures_write(out, ps, &style);
        }
        fputc('\n', out);
        if (h->latest == NULL) {
            doc_label(d, "  ", "latest against the one before");
            fputs(": ", out);
            doc_text(d, h->note); /* an error's words may quote names */
            fputc('\n', out);
            continue;
        }
        /* A heading that runs straight into the first pair's own empty line, as history
         * has always written it: no doc_heading (which ends with an empty line). */
        char latest[128];
        snprintf(latest, sizeof latest, "Latest (#%zu, B) against the one before (#%zu, A)",
                 h->nstudies, h->nstudies - 1);
        fprintf(out, "%s%s%s\n", doc_pick(d, "  ", "### "), latest, doc_pick(d, ":", ""));
        rc = compare_write_pairs(h->latest, h->pair, d, 4, err);
        if (rc != CP_OK)
            return rc;
    }
    if (ferror(out))
        return cp_err_errno(err, CP_EIO, errno ? errno : EIO, "cannot write the history");
    return CP_OK;
}

static int as_json(const void *doc, FILE *out, cp_err_t *err)
{
    const history_doc_t *v = doc;
    return history_write_json(v->r, v->set, v->studies, out, err);
}
const report_document_t history_document = {
    .render = render,
    .writers = {[REPORT_FORMAT_JSON] = as_json},
};
