/* compare_load.h - one side of `chokepoint compare` from disk: a results directory (its
 * runs.csv, and probe.csv when there is one) or a runs table, analysed, with the runs kept
 * for the bootstrap over repetitions. */
#ifndef CP_TABLES_COMPARE_LOAD_H
#define CP_TABLES_COMPARE_LOAD_H

#include "common/err.h"
#include "model/analysis.h"
#include "model/compare.h"
#include "model/probe_speeds.h"
#include "model/runs.h"

typedef struct compare_input {
    char *path;                 /* as given: the label reports use */
    char *runs_path;            /* the runs table read */
    runs_table_t *runs;
    probe_table_t *probe;       /* NULL without probe.csv */
    analysis_t *analysis;
    study_env_t env;            /* from meta.json beside the runs table; env.known false
                                   without one */
} compare_input_t;

/* Loads path (a directory with runs.csv, optionally probe.csv and meta.json, or a runs
 * table, with the meta.json beside it when there is one) and
 * analyses it with options. On success *out is the caller's (compare_input_free). A
 * directory without runs.csv, or a path that does not exist, is CP_EUSAGE naming it; data
 * errors are CP_EDATA with FILE:LINE. *out is NULL on failure. */
int compare_input_load(const char *path, const analysis_options_t *options,
                       compare_input_t **out, cp_err_t *err);

/* The study compare_run takes, pointing into in (keep in alive). */
compare_study_t compare_input_study(const compare_input_t *in);

/* Frees an input; NULL is fine. */
void compare_input_free(compare_input_t *in);

#endif
