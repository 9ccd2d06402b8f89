/* cause_text.c - a verdict and its cause in words, with the figures it rests on
 * (cause_text.h). */
#include "report/cause_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/analysis_explain.h"
#include "report/figure_text.h"
#include "report/strbuf.h"

const char *write_speed_kind(const analysis_series_t *s)
{
    return (s->drain_source != NULL && strncmp(s->drain_source, "emulated-cap", 12) == 0) ||
                   (s->rate_cap_bps > 0.0 && !(s->write_speed_bps < s->rate_cap_bps))
               ? "emulated"
               : "probed";
}

const char *verdict_label(const analysis_verdict_t *v, char *buf, size_t cap)
{
    /* An unexplained point says what its check found, not "unknown". */
    static const char *const misses[] = {
        [MISS_NONE] = "unknown", [MISS_MODEL] = "the model missed",
        [MISS_BEYOND_VOLUME] = "faster than the volume", [MISS_NO_FIGURE] = "no figure fits",
        [MISS_UNPROBED] = "speed not probed",
    };
    if (v->verdict == VERDICT_UNEXPLAINED)
        snprintf(buf, cap, "unexplained (%s)", misses[v->miss]);
    else if (v->verdict == VERDICT_NOT_JUDGED)
        snprintf(buf, cap, "not judged (runs too imprecise)");
    else if (v->verdict == VERDICT_BALANCED)
        snprintf(buf, cap, "balanced (%s + %s%s)", cause_name(v->cause),
                 cause_name(v->second_cause), v->within_noise ? ", within the noise" : "");
    else
        snprintf(buf, cap, "%s (%s)", verdict_name(v->verdict), cause_name(v->cause));
    return buf;
}

const char *cause_plain_words(const analysis_series_t *s, verdict_cause_t cause, char *buf,
                              size_t cap)
{
    char r1[32];
    switch (cause) {
    case CAUSE_COMPUTE:
        snprintf(buf, cap, s->decompress ? "decompressing" : "compressing");
        break;
    case CAUSE_CORES_SATURATED:
        snprintf(buf, cap, "the CPU work of writing (page cache, file system, block layer) on "
                 "cores the %s already fill", s->decompress ? "decoders" : "compressors");
        break;
    case CAUSE_READ_THROUGHPUT:
        if (!(s->read_bps > 0.0))
            snprintf(buf, cap, "reading the %s (its speed not probed)",
                     s->decompress ? "archive" : "input");
        else
            snprintf(buf, cap, "reading the %s at %s%s", s->decompress ? "archive" : "input",
                     analysis_format_rate(s->read_bps, r1, sizeof r1),
                     s->read_cap_bps > 0.0 ? " (an emulated read cap)" : "");
        break;
    case CAUSE_WRITE_THROUGHPUT:
        if (s->rate_cap_bps > 0.0 && !(s->drain_bps < s->rate_cap_bps))
            snprintf(buf, cap, "the emulated %s write cap", analysis_format_rate(
                         s->rate_cap_bps, r1, sizeof r1));
        else if (!(s->write_speed_bps > 0.0))
            snprintf(buf, cap, "the disk writing%s (its speed not probed)",
                     strcmp(s->sync, "direct") == 0 ? " (O_DIRECT)" : " during the run");
        else
            snprintf(buf, cap, "the disk writing at %s%s",
                     analysis_format_rate(s->write_speed_bps, r1, sizeof r1),
                     strcmp(s->sync, "direct") == 0 ? " (O_DIRECT)" : " during the run");
        break;
    case CAUSE_FLUSH_TAIL:
        if (s->drain_bps > 0.0 && isfinite(s->drain_bps))
            snprintf(buf, cap, "the flush of the page cache at the end (the disk drains %s)",
                     analysis_format_rate(s->drain_bps, r1, sizeof r1));
        else
            snprintf(buf, cap, "the flush of the page cache at the end (measured in the "
                     "runs; the disk's speed not probed)");
        break;
    case CAUSE_CPU_CONTENTION:
        snprintf(buf, cap, "contended cores (the workers needed more CPU time than in memory)");
        break;
    default:
        snprintf(buf, cap, "nothing the model knows");
        break;
    }
    return buf;
}

/* The terms' names in the decomposition ("compute 1.27 s + writing 0.24 s"). */
static const char *const term_short[TERM_COUNT] = {
    [TERM_COMPUTE] = "compute", [TERM_IO_CPU] = "CPU cost of writing",
    [TERM_READ] = "reading", [TERM_WRITE] = "waiting for the disk",
    [TERM_FLUSH] = "flush",
};

const char *decomposition_words(const cause_evidence_t *e, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!(e->predicted_s > 0.0))
        return buf;
    strbuf_appendf(buf, cap, "%.3g s = ", e->predicted_s);
    size_t shown = 0;
    for (int t = 0; t < TERM_COUNT; t++)
        if (t == TERM_COMPUTE || e->part_s[t] >= 0.0005)
            strbuf_appendf(buf, cap, "%s%s %.3g s", shown++ ? " + " : "", term_short[t],
                           e->part_s[t]);
    return buf;
}

/* Appends, where the point's runs paired with memory's, its time at memory's CPU speed. */
static void paired_words(const cause_evidence_t *e, char *buf, size_t cap)
{
    if (e->paired_s > 0.0)
        strbuf_appendf(buf, cap, "; %.3g s at memory's CPU speed, from %zu run%s paired with "
                       "memory's in the same blocks", e->paired_s, e->pairs,
                       e->pairs == 1 ? "" : "s");
}

/* Appends, where p's write-back context is unknown, the model's interval and the end the
 * measured time is nearer. */
static void interval_words(const analysis_series_t *s, const analysis_point_t *p, char *buf,
                           size_t cap)
{
    if (!(p->predicted_low_s > 0.0 && p->predicted_high_s > 0.0))
        return;
    bool late = fabs(p->seconds - p->predicted_high_s) < fabs(p->seconds - p->predicted_low_s);
    const char *inside = p->seconds >= p->predicted_low_s && p->seconds <= p->predicted_high_s
                             ? "inside it" : "outside it";
    if (explain_writeback_unknown(s, p))
        strbuf_appendf(buf, cap, "; the write-back context is unknown (no sync mode or "
                       "page-cache thresholds recorded), so the model gives %.3g-%.3g s, from "
                       "the writes overlapping the compression to the writes following it, and "
                       "the measured %.3g s is %s, nearer the %s end", p->predicted_low_s,
                       p->predicted_high_s, p->seconds, inside, late ? "serial" : "overlapped");
    else
        strbuf_appendf(buf, cap, "; the run outlasts the flusher's %.0f s period, whose wake-up "
                       "starts write-back only past this device's share of the background "
                       "threshold (set by every device's recent writes, unknown here), so the "
                       "model gives %.3g-%.3g s, from write-back at that wake-up to none before "
                       "the threshold or the dirty expiry, and the measured %.3g s is %s, "
                       "nearer the %s end", p->dirty_writeback_s, p->predicted_low_s,
                       p->predicted_high_s, p->seconds, inside, late ? "late" : "early");
}

/* What an explanation without a model checked, and that none of it accounts for the
 * gap: "checked: the flush (...), ..., and none accounts for the gap". */
static void checked_words(const cause_evidence_t *e, char *buf, size_t cap)
{
    strbuf_appendf(buf, cap, "checked: the flush (%s), the volume's ceilings (%s), the CPU "
                   "idle share (%s) and the workers' busy time (%s), and none accounts for "
                   "the gap",
                   isnan(e->flush_s) ? "not recorded" : "under half the gap",
                   isnan(e->write_ceiling_bps) && isnan(e->read_ceiling_bps)
                       ? "unknown" : "not below the CPU rate",
                   isnan(e->cpu_idle_share) ? "not recorded" : "not saturated",
                   isnan(e->busy_growth) ? "not recorded" : "not above memory's");
}

void cause_miss_words(const analysis_series_t *s, const analysis_point_t *p,
                       const analysis_verdict_t *v, double tolerance, char *buf, size_t cap)
{
    const cause_evidence_t *e = &v->evidence;
    char r1[32], r2[32], parts[256];
    switch (v->miss) {
    case MISS_MODEL: {
        double judged = e->paired_s > 0.0 ? e->paired_s : p->seconds;
        decomposition_words(e, parts, sizeof parts);
        strbuf_appendf(buf, cap, "measured %.3g s", p->seconds);
        paired_words(e, buf, cap);
        strbuf_appendf(buf, cap, ", but the model predicts %s (%+.0f%%, more than the %.0f%% "
                       "tolerance%s), so no cause is claimed", parts,
                       100.0 * (e->predicted_s - judged) / judged, 100.0 * tolerance,
                       e->noise_s > 0.0 ? " and the runs' own spread" : "");
        interval_words(s, p, buf, cap);
        break;
    }
    case MISS_BEYOND_VOLUME:
        strbuf_appendf(buf, cap, "wrote %s, faster than the volume's %s %s; one of the "
                       "figures is wrong (the probe, the cap, or a page cache that held the "
                       "output), so no cause is claimed",
                       analysis_format_rate(analysis_written_bytes(s, p) / p->seconds, r1,
                                            sizeof r1),
                       write_speed_kind(s),
                       analysis_format_rate(s->write_speed_bps, r2, sizeof r2));
        break;
    case MISS_UNPROBED:
        strbuf_appendf(buf, cap, "measured %.3g s", p->seconds);
        paired_words(e, buf, cap);
        if (!v->from_model) { /* no model to predict from: a table from elsewhere */
            strbuf_appendf(buf, cap, ": the volume adds %.0f%% to the %s time, and its speed "
                           "was not measured, so nothing says what it costs; ",
                           100.0 * v->excess,
                           v->cpu_ceiling_source == CEILING_ESTIMATED ? "fastest target's"
                                                                      : "CPU's");
            checked_words(e, buf, cap);
            strbuf_appendf(buf, cap, ", so no cause is claimed: probe the volume (chokepoint "
                           "probe) to know");
        } else
            strbuf_appendf(buf, cap, ": the volume adds %.0f%% to the CPU's time, and its "
                           "speed was not probed, so the model cannot say what it costs; the "
                           "run's accounting shows its threads blocked %s, under half of "
                           "that, so no cause is claimed: probe the volume (chokepoint probe) "
                           "to know",
                           100.0 * v->excess,
                           isnan(e->io_wait_s) ? "for an unknown time (delay accounting off)"
                                               : "only briefly");
        break;
    default:
        strbuf_appendf(buf, cap, "at %.0f%% of the CPU rate; with no prediction to compare "
                       "with, ", 100.0 * v->bytes_per_s / v->cpu_ceiling_bps);
        checked_words(e, buf, cap);
        break;
    }
    if (p->flags & POINT_CPU_SPEED_MOVED)
        strbuf_appendf(buf, cap, "; its runs spent %.0f%% %s user CPU time than memory's on "
                       "the same work, so the CPU's own speed moved between them (another "
                       "load, thermal limits): rerun on a quiet machine",
                       100.0 * fabs(e->cpu_time_shift),
                       e->cpu_time_shift > 0.0 ? "more" : "less");
    if (p->n == 1)
        strbuf_appendf(buf, cap, "; it rests on one run, so rerun with --reps 3 or more");
    else if (p->noisy)
        strbuf_appendf(buf, cap, "; the repetitions spread %.0f%%, so rerun with more --reps",
                       100.0 * (p->seconds_max - p->seconds_min) / p->seconds);
}

const char *cause_words(const analysis_series_t *s, const analysis_point_t *p,
                        const analysis_verdict_t *v, double tolerance, char *buf, size_t cap)
{
    const cause_evidence_t *e = &v->evidence;
    char what[160], other[160], label[96], parts[256];
    buf[0] = '\0';
    strbuf_appendf(buf, cap, "%s: ", verdict_label(v, label, sizeof label));
    double share = v->bytes_per_s / v->cpu_ceiling_bps;
    if (s->cpu_ceiling) {
        strbuf_appendf(buf, cap, "this is the CPU ceiling (output counted in memory)");
        return buf;
    }
    if (v->verdict == VERDICT_NOT_JUDGED) {
        double judged = e->paired_s > 0.0 ? e->paired_s : p->seconds;
        decomposition_words(e, parts, sizeof parts);
        strbuf_appendf(buf, cap, "measured %.3g s", p->seconds);
        paired_words(e, buf, cap);
        strbuf_appendf(buf, cap, "; the model predicts %s (%+.0f%%), but the study's "
                       "repetitions spread too much to tell a difference of the %.0f%% "
                       "tolerance from noise (the answer says what would)", parts,
                       100.0 * (e->predicted_s - judged) / judged, 100.0 * tolerance);
    } else if (v->cause == CAUSE_UNKNOWN) {
        cause_miss_words(s, p, v, tolerance, buf, cap);
    } else if (v->from_model) {
        cause_plain_words(s, v->cause, what, sizeof what);
        decomposition_words(e, parts, sizeof parts);
        if (v->verdict == VERDICT_BALANCED)
            strbuf_appendf(buf, cap, "%s and %s take about as long (within %.0f%%)", what,
                           cause_plain_words(s, v->second_cause, other, sizeof other),
                           100.0 * tolerance);
        else if (v->cause == CAUSE_COMPUTE && v->volume_cannot_matter)
            strbuf_appendf(buf, cap, "%+.0f%% against the model's time, but the volume adds "
                           "%.2f s, under the %.0f%% tolerance even at half its speed, so it "
                           "cannot be what limits; the difference is the cores': %s",
                           100.0 * v->excess, e->predicted_s - e->part_s[TERM_COMPUTE],
                           100.0 * tolerance,
                           !isnan(e->cpu_time_shift) && fabs(e->cpu_time_shift) > tolerance
                               ? "the CPU's speed moved"
                           : v->excess > 0.0
                               ? "not in the runs' user CPU time (another load took the "
                                 "cores, or a slower spell of them at full load)"
                               : "memory's runs were the slower (another load, or a slower "
                                 "spell of the cores, during them)");
        else if (v->speed_unprobed)
            strbuf_appendf(buf, cap, "the volume adds %.0f%% to the model's time, and its "
                           "speed was not probed, so the model cannot say what it costs; %s",
                           100.0 * v->excess,
                           v->cause == CAUSE_READ_THROUGHPUT
                               ? "the run's threads were blocked reading for most of that"
                               : "the run's threads were blocked writing for most of that");
        else if (v->cause == CAUSE_COMPUTE)
            strbuf_appendf(buf, cap, "at %.0f%% of the CPU rate: the volume adds less than "
                           "the %.0f%% tolerance", 100.0 * share, 100.0 * tolerance);
        else
            strbuf_appendf(buf, cap, "%s sets the time", what);
        strbuf_appendf(buf, cap, "; the model: %s (measured %.3g s", parts, p->seconds);
        paired_words(e, buf, cap);
        strbuf_appendf(buf, cap, ")");
        interval_words(s, p, buf, cap);
    } else {
        /* Decided without a prediction: the ceilings and the run's telemetry. */
        switch (v->cause) {
        case CAUSE_COMPUTE:
            strbuf_appendf(buf, cap, "at %.0f%% of the CPU rate (within the %.0f%% tolerance)",
                           100.0 * share, 100.0 * tolerance);
            break;
        case CAUSE_FLUSH_TAIL:
            strbuf_appendf(buf, cap, "the output waited in the page cache; its flush took "
                           "%.2f s of the %.2f s run (%.0f%% of the %.2f s gap to the CPU rate)",
                           e->flush_s, e->seconds, 100.0 * v->flush_share, v->gap_s);
            break;
        case CAUSE_CORES_SATURATED:
            strbuf_appendf(buf, cap, "the cores were saturated (idle %.0f%% of the run, system "
                           "%.0f%%): writing costs CPU that the memory target does not pay",
                           100.0 * e->cpu_idle_share, 100.0 * e->cpu_sys_share);
            break;
        default:
            strbuf_appendf(buf, cap, "%s, below the CPU's rate (no prediction: the volume's "
                           "drain rate is unknown)",
                           cause_plain_words(s, v->cause, what, sizeof what));
            break;
        }
    }
    if (!isnan(e->dev_busy_share))
        strbuf_appendf(buf, cap, "; device busy %.0f%% of the run%s", 100.0 * e->dev_busy_share,
                       v->device_disagrees ? " (which disagrees)" : "");
    accounting_words(v, buf, cap);
    return buf;
}

void accounting_words(const analysis_verdict_t *v, char *buf, size_t cap)
{
    const cause_evidence_t *e = &v->evidence;
    if (!(v->gap_s > 0.0))
        return;
    bool split = !isnan(e->io_read_wait_s);
    const char *on = split ? "" : "I/O ";
    double reads = split ? e->io_read_wait_s : e->io_wait_s;
    double writes = split ? e->io_wait_s - e->io_read_wait_s : e->io_wait_s;
    const char *disagrees = v->accounting_disagrees ? " (which disagrees)" : "";
    switch (v->cause) {
    case CAUSE_WRITE_THROUGHPUT:
    case CAUSE_FLUSH_TAIL:
        if (!isnan(writes) && !e->io_paced)
            strbuf_appendf(buf, cap, "; %s blocked on %swrites %.2f s of the %.2f s gap%s",
                           split ? "its threads were" : "the machine was", on, writes,
                           v->gap_s, disagrees);
        break;
    case CAUSE_READ_THROUGHPUT:
        if (!isnan(reads) && !e->io_paced)
            strbuf_appendf(buf, cap, "; %s blocked on %sreads %.2f s of the %.2f s gap%s",
                           split ? "its reader was" : "the machine was", on, reads, v->gap_s,
                           disagrees);
        break;
    case CAUSE_CORES_SATURATED:
        if (!isnan(e->cpu_wait_s))
            strbuf_appendf(buf, cap, "; its threads waited for a core %.2f s of the %.2f s "
                           "gap%s", e->cpu_wait_s, v->gap_s, disagrees);
        break;
    default: break;
    }
}

const char *time_split_words(const analysis_point_t *p, char *buf, size_t cap)
{
    buf[0] = '\0';
    analysis_path_split_t path;
    if (analysis_path_split(p, &path))
        strbuf_appendf(buf, cap, "the %.3f s of its median run waited for: writes (the disk) "
                       "%.2f s, reads (the disk) %.2f s, the codec %.2f s, a core %.2f s, the "
                       "reader or writer on a core %.2f s, none %.2f s", path.seconds,
                       path.write_blocked_s, path.read_blocked_s, path.compute_s,
                       path.core_wait_s, path.io_cpu_s, path.other_s);
    analysis_time_split_t t;
    if (analysis_time_split(p, &t))
        strbuf_appendf(buf, cap, "%swhere the %.3f s went (per thread, over its %d): on a core "
                       "%.2f s, waiting for a core %.2f s, blocked reading %.2f s, blocked "
                       "writing %.2f s, waiting for another stage %.2f s", buf[0] ? "; " : "",
                       t.seconds, t.threads, t.on_core_s, t.core_wait_s, t.read_wait_s,
                       t.write_wait_s, t.other_s);
    return buf;
}

const char *prediction_words(const analysis_point_t *p, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!(p->predicted_seconds > 0.0))
        return buf;
    char how[96];
    switch (p->predicted_regime) {
    case WBM_SERIAL:
        snprintf(how, sizeof how, "serial: compression, then a %.2f s flush",
                 p->predicted_tail_s);
        break;
    case WBM_MIXED:
        snprintf(how, sizeof how, "mixed: write-back during the run, a %.2f s flush after",
                 p->predicted_tail_s);
        break;
    case WBM_OVERLAPPED:
        snprintf(how, sizeof how, "overlapped: the disk writes while the cores compress");
        break;
    case WBM_READ:
        snprintf(how, sizeof how, "reading: the input arrives slower than the cores work");
        break;
    default:
        snprintf(how, sizeof how, "CPU only: nothing waits for a disk");
        break;
    }
    snprintf(buf, cap, "predicted %.3g s (%s), measured %.3g s, %+.0f%%", p->predicted_seconds,
             how, p->seconds, 100.0 * (p->predicted_seconds - p->seconds) / p->seconds);
    return buf;
}
