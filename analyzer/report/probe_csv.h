/* probe_csv.h - probe.csv loaded for analysis: sustained write and read speeds per target.
 *
 * Required columns: target, op, bytes_per_s. Optional: size_bytes, seconds, ram, emulated
 * (for plots and labels; the rest of probe's columns are ignored). op is write, read or sustained; sustained rows (samples of
 * one long write over time) are kept but do not set the sustained speed. A row with a
 * non-empty `error` column is skipped. */
#ifndef CP_REPORT_PROBE_CSV_H
#define CP_REPORT_PROBE_CSV_H

#include <stddef.h>

#include "common/err.h"
#include "report/runs_csv.h"

typedef enum probe_speed_op { PROBE_OP_WRITE, PROBE_OP_READ, PROBE_OP_SUSTAINED } probe_speed_op_t;

typedef struct probe_speed_row {
    long line;
    char target[RUNS_NAME_MAX];
    probe_speed_op_t op;
    double size_bytes; /* NAN when the file has no size_bytes */
    double bytes_per_s;
    double seconds;    /* sustained: seconds since the start; NAN when not given */
    int ram, emulated; /* 1 yes, 0 no, -1 not given */
} probe_speed_row_t;

typedef struct probe_table {
    char *path;
    probe_speed_row_t *rows;
    size_t nrows;
} probe_table_t;

/* Loads path; ownership and errors as runs_table_load (CP_EDATA for a missing required
 * column, a non-numeric or non-positive value, or an unknown op, with FILE:LINE). */
int probe_table_load(const char *path, probe_table_t **out, cp_err_t *err);
int probe_table_load_buffer(const char *name, const void *data, size_t len,
                            probe_table_t **out, cp_err_t *err);

/* Frees a table; NULL is fine. */
void probe_table_free(probe_table_t *table);

/* A target's sustained speed for op (write or read): the median bytes_per_s over its rows
 * at its largest size_bytes (over all its rows of that op when sizes are not given).
 * NAN when the table is NULL or has no such rows. */
double probe_table_speed(const probe_table_t *table, const char *target, probe_speed_op_t op);

#endif
