/* compare_load.c - a study from a results directory or a runs table (compare_load.h). */
#include "tables/compare_load.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tables/meta_json.h"
#include "tables/probe_csv.h"
#include "tables/runs_csv.h"

void compare_input_free(compare_input_t *in)
{
    if (in == NULL)
        return;
    analysis_free(in->analysis);
    probe_table_free(in->probe);
    runs_table_free(in->runs);
    free(in->runs_path);
    free(in->path);
    free(in);
}

compare_study_t compare_input_study(const compare_input_t *in)
{
    return (compare_study_t){
        .label = in->path, .analysis = in->analysis, .runs = in->runs, .env = &in->env};
}

int compare_input_load(const char *path, const analysis_options_t *options,
                       compare_input_t **out, cp_err_t *err)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "%s: not a results directory or runs "
                            "table", path);
    compare_input_t *in = calloc(1, sizeof *in);
    if (in == NULL || (in->path = strdup(path)) == NULL) {
        compare_input_free(in);
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    char runs_path[PATH_MAX], probe_path[PATH_MAX];
    const char *probe = NULL;
    int rc = CP_OK;
    if (S_ISDIR(st.st_mode)) {
        if ((size_t)snprintf(runs_path, sizeof runs_path, "%s/runs.csv", path) >=
                sizeof runs_path ||
            (size_t)snprintf(probe_path, sizeof probe_path, "%s/probe.csv", path) >=
                sizeof probe_path)
            rc = cp_err_set(err, CP_EUSAGE, "%s: path too long", path);
        else if (access(runs_path, F_OK) != 0)
            rc = cp_err_set(err, CP_EUSAGE, "%s: no runs table there (a results directory "
                            "holds runs.csv)", runs_path);
        else if (access(probe_path, F_OK) == 0)
            probe = probe_path;
    } else {
        snprintf(runs_path, sizeof runs_path, "%s", path);
    }
    if (rc == CP_OK && (in->runs_path = strdup(runs_path)) == NULL)
        rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    study_env_init(&in->env);
    if (rc == CP_OK) {
        /* The environment is the meta.json of the runs table's directory, when it has one. */
        char meta_path[PATH_MAX];
        const char *slash = strrchr(runs_path, '/');
        int dir_len = slash != NULL ? (int)(slash - runs_path) : 1;
        const char *dir = slash != NULL ? runs_path : ".";
        if ((size_t)snprintf(meta_path, sizeof meta_path, "%.*s/meta.json", dir_len, dir) <
            sizeof meta_path)
            rc = meta_read_env(meta_path, &in->env, err);
    }
    if (rc == CP_OK)
        rc = runs_table_load(runs_path, &in->runs, err);
    if (rc == CP_OK && probe != NULL)
        rc = probe_table_load(probe, &in->probe, err);
    if (rc == CP_OK)
        rc = analysis_run(in->runs, in->probe, options, &in->analysis, err);
    if (rc != CP_OK) {
        compare_input_free(in);
        return rc;
    }
    *out = in;
    return CP_OK;
}
