/* run_account.c - the run's threads' accounting from /proc and tracefs. */
#include "measure/run_account.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/sys.h"

/* Threads a run can have: the team (T + 2) and a library's workers. */
#define TASKS_CAP 2048

struct run_account_tracker {
    sys_task_account_t start[TASKS_CAP];
    int start_n;                       /* < 0: not readable here */
    sys_task_account_t marked[TASKS_CAP]; /* every thread at the pipeline's end */
    int marked_n;
    sys_task_account_t latest[TASKS_CAP]; /* every thread seen since the start, newest */
    int latest_n;
    long reader_tid;                   /* 0: not named */
    bool delayacct;                    /* delay accounting was on at the start */
    double started, mark_at;           /* clock_now() at the start snapshot and the mark */
    sys_dirty_trace_t *trace;
};

run_account_tracker_t *run_account_start(void)
{
    run_account_tracker_t *t = malloc(sizeof *t);
    if (t == NULL)
        return NULL;
    t->delayacct = sys_delayacct_enable();
    t->trace = sys_dirty_trace_start();
    t->latest_n = t->marked_n = 0;
    t->reader_tid = 0;
    t->start_n = sys_task_accounts(0, t->start, TASKS_CAP);
    t->started = clock_now();
    return t;
}

void run_account_reader(run_account_tracker_t *t)
{
    if (t != NULL)
        t->reader_tid = (long)syscall(SYS_gettid);
}

/* Snapshots the threads again, keeping each thread's newest figures. */
static void sample(run_account_tracker_t *t)
{
    if (t->start_n < 0)
        return;
    sys_task_account_t now[TASKS_CAP];
    int n = sys_task_accounts(0, now, TASKS_CAP);
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < t->latest_n && t->latest[j].tid != now[i].tid)
            j++;
        if (j == t->latest_n) {
            if (t->latest_n == TASKS_CAP)
                continue;
            t->latest_n++;
        }
        t->latest[j] = now[i];
    }
}

void run_account_mark(run_account_tracker_t *t)
{
    if (t == NULL)
        return;
    sample(t);
    memcpy(t->marked, t->latest, (size_t)t->latest_n * sizeof *t->latest);
    t->marked_n = t->latest_n;
    t->mark_at = clock_now();
}

/* A thread's figure in snapshot[0..n), the chosen field; `otherwise` when it is not
 * there. */
static uint64_t field_of(const sys_task_account_t *snapshot, int n, long tid, bool io,
                         uint64_t otherwise)
{
    for (int i = 0; i < n; i++)
        if (snapshot[i].tid == tid)
            return io ? snapshot[i].blkio_ticks : snapshot[i].wait_ns;
    return otherwise;
}

/* The summed growth of the threads (only of tid when tid > 0) in the field's unit: from
 * the start to the mark, each thread's at most most_run, and from the mark to the end
 * (the flush; only when `through_end`), each thread's at most most_flush. No thread waits
 * longer than an interval lasts: a larger figure is the kernel's error (docs/method.md,
 * "Telemetry"), and it is cut to the interval. */
static uint64_t growth(const run_account_tracker_t *t, long tid, bool io, bool through_end,
                       uint64_t most_run, uint64_t most_flush)
{
    uint64_t sum = 0;
    for (int i = 0; i < t->latest_n; i++) {
        long id = t->latest[i].tid;
        if (tid > 0 && id != tid)
            continue;
        uint64_t end = io ? t->latest[i].blkio_ticks : t->latest[i].wait_ns;
        uint64_t start = field_of(t->start, t->start_n, id, io, 0);
        if (start > end)
            start = 0; /* a reused thread id counts from zero */
        uint64_t mid = field_of(t->marked, t->marked_n, id, io, start);
        if (mid < start || mid > end)
            mid = start;
        sum += mid - start < most_run ? mid - start : most_run;
        if (through_end)
            sum += end - mid < most_flush ? end - mid : most_flush;
    }
    return sum;
}

void run_account_finish(run_account_tracker_t *t, run_account_t *out)
{
    out->cpu_wait_s = out->io_wait_s = out->io_read_wait_s = out->dirty_pause_s = NAN;
    if (t == NULL)
        return;
    if (t->marked_n == 0)
        run_account_mark(t); /* the run ended before its pipeline did: all of it is "run" */
    else
        sample(t);
    double now = clock_now();
    long self = (long)getpid();
    out->dirty_pause_s = sys_dirty_trace_stop(t->trace, &self, 1);
    if (t->start_n >= 0) {
        double run_s = t->mark_at - t->started, flush_s = now - t->mark_at;
        out->cpu_wait_s = (double)growth(t, 0, false, true, (uint64_t)(run_s * 1e9),
                                         (uint64_t)(flush_s * 1e9)) / 1e9;
        double tick_s = 1.0 / (double)sysconf(_SC_CLK_TCK);
        uint64_t run_ticks = (uint64_t)ceil(run_s / tick_s);
        uint64_t flush_ticks = (uint64_t)ceil(flush_s / tick_s);
        if (t->delayacct && sys_delayacct_is_on() && tick_s > 0) {
            out->io_wait_s =
                (double)growth(t, 0, true, true, run_ticks, flush_ticks) * tick_s;
            out->io_read_wait_s =
                t->reader_tid > 0
                    ? (double)growth(t, t->reader_tid, true, false, run_ticks, 0) * tick_s
                    : NAN;
        }
    }
    free(t);
}
