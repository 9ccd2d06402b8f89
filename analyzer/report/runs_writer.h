/* runs_writer.h - sweep rows out as runs.csv (docs/formats.md lists the columns). */
#ifndef CP_RUNS_WRITER_H
#define CP_RUNS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/err.h"
#include "measure/sweep.h"
#include "report/outfile.h"

/* Writes the header line. CP_EIO when the stream reports an error. */
int runs_csv_header(FILE *out, cp_err_t *err);

/* Writes one row in the header's order and flushes it, so rows survive an interrupt.
 * Unknown values are empty fields. CP_EIO when the stream reports an error. */
int runs_csv_row(FILE *out, const sweep_row_t *row, cp_err_t *err);

/* A runs.csv being written by a sweep: each row reaches the disk as it is measured. */
typedef struct runs_csv_file {
    outfile_t *file;
    size_t rows;
} runs_csv_file_t;

/* Opens path (NULL or "-": stdout) through report/outfile.h, marks it to survive an
 * interrupt (rows already measured are kept) and writes the header. On failure f holds
 * nothing to close and err says why. */
int runs_csv_open(runs_csv_file_t *f, const char *path, bool force, cp_err_t *err);

/* A sweep_row_cb: writes one row to the runs_csv_file_t in ctx and flushes it to disk. */
int runs_csv_write(const sweep_row_t *row, void *ctx, cp_err_t *err);

/* Puts the file in place when it holds rows (whatever stopped the sweep; with no rows
 * nothing is left behind) and closes it. Returns the commit's result. */
int runs_csv_close(runs_csv_file_t *f, cp_err_t *err);

#endif
