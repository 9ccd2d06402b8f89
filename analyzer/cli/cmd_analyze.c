/* cmd_analyze.c - `chokepoint analyze RUNS.csv [--probe PROBE.csv] [--tolerance 0.10]
 * [--format text|json|markdown|summary] [-o FILE]`: argument handling only; the tables are
 * loaded by tables/ (runs_csv.c, probe_csv.c), analysed by model/analysis.c and written by
 * report/analysis_text.c's analysis_document (the JSON by report/analysis_json.c); a study
 * that did not complete is warned of by its meta.json's status rules (study/meta.h). */
#include <errno.h>
#include <math.h>
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
#include "common/tempfile.h"
#include "report/analysis_text.h"
#include "report/report_format.h"
#include "study/meta.h"
#include "tables/analysis_load.h"
#include "tables/outfile.h"

static const char analyze_head[] =
    "usage: chokepoint analyze RUNS.csv [--probe PROBE.csv] [--tolerance 0.10]\n"
    "                          [--format text|json|markdown|summary] [-o FILE [--force]]\n\n"
    "Fits scaling models (power_time, linear_rate, amdahl, usl) to each target and\n"
    "codec in RUNS.csv and says, per thread count, whether the job is cpu-bound,\n"
    "write-bound, read-bound or unexplained, and at how many threads a volume\n"
    "becomes the bottleneck. RUNS.csv needs the columns target,threads,seconds,\n"
    "input_bytes; the target 'mem' is the CPU ceiling. PROBE.csv (target,op,\n"
    "bytes_per_s) gives the volumes' sustained write and read speeds.\n\n"
    "options:\n";

static const char analyze_tail[] =
    "\n"
    "Exit status: 0 success, 1 runtime failure, 2 usage or data-file error.\n";

static const opt_use_t analyze_uses[] = {
    {.id = OPT_PROBE, .help = "volume speeds from 'chokepoint probe' (or any such table)"},
    {.id = OPT_TOLERANCE,
     .help = "fraction below the CPU ceiling still called cpu-bound, 0 <= X < 1\n"
             "(default 0.10)"},
    {.id = OPT_FORMAT, .help = "text (default), json, markdown, or summary (one line per\n"
                 "target: the verdict at its largest thread count)"},
    {.id = OPT_OUTPUT, .flags = OPT_SHORT_ONLY},
    {.id = OPT_FORCE},
    {.id = OPT_QUIET},
    {.id = OPT_HELP, .help = "this help"},
    {.id = OPT_NONE},
};
static const opt_command_t analyze_command = {analyze_uses, 20, false};

static int write_output(const analysis_t *a, report_format_t format, FILE *out, cp_err_t *err)
{
    return report_write(&analysis_document, format, a, out, err);
}

/* Writes into a temporary file beside path and renames it into place (tables/outfile.h),
 * so a failure never leaves a half-written report nor damages an existing file. */
static int write_file(const analysis_t *a, report_format_t format, const char *path, bool force,
                      cp_err_t *err)
{
    outfile_t *f = outfile_open(path, force, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    int rc = write_output(a, format, outfile_stream(f), err);
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    cp_err_t err = {0};
    const char *runs_path = NULL, *probe_path = NULL, *out_path = NULL;
    analysis_options_t opts = analysis_defaults();
    report_format_t format = REPORT_FORMAT_TEXT;
    int rc = 0;
    bool force = false;

    options_begin();
    int c;
    while (rc == 0 && (c = options_next(&analyze_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_PROBE: probe_path = optarg; break;
        case OPT_TOLERANCE: rc = parse_tolerance(optarg, &opts.tolerance, &err); break;
        case OPT_FORMAT:
            rc = report_format_parse(optarg, REPORT_FORMATS_ANALYZE, &format, &err);
            break;
        case OPT_OUTPUT: out_path = optarg; break;
        case OPT_FORCE: force = true; break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP: options_help(stdout, &analyze_command, analyze_head, analyze_tail); return 0;
        default: return options_error("analyze", c, argv);
        }
    }
    if (rc == 0 && optind < argc)
        runs_path = argv[optind++];
    if (rc == 0 && optind < argc)
        rc = cp_err_set(&err, CP_EUSAGE, "analyze: one RUNS.csv expected, got '%s' too (a "
                        "probe table is given with --probe %s)", argv[optind], argv[optind]);
    if (rc == 0 && runs_path == NULL)
        rc = cp_err_set(&err, CP_EUSAGE, "analyze: RUNS.csv is required; try 'chokepoint "
                        "analyze --help'");
    struct stat runs_st;
    if (rc == 0 && stat(runs_path, &runs_st) == 0 && S_ISDIR(runs_st.st_mode))
        rc = cp_err_set(&err, CP_EUSAGE, "analyze: '%s' is a directory; give its runs.csv "
                        "(and --probe with its probe.csv), or draw it with 'chokepoint plot "
                        "%s'", runs_path, runs_path);
    if (rc == 0 && out_path != NULL && out_path[0] == '\0')
        rc = cp_err_set(&err, CP_EUSAGE, "-o: empty file name");
    /* No option is silently ignored. */
    if (rc == 0 && force && out_path == NULL)
        rc = cp_err_set(&err, CP_EUSAGE, "--force replaces an -o FILE; none was given");
    if (rc != 0) {
        cp_log_error("%s", err.msg);
        return cp_exit_status(rc);
    }

    analysis_t *analysis = NULL;
    char runs_dir[PATH_MAX], runs_base[PATH_MAX], note[PATH_MAX * 3 + 256];
    if (tempfile_split_path(runs_path, runs_dir, runs_base, NULL) == CP_OK &&
        study_dir_note(runs_dir, note, sizeof note) != NULL)
        cp_log_warn("%s", note);
    rc = analysis_run_files(runs_path, probe_path, &opts, &analysis, NULL, &err);
    if (rc == 0 && cp_interrupted())
        rc = cp_err_set(&err, CP_EINTR, "interrupted");
    if (rc == 0) {
        if (out_path != NULL)
            rc = write_file(analysis, format, out_path, force, &err);
        else
            rc = write_output(analysis, format, stdout, &err);
    }
    if (rc != 0)
        cp_log_error("%s", err.msg);
    analysis_free(analysis);
    return cp_exit_status(rc);
}
