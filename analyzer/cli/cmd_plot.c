/* cmd_plot.c - `chokepoint plot RESULTS_DIR [--format png|svg|both] [--tolerance X] [-q]`:
 * argument handling only; the analysis is model/analysis.c, the drawing report/plot.c,
 * the report report/report_md.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/log.h"
#include "study/study.h"
#include "tables/analysis_load.h"
#include "tables/outfile.h"
#include "report/plot.h"
#include "report/report_md.h"

#include <jansson.h>

static const char plot_usage[] =
    "usage: chokepoint plot RESULTS_DIR [--format png|svg|both] [--tolerance X] [-q]\n\n"
    "Analyses RESULTS_DIR/runs.csv (and RESULTS_DIR/probe.csv when present), draws the\n"
    "plots with gnuplot into RESULTS_DIR (time and rate against threads with the fitted\n"
    "models, the bottleneck picture, volume speeds by file size, compression rate against\n"
    "write speed) and writes RESULTS_DIR/report.md with the plots embedded. report.md is\n"
    "regenerated every time. The data behind each plot goes to RESULTS_DIR/plot-data/.\n"
    "The directory may hold a runs table from elsewhere: only the columns target, threads,\n"
    "seconds, input_bytes are needed.\n\n"
    "options:\n"
    "  --format F      png (default), svg or both\n"
    "  --tolerance X   fraction below the CPU ceiling still called cpu-bound (default 0.10)\n"
    "  -q, --quiet     no notices on stderr (errors still print)\n"
    "  -h, --help      this help\n\n"
    "environment:\n"
    "  CHOKEPOINT_GNUPLOT    the gnuplot program (default: gnuplot from PATH); without it\n"
    "                        the data and report.md are still written, with a notice\n"
    "  CHOKEPOINT_PLOTS_DIR  where the templates (*.gp) are, to restyle the plots\n\n"
    "Exit status: 0 success, 1 runtime failure (gnuplot failed on a template, I/O error),\n"
    "2 usage or data-file error.\n";

enum { OPT_FORMAT = 256, OPT_TOLERANCE };

static const struct option plot_options[] = {
    {"format", required_argument, NULL, OPT_FORMAT},
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* report.md beside the plots, replaced atomically. */
static int write_report(const char *dir, const analysis_t *a, const plot_set_t *plots,
                        char *path, size_t cap, cp_err_t *err)
{
    if ((size_t)snprintf(path, cap, "%s/report.md", dir) >= cap)
        return cp_err_set(err, CP_EUSAGE, "%s: path too long", dir);
    outfile_t *f = outfile_open(path, true, err);
    if (f == NULL)
        return err->code;
    /* The study's meta.json, when `run` made this directory: the report keeps its "How
     * this was measured" section however often it is regenerated. */
    char meta_path[PATH_MAX];
    json_t *meta = NULL;
    if ((size_t)snprintf(meta_path, sizeof meta_path, "%s/meta.json", dir) < sizeof meta_path &&
        access(meta_path, F_OK) == 0) {
        json_error_t jerr;
        meta = json_load_file(meta_path, 0, &jerr);
        if (meta == NULL)
            cp_log_warn("%s:%d: %s; report.md goes without its 'How this was measured' section",
                        meta_path, jerr.line, jerr.text);
    }
    int rc = report_markdown_write_study(outfile_stream(f), a, plots, meta);
    char note[PATH_MAX * 3 + 256];
    if (rc == 0 && study_dir_note(dir, note, sizeof note) != NULL) {
        fprintf(outfile_stream(f), "\n**Not complete:** %s.\n", note);
        cp_log_warn("%s", note);
    }
    json_decref(meta);
    if (rc != 0)
        cp_err_set(err, rc, "%s: cannot write", path);
    if (rc == 0)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

int cmd_plot(int argc, char **argv)
{
    cp_err_t err = {0};
    analysis_options_t opts = analysis_defaults();
    plot_format_t fmt = PLOT_PNG;
    int rc = 0;

    options_begin();
    int c;
    while (rc == 0 && (c = getopt_long(argc, argv, ":qh", plot_options, NULL)) != -1) {
        switch (c) {
        case OPT_FORMAT: rc = plot_format_parse(optarg, &fmt, &err); break;
        case OPT_TOLERANCE: rc = parse_tolerance(optarg, &opts.tolerance, &err); break;
        case 'q': cp_log_set_quiet(true); break;
        case 'h': fputs(plot_usage, stdout); return 0;
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

    probe_table_t *probe = NULL;
    analysis_t *analysis = NULL;
    plot_set_t *plots = calloc(1, sizeof *plots);
    if (plots == NULL)
        rc = cp_err_set(&err, CP_ENOMEM, "out of memory");
    if (rc == 0)
        rc = analysis_run_files(runs_path, access(probe_path, F_OK) == 0 ? probe_path : NULL,
                                &opts, &analysis, &probe, &err);
    if (rc == 0)
        rc = plot_render(dir, analysis, probe, fmt, plots, &err);
    char report_path[PATH_MAX];
    if (rc == 0)
        rc = write_report(dir, analysis, plots, report_path, sizeof report_path, &err);
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
    probe_table_free(probe);
    return cp_exit_status(rc);
}
