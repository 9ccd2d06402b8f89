/* options.c - what the subcommands share about options (options.h): getopt_long set-up,
 * one-line messages for unknown options and missing values, and the option families
 * several commands take (repetitions, seed, memory limit, output format, --decompress's
 * checks). */
#include "cli/options.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "cli/parse.h"
#include "common/log.h"

void options_begin(void)
{
    optind = 0; /* 0 makes glibc reinitialise, so several parses in one process work */
    opterr = 0;
}

int options_error(const char *command, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    char short_opt[3] = {'-', (char)optopt, '\0'};
    /* For a short option the offending word may hold several options ("-qx"). */
    const char *name = (arg != NULL && arg[0] == '-' && arg[1] == '-') || optopt == 0 ? arg
                                                                                      : short_opt;
    if (c == ':')
        cp_log_error("option '%s' needs a value; see 'chokepoint %s --help'", name, command);
    else
        cp_log_error("unknown option '%s'; see 'chokepoint %s --help'", name, command);
    return 2;
}

int options_reps(const char *text, int *out, cp_err_t *err)
{
    long value;
    int rc = parse_positive_int(text, "--reps", CP_MAX_REPS, &value, err);
    if (rc == CP_OK)
        *out = (int)value;
    return rc;
}

int options_reps_or_auto(const char *text, int *out, bool *auto_reps, cp_err_t *err)
{
    if (text != NULL && strcmp(text, "auto") == 0) {
        *out = 3;
        *auto_reps = true;
        return CP_OK;
    }
    *auto_reps = false;
    return options_reps(text, out, err);
}

int options_seed(const char *text, uint64_t *out, cp_err_t *err)
{
    const char *p = text ? text : "";
    long value = 0;
    bool ok = *p != '\0';
    for (; *p != '\0' && ok; p++) {
        int digit = *p - '0';
        if (digit < 0 || digit > 9 || value > (CP_SEED_MAX - digit) / 10)
            ok = false;
        else
            value = value * 10 + digit;
    }
    if (!ok)
        return cp_err_set(err, CP_EUSAGE, "bad seed '%s': expected a whole number from 0 to %ld",
                          text ? text : "", CP_SEED_MAX);
    *out = (uint64_t)value;
    return CP_OK;
}

int options_max_memory(const char *text, uint64_t *out, cp_err_t *err)
{
    int rc = parse_size(text, out, err);
    if (rc == CP_OK && *out == 0)
        rc = cp_err_set(err, CP_EUSAGE, "bad --max-memory '%s': must be above 0", text);
    return rc;
}

int options_check_decompress(const sweep_params_t *p, series_spec_t *series, size_t n,
                             bool sync_given, cp_err_t *err)
{
    int rc = CP_OK;
    for (size_t i = 0; p->decompress && i < n && rc == CP_OK; i++)
        if (series[i].kind == SERIES_COMMAND)
            rc = command_series_restore(&series[i].command, &series[i].codec, err);
    sweep_params_t listed = *p; /* the lists as parsed so far */
    listed.series = series;
    listed.n_series = n;
    if (rc == CP_OK)
        rc = sweep_check_decompress(&listed, err);
    if (rc == CP_OK && p->decompress && sync_given && p->layout != SWEEP_SAME)
        rc = cp_err_set(err, CP_EUSAGE, "--sync has no effect when --decompress restores "
                        "to memory; add --layout same to restore onto the target");
    return rc;
}

int options_finish_sweep(sweep_params_t *p, series_spec_t **series, int **threads,
                         const target_spec_t *targets, size_t n_targets,
                         const char *cmd_template, const char *cmd_name, bool sync_given,
                         cp_err_t *err)
{
    int rc = CP_OK;
    for (size_t i = 0; i < n_targets && rc == CP_OK; i++)
        rc = target_check(&targets[i], err);
    /* No option is silently ignored. */
    if (rc == CP_OK && p->layout == SWEEP_SAME && n_targets > 0) {
        bool any_dir = false; /* a target the input can be copied onto */
        for (size_t i = 0; i < n_targets; i++)
            any_dir = any_dir || target_ops_for(&targets[i])->has_volume;
        if (!any_dir)
            rc = cp_err_set(err, CP_EUSAGE, "--layout same copies the input onto each "
                            "directory target; only mem was given");
    }
    if (rc == CP_OK && cmd_name != NULL && cmd_template == NULL)
        rc = cp_err_set(err, CP_EUSAGE, "--cmd-name names a --cmd TEMPLATE; none was given");
    if (rc == CP_OK && cmd_template != NULL) {
        command_series_t command;
        rc = command_series_make(cmd_template, cmd_name, &command, err);
        if (rc == CP_OK) {
            series_spec_t spec = series_of_command(&command);
            rc = series_list_append(series, &p->n_series, &spec, err);
        }
    }
    if (rc == CP_OK)
        rc = options_check_decompress(p, *series, p->n_series, sync_given, err);
    if (rc == CP_OK && *series == NULL)
        rc = parse_series_list("zstd:3", series, &p->n_series, err);
    if (rc == CP_OK && *threads == NULL)
        rc = thread_list_all_cpus(threads, &p->n_threads, err);
    return rc;
}
