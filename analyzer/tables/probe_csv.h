/* probe_csv.h - probe.csv loaded for analysis: sustained write and read speeds per target.
 *
 * Required columns: target, op, bytes_per_s. Optional: size_bytes, seconds, ram, emulated,
 * rate_cap_bps (for plots and labels: the cap that paced the row, a read row's read cap),
 * dir (the target's directory, to match runs targets named otherwise; files written before
 * it existed load without it); the rest of probe's columns are ignored. op is write, read or sustained; sustained rows (samples of one long
 * write over time) are kept but do not set the sustained speed. A row with a
 * non-empty `error` column is skipped. */
#ifndef CP_TABLES_PROBE_CSV_H
#define CP_TABLES_PROBE_CSV_H

#include <stddef.h>

#include "common/err.h"
#include "model/probe_speeds.h"

/* Loads path; ownership and errors as runs_table_load (CP_EDATA for a missing required
 * column, a non-numeric or non-positive value, or an unknown op, with FILE:LINE). */
int probe_table_load(const char *path, probe_table_t **out, cp_err_t *err);
int probe_table_load_buffer(const char *name, const void *data, size_t len,
                            probe_table_t **out, cp_err_t *err);


#endif
