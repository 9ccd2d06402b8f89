/* compare_out.c - compare results as JSON, and in every text-like format (text, Markdown)
 * written once through the renderer (report/doc_writer.h): the document report_write
 * takes, compare_document (compare_out.h). */
#include "report/compare_out.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "report/doc_writer.h"
#include "report/figure_text.h"
#include "report/md_figures.h"
#include "tables/json_number.h"

void compare_pair_summary(const compare_result_t *r, const compare_pair_t *p, char *buf,
                          size_t cap)
{
    const compare_point_t *worst = NULL;
    for (size_t i = 0; i < p->npoints; i++)
        if (worst == NULL || fabs(p->points[i].rate_ratio - 1.0) > fabs(worst->rate_ratio - 1.0))
            worst = &p->points[i];
    int n = snprintf(buf, cap, "%zu of %zu thread count%s slower, %zu faster, %zu the same "
                     "(threshold %.3g%%)", p->slower, p->npoints, p->npoints == 1 ? "" : "s",
                     p->faster, p->same, r->options.threshold * 100.0);
    if (worst != NULL && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, "; the largest difference is at T=%d, B at %.1f%% "
                 "of A", worst->threads, worst->rate_ratio * 100.0);
}

const char *compare_regression_text(const compare_pair_t *p, const compare_point_t *c,
                                    char *buf, size_t cap)
{
    char a[160], b[160];
    figure_series_label(p->a, false, a, sizeof a);
    figure_series_label(p->b, false, b, sizeof b);
    char pair[330];
    if (strcmp(a, b) == 0)
        snprintf(pair, sizeof pair, "%s", a);
    else
        snprintf(pair, sizeof pair, "%s -> %s", a, b);
    snprintf(buf, cap, "%s at %d thread%s, B/A %.3f (%.1f against %.1f MB/s)", pair,
             c->threads, c->threads == 1 ? "" : "s", c->rate_ratio, c->rate_b / 1e6,
             c->rate_a / 1e6);
    return buf;
}

/* ---- JSON --------------------------------------------------------------------------- */

static json_t *side_json(const compare_study_t *study, const analysis_series_t *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "study", json_string(study->label));
    json_object_set_new(o, "target", json_string(s->name));
    json_object_set_new(o, "codec", s->codec[0] ? json_string(s->codec) : json_null());
    return o;
}

/* The point of series s at `threads`, or NULL. */
static const analysis_point_t *point_at(const analysis_series_t *s, int threads)
{
    for (size_t i = 0; i < s->npoints; i++)
        if (s->points[i].threads == threads)
            return &s->points[i];
    return NULL;
}

/* Where the time went at `threads` as shares of the point's time (analysis_time_split),
 * in the order of split_parts; false when the side recorded no thread accounting. */
static const char *const split_parts[] = {"on a core", "waiting for a core", "blocked reading",
                                          "blocked writing", "waiting for another stage"};
static const char *const split_keys[] = {"on_core", "core_wait", "read_wait", "write_wait",
                                         "other"};
#define SPLIT_PARTS 5

static bool split_shares(const analysis_series_t *s, int threads, double share[SPLIT_PARTS])
{
    const analysis_point_t *pt = point_at(s, threads);
    analysis_time_split_t t;
    if (pt == NULL || !analysis_time_split(pt, &t) || !(t.seconds > 0))
        return false;
    double parts[SPLIT_PARTS] = {t.on_core_s, t.core_wait_s, t.read_wait_s, t.write_wait_s,
                                 t.other_s};
    for (int i = 0; i < SPLIT_PARTS; i++)
        share[i] = parts[i] / t.seconds;
    return true;
}

static json_t *split_json(const analysis_series_t *s, int threads)
{
    double share[SPLIT_PARTS];
    if (!split_shares(s, threads, share))
        return json_null();
    json_t *o = json_object();
    for (int i = 0; i < SPLIT_PARTS; i++)
        json_object_set_new(o, split_keys[i], json_number_or_null(share[i]));
    return o;
}

/* One line per common thread count where both sides recorded where the time went:
 * each part's share of the point's time in A and in B. */
static void split_changes(const doc_t *d, const compare_pair_t *p)
{
    FILE *out = d->out;
    const char *indent = doc_item(d, "  ");
    for (size_t i = 0; i < p->npoints; i++) {
        int threads = p->points[i].threads;
        double a[SPLIT_PARTS], b[SPLIT_PARTS];
        if (!split_shares(p->a, threads, a) || !split_shares(p->b, threads, b))
            continue;
        fprintf(out, "%swhere the time went at %d thread%s, A -> B (share of the time, per "
                "thread):", indent, threads, threads == 1 ? "" : "s");
        for (int k = 0; k < SPLIT_PARTS; k++)
            fprintf(out, "%s %s %.0f%% -> %.0f%%", k ? "," : "", split_parts[k], 100 * a[k],
                    100 * b[k]);
        fputc('\n', out);
    }
}

static json_t *pair_json(const compare_pair_t *p, const compare_study_t *studies)
{
    json_t *o = json_object(), *pts = json_array(), *vc = json_array();
    json_object_set_new(o, "a", side_json(&studies[0], p->a));
    json_object_set_new(o, "b", side_json(&studies[p->study_b], p->b));
    for (size_t i = 0; i < p->npoints; i++) {
        const compare_point_t *c = &p->points[i];
        json_t *j = json_object();
        json_object_set_new(j, "threads", json_integer(c->threads));
        json_object_set_new(j, "rate_a", json_number_or_null(c->rate_a));
        json_object_set_new(j, "rate_b", json_number_or_null(c->rate_b));
        json_object_set_new(j, "n_a", json_integer((json_int_t)c->n_a));
        json_object_set_new(j, "n_b", json_integer((json_int_t)c->n_b));
        json_object_set_new(j, "rate_ratio", json_number_or_null(c->rate_ratio));
        json_object_set_new(j, "ci_low", json_number_or_null(c->ci_low));
        json_object_set_new(j, "ci_high", json_number_or_null(c->ci_high));
        json_object_set_new(j, "change", json_string(compare_change_name(c->change)));
        json_object_set_new(j, "basis", json_string(compare_basis_name(c->basis)));
        json_object_set_new(j, "regression", json_boolean(c->regression));
        json_object_set_new(j, "time_a", split_json(p->a, c->threads));
        json_object_set_new(j, "time_b", split_json(p->b, c->threads));
        json_array_append_new(pts, j);
    }
    json_object_set_new(o, "points", pts);
    json_object_set_new(o, "slope_a", json_number_or_null(p->slope_a));
    json_object_set_new(o, "slope_b", json_number_or_null(p->slope_b));
    json_object_set_new(o, "slope_ratio", json_number_or_null(p->slope_ratio));
    json_object_set_new(o, "exponent_a", json_number_or_null(p->exponent_a));
    json_object_set_new(o, "exponent_b", json_number_or_null(p->exponent_b));
    json_object_set_new(o, "crossover_a", json_number_or_null(p->crossover_a));
    json_object_set_new(o, "crossover_b", json_number_or_null(p->crossover_b));
    for (size_t i = 0; i < p->nverdict_changes; i++) {
        json_t *j = json_object();
        json_object_set_new(j, "threads", json_integer(p->verdict_changes[i].threads));
        json_object_set_new(j, "a", json_string(verdict_name(p->verdict_changes[i].a)));
        json_object_set_new(j, "b", json_string(verdict_name(p->verdict_changes[i].b)));
        json_array_append_new(vc, j);
    }
    json_object_set_new(o, "verdict_changes", vc);
    json_object_set_new(o, "slower", json_integer((json_int_t)p->slower));
    json_object_set_new(o, "faster", json_integer((json_int_t)p->faster));
    json_object_set_new(o, "same", json_integer((json_int_t)p->same));
    json_object_set_new(o, "regressions", json_integer((json_int_t)p->regressions));
    return o;
}

/* ---- environments ------------------------------------------------------------------- */

#define ENV_DIFFS_MAX 64

/* The differences between study k's environment and A's into out; -1 when either has no
 * meta.json. */
/* The largest median output of a point that a volume took (not a CPU ceiling's) in the
 * analysis a (NULL is fine), or in `largest` when that is larger. */
static double largest_output(const analysis_t *a, double largest)
{
    for (size_t i = 0; a != NULL && i < a->nseries; i++)
        for (size_t k = 0; !a->series[i].cpu_ceiling && k < a->series[i].npoints; k++)
            if (a->series[i].points[k].output_bytes > largest || !(largest > 0.0))
                largest = a->series[i].points[k].output_bytes;
    return largest;
}

static long env_differences(const compare_study_t *studies, size_t k, study_env_diff_t *out)
{
    const study_env_t *a = studies[0].env, *b = studies[k].env;
    if (a == NULL || b == NULL || !a->known || !b->known)
        return -1;
    double output = largest_output(studies[k].analysis, largest_output(studies[0].analysis, NAN));
    size_t n = study_env_differences(a, b, output, out, ENV_DIFFS_MAX);
    return (long)(n < ENV_DIFFS_MAX ? n : ENV_DIFFS_MAX);
}

static char study_letter(size_t k) { return k < 26 ? (char)('A' + k) : '?'; }

static json_t *environments_json(const compare_study_t *studies, size_t n)
{
    json_t *list = json_array();
    study_env_diff_t diffs[ENV_DIFFS_MAX]; /* about 60 KB */
    for (size_t k = 1; k < n; k++) {
        long nd = env_differences(studies, k, diffs);
        json_t *o = json_object(), *d = json_array();
        json_object_set_new(o, "study", json_string(studies[k].label));
        json_object_set_new(o, "known", json_boolean(nd >= 0));
        for (long i = 0; i < nd; i++)
            json_array_append_new(d, json_pack("{s:s, s:s, s:s, s:s}", "what", diffs[i].what,
                                               "a", diffs[i].a, "b", diffs[i].b, "explains",
                                               diffs[i].explains));
        json_object_set_new(o, "differences", d);
        json_array_append_new(list, o);
    }
    return list;
}

/* The environments side by side: per study after A, each difference with what it can
 * change, or that none was found, or that a side has no meta.json. */
static void environments_text(const doc_t *d, const compare_study_t *studies, size_t n)
{
    FILE *out = d->out;
    const char *bullet = doc_item(d, "  ");
    study_env_diff_t diffs[ENV_DIFFS_MAX]; /* about 60 KB */
    fprintf(out, "\nEnvironments (meta.json), each study against A:\n");
    for (size_t k = 1; k < n; k++) {
        long nd = env_differences(studies, k, diffs);
        char who = study_letter(k);
        const study_env_t *a = studies[0].env, *b = studies[k].env;
        if (nd < 0 && ((a != NULL && a->imported) || (b != NULL && b->imported))) {
            fprintf(out, "%s%c: %s imported: its meta.json records no machine, page cache or "
                    "settings, so a change cannot be traced to them\n", bullet, who,
                    b != NULL && b->imported ? "it is" : "A is");
            continue;
        }
        if (nd < 0) {
            fprintf(out, "%s%c: %s has no meta.json: machine, page cache and settings "
                    "unknown, so a change cannot be traced to them\n", bullet, who,
                    a != NULL && a->known ? "it" : "A or it");
            continue;
        }
        if (nd == 0)
            fprintf(out, "%s%c: the same CPU, kernel, write-back thresholds, sync mode, input "
                    "size, version and targets' file systems, mount options and devices\n",
                    bullet, who);
        for (long i = 0; i < nd; i++) {
            /* The values are meta.json's: the line is escaped for the document. */
            const study_env_diff_t *e = &diffs[i];
            char line[sizeof e->what + sizeof e->a + sizeof e->b + sizeof e->explains + 16];
            snprintf(line, sizeof line, "%s %s -> %s%s%s", e->what, e->a, e->b,
                     e->explains[0] ? ": " : "", e->explains);
            fprintf(out, "%s%c: ", bullet, who);
            doc_text(d, line);
            fputc('\n', out);
        }
    }
}

/* For a pair whose verdicts changed: the differences of its B's environment that can move
 * a verdict, named in one line. */
static void verdict_env_line(const doc_t *d, const compare_pair_t *p,
                             const compare_study_t *studies)
{
    FILE *out = d->out;
    const char *indent = doc_item(d, "  ");
    study_env_diff_t diffs[ENV_DIFFS_MAX]; /* about 60 KB */
    if (p->nverdict_changes == 0)
        return;
    long nd = env_differences(studies, p->study_b, diffs);
    if (nd < 0)
        return;
    int named = 0;
    for (long i = 0; i < nd; i++) {
        if (!diffs[i].explains[0])
            continue;
        if (named++ == 0)
            fprintf(out, "%sdifferences that can explain the changed verdicts: ", indent);
        else
            fputs(", ", out);
        doc_text(d, diffs[i].what);
    }
    if (named > 0)
        fputc('\n', out);
    else
        fprintf(out, "%sno recorded difference of environment explains the changed verdicts: "
                "the volume itself, or noise (see the repetitions)\n", indent);
}

json_t *compare_result_json(const compare_result_t *r, const compare_study_t *studies,
                            size_t n)
{
    json_t *root = json_object(), *st = json_array(), *pairs = json_array();
    if (root == NULL || st == NULL || pairs == NULL) {
        json_decref(root);
        json_decref(st);
        json_decref(pairs);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        json_array_append_new(st, json_string(studies[i].label));
    json_object_set_new(root, "studies", st);
    json_object_set_new(root, "threshold", json_number_or_null(r->options.threshold));
    json_object_set_new(root, "fail_on_regression", json_number_or_null(r->options.fail_threshold));
    json_object_set_new(root, "confidence", json_number_or_null(r->options.confidence));
    json_object_set_new(root, "resamples", json_integer(r->options.resamples));
    json_object_set_new(root, "seed", json_integer((json_int_t)r->options.seed));
    json_object_set_new(root, "regressions", json_integer((json_int_t)r->regressions));
    for (size_t i = 0; i < r->npairs; i++)
        json_array_append_new(pairs, pair_json(&r->pairs[i], studies));
    json_object_set_new(root, "pairs", pairs);
    json_object_set_new(root, "environments", environments_json(studies, n));
    return root;
}

int compare_write_json(const compare_result_t *r, const compare_study_t *studies, size_t n,
                       FILE *out, cp_err_t *err)
{
    json_t *root = compare_result_json(r, studies, n);
    if (root == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory building JSON");
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (rc != 0 || fputc('\n', out) == EOF)
        return cp_err_errno(err, CP_EIO, errno, "cannot write the JSON comparison");
    return CP_OK;
}

/* ---- text and Markdown ---------------------------------------------------------------- */

/* "%.3f" or "-" for an unknown value, into buf. */
static const char *num(double x, int decimals, char *buf, size_t cap)
{
    if (isfinite(x))
        snprintf(buf, cap, "%.*f", decimals, x);
    else
        snprintf(buf, cap, "-");
    return buf;
}

static void interval(const compare_point_t *c, char *buf, size_t cap)
{
    if (isfinite(c->ci_low) && isfinite(c->ci_high))
        snprintf(buf, cap, "%.3f..%.3f", c->ci_low, c->ci_high);
    else
        snprintf(buf, cap, "-");
}

static void pair_title(const compare_pair_t *p, const compare_study_t *studies, char *buf,
                       size_t cap)
{
    char la[300], lb[300];
    figure_series_label(p->a, false, la, sizeof la);
    figure_series_label(p->b, false, lb, sizeof lb);
    snprintf(buf, cap, "%s in %s against %s in %s", lb, studies[p->study_b].label, la,
             studies[0].label);
}

/* A series' crossover as analyze states it: a thread count within reach of the measured
 * range (ANALYSIS_EXTRAPOLATION_REACH x its largest T), else "not within reach". */
static const char *crossover_text(const analysis_series_t *s, double crossover, char *buf,
                                  size_t cap)
{
    int hi = s->npoints > 0 ? s->points[s->npoints - 1].threads : 0;
    if (isfinite(crossover) && crossover > ANALYSIS_EXTRAPOLATION_REACH * hi)
        snprintf(buf, cap, "not within reach");
    else
        num(crossover, 2, buf, cap);
    return buf;
}

/* The fitted figures, warnings and changed verdicts after a pair's table. */
static void pair_figures(const doc_t *d, const compare_pair_t *p)
{
    FILE *out = d->out;
    const char *indent = doc_item(d, "  ");
    char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32];
    fprintf(out, "%slinear_rate slope: A %s, B %s MB/s per thread, ratio %s\n", indent,
            num(p->slope_a / 1e6, 1, b1, sizeof b1),
            num(p->slope_b / 1e6, 1, b2, sizeof b2), num(p->slope_ratio, 3, b3, sizeof b3));
    fprintf(out, "%spower_time exponent: A %s, B %s; crossover threads: A %s, B %s\n", indent,
            num(p->exponent_a, 3, b4, sizeof b4), num(p->exponent_b, 3, b5, sizeof b5),
            crossover_text(p->a, p->crossover_a, b6, sizeof b6),
            crossover_text(p->b, p->crossover_b, b7, sizeof b7));
    double in_a = p->a->points[p->a->npoints - 1].input_bytes;
    double in_b = p->b->points[p->b->npoints - 1].input_bytes;
    if (fabs(in_b / in_a - 1.0) > 0.01)
        fprintf(out, "%swarning: the inputs differ (A %.1f MB, B %.1f MB): rates of different "
                "inputs are not the same job's, so the calls above compare more than the "
                "machines\n", indent, in_a / 1e6, in_b / 1e6);
    if (p->nverdict_changes == 0) {
        fprintf(out, "%sverdicts: unchanged\n", indent);
        return;
    }
    fprintf(out, "%sverdicts changed:", indent);
    for (size_t i = 0; i < p->nverdict_changes; i++)
        fprintf(out, "%s T=%d %s -> %s", i ? "," : "", p->verdict_changes[i].threads,
                verdict_name(p->verdict_changes[i].a), verdict_name(p->verdict_changes[i].b));
    fputc('\n', out);
}

/* The studies, each a list item of d, and how the calls are made. */
static void header_text(const doc_t *d, const compare_result_t *r,
                        const compare_study_t *studies, size_t n)
{
    FILE *out = d->out;
    const char *bullet = doc_item(d, "");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s%c: ", bullet, i < 26 ? (char)('A' + i) : '?');
        doc_text(d, studies[i].label);
        fputc('\n', out);
    }
    fprintf(out, "\nB/A is the ratio of the rates (each the median input over the median "
            "seconds, as analyze gives them). With %d or more repetitions on both "
            "sides the call rests on a %.0f%% bootstrap interval (%u resamples, seed %llu); "
            "otherwise on the ratio alone. Changes within %.3g%% are 'same'.",
            COMPARE_MIN_REPS, r->options.confidence * 100.0, r->options.resamples,
            (unsigned long long)r->options.seed, r->options.threshold * 100.0);
    if (isfinite(r->options.fail_threshold))
        fprintf(out, " Regression limit: %.3g%% slower (%zu point%s beyond it).",
                r->options.fail_threshold * 100.0, r->regressions, r->regressions == 1 ? "" : "s");
    fputc('\n', out);
}

int compare_write_pairs(const compare_result_t *r, const compare_study_t *studies,
                        const doc_t *d, int level, cp_err_t *err)
{
    static const doc_column_t columns[] = {
        {.title = "threads", .width = 7},
        {.title = "A MB/s", .width = 10},
        {.title = "B MB/s", .width = 10},
        {.title = "reps A/B", .text_title = "reps", .width = 5},
        {.title = "B/A", .width = 7},
        {.title = "95% interval", .width = 17},
        {.title = "call", .left = true, .gap = "  "},
        {.title = "basis", .left = true, .text_in_parens = true},
    };
    /* A regression's mark ends the call in Markdown, the row in text. */
    const doc_table_t table = {.columns = columns, .ncolumns = 8, .indent = "  ",
                               .note_column = 6};
    FILE *out = d->out;
    char regression[32] = " ";
    doc_alarm(d, "regression", regression + 1, sizeof regression - 1);
    for (size_t k = 0; k < r->npairs; k++) {
        const compare_pair_t *p = &r->pairs[k];
        char title[1024], shown[2100], sum[256];
        pair_title(p, studies, title, sizeof title);
        fputc('\n', out);
        doc_heading(d, level, "%s", doc_escape(d, title, shown, sizeof shown));
        doc_table_head(d, &table);
        for (size_t i = 0; i < p->npoints; i++) {
            const compare_point_t *c = &p->points[i];
            char ci[48], reps[48], threads[16], ra[32], rb[32], ratio[32];
            interval(c, ci, sizeof ci);
            snprintf(reps, sizeof reps, "%zu/%zu", c->n_a, c->n_b);
            snprintf(threads, sizeof threads, "%d", c->threads);
            snprintf(ra, sizeof ra, "%.1f", c->rate_a / 1e6);
            snprintf(rb, sizeof rb, "%.1f", c->rate_b / 1e6);
            snprintf(ratio, sizeof ratio, "%.3f", c->rate_ratio);
            const char *cells[] = {threads, ra, rb, reps, ratio, ci,
                                   compare_change_name(c->change), compare_basis_name(c->basis)};
            doc_table_row(d, &table, cells, c->regression ? regression : NULL);
        }
        doc_table_end(d);
        pair_figures(d, p);
        verdict_env_line(d, p, studies);
        split_changes(d, p);
        compare_pair_summary(r, p, sum, sizeof sum);
        fputs(doc_item(d, "  "), out);
        doc_text(d, sum);
        fputc('\n', out);
    }
    if (ferror(out))
        return cp_err_errno(err, CP_EIO, errno ? errno : EIO, "cannot write the comparison");
    return CP_OK;
}

/* The series of each study that no pair holds, "A: usb (zstd:3), ...", one line a study
 * that has any, each a list item of d; nothing when everything paired. */
static void write_unpaired(const compare_result_t *r, const compare_study_t *studies, size_t n,
                           const doc_t *d)
{
    FILE *out = d->out;
    const char *prefix = doc_item(d, "");
    for (size_t k = 0; k < n; k++) {
        const analysis_t *an = studies[k].analysis;
        size_t told = 0;
        for (size_t i = 0; i < an->nseries; i++) {
            const analysis_series_t *s = &an->series[i];
            bool paired = false;
            for (size_t j = 0; j < r->npairs && !paired; j++)
                paired = r->pairs[j].a == s || r->pairs[j].b == s;
            if (paired)
                continue;
            char label[300];
            figure_series_label(s, false, label, sizeof label);
            if (told++ == 0)
                fprintf(out, "%snot paired, so not compared: %c:", prefix,
                        k < 26 ? (char)('A' + k) : '?');
            fputs(told > 1 ? ", " : " ", out);
            doc_text(d, label);
        }
        if (told > 0)
            fputc('\n', out);
    }
}

/* The whole comparison in d's style (report_render_fn; view is a const compare_doc_t *):
 * the studies, what did not pair, the environments, each pair, and in Markdown with plots
 * the figures. */
static int render(const void *view, const doc_t *d, cp_err_t *err)
{
    const compare_doc_t *v = view;
    const compare_result_t *r = v->r;
    const compare_study_t *studies = v->studies;
    size_t n = v->n;
    FILE *out = d->out;
    doc_section(d, 1, "", "chokepoint comparison");
    header_text(d, r, studies, n);
    write_unpaired(r, studies, n, d);
    environments_text(d, studies, n);
    int rc = compare_write_pairs(r, studies, d, 2, err);
    if (rc != CP_OK)
        return rc;
    /* Only Markdown has the figures: md_figures writes Markdown (--plots asks for it). */
    if (v->plots != NULL && doc_is_markdown(d)) {
        fprintf(out, "\n## Plots\n");
        if (v->plots->gnuplot_missing) {
            fputc('\n', out);
            doc_text(d, v->plots->notice); /* it names paths */
            fputc('\n', out);
        }
        const md_figures_style_t style = {.blank_before = true, .heading = true};
        md_figures_write(out, v->plots, &style);
    }
    if (ferror(out))
        return cp_err_errno(err, CP_EIO, errno ? errno : EIO, "cannot write the comparison");
    return CP_OK;
}

static int as_json(const void *doc, FILE *out, cp_err_t *err)
{
    const compare_doc_t *d = doc;
    return compare_write_json(d->r, d->studies, d->n, out, err);
}
const report_document_t compare_document = {
    .render = render,
    .writers = {[REPORT_FORMAT_JSON] = as_json},
};
