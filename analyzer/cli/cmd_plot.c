/* cmd_plot.c - `chokepoint plot RESULTS_DIR [--format png|svg|both] [--tolerance X]
 * [--force] [-q]`:
 * argument handling and what is printed; analysis, plots and report.md are made by the
 * study session's one sequence (study/session.h, study_report_write), as `run` makes them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/log.h"
#include "report/plot.h"
#include "study/session.h"

static const char plot_head[] =
    "usage: chokepoint plot RESULTS_DIR [--format png|svg|both] [--tolerance X] [--force]\n"
    "                       [-q]\n\n"
    "Analyses RESULTS_DIR/runs.csv (and RESULTS_DIR/probe.csv when present), draws the\n"
    "plots with gnuplot into RESULTS_DIR (time and rate against threads with the fitted\n"
    "models, the bottleneck picture, volume speeds by file size, compression rate against\n"
    "write speed) and writes RESULTS_DIR/report.md with the plots embedded; with --force\n"
    "they replace the ones already there. The data behind each plot goes to\n"
    "RESULTS_DIR/plot-data/, regenerated every time. RESULTS_DIR and plot-data/ must be\n"
    "your own: not a symlink and writable by nobody else.\n"
    "The directory may hold a runs table from elsewhere: only the columns target, threads,\n"
    "seconds, input_bytes are needed.\n\n"
    "options:\n";

static const char plot_tail[] =
    "\n"
    "environment:\n"
    "  CHOKEPOINT_GNUPLOT    the gnuplot program (default: gnuplot from PATH); without it\n"
    "                        the data and report.md are still written, with a notice\n"
    "  CHOKEPOINT_PLOTS_DIR  where the templates (*.gp) are, to restyle the plots\n\n"
    "Exit status: 0 success, 1 runtime failure (gnuplot failed on a template, I/O error),\n"
    "2 usage or data-file error.\n";

static const opt_use_t plot_uses[] = {
    {.id = OPT_FORMAT, .help = "png (default), svg or both"},
    {.id = OPT_TOLERANCE,
     .help = "fraction below the CPU ceiling still called cpu-bound (default 0.10)"},
    {.id = OPT_FORCE, .help = "replace report.md and the images when they exist (otherwise\n"
                              "an error)"},
    {.id = OPT_QUIET, .help = "no notices on stderr (errors still print)"},
    {.id = OPT_HELP, .help = "this help"},
    {.id = OPT_NONE},
};
static const opt_command_t plot_command = {plot_uses, 18, false};

int cmd_plot(int argc, char **argv)
{
    cp_err_t err = {0};
    analysis_options_t opts = analysis_defaults();
    plot_format_t fmt = PLOT_PNG;
    bool force = false;
    int rc = 0;

    options_begin();
    int c;
    while (rc == 0 && (c = options_next(&plot_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_FORMAT: rc = plot_format_parse(optarg, &fmt, &err); break;
        case OPT_TOLERANCE: rc = parse_tolerance(optarg, &opts.tolerance, &err); break;
        case OPT_FORCE: force = true; break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP: options_help(stdout, &plot_command, plot_head, plot_tail); return 0;
        default: return options_error("plot", c, argv);
        }
    }
    const char *dir = NULL;
    if (rc == 0 && optind >= argc)
        rc = cp_err_set(&err, CP_EUSAGE, "plot needs RESULTS_DIR; see 'chokepoint plot --help'");
    else if (rc == 0 && argc - optind > 1)
        rc = cp_err_set(&err, CP_EUSAGE, "plot: one RESULTS_DIR expected, got '%s' too",
                        argv[optind + 1]);
    if (rc == 0)
        dir = argv[optind];

    char runs_path[PATH_MAX], probe_path[PATH_MAX];
    struct stat st;
    if (rc == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        rc = cp_err_set(&err, CP_EUSAGE, "%s: not a directory", dir);
    if (rc == 0 && ((size_t)snprintf(runs_path, sizeof runs_path, "%s/runs.csv", dir) >=
                        sizeof runs_path ||
                    (size_t)snprintf(probe_path, sizeof probe_path, "%s/probe.csv", dir) >=
                        sizeof probe_path))
        rc = cp_err_set(&err, CP_EUSAGE, "%s: path too long", dir);
    if (rc == 0 && access(runs_path, F_OK) != 0)
        rc = cp_err_set(&err, CP_EUSAGE, "%s: no runs table there (plot needs RESULTS_DIR/"
                        "runs.csv)", runs_path);
    if (rc != 0) {
        cp_log_error("%s", err.msg);
        return cp_exit_status(rc);
    }

    analysis_t *analysis = NULL;
    plot_set_t *plots = calloc(1, sizeof *plots);
    if (plots == NULL)
        rc = cp_err_set(&err, CP_ENOMEM, "out of memory");
    study_report_request_t rq = {.dir = dir, .options = opts, .format = fmt, .study_meta = NULL,
                                 .use_probe = true, .replace = force};
    if (rc == 0)
        rc = study_report_write(&rq, plots, &analysis, &err);
    char report_path[PATH_MAX + 16];
    snprintf(report_path, sizeof report_path, "%s/report.md", dir);
    if (rc == 0 && cp_interrupted())
        rc = cp_err_set(&err, CP_EINTR, "interrupted");
    if (rc == 0) {
        if (plots->gnuplot_missing)
            cp_log_warn("%s", plots->notice);
        for (size_t i = 0; i < plots->nskipped && !plots->gnuplot_missing; i++)
            cp_log_info("not drawn: %s", plots->skipped[i]);
        for (size_t i = 0; i < plots->n; i++)
            for (int k = 0; k < 2; k++)
                if (plots->plots[i].files[k][0])
                    printf("%s\n", plots->plots[i].files[k]);
        printf("%s\n", report_path);
        if (fflush(stdout) != 0)
            rc = cp_err_errno(&err, CP_EIO, errno, "cannot write to stdout");
    }
    if (rc != 0)
        cp_log_error("%s", err.msg);
    free(plots);
    analysis_free(analysis);
    return cp_exit_status(rc);
}
