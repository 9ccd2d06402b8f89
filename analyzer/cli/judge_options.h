/* judge_options.h - the options compare and history share: how points are judged
 * (--threshold, --fail-on-regression, --tolerance, --seed) and where the results go
 * (--format, -o/--force, --plots/--plot-format). */
#ifndef CP_CLI_JUDGE_OPTIONS_H
#define CP_CLI_JUDGE_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

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

/* getopt_long values of the shared long options (above any command's own). */
enum {
    JUDGE_OPT_THRESHOLD = 400, JUDGE_OPT_FAIL, JUDGE_OPT_FORMAT, JUDGE_OPT_FORCE,
    JUDGE_OPT_PLOTS, JUDGE_OPT_PLOT_FORMAT, JUDGE_OPT_TOLERANCE, JUDGE_OPT_SEED,
};

/* The struct option entries of the shared options, for a command's table ('o' for -o). */
#define JUDGE_LONG_OPTIONS                                                          \
    {"threshold", required_argument, NULL, JUDGE_OPT_THRESHOLD},                    \
    {"fail-on-regression", required_argument, NULL, JUDGE_OPT_FAIL},                \
    {"format", required_argument, NULL, JUDGE_OPT_FORMAT},                          \
    {"output", required_argument, NULL, 'o'},                                       \
    {"force", no_argument, NULL, JUDGE_OPT_FORCE},                                  \
    {"plots", required_argument, NULL, JUDGE_OPT_PLOTS},                            \
    {"plot-format", required_argument, NULL, JUDGE_OPT_PLOT_FORMAT},                \
    {"tolerance", required_argument, NULL, JUDGE_OPT_TOLERANCE},                    \
    {"seed", required_argument, NULL, JUDGE_OPT_SEED}

/* The defaults: compare_defaults(), analysis_defaults(), text, png, nothing given. */
void judge_options_init(judge_options_t *j);

/* Takes getopt_long's value c with its arg when it is a shared option: true, with *rc
 * CP_OK or CP_EUSAGE (err naming the option). False (nothing done) for any other c. */
bool judge_option(int c, const char *arg, judge_options_t *j, int *rc, cp_err_t *err);

/* The checks once every option is read: no empty -o or --plots, --force only with -o,
 * --plot-format only with --plots, and -o writable (outfile_check). CP_OK or CP_EUSAGE. */
int judge_options_check(const judge_options_t *j, cp_err_t *err);

#endif
