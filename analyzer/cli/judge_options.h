/* judge_options.h - the options compare and history share: how points are judged
 * (--threshold, --fail-on-regression, --tolerance, --seed) and where the results go
 * (--format, -o/--force, --plots/--plot-format). */
#ifndef CP_CLI_JUDGE_OPTIONS_H
#define CP_CLI_JUDGE_OPTIONS_H

#include <stdbool.h>

#include "cli/option_table.h"
#include "cli/options.h"
#include "common/err.h"
#include "model/analysis.h"
#include "model/compare.h"
#include "report/plot.h"
#include "report/report_format.h"

typedef struct judge_options {
    compare_options_t cmp;
    analysis_options_t analysis;
    report_format_t format;
    const char *out_path, *plots_dir; /* NULL when not given */
    plot_format_t plot_format;
    bool plot_format_given, force;
} judge_options_t;

/* The shared options are option_table.h's OPT_THRESHOLD, OPT_FAIL_ON_REGRESSION,
 * OPT_FORMAT, OPT_OUTPUT, OPT_FORCE, OPT_PLOTS, OPT_PLOT_FORMAT, OPT_TOLERANCE and
 * OPT_SEED; each command lists them in its own opt_command_t. */

/* The defaults: compare_defaults(), analysis_defaults(), text, png, nothing given. */
void judge_options_init(judge_options_t *j);

/* Takes options_next's id c with its arg when it is a shared option: true, with *rc
 * CP_OK or CP_EUSAGE (err naming the option). False (nothing done) for any other c. */
bool judge_option(int c, const char *arg, judge_options_t *j, int *rc, cp_err_t *err);

/* The checks once every option is read: no empty -o or --plots, --force only with -o or
 * --plots, --plot-format only with --plots, and -o writable (outfile_check). CP_OK or
 * CP_EUSAGE. */
int judge_options_check(const judge_options_t *j, cp_err_t *err);

/* With --plots DIR and without --force: CP_EUSAGE "output 'DIR/NAME' exists; use --force
 * to replace it" for the first of the n names (paths inside DIR) that exists, so a
 * command refuses before it writes anything. CP_OK otherwise. */
int judge_plots_check(const judge_options_t *j, const char *const *names, size_t n,
                      cp_err_t *err);

#endif
