/* hyperfine_import.h - hyperfine's --export-json from a run with a `threads` parameter
 * as runs.csv rows: each result's times the repetitions at its thread count
 * (docs/formats.md, "Imported from hyperfine"). */
#ifndef CP_TABLES_HYPERFINE_IMPORT_H
#define CP_TABLES_HYPERFINE_IMPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/bounds.h"
#include "common/err.h"

/* What hyperfine does not know: the bytes the command read and wrote, and the target
 * when the results have no `target` parameter. */
typedef struct hyperfine_sizes {
    uint64_t input_bytes;  /* > 0 */
    uint64_t output_bytes; /* 0: not known */
    const char *target;    /* NULL: the command's text names the target */
} hyperfine_sizes_t;

typedef struct hyperfine_row {
    char target[CP_NAME_MAX]; /* the `target` parameter, sizes.target, or the command */
    char codec[CP_NAME_MAX];  /* the `codec` parameter, or "cmd:" and the command with
                                 its thread count as "{threads}" */
    int threads;              /* the `threads` parameter */
    int rep;                  /* 1-based: the time's place in the result's times */
    double seconds;           /* one of the result's times */
    double cpu_user_s, cpu_sys_s; /* the result's user and system means */
    int exit_code;            /* the run's exit code; 0 when not given */
} hyperfine_row_t;

typedef struct hyperfine_import {
    hyperfine_row_t *rows;
    size_t n;
    uint64_t input_bytes, output_bytes;
} hyperfine_import_t;

/* Reads hyperfine's export from root (name labels messages). Every result needs a
 * `threads` parameter (a whole number 1..1024) and times. CP_EDATA with one line naming
 * the file and what is missing otherwise. On success *out is the caller's
 * (hyperfine_import_free). */
int hyperfine_import_parse(const char *name, const json_t *root, const hyperfine_sizes_t *sizes,
                           hyperfine_import_t *out, cp_err_t *err);

/* Writes the rows as runs.csv (its header first, the same columns as `chokepoint sweep`,
 * those hyperfine does not give empty, source "hyperfine"; a run that exited non-zero is
 * a failed run). CP_EIO when the stream reports an error. */
int hyperfine_import_write(FILE *out, const hyperfine_import_t *imp, cp_err_t *err);

/* Frees the rows; safe twice. */
void hyperfine_import_free(hyperfine_import_t *imp);

#endif
