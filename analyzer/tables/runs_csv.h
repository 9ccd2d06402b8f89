/* runs_csv.h - runs.csv loaded into structs for analysis.
 *
 * Required columns: target, threads, seconds, input_bytes. Optional: codec, rep,
 * output_bytes, cpu_user_s, cpu_sys_s, the pipeline stage columns (reader_busy_s, ...),
 * layout (split|same), input_target, sync, ram, emulated, rate_cap_bps (kept for labels),
 * dir (the target's directory, to match probe targets named otherwise), error, valid.
 * Unknown columns are ignored. Rows with a non-empty `error` or with valid = 0 are failed
 * runs: counted, not loaded. */
#ifndef CP_TABLES_RUNS_CSV_H
#define CP_TABLES_RUNS_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "model/runs.h"

/* Column names of the stage accounting, indexed by RUN_STAGE_*. */
const char *runs_stage_column(int stage);

/* Loads path. On success *out is owned by the caller (runs_table_free). On failure returns
 * CP_EUSAGE (cannot open), CP_EIO or CP_EDATA with "FILE:LINE: what is wrong" in err, and
 * *out is NULL. Thread counts must be whole numbers 1..1024, seconds and bytes > 0. */
int runs_table_load(const char *path, runs_table_t **out, cp_err_t *err);

/* The same from a buffer (tests, or data produced in memory); name is used in messages. */
int runs_table_load_buffer(const char *name, const void *data, size_t len,
                           runs_table_t **out, cp_err_t *err);


#endif
