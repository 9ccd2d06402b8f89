/* path_split.h - a run's time along its critical path: at each moment of the run, what the
 * job as a whole was waiting for. The writer is the pipeline's last stage, so the job
 * moves at its pace: while it writes, the job waits for the writing; while it waits for
 * the next block in order, the job waits for whatever that block still waits for (being
 * read, then compressed). Each moment is counted once, so the parts add up to the run's
 * wall time, less what no stage held (starting and stopping the threads). Within one
 * stage's operation, the thread's own clocks (schedstat) tell on a core, waiting for a
 * core and blocked (the rest) apart. docs/method.md, "Where the time went". */
#ifndef CP_PATH_SPLIT_H
#define CP_PATH_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

/* Seconds of a run's wall time by what the job waited for. */
typedef struct path_split {
    double compute_s;       /* a block being compressed, its thread on a core */
    double core_wait_s;     /* the thread on the path runnable, waiting for a core */
    double io_cpu_s;        /* the reader or writer on the path, on a core (the kernel's copies) */
    double read_blocked_s;  /* the reader on the path, blocked reading the input */
    double write_blocked_s; /* the writer on the path, blocked writing (the disk, write-back
                             * throttling, an emulated cap, the final flush) */
} path_split_t;

/* One thread's time over one operation: wall, on a core, waiting for a core; the rest
 * of the wall time it was blocked. */
typedef struct path_span {
    double wall_s, cpu_s, core_wait_s;
} path_span_t;

/* The calling thread's clocks at one moment (path_clock_now). */
typedef struct path_clock {
    double wall_s;
    uint64_t cpu_ns, wait_ns;
} path_clock_t;

/* What one block went through before the writer took it. */
typedef struct path_block {
    double read_end_s;     /* clock_now when the reader had read it */
    path_span_t read;      /* reading it */
    path_span_t compress;  /* compressing it */
    path_span_t spill;     /* writing parts of it early (the native engine's spills) */
} path_block_t;

/* The calling thread's wall clock, CPU and run-queue time now (its schedstat; without
 * one, its CPU clock and no wait). */
path_clock_t path_clock_now(void);

/* Adds the calling thread's time since `since` to *span. */
void path_span_add(path_span_t *span, const path_clock_t *since);

/* Counts seconds the job spent on the writer's own operation `op` (a write, the final
 * flush): on a core as the I/O path's CPU, waiting for a core, blocked as writing. */
void path_split_write(path_split_t *s, const path_span_t *op, double seconds);

/* Counts the writer's wait from waited_from to waited_until for block b: the part before
 * b was read as the reader's (by b->read's shares), the part b's spills took as writing,
 * the rest as compressing (by b->compress's shares). Pure. */
void path_split_wait(path_split_t *s, const path_block_t *b, double waited_from,
                     double waited_until);

/* The parts summed. */
double path_split_total(const path_split_t *s);

#endif
