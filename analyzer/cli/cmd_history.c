/* cmd_history.c - `chokepoint history ROOT`: argument handling and output only; finding
 * and loading the studies is tables/history_load.c, grouping and the comparison
 * model/history.c (on model/compare.c), the formats and their table of writers per
 * --format report/history_out.c, the plots report/history_plot.c. Each study's meta.json
 * is read by tables/meta_json.c's meta_read; its status is shown by study/meta.h's rules
 * (a study recorded as running whose process died is "abandoned"). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/judge_options.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/log.h"
#include "model/history.h"
#include "report/compare_out.h"
#include "report/history_out.h"
#include "report/history_plot.h"
#include "study/meta.h"
#include "tables/history_load.h"
#include "tables/outfile.h"


static const char history_head[] =
    "usage: chokepoint history ROOT [--format text|json|markdown] [-o FILE]\n"
    "                          [--plots DIR [--plot-format png|svg|both]] [--force]\n"
    "                          [--threshold PCT] [--fail-on-regression PCT] [--tolerance X]\n"
    "                          [--seed N]\n\n"
    "Every results directory under ROOT (a directory holding meta.json and runs.csv, as\n"
    "'run' writes it; searched 4 levels down), grouped by the host in meta.json and put in\n"
    "order of its start time. Per host: the rate of each target, codec and thread count in\n"
    "every study (a table, and with --plots a plot study by study), and the latest study\n"
    "against the one before it, judged as 'compare' judges: B/A per thread count with a\n"
    "bootstrap 95% interval over the repetitions and a call (slower, faster, same).\n"
    "Directories that cannot be read are skipped with a warning that says why.\n\n"
    "options:\n";

static const char history_tail[] =
    "\n"
    "Exit status: 0 success, 1 a regression beyond --fail-on-regression (or a runtime\n"
    "failure), 2 usage or data error (also: no readable results directory under ROOT).\n";

static const opt_use_t history_uses[] = {
    {.id = OPT_FORMAT},
    {.id = OPT_OUTPUT, .flags = OPT_SHORT_ONLY},
    {.id = OPT_FORCE, .help = "replace FILE, and the files --plots writes, when they exist\n(otherwise an error)"},
    {.id = OPT_PLOTS,
     .help = "per host DIR/HOST/history_rate.png (and history_restore.png for\n"
             "decompressions), their data, and DIR/history.md"},
    {.id = OPT_PLOT_FORMAT},
    {.id = OPT_THRESHOLD},
    {.id = OPT_FAIL_ON_REGRESSION,
     .help = "exit 1 when a point of a latest study is slower than the one\n"
             "before by more than PCT (its interval entirely beyond it)",
     .flags = OPT_OWN_LINE},
    {.id = OPT_TOLERANCE},
    {.id = OPT_SEED},
    {.id = OPT_QUIET},
    {.id = OPT_HELP, .help = "this help"},
    {.id = OPT_NONE},
};
static const opt_command_t history_command = {history_uses, 20, false};

typedef struct settings {
    const char *root;
    judge_options_t judge;
} settings_t;

/* Checks that hold once every option is read: one ROOT, no option without its use. */
static int check_args(int argc, char **argv, settings_t *s, cp_err_t *err)
{
    if (optind >= argc)
        return cp_err_set(err, CP_EUSAGE, "history needs a ROOT directory of results "
                          "directories; try 'chokepoint history --help'");
    if (argc - optind > 1)
        return cp_err_set(err, CP_EUSAGE, "history takes one ROOT ('%s' is a second one)",
                          argv[optind + 1]);
    s->root = argv[optind];
    if (s->root[0] == '\0')
        return cp_err_set(err, CP_EUSAGE, "history: empty ROOT");
    return judge_options_check(&s->judge, err);
}

/* OPTIONS_PROCEED with s filled, OPTIONS_HELP_REQUESTED, or OPTIONS_FAILED with err set
 * (or the message already printed by options_error, err->code CP_EUSAGE). */
static options_outcome_t parse_args(int argc, char **argv, settings_t *s, cp_err_t *err)
{
    judge_options_init(&s->judge);
    int rc = CP_OK, c;
    options_begin();
    while (rc == CP_OK && (c = options_next(&history_command, argc, argv)) != -1) {
        if (judge_option(c, optarg, &s->judge, &rc, err))
            continue;
        switch (c) {
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP:
            options_help(stdout, &history_command, history_head, history_tail);
            return OPTIONS_HELP_REQUESTED;
        default:
            options_error("history", c, argv);
            err->code = CP_EUSAGE;
            err->msg[0] = '\0';
            return OPTIONS_FAILED;
        }
    }
    if (rc == CP_OK)
        rc = check_args(argc, argv, s, err);
    return rc == CP_OK ? OPTIONS_PROCEED : OPTIONS_FAILED;
}

/* In --format, or in Markdown whatever --format says when markdown is set. */
static int write_output(const settings_t *s, const history_doc_t *v, const plot_set_t *plots,
                        bool markdown, FILE *out, cp_err_t *err)
{
    history_doc_t with = *v;
    with.plots = plots;
    return report_write(&history_document,
                        markdown ? REPORT_FORMAT_MARKDOWN : s->judge.format, &with, out, err);
}

static int write_to(const char *path, bool force, const settings_t *s, const history_doc_t *v,
                    const plot_set_t *plots, bool markdown, cp_err_t *err)
{
    outfile_t *f = outfile_open(path, force, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    int rc = write_output(s, v, plots, markdown, outfile_stream(f), err);
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

/* Without --force: refused before anything is written when DIR/history.md or an image of
 * a host's exists. */
static int outputs_check(const judge_options_t *j, const history_result_t *r, cp_err_t *err)
{
    static const char *const images[] = {"history_rate", "history_restore"};
    static const char *const exts[] = {"png", "svg"};
    const char *md = "history.md";
    int rc = judge_plots_check(j, &md, 1, err);
    for (size_t k = 0; k < r->nhosts && rc == CP_OK; k++) {
        char host[256];
        history_plot_host_dir(r->hosts[k].host, host, sizeof host);
        for (size_t i = 0; i < 2 && rc == CP_OK; i++)
            for (int e = 0; e < 2 && rc == CP_OK; e++) {
                if (!(j->plot_format & (e == 0 ? PLOT_PNG : PLOT_SVG)))
                    continue;
                char name[300];
                snprintf(name, sizeof name, "%s/%s.%s", host, images[i], exts[e]);
                const char *one = name;
                rc = judge_plots_check(j, &one, 1, err);
            }
    }
    return rc;
}

/* One plot per host, then DIR/history.md (each replaced only with --force). */
static int write_plots(const settings_t *s, const history_doc_t *v, cp_err_t *err)
{
    plot_set_t *plots = calloc(v->r->nhosts, sizeof *plots);
    if (plots == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    const judge_options_t *j = &s->judge;
    int rc = outputs_check(j, v->r, err);
    for (size_t k = 0; k < v->r->nhosts && rc == CP_OK; k++)
        rc = history_plot_render(j->plots_dir, &v->r->hosts[k], v->studies, j->plot_format,
                                 j->force, &plots[k], err);
    char md[PATH_MAX];
    if (rc == CP_OK && (size_t)snprintf(md, sizeof md, "%s/history.md", j->plots_dir) >= sizeof md)
        rc = cp_err_set(err, CP_EUSAGE, "%s: path too long", j->plots_dir);
    if (rc == CP_OK)
        rc = write_to(md, j->force, s, v, plots, true, err);
    if (rc == CP_OK) {
        if (v->r->nhosts > 0 && plots[0].gnuplot_missing)
            cp_log_warn("%s", plots[0].notice);
        for (size_t k = 0; k < v->r->nhosts; k++)
            plot_set_log_written(&plots[k]);
        cp_log_info("wrote %s", md);
    }
    free(plots);
    return rc;
}

/* A study recorded as running whose process died reads "abandoned" (study_dir_status), as
 * analyze and plot call it. */
static void apply_status_rules(history_set_t *set)
{
    for (size_t i = 0; i < set->n; i++) {
        history_entry_t *e = &set->entries[i];
        if (strcmp(e->status, "running") != 0)
            continue;
        const char *now = study_dir_status(e->input->path, NULL);
        char *copy = now != NULL && strcmp(now, e->status) != 0 ? strdup(now) : NULL;
        if (copy != NULL) {
            free(e->status);
            e->status = copy;
        }
    }
}

/* The set loaded, warned about, and refused when it holds no study. */
static int load_studies(const settings_t *s, history_set_t **set, history_study_t **studies,
                        cp_err_t *err)
{
    int rc = history_load(s->root, &s->judge.analysis, set, err);
    if (rc != CP_OK)
        return rc;
    apply_status_rules(*set);
    for (size_t i = 0; i < (*set)->nskipped; i++)
        cp_log_warn("history: skipped %s: %s", (*set)->skipped[i].path,
                    (*set)->skipped[i].reason);
    if ((*set)->n == 0 && (*set)->nskipped == 0)
        return cp_err_set(err, CP_EDATA, "%s: no results directories there (a results "
                          "directory holds meta.json and runs.csv, as 'run' writes)", s->root);
    if ((*set)->n == 0)
        return cp_err_set(err, CP_EDATA, "%s: no readable results directory (%zu skipped, "
                          "see the warnings above)", s->root, (*set)->nskipped);
    *studies = calloc((*set)->n, sizeof **studies);
    if (*studies == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    history_set_studies(*set, *studies);
    return CP_OK;
}

/* The worst regression over every host's latest comparison, "host H: NAME at T threads:
 * ..." (compare_regression_text), into buf. */
static const char *worst_regression_text(const history_result_t *r, char *buf, size_t cap)
{
    const history_host_t *host = NULL;
    const compare_pair_t *pair = NULL;
    const compare_point_t *worst = NULL;
    for (size_t h = 0; h < r->nhosts; h++) {
        const compare_pair_t *p = NULL;
        const compare_point_t *c = compare_worst_regression(r->hosts[h].latest, &p);
        if (c != NULL && (worst == NULL || c->rate_ratio < worst->rate_ratio)) {
            worst = c;
            pair = p;
            host = &r->hosts[h];
        }
    }
    char what[512] = "";
    if (worst != NULL)
        compare_regression_text(pair, worst, what, sizeof what);
    snprintf(buf, cap, "host %s: %s", host ? host->host : "?", what);
    return buf;
}

int cmd_history(int argc, char **argv)
{
    cp_err_t err = {0};
    settings_t s = {0};
    options_outcome_t outcome = parse_args(argc, argv, &s, &err);
    if (outcome != OPTIONS_PROCEED) {
        if (outcome == OPTIONS_HELP_REQUESTED)
            return 0;
        if (err.msg[0])
            cp_log_error("%s", err.msg);
        return cp_exit_status(err.code);
    }
    history_set_t *set = NULL;
    history_study_t *studies = NULL;
    history_result_t *result = NULL;
    int rc = load_studies(&s, &set, &studies, &err);
    if (rc == CP_OK)
        rc = history_build(studies, set->n, &s.judge.cmp, &result, &err);
    if (rc == CP_OK && cp_interrupted())
        rc = cp_err_set(&err, CP_EINTR, "interrupted");
    history_doc_t v = {.r = result, .set = set, .studies = studies};
    if (rc == CP_OK && s.judge.plots_dir != NULL)
        rc = write_plots(&s, &v, &err);
    if (rc == CP_OK) {
        if (s.judge.out_path != NULL)
            rc = write_to(s.judge.out_path, s.judge.force, &s, &v, NULL, false, &err);
        else if ((rc = write_output(&s, &v, NULL, false, stdout, &err)) == CP_OK &&
                 fflush(stdout) != 0)
            rc = cp_err_errno(&err, CP_EIO, errno, "cannot write to stdout");
    }
    int status = cp_exit_status(rc);
    if (rc != CP_OK) {
        cp_log_error("%s", err.msg);
    } else if (result->regressions > 0) {
        char what[600];
        cp_log_error("history: %zu point%s of the latest studies %s slower than the "
                     "regression limit of %.3g%%%s %s", result->regressions,
                     result->regressions == 1 ? "" : "s",
                     result->regressions == 1 ? "is" : "are", s.judge.cmp.fail_threshold * 100.0,
                     result->regressions == 1 ? ":" : "; the worst:",
                     worst_regression_text(result, what, sizeof what));
        status = 1;
    }
    history_free(result);
    free(studies);
    history_set_free(set);
    return status;
}
