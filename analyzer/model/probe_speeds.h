/* probe_speeds.h - measured volume speeds as the model sees them: write, read and
 * sustained samples per target (tables/probe_csv.h loads probe.csv into these). */
#ifndef CP_MODEL_PROBE_SPEEDS_H
#define CP_MODEL_PROBE_SPEEDS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/data_source.h"
#include "model/runs.h"

typedef enum probe_speed_op {
    PROBE_OP_WRITE,
    PROBE_OP_READ,
    PROBE_OP_SUSTAINED,
    PROBE_OP_DRAIN, /* not a row kind: the drain_bps of write rows, for probe_table_speed */
    PROBE_OP_IO_COST, /* not a row kind: io_cpu_s / size_bytes of buffered write rows
                         (seconds of system CPU per byte written), for probe_table_speed */
    PROBE_OP_IO_COST_DIRECT, /* the same of O_DIRECT write rows: the direct path costs
                                the cores differently (no page-cache copy) */
} probe_speed_op_t;

typedef struct probe_speed_row {
    long line;
    char target[RUNS_NAME_MAX];
    char dir[RUNS_DIR_MAX]; /* the target's directory; "" when not given */
    probe_speed_op_t op;
    double size_bytes; /* NAN when the file has no size_bytes */
    double bytes_per_s;
    double seconds;    /* sustained: seconds since the start; NAN when not given */
    double drain_bps;  /* write rows: the device's speed with the cache out of the way
                          (O_DIRECT, or the fsync of a file the cache held); NAN unknown */
    double io_cpu_s;   /* write rows: the machine's system CPU seconds during the write */
    int ram, emulated; /* 1 yes, 0 no, -1 not given */
    bool direct;       /* the row's sync column says direct (O_DIRECT) */
    bool page_cache;   /* the row's sync column says none: buffered, never synced, so its
                          speed is the page cache's, not the device's */
    bool disk_emulated;  /* the write cap was an emulated disk's (emulation "disk") */
    double rate_cap_bps; /* the emulated cap that paced the row (a read row's read cap,
                            a write row's write cap); NAN when none or not given */
    double io_wait_s;    /* the probe thread blocked on I/O during the row; NAN unknown */
    double thread_sys_s; /* the probe thread's system CPU seconds during the row; NAN */
    data_source_t source; /* the program that measured the row (the source column) */
} probe_speed_row_t;

typedef struct probe_table {
    char *path;
    probe_speed_row_t *rows;
    size_t nrows;
} probe_table_t;

/* Frees a table; NULL is fine. */
void probe_table_free(probe_table_t *table);

/* A target's sustained speed for op (write or read): the median bytes_per_s over its rows
 * at its largest size_bytes (over all its rows of that op when sizes are not given).
 * For PROBE_OP_DRAIN: the median drain_bps of its write rows at the largest size that has
 * one; for PROBE_OP_IO_COST (buffered rows) and PROBE_OP_IO_COST_DIRECT (O_DIRECT rows)
 * the median of io_cpu_s / size_bytes over its rows of sizes down to a quarter of its
 * largest that has one (a cost per byte: the large sizes pooled). NAN when the table is
 * NULL or has no such rows. */
double probe_table_speed(const probe_table_t *table, const char *target, probe_speed_op_t op);

/* Whether every write row of a target was buffered and never synced (sync none): its
 * write speed is the page cache's and says nothing of the device's drain rate. False
 * when it has none, or the table is NULL. */
bool probe_table_page_cache_only(const probe_table_t *table, const char *target);

/* The program that measured a target's rows: theirs when they all name the same one,
 * DATA_SOURCE_UNKNOWN when they differ, say none, or the table is NULL. */
data_source_t probe_table_source(const probe_table_t *table, const char *target);

/* The spread of a target's rows of op (write or read) at its largest size, as
 * probe_table_speed picks them: *min, *max and their count *n. False (nothing set) when
 * the table is NULL or has no such rows. */
bool probe_table_spread(const probe_table_t *table, const char *target, probe_speed_op_t op,
                        double *min, double *max, size_t *n);

/* Two groups of repetitions, each PROBE_MODE_MIN_RUNS or more, the slowest of the faster
 * group more than PROBE_MODE_GAP times the fastest of the slower: two regimes, not noise
 * around one speed (docs/method.md, "Probe"). */
#define PROBE_MODE_MIN_RUNS 2
#define PROBE_MODE_GAP 1.5
typedef struct probe_modes {
    double low, high;     /* each group's median */
    size_t n_low, n_high; /* and its count */
} probe_modes_t;

/* Whether values[0..n) (any order) fall into two groups as above, cut at the widest ratio
 * between neighbours in sorted order; *out filled when they do, zeroed otherwise. */
bool probe_two_modes(const double *values, size_t n, probe_modes_t *out);

/* probe_two_modes of a target's rows of op at its largest size (as probe_table_speed
 * picks them). False when the table is NULL or they do not split. */
bool probe_table_two_modes(const probe_table_t *t, const char *target, probe_speed_op_t op,
                           probe_modes_t *out);

/* A read row limited by the kernel's own work, not by the device: its thread spent
 * PROBE_KERNEL_SYS_S_PER_GB or more of system CPU per GB read (a read the page cache
 * serves costs 0.1-0.3 s per GB) and was blocked on I/O for under a quarter of the row
 * (on a VM that returns free memory to the host, the page cache's pages fault in from
 * the host as they are filled; docs/method.md, "Probe"). False when a figure is unknown. */
#define PROBE_KERNEL_SYS_S_PER_GB 0.8
bool probe_row_kernel_bound(const probe_speed_row_t *r);

/* How many of a target's read rows at its largest size are kernel-bound; *n how many read
 * rows there are at that size (0 when none). */
size_t probe_table_kernel_bound(const probe_table_t *t, const char *target, size_t *n);

/* Whether a target's rows of op (write, read or sustained) were paced by an emulated cap:
 * true when any of them says so (emulated 1 or a cap). Then *cap_bps, when cap_bps is not
 * NULL, is the median of their caps, NAN when the file does not give one. False, *cap_bps
 * untouched, when the table is NULL or none of them is emulated. */
bool probe_table_emulated(const probe_table_t *table, const char *target, probe_speed_op_t op,
                          double *cap_bps);

/* Whether chokepoint itself paced a target's rows of op at an emulated cap, one write or
 * read at a time: emulated rows that no emulated disk took (emulation "disk" is the
 * kernel's pacing, which a command's runs meet too). False for a NULL table. */
bool probe_table_self_paced(const probe_table_t *t, const char *target, probe_speed_op_t op);

/* The probe target that gives a runs target its speeds: the one of the same name, else the
 * one probed on the same directory (dir non-empty). NULL when the table is NULL, nothing
 * matches, or several differently named probe targets share dir (ambiguous: which is
 * meant cannot be told). The result points into the table. */
const char *probe_table_match(const probe_table_t *table, const char *name, const char *dir);

#endif
