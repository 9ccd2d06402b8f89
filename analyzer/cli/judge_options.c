/* judge_options.c - the options compare and history share (judge_options.h): their
 * defaults, one option at a time, and the checks once all are read. */
#include "cli/judge_options.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cli/parse.h"
#include "tables/outfile.h"

void judge_options_init(judge_options_t *j)
{
    *j = (judge_options_t){
        .cmp = compare_defaults(),
        .analysis = analysis_defaults(),
        .format = REPORT_FORMAT_TEXT,
        .plot_format = PLOT_PNG,
    };
}

bool judge_option(int c, const char *arg, judge_options_t *j, int *rc, cp_err_t *err)
{
    uint64_t seed;
    switch (c) {
    case OPT_THRESHOLD:
        *rc = parse_percentage("--threshold", arg, &j->cmp.threshold, err);
        break;
    case OPT_FAIL_ON_REGRESSION:
        *rc = parse_percentage("--fail-on-regression", arg, &j->cmp.fail_threshold, err);
        break;
    case OPT_FORMAT:
        *rc = report_format_parse(arg, REPORT_FORMATS_DOCUMENT, &j->format, err);
        break;
    case OPT_OUTPUT: j->out_path = arg; *rc = CP_OK; break;
    case OPT_FORCE: j->force = true; *rc = CP_OK; break;
    case OPT_PLOTS: j->plots_dir = arg; *rc = CP_OK; break;
    case OPT_PLOT_FORMAT:
        *rc = plot_format_parse(arg, &j->plot_format, err);
        j->plot_format_given = true;
        break;
    case OPT_TOLERANCE: *rc = parse_tolerance(arg, &j->analysis.tolerance, err); break;
    case OPT_SEED:
        *rc = options_seed(arg, &seed, err);
        if (*rc == CP_OK)
            j->cmp.seed = seed;
        break;
    default: return false;
    }
    return true;
}

int judge_options_check(const judge_options_t *j, cp_err_t *err)
{
    if (j->out_path != NULL && j->out_path[0] == '\0')
        return cp_err_set(err, CP_EUSAGE, "-o: empty file name");
    if (j->plots_dir != NULL && j->plots_dir[0] == '\0')
        return cp_err_set(err, CP_EUSAGE, "--plots: empty directory name");
    /* No option is silently ignored. */
    if (j->force && j->out_path == NULL && j->plots_dir == NULL)
        return cp_err_set(err, CP_EUSAGE, "--force replaces an -o FILE or the files of "
                          "--plots DIR; neither was given");
    if (j->plot_format_given && j->plots_dir == NULL)
        return cp_err_set(err, CP_EUSAGE, "--plot-format is for the --plots DIR images; no "
                          "--plots was given");
    if (j->out_path != NULL)
        return outfile_check(j->out_path, j->force, err);
    return CP_OK;
}

int judge_plots_check(const judge_options_t *j, const char *const *names, size_t n,
                      cp_err_t *err)
{
    if (j->plots_dir == NULL || j->force)
        return CP_OK;
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        struct stat st;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", j->plots_dir, names[i]) >= sizeof path)
            return cp_err_set(err, CP_EUSAGE, "%s: path too long", j->plots_dir);
        if (lstat(path, &st) == 0)
            return cp_err_set(err, CP_EUSAGE, "output '%s' exists; use --force to replace it",
                              path);
    }
    return CP_OK;
}
