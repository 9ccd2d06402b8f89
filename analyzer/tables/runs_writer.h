/* runs_writer.h - sweep rows out as runs.csv (docs/formats.md lists the columns). */
#ifndef CP_TABLES_RUNS_WRITER_H
#define CP_TABLES_RUNS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/err.h"
#include "measure/run_account.h"
#include "measure/sweep.h"
#include "tables/rows_file.h"

/* Writes the header line. CP_EIO when the stream reports an error. */
int runs_csv_header(FILE *out, cp_err_t *err);

/* Writes one row in the header's order and flushes it, so rows survive an interrupt.
 * Unknown values are empty fields. CP_EIO when the stream reports an error. */
int runs_csv_row(FILE *out, const sweep_row_t *row, cp_err_t *err);

/* The emulation column's word for a row: "disk" when an emulated disk took its writes
 * (the kernel paced them), "pacing" when chokepoint paced them itself at a write cap,
 * NULL (an empty field) when neither did. Static text. */
const char *emulation_name(bool write_capped, bool disk_emulated);

/* Writes the eight "where the time went" columns, cpu_wait_s .. psi_cpu_some_s, as
 * docs/formats.md defines them for runs.csv and probe.csv (no separators around them);
 * NAN figures are empty fields. */
void runs_csv_accounting(FILE *out, const run_account_t *a, double psi_io_some_s,
                         double psi_io_full_s, double psi_cpu_some_s);

/* The header line (with its '\n'), static. */
const char *runs_csv_header_text(void);

/* A runs.csv being written by a sweep: each row reaches the disk (fdatasync) as it is
 * measured (tables/rows_file.h). */
typedef struct runs_csv_file {
    rows_file_t *file;
    size_t rows;
} runs_csv_file_t;

/* Opens path (NULL or "-": stdout) as a rows file with the given placement and writes the
 * header when the file is new. On failure f holds nothing to close and err says why. */
int runs_csv_open(runs_csv_file_t *f, const char *path, rows_file_placement_t placement,
                  bool force, cp_err_t *err);

/* A sweep_row_cb: appends one row to the runs_csv_file_t in ctx and syncs it. */
int runs_csv_write(const sweep_row_t *row, void *ctx, cp_err_t *err);

/* Ends the rows file (rows_file_close: FILE.partial becomes FILE when it holds rows) and
 * closes it. Returns that result. */
int runs_csv_close(runs_csv_file_t *f, cp_err_t *err);

#endif
