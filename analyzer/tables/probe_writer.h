/* probe_writer.h - probe rows out as probe.csv, and back in as a probe table (the summary
 * table for people is report/probe_summary.h). */
#ifndef CP_TABLES_PROBE_WRITER_H
#define CP_TABLES_PROBE_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include "common/err.h"
#include "measure/probe.h"
#include "model/probe_speeds.h"

/* The header line (with its '\n'), static. */
const char *probe_csv_header_text(void);

/* Writes the probe.csv header line. CP_EIO when the stream reports an error. */
int probe_csv_header(FILE *out, cp_err_t *err);

/* Writes one row in the header's column order, quoting text fields that need it (RFC
 * 4180). CP_EIO when the stream reports an error. */
int probe_csv_row(FILE *out, const probe_row_t *row, cp_err_t *err);

/* The rows as a probe table (model/probe_speeds.h), through the CSV text probe.csv holds,
 * so their figures are read exactly as analyze reads a probe file; name labels the table
 * in messages. On success *out is the caller's (probe_table_free); CP_ENOMEM, or CP_EDATA
 * as probe_table_load, on failure (*out NULL). */
int probe_rows_table(const char *name, const probe_row_t *rows, size_t n, probe_table_t **out,
                     cp_err_t *err);

#endif
