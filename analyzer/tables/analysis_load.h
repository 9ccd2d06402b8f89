/* analysis_load.h - the analysis of runs and probe files on disk. */
#ifndef CP_TABLES_ANALYSIS_LOAD_H
#define CP_TABLES_ANALYSIS_LOAD_H

#include "common/err.h"
#include "model/analysis.h"
#include "tables/probe_csv.h"
#include "tables/runs_csv.h"

/* Loads runs_path (and probe_path, when not NULL) and analyses them. On success *out is
 * the caller's (analysis_free) and, when probe_out is not NULL, so is the probe table
 * (*probe_out, NULL without probe_path; probe_table_free). Data errors are CP_EDATA with
 * FILE:LINE in err; nothing is returned on failure. How runs and probe targets were matched
 * (analysis_t.notes) goes to stderr: a target left without speeds as a warning. */
int analysis_run_files(const char *runs_path, const char *probe_path,
                       const analysis_options_t *options, analysis_t **out,
                       probe_table_t **probe_out, cp_err_t *err);

#endif
