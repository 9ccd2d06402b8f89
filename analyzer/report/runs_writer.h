/* runs_writer.h - sweep rows out as runs.csv (docs/formats.md lists the columns). */
#ifndef CP_RUNS_WRITER_H
#define CP_RUNS_WRITER_H

#include <stdio.h>

#include "common/err.h"
#include "measure/sweep.h"

/* Writes the header line. CP_EIO when the stream reports an error. */
int runs_csv_header(FILE *out, cp_err_t *err);

/* Writes one row in the header's order and flushes it, so rows survive an interrupt.
 * Unknown values are empty fields. CP_EIO when the stream reports an error. */
int runs_csv_row(FILE *out, const sweep_row_t *row, cp_err_t *err);

#endif
