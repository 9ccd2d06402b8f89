/* rows_file.h - a file of measured rows that survives the process being killed: every row
 * is appended, written and fdatasynced before the next measurement starts.
 *
 * Two placements (docs/formats.md, "Rows on disk"):
 * - in place (a results directory's runs.csv and probe.csv): rows go straight into the
 *   named file, which a resumed study appends to;
 * - beside (`sweep -o FILE`, `probe -o FILE`): rows go into the sibling "FILE.partial",
 *   renamed to FILE when the command ends (complete, interrupted or failed, as long as it
 *   has rows). After SIGKILL, FILE.partial holds every finished row.
 * The file is locked (flock) while it is written, so a second writer is refused instead
 * of interleaving rows. NULL or "-" writes to stdout, flushed per row. */
#ifndef CP_TABLES_ROWS_FILE_H
#define CP_TABLES_ROWS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/err.h"

#define ROWS_FILE_PARTIAL_SUFFIX ".partial"

typedef struct rows_file rows_file_t;

typedef enum rows_file_placement {
    ROWS_IN_PLACE,       /* write path itself; it must not exist */
    ROWS_IN_PLACE_APPEND,/* write path itself, appending when it exists (a resumed study) */
    ROWS_BESIDE,         /* write path.partial, renamed to path at the end */
} rows_file_placement_t;

/* Opens the rows file for path. header (one line with its '\n') is written when the file
 * is new or empty. With ROWS_IN_PLACE_APPEND an unfinished last line (a write cut by a
 * crash) is cut off first. CP_EUSAGE naming the file when path exists (ROWS_IN_PLACE, or
 * ROWS_BESIDE without force), when another process holds its lock, or when a "FILE.partial"
 * left by a process that stopped is in the way (unless force); CP_EIO on I/O errors.
 * NULL on failure, with err set. */
rows_file_t *rows_file_open(const char *path, rows_file_placement_t placement, bool force,
                            const char *header, cp_err_t *err);

/* The stream to print one row into. Owned by the rows file. */
FILE *rows_file_stream(rows_file_t *f);

/* Appends what was printed since the last call (one write) and fdatasyncs it; counts one
 * row. CP_EIO/CP_ENOSPC naming the file on failure. */
int rows_file_commit_row(rows_file_t *f, cp_err_t *err);

/* Rows committed by this process. */
size_t rows_file_rows(const rows_file_t *f);

/* The file the rows are going to (path, or path.partial), "" for stdout. */
const char *rows_file_path(const rows_file_t *f);

/* ROWS_BESIDE: rows_file_close renames FILE.partial to FILE even when it holds no rows
 * (only the header). */
void rows_file_keep_empty(rows_file_t *f);

/* Ends the file: ROWS_BESIDE renames FILE.partial to FILE when it holds rows or
 * rows_file_keep_empty was called (without
 * replacing an existing FILE unless force) and removes it when it holds none. Then frees
 * f (NULL is fine). Returns the rename's result. */
int rows_file_close(rows_file_t *f, cp_err_t *err);

#endif
