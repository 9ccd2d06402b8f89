/* run_account.c - the run's threads' accounting from /proc and tracefs, read at the start,
 * the mark and the end and by a poller thread every few tens of milliseconds in between,
 * summed per thread and phase (before and after the mark), each within what the
 * thread's own schedule allows. */
#include "measure/run_account.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/sys.h"

/* Threads a run can have: the team (T + 2) and a library's workers, or a command's. */
#define TASKS_CAP 2048
/* Processes: chokepoint and a command's process tree (the guardian, the shell, programs). */
#define PROCESSES_CAP 64
/* Seconds between readings: the most of a thread's last moments (before it ends) that can
 * be missed, and the stretch an impossible step is confined to. At least POLL_S, and
 * POLL_S_PER_THREAD per thread seen, so that reading many threads costs a core at most
 * about 1% (a thread's two files take about 25 us). */
#define POLL_S 0.02
#define POLL_S_PER_THREAD 0.0025

/* One thread's figures since the run started. */
typedef struct thread_sum {
    long tid;
    bool counts_wait;                   /* its waits for a core are the run's */
    uint64_t last_run_ns, last_wait_ns, last_ticks; /* the latest reading */
    uint64_t run_ns[2], wait_ns[2], ticks[2]; /* growth: [0] before the mark, [1] after */
} thread_sum_t;

struct run_account_tracker {
    pthread_mutex_t lock; /* guards everything below against the poller */
    thread_sum_t threads[TASKS_CAP];
    int threads_n;
    sys_task_account_t scratch[TASKS_CAP]; /* a reading's figures */
    long poller_tid;    /* the poller's own thread: never counted */
    bool command;       /* a command's run: this process's threads only wait for it */
    long tgids[PROCESSES_CAP]; /* every process seen since the start */
    int tgids_n;
    long reader_tid;    /* 0: not named */
    bool readable;      /* this process's threads can be read (schedstat) */
    bool delayacct;     /* delay accounting was on at the start */
    int phase;          /* 0 until the mark, 1 after it */
    double started;     /* clock_now() at the first reading */
    double last_read;   /* clock_now() at the latest reading */
    double mark_at;     /* clock_now() at the mark */
    double tick_s;      /* the length of delay accounting's tick */
    sys_dirty_trace_t *trace;
    pthread_t poller;
    bool poller_running, stopping;
    pthread_cond_t stop;
};

/* Every thread of this process and of its descendants (a command's process tree) now, into
 * out[0..cap); remembers the processes in t->tgids. -1 when this process's threads cannot
 * be read (no schedstat). */
static int snapshot(run_account_tracker_t *t, sys_task_account_t *out, int cap)
{
    long pids[PROCESSES_CAP];
    int np = sys_process_tree((long)getpid(), pids, PROCESSES_CAP);
    if (np < 0)
        return -1;
    int n = 0;
    for (int p = 0; p < np && n < cap; p++) {
        int got = sys_task_accounts(pids[p], out + n, (size_t)(cap - n));
        if (got < 0) {
            if (p == 0)
                return -1; /* this process's own: not measurable here */
            continue;      /* a process that ended while being read */
        }
        n += got;
        bool known = false;
        for (int i = 0; i < t->tgids_n && !known; i++)
            known = t->tgids[i] == pids[p];
        if (!known && t->tgids_n < PROCESSES_CAP)
            t->tgids[t->tgids_n++] = pids[p];
    }
    return n;
}

/* a - b; 0 when a < b. */
static uint64_t growth(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* The block-I/O ticks a reading credits: the growth, unless it is longer than the run has
 * lasted so far (`since` seconds), which no wait that ends in the run can be: the kernel
 * measured it from a start it never recorded (about the machine's uptime, or a wait of an
 * earlier run). Such a step is replaced by the most the thread can have been blocked since
 * the last reading: the time it slept, sleep_s (docs/method.md, "Telemetry"). */
static uint64_t credible_ticks(uint64_t step, double since, double sleep_s, double tick_s)
{
    if ((double)step * tick_s <= since + tick_s)
        return step;
    uint64_t most = sleep_s > 0 ? (uint64_t)ceil(sleep_s / tick_s) : 0;
    return step < most ? step : most;
}

/* Reads every thread and adds its growth since the previous reading to the current phase.
 * With `baseline` (the first reading) nothing is added: the figures so far belong to
 * earlier work. Called with t->lock held. */
static void read_threads(run_account_tracker_t *t, bool baseline)
{
    if (!t->readable)
        return;
    sys_task_account_t *now = t->scratch;
    int n = snapshot(t, now, TASKS_CAP);
    long self = (long)getpid();
    double at = clock_now(), since = at - t->started, dt = at - t->last_read;
    t->last_read = at;
    if (n < 0) {
        if (baseline)
            t->readable = false;
        return;
    }
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < t->threads_n && t->threads[j].tid != now[i].tid)
            j++;
        thread_sum_t *s = &t->threads[j];
        if (j == t->threads_n) {
            if (t->threads_n == TASKS_CAP)
                continue;
            t->threads_n++;
            memset(s, 0, sizeof *s); /* born since the last reading: from zero */
            s->tid = now[i].tid;
            /* Of a command's run, this process's threads' waits for a core are not the
             * run's (they only wait for the command); their I/O is (the flush). */
            s->counts_wait = !(t->command && now[i].tgid == self);
            if (baseline) {
                s->last_run_ns = now[i].run_ns;
                s->last_wait_ns = now[i].wait_ns;
                s->last_ticks = now[i].blkio_ticks;
            }
        }
        if (now[i].run_ns < s->last_run_ns || now[i].wait_ns < s->last_wait_ns ||
            now[i].blkio_ticks < s->last_ticks)
            s->last_run_ns = s->last_wait_ns = s->last_ticks = 0; /* a reused thread id */
        if (now[i].tid == t->poller_tid)
            s->counts_wait = false;
        uint64_t run = growth(now[i].run_ns, s->last_run_ns);
        uint64_t wait = growth(now[i].wait_ns, s->last_wait_ns);
        double slept = dt - (double)run / 1e9 - (double)wait / 1e9;
        s->run_ns[t->phase] += run;
        s->wait_ns[t->phase] += wait;
        s->ticks[t->phase] += credible_ticks(growth(now[i].blkio_ticks, s->last_ticks), since,
                                             slept, t->tick_s);
        s->last_run_ns = now[i].run_ns;
        s->last_wait_ns = now[i].wait_ns;
        s->last_ticks = now[i].blkio_ticks;
    }
}

/* The poller: a reading every POLL_S until stopped. */
static void *poll_loop(void *arg)
{
    run_account_tracker_t *t = arg;
    pthread_mutex_lock(&t->lock);
    t->poller_tid = sys_thread_id();
    while (!t->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double interval = POLL_S_PER_THREAD * (double)t->threads_n;
        long ns = until.tv_nsec + (long)((interval > POLL_S ? interval : POLL_S) * 1e9);
        until.tv_sec += ns / 1000000000L;
        until.tv_nsec = ns % 1000000000L;
        int rc = pthread_cond_timedwait(&t->stop, &t->lock, &until);
        if (rc == ETIMEDOUT && !t->stopping)
            read_threads(t, false);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

run_account_tracker_t *run_account_start(bool command)
{
    run_account_tracker_t *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->stop, NULL);
    t->command = command;
    t->delayacct = SYS_HAVE_DELAYACCT && sys_delayacct_enable();
    t->trace = SYS_HAVE_DIRTY_TRACE ? sys_dirty_trace_start() : NULL;
    t->tick_s = 1.0 / (double)sys_clock_ticks_per_second();
    t->readable = true;
    t->started = t->last_read = clock_now();
    read_threads(t, true);
    /* Read while the run goes on: a command's processes end before the mark and take their
     * figures with them, and a step the kernel got wrong is then bounded by what one
     * reading's interval allows, not the whole run's. */
    if (t->readable)
        t->poller_running = pthread_create(&t->poller, NULL, poll_loop, t) == 0;
    return t;
}

void run_account_reader(run_account_tracker_t *t)
{
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    t->reader_tid = sys_thread_id();
    pthread_mutex_unlock(&t->lock);
}

void run_account_mark(run_account_tracker_t *t)
{
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    if (t->phase == 0) {
        read_threads(t, false);
        t->phase = 1;
        t->mark_at = clock_now();
    }
    pthread_mutex_unlock(&t->lock);
}

void run_account_finish(run_account_tracker_t *t, run_account_t *out)
{
    out->cpu_wait_s = out->io_wait_s = out->io_read_wait_s = out->dirty_pause_s = NAN;
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    t->stopping = true;
    pthread_cond_signal(&t->stop);
    pthread_mutex_unlock(&t->lock);
    if (t->poller_running)
        pthread_join(t->poller, NULL);
    read_threads(t, false); /* the poller is gone: no lock needed */
    double end = clock_now();
    if (t->phase == 0)
        t->mark_at = end; /* the run ended before its pipeline did: all of it is "run" */
    out->dirty_pause_s = sys_dirty_trace_stop(t->trace, t->tgids, (size_t)t->tgids_n);
    if (t->readable) {
        /* A thread can be blocked on I/O only while it sleeps: at most the phase's length
         * less its time on a core and waiting for one (schedstat, which the kernel keeps
         * right). A larger block-I/O figure is the kernel's error (a delay credited from a
         * start it never recorded, or to the wrong thread; docs/method.md, "Telemetry")
         * and is cut to that. Waits for a core are cut to the phase's length. */
        double len[2] = {t->mark_at - t->started, end - t->mark_at};
        uint64_t wait_ns = 0, ticks = 0, reader_ticks = 0;
        for (int i = 0; i < t->threads_n; i++) {
            const thread_sum_t *s = &t->threads[i];
            for (int ph = 0; ph < 2; ph++) {
                double len_ns = len[ph] * 1e9;
                double sleep_ns = len_ns - (double)s->run_ns[ph] - (double)s->wait_ns[ph];
                uint64_t most_ticks =
                    sleep_ns > 0 ? (uint64_t)ceil(sleep_ns / 1e9 / t->tick_s) : 0;
                uint64_t k = s->ticks[ph] < most_ticks ? s->ticks[ph] : most_ticks;
                if (s->counts_wait)
                    wait_ns += (uint64_t)fmin((double)s->wait_ns[ph], len_ns);
                ticks += k;
                if (s->tid == t->reader_tid && ph == 0)
                    reader_ticks = k; /* reading ends at the mark */
            }
        }
        out->cpu_wait_s = (double)wait_ns / 1e9;
        if (t->delayacct && sys_delayacct_is_on()) {
            out->io_wait_s = (double)ticks * t->tick_s;
            out->io_read_wait_s = t->reader_tid > 0 ? (double)reader_ticks * t->tick_s : NAN;
        }
    }
    pthread_cond_destroy(&t->stop);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
