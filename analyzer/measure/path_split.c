/* path_split.c - a run's time along its critical path (path_split.h). */
#include "measure/path_split.h"

#include <math.h>
#include <time.h>

#include "common/clock.h"
#include "common/sys.h"

path_clock_t path_clock_now(void)
{
    path_clock_t c = {clock_now(), 0, 0};
    if (!SYS_HAVE_SCHEDSTAT || !sys_thread_schedstat(&c.cpu_ns, &c.wait_ns)) {
        struct timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        c.cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        c.wait_ns = 0;
    }
    return c;
}

void path_span_add(path_span_t *span, const path_clock_t *since)
{
    path_clock_t now = path_clock_now();
    span->wall_s += now.wall_s - since->wall_s;
    span->cpu_s += (double)(now.cpu_ns - since->cpu_ns) / 1e9;
    span->core_wait_s += (double)(now.wait_ns - since->wait_ns) / 1e9;
}

typedef enum { ON_COMPUTE, ON_READ, ON_WRITE } path_stage_t;

/* Splits seconds by op's shares: waiting for a core, on a core, blocked (the rest). A
 * compressor's blocked share (page faults, locks) counts as compressing. */
static void split_by(path_split_t *s, const path_span_t *op, double seconds, path_stage_t stage)
{
    if (!(seconds > 0.0))
        return;
    double wait = 0.0, cpu = 1.0;
    if (op->wall_s > 0.0) {
        wait = fmin(1.0, fmax(0.0, op->core_wait_s / op->wall_s));
        cpu = fmin(1.0 - wait, fmax(0.0, op->cpu_s / op->wall_s));
    }
    double blocked = 1.0 - wait - cpu;
    s->core_wait_s += seconds * wait;
    if (stage == ON_COMPUTE)
        s->compute_s += seconds * (cpu + blocked);
    else
        s->io_cpu_s += seconds * cpu;
    if (stage == ON_READ)
        s->read_blocked_s += seconds * blocked;
    else if (stage == ON_WRITE)
        s->write_blocked_s += seconds * blocked;
}

void path_split_write(path_split_t *s, const path_span_t *op, double seconds)
{
    split_by(s, op, seconds, ON_WRITE);
}

void path_split_wait(path_split_t *s, const path_block_t *b, double waited_from,
                     double waited_until)
{
    double wait = waited_until - waited_from;
    if (!(wait > 0.0))
        return;
    double reading = fmin(wait, fmax(0.0, b->read_end_s - waited_from));
    double spilling = fmin(wait - reading, b->spill.wall_s);
    split_by(s, &b->read, reading, ON_READ);
    split_by(s, &b->spill, spilling, ON_WRITE);
    split_by(s, &b->compress, wait - reading - spilling, ON_COMPUTE);
}

double path_split_total(const path_split_t *s)
{
    return s->compute_s + s->core_wait_s + s->io_cpu_s + s->read_blocked_s + s->write_blocked_s;
}
