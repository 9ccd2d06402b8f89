/* writeback_model.c - owns the write-back model: a run's time from its CPU time, the drain
 * rate, the sync mode and the page cache's thresholds, as a sum of named parts
 * (writeback_model.h). */
#include "model/writeback_model.h"

#include <math.h>
#include <string.h>

wbm_sync_t wbm_sync_from_name(const char *name)
{
    if (name != NULL && strcmp(name, "direct") == 0)
        return WBM_SYNC_DIRECT;
    if (name != NULL && strcmp(name, "none") == 0)
        return WBM_SYNC_NONE;
    return WBM_SYNC_FSYNC;
}

const char *wbm_regime_name(wbm_regime_t regime)
{
    switch (regime) {
    case WBM_CPU_ONLY: return "cpu-only";
    case WBM_READ: return "read";
    case WBM_OVERLAPPED: return "overlapped";
    case WBM_SERIAL: return "serial";
    case WBM_MIXED: return "mixed";
    default: return "unknown";
    }
}

/* The output the page cache holds before background write-back starts (the output
 * arrives at out / compute bytes per second): the background threshold; less when the
 * run outlasts the flusher's first periodic wake-up, which starts writing a device whose
 * dirty pages exceed its share of that threshold (a share the kernel sets from the
 * device's recent write-out, unknown here: taken as passed by then), or the dirty-expiry
 * age. Unknown thresholds (data from elsewhere): none of it, the classic overlapped view. */
static double cached_bytes(const wbm_inputs_t *in, double compute_s)
{
    if (!(in->dirty_background_bytes >= 0.0))
        return 0.0;
    double held = fmin(in->output_bytes, in->dirty_background_bytes);
    double rate = in->output_bytes / compute_s;
    if (in->dirty_writeback_s > 0.0 && compute_s > in->dirty_writeback_s)
        held = fmin(held, rate * in->dirty_writeback_s);
    if (in->dirty_expire_s > 0.0 && compute_s > in->dirty_expire_s)
        held = fmin(held, rate * in->dirty_expire_s);
    return held;
}

const char *wbm_term_name(wbm_term_t term)
{
    switch (term) {
    case TERM_COMPUTE: return "compute";
    case TERM_IO_CPU: return "io-cpu";
    case TERM_READ: return "read";
    case TERM_WRITE: return "write";
    case TERM_FLUSH: return "flush";
    default: return "none";
    }
}

/* Fills the parts of p: the compute term, what the I/O path's CPU work adds to the cores,
 * what the front (the time before the page cache's part) adds beyond the cores, to the
 * one of reading and paced writing that sets it (front_term), and what comes after the
 * front, to back_term. */
static void decompose(prediction_t *p, double front, wbm_term_t front_term,
                      wbm_term_t back_term)
{
    double cpu = p->own_s[TERM_COMPUTE], cores = p->own_s[TERM_IO_CPU];
    for (int t = 0; t < TERM_COUNT; t++)
        p->part_s[t] = 0.0;
    p->part_s[TERM_COMPUTE] = cpu;
    p->part_s[TERM_IO_CPU] = cores - cpu;
    double beyond = front - cores;
    if (beyond > 0.0)
        p->part_s[front_term] += beyond;
    double after = p->seconds - front;
    if (after > 0.0)
        p->part_s[back_term] += after;
}

prediction_t wbm_predict(const wbm_inputs_t *in)
{
    prediction_t p = {WBM_UNKNOWN, NAN, NAN, NAN, NAN, {NAN, NAN, NAN, NAN, NAN},
                      {NAN, NAN, NAN, NAN, NAN}};
    if (!(in->cpu_s > 0.0) || !(in->input_bytes > 0.0))
        return p;
    double out = in->output_bytes > 0.0 ? in->output_bytes : in->input_bytes;
    double cores = in->cpu_s;
    if (in->cpu_work_s > 0.0 && in->io_cpu_per_byte >= 0.0 && in->cpus >= 1.0)
        cores = fmax(cores, (in->cpu_work_s + out * in->io_cpu_per_byte) / in->cpus);
    double read = in->read_bps > 0.0 ? in->input_bytes / in->read_bps : 0.0;
    /* The pipeline's fill and last block (wbm_inputs_t). */
    double block_share = in->block_bytes > 0.0 ? fmin(1.0, in->block_bytes / in->input_bytes) : 0.0;
    double fill = block_share > 0.0 && in->threads >= 1.0
                      ? fmax(cores, read) * fmin(1.0, in->threads * block_share) : 0.0;
    double last_out = out * block_share;
    double pace = 0.0, cores_end = cores;
    if (in->pace_bps > 0.0) {
        pace = fill + out / in->pace_bps;
        cores_end += last_out / in->pace_bps; /* the last block, paced after the cores */
    }
    double compute = fmax(cores_end, fmax(read, pace));
    /* Beyond the cores, the front waits for reading when that is what sets it, else for
     * the paced writes (the pace itself, or the last block paced after the cores). */
    wbm_term_t front_term = read >= compute ? TERM_READ : TERM_WRITE;
    p.own_s[TERM_COMPUTE] = in->cpu_s;
    p.own_s[TERM_IO_CPU] = cores;
    p.own_s[TERM_READ] = read;
    p.own_s[TERM_WRITE] = pace;
    p.own_s[TERM_FLUSH] = 0.0;
    p.compute_s = compute;
    if (isinf(in->drain_bps)) {
        p.regime = read > cores_end * (1.0 + 1e-9) && read >= compute * (1.0 - 1e-9)
                       ? WBM_READ
                   : pace > cores_end * (1.0 + 1e-9) ? WBM_OVERLAPPED
                                                     : WBM_CPU_ONLY;
        p.seconds = compute;
        p.tail_s = 0.0;
        p.cached_bytes = 0.0;
        decompose(&p, compute, front_term, TERM_WRITE);
        return p;
    }
    if (!(in->drain_bps > 0.0))
        return (prediction_t){WBM_UNKNOWN, NAN, NAN, NAN, NAN, {NAN, NAN, NAN, NAN, NAN},
                              {NAN, NAN, NAN, NAN, NAN}};
    double write_s = out / in->drain_bps;
    if (in->sync == WBM_SYNC_DIRECT) {
        /* The disk starts with the first compressed block and ends with the last. */
        if (pace == 0.0)
            write_s += fill;
        p.regime = WBM_OVERLAPPED;
        p.seconds = fmax(compute + last_out / in->drain_bps, write_s);
        p.tail_s = 0.0;
        p.cached_bytes = 0.0;
        p.own_s[TERM_WRITE] = fmax(pace, write_s);
        decompose(&p, compute, front_term, TERM_WRITE);
        return p;
    }
    wbm_inputs_t sized = *in;
    sized.output_bytes = out;
    double held = cached_bytes(&sized, compute);
    p.cached_bytes = held;
    if (in->sync == WBM_SYNC_NONE) {
        /* No fsync: the run ends with the last write unless writers were throttled at the
         * dirty threshold; what is still dirty then is written after the run. */
        double limit = in->dirty_bytes >= 0.0 ? in->dirty_bytes : INFINITY;
        double start = held < out ? compute * held / out : compute;
        double end = out > limit ? fmax(compute, start + (out - limit) / in->drain_bps) : compute;
        p.regime = out > limit ? WBM_MIXED : WBM_CPU_ONLY;
        p.seconds = end;
        p.tail_s = 0.0;
        if (out > limit)
            p.own_s[TERM_WRITE] = fmax(pace, start + (out - limit) / in->drain_bps);
        decompose(&p, compute, front_term, TERM_WRITE);
        return p;
    }
    if (held >= out) {
        p.regime = WBM_SERIAL;
        p.seconds = compute + write_s;
        p.tail_s = write_s;
        p.own_s[TERM_FLUSH] = write_s;
        decompose(&p, compute, front_term, TERM_FLUSH);
        return p;
    }
    double serial_part = compute + held / in->drain_bps;
    double busy_disk = compute * held / out + write_s;
    p.regime = held > 0.0 ? WBM_MIXED : WBM_OVERLAPPED;
    p.seconds = fmax(serial_part, busy_disk);
    p.tail_s = p.seconds - compute;
    p.own_s[TERM_WRITE] = fmax(pace, busy_disk);
    p.own_s[TERM_FLUSH] = held / in->drain_bps;
    decompose(&p, compute, front_term, busy_disk > serial_part ? TERM_WRITE : TERM_FLUSH);
    return p;
}

/* 0 for the CPU's terms, 1 reading, 2 writing: the verdict each would give. */
static int term_kind(wbm_term_t t)
{
    return t == TERM_COMPUTE || t == TERM_IO_CPU ? 0 : t == TERM_READ ? 1 : 2;
}

wbm_term_t wbm_decide(const prediction_t *p, double tol, wbm_term_t *second)
{
    *second = TERM_COUNT;
    double t = p->seconds;
    if (!(t > 0.0))
        return TERM_COUNT;
    if (t <= p->own_s[TERM_COMPUTE] / (1.0 - tol) * (1.0 + 1e-12)) {
        /* At CPU speed: balanced with a read or an overlapped write that takes as long. */
        double best = (1.0 - tol) * t;
        for (wbm_term_t k = TERM_READ; k <= TERM_WRITE; k++)
            if (p->own_s[k] >= best) {
                best = p->own_s[k];
                *second = k;
            }
        return TERM_COMPUTE;
    }
    /* Held back. The cores (with the I/O path's work), reading and overlapped writing run
     * side by side: the longest of them (by its own time) leads that group, and the group
     * adds the sum of its parts; the flush adds its tail after it. */
    wbm_term_t leader = TERM_IO_CPU;
    for (wbm_term_t k = TERM_READ; k <= TERM_WRITE; k++)
        if (p->own_s[k] > p->own_s[leader])
            leader = k;
    double group = p->part_s[TERM_IO_CPU] + p->part_s[TERM_READ] + p->part_s[TERM_WRITE];
    double flush = p->part_s[TERM_FLUSH];
    if (flush > group) {
        if (term_kind(leader) != term_kind(TERM_FLUSH) && group >= (1.0 - tol) * flush)
            *second = leader;
        return TERM_FLUSH;
    }
    /* A side-by-side term of another kind whose own time is within tol of the leader's. */
    double best = (1.0 - tol) * p->own_s[leader];
    for (wbm_term_t k = TERM_IO_CPU; k <= TERM_WRITE; k++)
        if (k != leader && term_kind(k) != term_kind(leader) && p->own_s[k] >= best) {
            best = p->own_s[k];
            *second = k;
        }
    if (*second == TERM_COUNT && term_kind(leader) != term_kind(TERM_FLUSH) && flush > 0.0 &&
        flush >= (1.0 - tol) * group)
        *second = TERM_FLUSH;
    return leader;
}

/* The field of in that which names. */
static double *speed_field(wbm_inputs_t *in, wbm_speed_t which)
{
    switch (which) {
    case WBM_SPEED_PACE: return &in->pace_bps;
    case WBM_SPEED_READ: return &in->read_bps;
    default: return &in->drain_bps;
    }
}

double wbm_speed_for_seconds(const wbm_inputs_t *in, wbm_speed_t which,
                             double seconds)
{
    /* wbm_predict's time falls as any of its speeds grows: bisect on log(speed). */
    wbm_inputs_t probe = *in;
    double *speed = speed_field(&probe, which);
    *speed = INFINITY;
    prediction_t fastest = wbm_predict(&probe);
    if (fastest.regime == WBM_UNKNOWN || !(seconds > fastest.seconds * (1.0 + 1e-9)))
        return NAN;
    double lo = 1.0, hi = 1e15; /* bytes per second */
    *speed = hi;
    if (wbm_predict(&probe).seconds > seconds)
        return NAN;
    for (int i = 0; i < 200 && hi / lo > 1.0 + 1e-9; i++) {
        double mid = sqrt(lo * hi);
        *speed = mid;
        if (wbm_predict(&probe).seconds > seconds)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}
