#include "model/predict.h"

#include <math.h>
#include <string.h>

predict_sync_t predict_sync_from_name(const char *name)
{
    if (name != NULL && strcmp(name, "direct") == 0)
        return PREDICT_SYNC_DIRECT;
    if (name != NULL && strcmp(name, "none") == 0)
        return PREDICT_SYNC_NONE;
    return PREDICT_SYNC_FSYNC;
}

const char *predict_regime_name(predict_regime_t regime)
{
    switch (regime) {
    case PREDICT_CPU_ONLY: return "cpu-only";
    case PREDICT_READ: return "read";
    case PREDICT_OVERLAPPED: return "overlapped";
    case PREDICT_SERIAL: return "serial";
    case PREDICT_MIXED: return "mixed";
    default: return "unknown";
    }
}

/* The output the page cache holds before background write-back starts (the output
 * arrives at out / compute bytes per second): the background threshold; less when the
 * run outlasts the flusher's first periodic wake-up, which starts writing a device whose
 * dirty pages exceed its share of that threshold (a share the kernel sets from the
 * device's recent write-out, unknown here: taken as passed by then), or the dirty-expiry
 * age. Unknown thresholds (data from elsewhere): none of it, the classic overlapped view. */
static double cached_bytes(const predict_inputs_t *in, double compute_s)
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

prediction_t predict_run(const predict_inputs_t *in)
{
    prediction_t p = {PREDICT_UNKNOWN, NAN, NAN, NAN, NAN};
    if (!(in->cpu_s > 0.0) || !(in->input_bytes > 0.0))
        return p;
    double compute = in->cpu_s;
    if (in->read_bps > 0.0)
        compute = fmax(compute, in->input_bytes / in->read_bps);
    double out = in->output_bytes > 0.0 ? in->output_bytes : in->input_bytes;
    if (in->cpu_work_s > 0.0 && in->io_cpu_per_byte >= 0.0 && in->cpus >= 1.0)
        compute = fmax(compute, (in->cpu_work_s + out * in->io_cpu_per_byte) / in->cpus);
    if (in->pace_bps > 0.0)
        compute = fmax(compute, out / in->pace_bps);
    p.compute_s = compute;
    if (isinf(in->drain_bps)) {
        p.regime = compute > in->cpu_s * (1.0 + 1e-9) && in->read_bps > 0.0 &&
                           in->input_bytes / in->read_bps >= compute * (1.0 - 1e-9)
                       ? PREDICT_READ
                       : PREDICT_CPU_ONLY;
        p.seconds = compute;
        p.tail_s = 0.0;
        p.cached_bytes = 0.0;
        return p;
    }
    if (!(in->drain_bps > 0.0))
        return p;
    double write_s = out / in->drain_bps;
    if (in->sync == PREDICT_SYNC_DIRECT) {
        p.regime = PREDICT_OVERLAPPED;
        p.seconds = fmax(compute, write_s);
        p.tail_s = 0.0;
        p.cached_bytes = 0.0;
        return p;
    }
    predict_inputs_t sized = *in;
    sized.output_bytes = out;
    double held = cached_bytes(&sized, compute);
    p.cached_bytes = held;
    if (in->sync == PREDICT_SYNC_NONE) {
        /* No fsync: the run ends with the last write unless writers were throttled at the
         * dirty threshold; what is still dirty then is written after the run. */
        double limit = in->dirty_bytes >= 0.0 ? in->dirty_bytes : INFINITY;
        double start = held < out ? compute * held / out : compute;
        double end = out > limit ? fmax(compute, start + (out - limit) / in->drain_bps) : compute;
        p.regime = out > limit ? PREDICT_MIXED : PREDICT_CPU_ONLY;
        p.seconds = end;
        p.tail_s = 0.0;
        return p;
    }
    if (held >= out) {
        p.regime = PREDICT_SERIAL;
        p.seconds = compute + write_s;
        p.tail_s = write_s;
        return p;
    }
    double serial_part = compute + held / in->drain_bps;
    double busy_disk = compute * held / out + write_s;
    p.regime = held > 0.0 ? PREDICT_MIXED : PREDICT_OVERLAPPED;
    p.seconds = fmax(serial_part, busy_disk);
    p.tail_s = p.seconds - compute;
    return p;
}

double predict_drain_for_seconds(const predict_inputs_t *in, double seconds)
{
    /* predict_run's time falls as drain_bps grows: bisect on log(drain). */
    predict_inputs_t probe = *in;
    probe.drain_bps = INFINITY;
    prediction_t fastest = predict_run(&probe);
    if (fastest.regime == PREDICT_UNKNOWN || !(seconds > fastest.seconds * (1.0 + 1e-9)))
        return NAN;
    double lo = 1.0, hi = 1e15; /* bytes per second */
    probe.drain_bps = hi;
    if (predict_run(&probe).seconds > seconds)
        return NAN;
    for (int i = 0; i < 200 && hi / lo > 1.0 + 1e-9; i++) {
        double mid = sqrt(lo * hi);
        probe.drain_bps = mid;
        if (predict_run(&probe).seconds > seconds)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}
