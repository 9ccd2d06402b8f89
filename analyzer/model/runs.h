/* runs.h - measured runs as the model sees them: one row per timed run, whatever file or
 * tool they came from (tables/runs_csv.h loads runs.csv into these). */
#ifndef CP_MODEL_RUNS_H
#define CP_MODEL_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/bounds.h"
#include "model/data_source.h"

#define RUNS_NAME_MAX CP_NAME_MAX
#define RUNS_THREADS_MAX CP_MAX_THREADS
#define RUNS_DIR_MAX 512 /* a target's directory; longer ones are kept as unknown */

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

/* What the job as a whole waited for, along its critical path (measure/path_split.h):
 * compressing, a core, the reader or writer on a core, blocked reading, blocked writing. */
typedef enum run_path {
    RUN_PATH_COMPUTE, RUN_PATH_CORE_WAIT, RUN_PATH_IO_CPU,
    RUN_PATH_READ_BLOCKED, RUN_PATH_WRITE_BLOCKED,
    RUN_PATH_COUNT
} run_path_t;

/* One run. Optional numbers that the file does not give are NAN. */
typedef struct run_row {
    long line;                     /* where it is in the file, for messages */
    char target[RUNS_NAME_MAX];
    char dir[RUNS_DIR_MAX];        /* the target's directory; "" when not given (mem) */
    char codec[RUNS_NAME_MAX];     /* "" when the file has no codec */
    char input_target[RUNS_NAME_MAX]; /* "" when not given */
    run_layout_t layout;
    int threads;
    int rep;                       /* the repetition (1, 2, ...); 0 when not given */
    double seconds, input_bytes, output_bytes;
    double cpu_user_s, cpu_sys_s;
    double stage_s[RUN_STAGE_COUNT];
    char sync[16];                 /* "fsync", "direct", "none"; "" when not given */
    int ram, emulated;             /* 1 yes, 0 no, -1 not given */
    double rate_cap_bps;           /* emulated write-rate cap; NAN when not given */
    bool disk_emulated;            /* the cap was an emulated disk's (emulation "disk"): the
                                      kernel paced the drain, the page cache took the
                                      writes; false: chokepoint paced each write */
    double read_cap_bps;           /* emulated read-rate cap; NAN when not given */
    /* A decompression: the archive (output_bytes) read from the target, restored
     * (input_bytes, the uncompressed side, as for a compression) to memory or, with the
     * same layout, onto the target. */
    bool decompress;
    /* The run's phases and telemetry (NAN when not given): the evidence for a cause. */
    double pipeline_s, flush_s;    /* seconds = pipeline_s + flush_s */
    double cpu_idle_share, cpu_sys_share, dev_busy_share;
    double dirty_background_bytes, dirty_bytes;   /* write-back thresholds */
    double dirty_expire_s, dirty_writeback_s;    /* dirty age limit, flusher interval */
    double online_cpus;                          /* CPUs online during the run */
    double block_bytes;   /* the pipeline's input block (the first output waits for one) */
    double target_order;  /* the target's position on the command line (1-based); NAN */
    /* Where the time went (summed over the run's threads; NAN when not measured): waiting
     * for a core, blocked on I/O (of it: reading the input, and paused by write-back);
     * io_wait_system: io_wait_s is the machine's I/O pressure ("psi-system"), not the
     * run's own threads' delay accounting ("delayacct"). */
    double cpu_wait_s, io_wait_s, io_read_wait_s, dirty_pause_s;
    bool io_wait_system;
    data_source_t source;  /* the program that measured the run (the source column) */
    /* The wall time along the critical path (runs.csv path_*_s, in run_path_t's order):
     * what the job as a whole waited for; NAN when not measured (a command's runs). */
    double path_s[RUN_PATH_COUNT];
} run_row_t;

/* A (target, codec) whose rows failed, with the first failure's error text, so that a
 * target none of whose runs succeeded is named rather than dropped. */
typedef struct run_failure {
    char target[RUNS_NAME_MAX];
    char codec[RUNS_NAME_MAX];
    char error[320];      /* the first failed row's error ("valid = 0" when it has none) */
    size_t count;         /* its failed rows */
} run_failure_t;

typedef struct runs_table {
    char *path;
    run_row_t *rows;
    size_t nrows;
    size_t skipped_failed; /* rows with an error or valid = 0 */
    run_failure_t *failures; /* one per (target, codec) with failed rows, in file order */
    size_t nfailures;
} runs_table_t;

/* Why f failed, on one line into buf (cap bytes): its first error without a skipped run's
 * "not run: ", cut before the second line of a command's stderr (so its exit status and
 * first stderr line stay). Returns buf. */
const char *run_failure_reason(const run_failure_t *f, char *buf, size_t cap);

/* The program that measured every row of table (its source column), DATA_SOURCE_UNKNOWN
 * when the rows disagree, name none, or there are none; NULL is fine. */
data_source_t runs_table_source(const runs_table_t *table);

/* Frees a table; NULL is fine. */
void runs_table_free(runs_table_t *table);

#endif
