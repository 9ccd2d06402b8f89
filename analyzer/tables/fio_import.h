/* fio_import.h - fio's JSON output (--output-format=json or json+) as probe.csv rows: each
 * sequential job a target named by its job name, its write or read bandwidth a row at
 * the job's file size (docs/formats.md, "Imported from fio"). */
#ifndef CP_TABLES_FIO_IMPORT_H
#define CP_TABLES_FIO_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "common/bounds.h"
#include "common/err.h"
#include "measure/probe.h"
#include "measure/sink.h"

typedef struct fio_row {
    char target[CP_NAME_MAX]; /* the job's name */
    char dir[PATH_MAX];       /* its directory option, resolved when it can be; "" none */
    probe_op_t op;            /* PROBE_WRITE or PROBE_READ */
    uint64_t size_bytes;      /* the job's size (or filesize) option; its io_bytes without;
                                 0 when neither says (written empty) */
    int rep;                  /* 1-based among rows of the same target, op and size */
    double seconds;           /* the direction's runtime */
    double bytes_per_s;       /* the direction's bw_bytes */
    sync_mode_t sync;         /* direct=1 (buffered=0); end_fsync, fsync_on_close, fsync,
                                 fdatasync: fsync; else none (a page-cache speed) */
    uint64_t block_bytes;     /* the direction's bs; 0 when it is a range fio picks from */
} fio_row_t;

typedef struct fio_import {
    fio_row_t *rows;
    size_t n;
    char version[32];         /* "fio-3.33" */
    int64_t timestamp;        /* fio's "timestamp": when it wrote its report (the end of
                                 the run), seconds since the epoch; 0 when absent */
} fio_import_t;

/* Reads fio's JSON from root (name labels messages). Every job must be sequential
 * (rw=write or read, the default), ran without error, and report bandwidth in its
 * direction; clones of a job (numjobs) must be reported as one (group_reporting).
 * CP_EDATA with one line naming the file, the job and what is missing otherwise. On
 * success *out holds at least one row and is the caller's (fio_import_free). */
int fio_import_parse(const char *name, const json_t *root, fio_import_t *out, cp_err_t *err);

/* Writes the rows as probe.csv (its header first, the same columns as `chokepoint probe`,
 * those fio does not give empty, source "fio"). CP_EIO when the stream reports an error. */
int fio_import_write(FILE *out, const fio_import_t *imp, cp_err_t *err);

/* Frees the rows; safe twice. */
void fio_import_free(fio_import_t *imp);

#endif
