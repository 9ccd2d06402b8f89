/* analysis_load.c - runs.csv and probe.csv from disk, loaded and analysed in one call
 * (analysis_load.h). */
#include "tables/analysis_load.h"

#include <stddef.h>

#include "common/cleanup.h"
#include "common/log.h"

int analysis_run_files(const char *runs_path, const char *probe_path,
                       const analysis_options_t *options, analysis_t **out,
                       probe_table_t **probe_out, cp_err_t *err)
{
    runs_table_t *runs = NULL;
    probe_table_t *probe = NULL;
    *out = NULL;
    if (probe_out != NULL)
        *probe_out = NULL;
    int rc = runs_table_load(runs_path, &runs, err);
    if (rc == CP_OK && probe_path != NULL)
        rc = probe_table_load(probe_path, &probe, err);
    if (rc == CP_OK && cp_interrupted()) /* SIGINT/SIGTERM while loading: stop here */
        rc = cp_err_set(err, CP_EINTR, "interrupted");
    if (rc == CP_OK)
        rc = analysis_run(runs, probe, options, out, err);
    for (size_t i = 0; rc == CP_OK && i < (*out)->nnotes; i++) {
        if ((*out)->notes[i].warning)
            cp_log_warn("%s", (*out)->notes[i].text);
        else
            cp_log_info("%s", (*out)->notes[i].text);
    }
    runs_table_free(runs);
    if (rc == CP_OK && probe_out != NULL)
        *probe_out = probe;
    else
        probe_table_free(probe);
    return rc;
}
