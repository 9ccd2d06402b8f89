/* runs_csv.h - runs.csv loaded into structs for analysis.
 *
 * Required columns: target, threads, seconds, input_bytes. Optional: codec, rep,
 * output_bytes, cpu_user_s, cpu_sys_s, the pipeline stage columns (reader_busy_s, ...),
 * layout (split|same), input_target, sync, ram, emulated, rate_cap_bps (kept for labels),
 * error, valid. Unknown columns are ignored. Rows with
 * a non-empty `error` or with valid = 0 are failed runs: counted, not loaded. */
#ifndef CP_REPORT_RUNS_CSV_H
#define CP_REPORT_RUNS_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

#define RUNS_NAME_MAX 128
#define RUNS_THREADS_MAX 1024

typedef enum run_layout {
    RUN_LAYOUT_UNKNOWN, /* column absent or empty: treated as split */
    RUN_LAYOUT_SPLIT,   /* input read from where it lives */
    RUN_LAYOUT_SAME,    /* input copied to the target and read from there */
} run_layout_t;

enum {
    RUN_STAGE_READER_BUSY, RUN_STAGE_READER_WAIT,
    RUN_STAGE_COMPRESS_BUSY, RUN_STAGE_COMPRESS_WAIT,
    RUN_STAGE_WRITER_BUSY, RUN_STAGE_WRITER_WAIT,
    RUN_STAGE_COUNT
};

/* One run. Optional numbers that the file does not give are NAN. */
typedef struct run_row {
    long line;                     /* where it is in the file, for messages */
    char target[RUNS_NAME_MAX];
    char codec[RUNS_NAME_MAX];     /* "" when the file has no codec */
    char input_target[RUNS_NAME_MAX]; /* "" when not given */
    run_layout_t layout;
    int threads;
    double seconds, input_bytes, output_bytes;
    double cpu_user_s, cpu_sys_s;
    double stage_s[RUN_STAGE_COUNT];
    char sync[16];                 /* "fsync", "direct", "none"; "" when not given */
    int ram, emulated;             /* 1 yes, 0 no, -1 not given */
    double rate_cap_bps;           /* emulated write-rate cap; NAN when not given */
} run_row_t;

typedef struct runs_table {
    char *path;
    run_row_t *rows;
    size_t nrows;
    size_t skipped_failed; /* rows with an error or valid = 0 */
} runs_table_t;

/* Column names of the stage accounting, indexed by RUN_STAGE_*. */
const char *runs_stage_column(int stage);

/* Loads path. On success *out is owned by the caller (runs_table_free). On failure returns
 * CP_EUSAGE (cannot open), CP_EIO or CP_EDATA with "FILE:LINE: what is wrong" in err, and
 * *out is NULL. Thread counts must be whole numbers 1..1024, seconds and bytes > 0. */
int runs_table_load(const char *path, runs_table_t **out, cp_err_t *err);

/* The same from a buffer (tests, or data produced in memory); name is used in messages. */
int runs_table_load_buffer(const char *name, const void *data, size_t len,
                           runs_table_t **out, cp_err_t *err);

/* Frees a table; NULL is fine. */
void runs_table_free(runs_table_t *table);

#endif
