#include "report/cause_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/analysis_text.h"
#include "report/strbuf.h"

const char *cause_words(const analysis_series_t *s, const analysis_point_t *p,
                        const analysis_verdict_t *v, double tolerance, char *buf, size_t cap)
{
    const cause_evidence_t *e = &v->evidence;
    char r1[32], r2[32], r3[32];
    buf[0] = '\0';
    strbuf_appendf(buf, cap, "%s: ", verdict_name(v->verdict));
    double share = v->bytes_per_s / v->cpu_ceiling_bps;
    switch (v->cause) {
    case CAUSE_COMPUTE:
        if (s->is_mem)
            strbuf_appendf(buf, cap, "this is the CPU ceiling (output counted in memory)");
        else
            strbuf_appendf(buf, cap, "at %.0f%% of the CPU ceiling (within the %.0f%% tolerance)",
                   100.0 * share, 100.0 * tolerance);
        break;
    case CAUSE_CORES_SATURATED:
        strbuf_appendf(buf, cap, "the cores were saturated (idle %.0f%% of the run, system %.0f%%): "
               "writing to this volume costs CPU (page-cache copies, file system, block "
               "layer) that the memory target does not pay, which explains the %.0f%% gap",
               100.0 * e->cpu_idle_share, 100.0 * e->cpu_sys_share, 100.0 * (1.0 - share));
        break;
    case CAUSE_CPU_CONTENTION:
        strbuf_appendf(buf, cap, "the worker threads needed %.0f%% more busy time than in memory "
               "(contended cores), which explains the %.0f%% gap",
               100.0 * e->busy_growth, 100.0 * (1.0 - share));
        break;
    case CAUSE_FLUSH_TAIL:
        strbuf_appendf(buf, cap, "the output waited in the page cache; its flush took %.2f s of the "
               "%.2f s run (%.0f%% of the %.2f s gap to the CPU ceiling)",
               e->flush_s, e->seconds, 100.0 * v->flush_share, v->gap_s);
        break;
    case CAUSE_WRITE_THROUGHPUT:
        strbuf_appendf(buf, cap, "the volume takes %s of output, %s of input at this ratio, below the "
               "CPU's %s",
               analysis_format_rate(s->write_speed_bps, r1, sizeof r1),
               analysis_format_rate(v->write_ceiling_bps, r2, sizeof r2),
               analysis_format_rate(v->cpu_ceiling_bps, r3, sizeof r3));
        break;
    case CAUSE_READ_THROUGHPUT:
        if (s->decompress)
            strbuf_appendf(buf, cap, "the volume reads the archive at %s, %s of restored data, "
                   "below the CPU's %s", analysis_format_rate(s->read_bps, r1, sizeof r1),
                   analysis_format_rate(v->read_ceiling_bps, r2, sizeof r2),
                   analysis_format_rate(v->cpu_ceiling_bps, r3, sizeof r3));
        else
            strbuf_appendf(buf, cap, "reading the input from %s at %s is below the CPU's %s",
                   s->read_from[0] ? s->read_from : "its volume",
                   analysis_format_rate(v->read_ceiling_bps, r1, sizeof r1),
                   analysis_format_rate(v->cpu_ceiling_bps, r2, sizeof r2));
        break;
    default:
        strbuf_appendf(buf, cap, "at %.0f%% of the CPU ceiling, and neither the volume's ceilings, a "
               "flush tail nor the CPU telemetry accounts for the gap", 100.0 * share);
        if (p->noisy)
            strbuf_appendf(buf, cap, "; the repetitions spread %.0f%%, so rerun with more --reps",
                   100.0 * (p->seconds_max - p->seconds_min) / p->seconds);
        else if (isnan(e->cpu_idle_share) && isnan(e->flush_s))
            strbuf_appendf(buf, cap, "; the runs carry no telemetry to look further");
        break;
    }
    if (!isnan(e->dev_busy_share) && !s->is_mem)
        strbuf_appendf(buf, cap, "; device busy %.0f%% of the run%s", 100.0 * e->dev_busy_share,
               v->device_disagrees ? " (which disagrees)" : "");
    return buf;
}

const char *prediction_words(const analysis_point_t *p, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!(p->predicted_seconds > 0.0))
        return buf;
    char how[96];
    switch (p->predicted_regime) {
    case PREDICT_SERIAL:
        snprintf(how, sizeof how, "serial: compression, then a %.2f s flush",
                 p->predicted_tail_s);
        break;
    case PREDICT_MIXED:
        snprintf(how, sizeof how, "mixed: write-back during the run, a %.2f s flush after",
                 p->predicted_tail_s);
        break;
    case PREDICT_OVERLAPPED:
        snprintf(how, sizeof how, "overlapped: the disk writes while the cores compress");
        break;
    default:
        snprintf(how, sizeof how, "CPU only: nothing waits for a disk");
        break;
    }
    snprintf(buf, cap, "predicted %.3g s (%s), measured %.3g s, %+.0f%%", p->predicted_seconds,
             how, p->seconds, 100.0 * (p->predicted_seconds - p->seconds) / p->seconds);
    return buf;
}
