/* cmd_compare.c - `chokepoint compare A B [C...]`: argument handling and output only; the
 * loading is tables/compare_load.c, the comparison model/compare.c, the formats
 * report/compare_out.c and the plots report/compare_plot.c. */
#include <errno.h>
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
#include "model/compare.h"
#include "report/compare_out.h"
#include "report/compare_plot.h"
#include "tables/compare_load.h"
#include "tables/outfile.h"


static const char compare_head[] =
    "usage: chokepoint compare A B [C...] [--pair NAME_A:NAME_B ...] [--threshold PCT]\n"
    "                          [--fail-on-regression PCT] [--format text|json|markdown]\n"
    "                          [-o FILE] [--plots DIR [--plot-format png|svg|both]]\n"
    "                          [--force] [--tolerance X] [--seed N]\n\n"
    "Compares studies: B (and C, ...) each against A. A, B, ... are results directories\n"
    "(runs.csv, and probe.csv when there) or runs tables, whatever 'analyze' reads.\n"
    "Series pair by (target, codec); when each side holds one series they pair by\n"
    "themselves; --pair names others. Per thread count both sides measured: the ratio of\n"
    "the median rates B/A, a bootstrap 95% interval over the repetitions when both sides\n"
    "have 3 or more, and a call: slower, faster or same (the interval, or without one the\n"
    "ratio, entirely beyond the threshold). Per pair: the linear-rate slope ratio, both\n"
    "power-law exponents and crossovers, and the verdicts that changed.\n\n"
    "options:\n";

static const char compare_tail[] =
    "\n"
    "Exit status: 0 success, 1 a regression beyond --fail-on-regression (or a runtime\n"
    "failure), 2 usage or data-file error (also: studies with nothing in common).\n";

static const opt_use_t compare_uses[] = {
    {.id = OPT_PAIR},
    {.id = OPT_THRESHOLD},
    {.id = OPT_FAIL_ON_REGRESSION,
     .help = "exit 1 when any point is slower by more than PCT (its interval\n"
             "entirely beyond it, or without repetitions its ratio)",
     .flags = OPT_OWN_LINE},
    {.id = OPT_FORMAT},
    {.id = OPT_OUTPUT, .flags = OPT_SHORT_ONLY},
    {.id = OPT_FORCE, .help = "replace FILE, and the files --plots writes, when they exist\n(otherwise an error)"},
    {.id = OPT_PLOTS, .help = "overlay and ratio plots, their data and compare.md into DIR"},
    {.id = OPT_PLOT_FORMAT},
    {.id = OPT_TOLERANCE},
    {.id = OPT_SEED},
    {.id = OPT_QUIET},
    {.id = OPT_HELP, .help = "this help"},
    {.id = OPT_NONE},
};
static const opt_command_t compare_command = {compare_uses, 20, false};

typedef struct settings {
    const char *paths[COMPARE_MAX_STUDIES];
    size_t npaths;
    compare_name_pair_t names[COMPARE_MAX_STUDIES];
    char name_buf[COMPARE_MAX_STUDIES][2 * CP_NAME_MAX + 2];
    size_t nnames;
    judge_options_t judge;
} settings_t;

static int parse_pair(settings_t *s, const char *text, cp_err_t *err)
{
    if (s->nnames >= COMPARE_MAX_STUDIES)
        return cp_err_set(err, CP_EUSAGE, "--pair: at most %d", COMPARE_MAX_STUDIES);
    char *buf = s->name_buf[s->nnames];
    if (strlen(text) >= sizeof s->name_buf[0])
        return cp_err_set(err, CP_EUSAGE, "--pair '%.40s...': too long", text);
    strcpy(buf, text);
    char *colon = strchr(buf, ':');
    if (colon == NULL || colon == buf || colon[1] == '\0')
        return cp_err_set(err, CP_EUSAGE, "bad --pair '%s': expected NAME_A:NAME_B (two "
                          "target names)", text);
    *colon = '\0';
    s->names[s->nnames++] = (compare_name_pair_t){.a = buf, .b = colon + 1};
    return CP_OK;
}

/* OPTIONS_PROCEED with s filled, OPTIONS_HELP_REQUESTED, or OPTIONS_FAILED with err set
 * (or the message already printed by options_error, err->code CP_EUSAGE). */
static options_outcome_t parse_args(int argc, char **argv, settings_t *s, cp_err_t *err)
{
    judge_options_init(&s->judge);
    s->judge.cmp.pair_option = true; /* compare takes --pair */
    int rc = CP_OK, c;
    options_begin();
    while (rc == CP_OK && (c = options_next(&compare_command, argc, argv)) != -1) {
        if (judge_option(c, optarg, &s->judge, &rc, err))
            continue;
        switch (c) {
        case OPT_PAIR: rc = parse_pair(s, optarg, err); break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP:
            options_help(stdout, &compare_command, compare_head, compare_tail);
            return OPTIONS_HELP_REQUESTED;
        default:
            options_error("compare", c, argv);
            err->code = CP_EUSAGE;
            err->msg[0] = '\0';
            return OPTIONS_FAILED;
        }
    }
    for (; rc == CP_OK && optind < argc; optind++) {
        if (s->npaths >= COMPARE_MAX_STUDIES)
            rc = cp_err_set(err, CP_EUSAGE, "compare: at most %d studies", COMPARE_MAX_STUDIES);
        else
            s->paths[s->npaths++] = argv[optind];
    }
    if (rc == CP_OK && s->npaths < 2)
        rc = cp_err_set(err, CP_EUSAGE, "compare needs two studies or more (A B [C...]); "
                        "try 'chokepoint compare --help'");
    if (rc == CP_OK)
        rc = judge_options_check(&s->judge, err);
    return rc == CP_OK ? OPTIONS_PROCEED : OPTIONS_FAILED;
}

/* In --format, or with plots (compare.md of --plots) in Markdown showing them, whatever
 * --format says: the one dispatch, report_write. */
static int write_output(const settings_t *s, const compare_result_t *r,
                        const compare_study_t *st, const plot_set_t *plots, FILE *out,
                        cp_err_t *err)
{
    const compare_doc_t doc = {r, st, s->npaths, plots};
    return report_write(&compare_document,
                        plots != NULL ? REPORT_FORMAT_MARKDOWN : s->judge.format, &doc, out,
                        err);
}

static int write_to(const char *path, bool force, const settings_t *s,
                    const compare_result_t *r, const compare_study_t *st,
                    const plot_set_t *plots, cp_err_t *err)
{
    outfile_t *f = outfile_open(path, force, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    int rc = write_output(s, r, st, plots, outfile_stream(f), err);
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

/* The plots and DIR/compare.md. */
static int write_plots(const settings_t *s, const compare_result_t *r,
                       const compare_study_t *st, cp_err_t *err)
{
    plot_set_t *plots = calloc(1, sizeof *plots);
    if (plots == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    const judge_options_t *j = &s->judge;
    /* Without --force, refused before anything is written when one of them exists. */
    static const char *const outputs[] = {"compare.md", "compare_time.png", "compare_rate.png",
                                          "compare_ratio.png", "compare_time.svg",
                                          "compare_rate.svg", "compare_ratio.svg"};
    int rc = judge_plots_check(j, outputs, j->plot_format == PLOT_SVG ? 1
                                             : j->plot_format == PLOT_PNG ? 4 : 7, err);
    if (j->plot_format == PLOT_SVG && rc == CP_OK)
        rc = judge_plots_check(j, outputs + 4, 3, err);
    if (rc == CP_OK)
        rc = compare_plot_render(j->plots_dir, r, st, s->npaths, j->plot_format, j->force,
                                 plots, err);
    char md[PATH_MAX];
    if (rc == CP_OK && (size_t)snprintf(md, sizeof md, "%s/compare.md", j->plots_dir) >= sizeof md)
        rc = cp_err_set(err, CP_EUSAGE, "%s: path too long", j->plots_dir);
    if (rc == CP_OK)
        rc = write_to(md, j->force, s, r, st, plots, err);
    if (rc == CP_OK) {
        if (plots->gnuplot_missing)
            cp_log_warn("%s", plots->notice);
        plot_set_log_written(plots);
        cp_log_info("wrote %s", md);
    }
    free(plots);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    cp_err_t err = {0};
    settings_t *s = calloc(1, sizeof *s);
    if (s == NULL) {
        cp_log_error("out of memory");
        return 1;
    }
    options_outcome_t outcome = parse_args(argc, argv, s, &err);
    if (outcome != OPTIONS_PROCEED) {
        free(s);
        if (outcome == OPTIONS_HELP_REQUESTED)
            return 0;
        if (err.msg[0])
            cp_log_error("%s", err.msg);
        return cp_exit_status(err.code);
    }

    compare_input_t *inputs[COMPARE_MAX_STUDIES] = {NULL};
    compare_study_t studies[COMPARE_MAX_STUDIES];
    compare_result_t *result = NULL;
    int rc = CP_OK;
    for (size_t i = 0; i < s->npaths && rc == CP_OK; i++) {
        rc = compare_input_load(s->paths[i], &s->judge.analysis, &inputs[i], &err);
        if (rc == CP_OK)
            studies[i] = compare_input_study(inputs[i]);
    }
    if (rc == CP_OK)
        rc = compare_run(studies, s->npaths, s->names, s->nnames, &s->judge.cmp, &result, &err);
    if (rc == CP_OK && cp_interrupted())
        rc = cp_err_set(&err, CP_EINTR, "interrupted");
    if (rc == CP_OK && s->judge.plots_dir != NULL)
        rc = write_plots(s, result, studies, &err);
    if (rc == CP_OK) {
        if (s->judge.out_path != NULL)
            rc = write_to(s->judge.out_path, s->judge.force, s, result, studies, NULL, &err);
        else if ((rc = write_output(s, result, studies, NULL, stdout, &err)) == CP_OK &&
                 fflush(stdout) != 0)
            rc = cp_err_errno(&err, CP_EIO, errno, "cannot write to stdout");
    }
    int status = cp_exit_status(rc);
    if (rc != CP_OK) {
        cp_log_error("%s", err.msg);
    } else if (result->regressions > 0) {
        const compare_pair_t *pair = NULL;
        const compare_point_t *worst = compare_worst_regression(result, &pair);
        char what[512];
        cp_log_error("compare: %zu point%s slower than the regression limit of %.3g%%%s %s",
                     result->regressions, result->regressions == 1 ? " is" : "s are",
                     s->judge.cmp.fail_threshold * 100.0,
                     result->regressions == 1 ? ":" : "; the worst:",
                     compare_regression_text(pair, worst, what, sizeof what));
        status = 1;
    }
    compare_free(result);
    for (size_t i = 0; i < s->npaths; i++)
        compare_input_free(inputs[i]);
    free(s);
    return status;
}
