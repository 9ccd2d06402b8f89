/* cmd_analyze.c - `chokepoint analyze RUNS.csv [--probe PROBE.csv] [--tolerance 0.10]
 * [--format text|json|markdown] [-o FILE]`: argument handling and output only; the work is
 * in report/analysis.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/log.h"
#include "report/analysis.h"
#include "report/analysis_json.h"
#include "report/analysis_text.h"

typedef enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN, FORMAT_SUMMARY } format_t;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: chokepoint analyze RUNS.csv [--probe PROBE.csv] [--tolerance 0.10]\n"
            "                          [--format text|json|markdown|summary] [-o FILE]\n\n"
            "Fits scaling models (power_time, linear_rate, amdahl, usl) to each target and\n"
            "codec in RUNS.csv and says, per thread count, whether the job is cpu-bound,\n"
            "write-bound, read-bound or unexplained, and at how many threads a volume\n"
            "becomes the bottleneck. RUNS.csv needs the columns target,threads,seconds,\n"
            "input_bytes; the target 'mem' is the CPU ceiling. PROBE.csv (target,op,\n"
            "bytes_per_s) gives the volumes' sustained write and read speeds.\n\n"
            "options:\n"
            "  --probe FILE      volume speeds from 'chokepoint probe' (or any such table)\n"
            "  --tolerance X     fraction below the CPU ceiling still called cpu-bound, 0 <= X < 1\n"
            "                    (default 0.10)\n"
            "  --format F        text (default), json, markdown, or summary (one line per\n"
            "                    target: the verdict at its largest thread count)\n"
            "  -o FILE           write there (atomically) instead of stdout\n"
            "  -h, --help        this help\n\n"
            "Exit status: 0 success, 1 runtime failure, 2 usage or data-file error.\n");
}

/* Matches "--name VALUE" or "--name=VALUE"; advances *i past a separate value. */
static int option_value(int argc, char **argv, int *i, const char *name, const char **value,
                        cp_err_t *err)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, len) != 0)
        return 0;
    if (arg[len] == '=') {
        *value = arg + len + 1;
        return 1;
    }
    if (arg[len] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return cp_err_set(err, CP_EUSAGE, "option %s needs a value", name);
    *value = argv[++*i];
    return 1;
}

static int write_output(const analysis_t *a, format_t format, FILE *out, cp_err_t *err)
{
    switch (format) {
    case FORMAT_JSON: return analysis_write_json(a, out, err);
    case FORMAT_MARKDOWN: return analysis_write_markdown(a, out, err);
    case FORMAT_SUMMARY: return analysis_write_summary(a, out, err);
    default: return analysis_write_text(a, out, err);
    }
}

/* Writes into a temporary file beside path and renames it into place, so a failure
 * never leaves a half-written report (nor damages an existing one). */
static int write_file(const analysis_t *a, format_t format, const char *path, cp_err_t *err)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 32);
    if (tmp == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    snprintf(tmp, len + 32, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot create", path);
        free(tmp);
        return rc;
    }
    /* mkstemp makes the file 0600; a report should get the usual 0666 & ~umask. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    int slot = cp_cleanup_track(tmp);
    FILE *out = fdopen(fd, "w");
    int rc = 0;
    if (out == NULL) {
        rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot open", tmp);
        close(fd);
    } else {
        rc = write_output(a, format, out, err);
        if (rc == 0 && (fflush(out) != 0 || fsync(fileno(out)) != 0))
            rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot write", path);
        if (fclose(out) != 0 && rc == 0)
            rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot write", path);
    }
    if (rc == 0 && rename(tmp, path) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot rename into place", path);
    if (rc != 0)
        unlink(tmp);
    if (slot >= 0)
        cp_cleanup_forget(slot);
    free(tmp);
    return rc;
}

int cmd_analyze(int argc, char **argv)
{
    cp_err_t err = {0};
    const char *runs_path = NULL, *probe_path = NULL, *out_path = NULL;
    analysis_options_t opts = analysis_defaults();
    format_t format = FORMAT_TEXT;
    int rc = 0;

    for (int i = 1; i < argc && rc == 0; i++) {
        const char *arg = argv[i], *value = NULL;
        int m;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if ((m = option_value(argc, argv, &i, "--probe", &value, &err)) != 0) {
            rc = m < 0 ? m : 0;
            probe_path = value;
        } else if ((m = option_value(argc, argv, &i, "--tolerance", &value, &err)) != 0) {
            rc = m < 0 ? m : 0;
            if (rc == 0) {
                char *end;
                errno = 0;
                opts.tolerance = strtod(value, &end);
                if (errno != 0 || end == value || *end != '\0' || !(opts.tolerance >= 0.0) ||
                    !(opts.tolerance < 1.0))
                    rc = cp_err_set(&err, CP_EUSAGE, "--tolerance '%s': expected a fraction "
                                    "from 0 to below 1, like 0.10", value);
            }
        } else if ((m = option_value(argc, argv, &i, "--format", &value, &err)) != 0) {
            rc = m < 0 ? m : 0;
            if (rc == 0) {
                if (strcmp(value, "text") == 0)
                    format = FORMAT_TEXT;
                else if (strcmp(value, "json") == 0)
                    format = FORMAT_JSON;
                else if (strcmp(value, "markdown") == 0 || strcmp(value, "md") == 0)
                    format = FORMAT_MARKDOWN;
                else if (strcmp(value, "summary") == 0)
                    format = FORMAT_SUMMARY;
                else
                    rc = cp_err_set(&err, CP_EUSAGE, "--format '%s': expected text, json, "
                                    "markdown or summary", value);
            }
        } else if ((m = option_value(argc, argv, &i, "-o", &value, &err)) != 0 ||
                   (m = option_value(argc, argv, &i, "--output", &value, &err)) != 0) {
            rc = m < 0 ? m : 0;
            out_path = value;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            rc = cp_err_set(&err, CP_EUSAGE, "analyze: unknown option '%s'; try 'chokepoint "
                            "analyze --help'", arg);
        } else if (runs_path == NULL) {
            runs_path = arg;
        } else {
            rc = cp_err_set(&err, CP_EUSAGE, "analyze: one RUNS.csv expected, got '%s' too", arg);
        }
    }
    if (rc == 0 && runs_path == NULL)
        rc = cp_err_set(&err, CP_EUSAGE, "analyze: RUNS.csv is required; try 'chokepoint "
                        "analyze --help'");
    if (rc == 0 && out_path != NULL && out_path[0] == '\0')
        rc = cp_err_set(&err, CP_EUSAGE, "-o: empty file name");
    if (rc != 0) {
        cp_log_error("%s", err.msg);
        return cp_exit_status(rc);
    }

    runs_table_t *runs = NULL;
    probe_table_t *probe = NULL;
    analysis_t *analysis = NULL;
    rc = runs_table_load(runs_path, &runs, &err);
    if (rc == 0 && probe_path != NULL)
        rc = probe_table_load(probe_path, &probe, &err);
    if (rc == 0)
        rc = analysis_run(runs, probe, &opts, &analysis, &err);
    if (rc == 0 && cp_interrupted())
        rc = cp_err_set(&err, CP_EINTR, "interrupted");
    if (rc == 0) {
        if (out_path != NULL)
            rc = write_file(analysis, format, out_path, &err);
        else
            rc = write_output(analysis, format, stdout, &err);
    }
    if (rc != 0)
        cp_log_error("%s", err.msg);
    analysis_free(analysis);
    probe_table_free(probe);
    runs_table_free(runs);
    return cp_exit_status(rc);
}
