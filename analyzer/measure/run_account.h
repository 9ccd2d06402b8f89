/* run_account.h - where a run's threads spent their time, by the kernel's own accounting:
 * waiting for a core (schedstat's run-queue delay), blocked on I/O (delay accounting's
 * block-I/O delay) and paused by write-back throttling (tracefs balance_dirty_pages).
 *
 * Usage: run_account_start before the timed region; run_account_reader from the thread
 * that reads the input; run_account_mark when the pipeline has handed its last byte to
 * the kernel, before threads that belong to the run end (a library's workers);
 * run_account_finish after the flush. The threads are this process's and its descendants'
 * (a command's process tree), read every 20 ms or more while the run goes on: a thread
 * counts by its growth between readings (born during the run: from zero), and what a
 * command's thread does after the last reading that saw it is missed. A thread's
 * block-I/O figure is held to the time it slept (docs/method.md, "Telemetry"). Nothing
 * here is ever an error for the run: a figure that cannot be measured is NAN. */
#ifndef CP_RUN_ACCOUNT_H
#define CP_RUN_ACCOUNT_H

#include <stdbool.h>

/* The figures of one run, summed over its threads (seconds; NAN when not measured). */
typedef struct run_account {
    double cpu_wait_s;    /* waiting for a core */
    double io_wait_s;     /* blocked on I/O (reads, writes, write-back throttling, fsync) */
    double io_read_wait_s; /* of which: the input's reader until the mark (read misses) */
    double dirty_pause_s; /* of which: paused by balance_dirty_pages (the page cache's dirty
                           * limit), the processes' seen; needs tracefs (root) */
} run_account_t;

typedef struct run_account_tracker run_account_tracker_t;

/* Reads the threads of this process and its descendants and, as root, turns on delay
 * accounting for the process's lifetime (sys_delayacct_enable) and starts the write-back
 * trace; a thread of its own reads them every 20 ms or more until run_account_finish.
 * With `command` the run is a child process tree's: this process's threads' waits for a
 * core are left out (they only wait for it), their I/O (the flush) is counted. Returns NULL
 * only when out of memory; run_account_finish then gives all NAN. */
run_account_tracker_t *run_account_start(bool command);

/* Names the calling thread as the run's reader: its block-I/O delay until the mark counts
 * as blocked on reads, everything else as blocked on writes. Thread-safe against the
 * other calls only in that it is called before the mark (NULL is fine). */
void run_account_reader(run_account_tracker_t *t);

/* Snapshots the threads at the end of the pipeline (before the flush), keeping each
 * thread's figures (NULL is fine). */
void run_account_mark(run_account_tracker_t *t);

/* Takes the last snapshot, fills *out and frees t (NULL gives all NAN). */
void run_account_finish(run_account_tracker_t *t, run_account_t *out);

#endif
