/* answer_text.c - the answer reports open with: a sentence per target, the decision
 * table and the notes on figures that look wrong (answer_text.h). */
#include "report/answer_text.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "report/figure_text.h"
#include "report/cause_text.h"
#include "report/decision_text.h"
#include "report/doc_writer.h"
#include "report/strbuf.h"

/* "thread" or "threads", to follow the count n. */
static const char *threads_word(int n)
{
    return n == 1 ? "thread" : "threads";
}

/* The memory target's time for point p: its input at the CPU ceiling's rate. */
static double cpu_seconds(const analysis_point_t *p, const analysis_verdict_t *v)
{
    return p->input_bytes / v->cpu_ceiling_bps;
}

/* "12% slower than", "as fast as", "3% faster than". */
static void slower_words(double seconds, double reference, char *buf, size_t cap)
{
    double d = seconds / reference - 1.0;
    if (!isfinite(d))
        snprintf(buf, cap, "compared with");
    else if (fabs(d) < 0.005)
        snprintf(buf, cap, "as fast as");
    else
        snprintf(buf, cap, "%.0f%% %s than", 100.0 * fabs(d), d > 0 ? "slower" : "faster");
}

/* The same verdict, and for a balanced one the same two terms. */
static bool same_verdict(const analysis_verdict_t *x, const analysis_verdict_t *y)
{
    return x->verdict == y->verdict &&
           (x->verdict != VERDICT_BALANCED ||
            (x->cause == y->cause && x->second_cause == y->second_cause));
}

/* Where the last verdict holds: "at every count measured (1..8)", "from 3 threads
 * on (measured 1..8)", "at the largest count measured", "at the only count measured". */
static void reach_words(const analysis_series_t *s, char *buf, size_t cap)
{
    size_t n = s->npoints, k = n - 1;
    while (k > 0 && same_verdict(&s->verdicts[k - 1], &s->verdicts[n - 1]))
        k--;
    int top = s->points[n - 1].threads;
    if (n == 1)
        snprintf(buf, cap, "at the only count measured");
    else if (k == 0)
        snprintf(buf, cap, "at every count measured (%d..%d)", s->points[0].threads, top);
    else if (k == n - 1)
        snprintf(buf, cap, "at the largest count");
    else
        snprintf(buf, cap, "from %d %s on (measured %d..%d)", s->points[k].threads,
                 threads_word(s->points[k].threads), s->points[0].threads, top);
}

/* What would help when no faster disk brings the job within the tolerance: the term that
 * remains, and the options that act on it. */
static void blocked_words(const analysis_t *a, const analysis_series_t *s, char *buf,
                          size_t cap)
{
    char what[160];
    strbuf_appendf(buf, cap, "no faster disk brings it within %.0f%% of memory",
                   100.0 * a->tolerance);
    if (s->whatif_blocked_by < TERM_COUNT)
        strbuf_appendf(buf, cap, ": %s remains", cause_plain_words(
                           s, cause_of_term(s->whatif_blocked_by), what, sizeof what));
    if (s->whatif_blocked_by == TERM_IO_CPU)
        strbuf_appendf(buf, cap, " (O_DIRECT writes with --sync direct, fewer threads or "
                       "more cores would help)");
    else if (s->whatif_blocked_by == TERM_READ)
        strbuf_appendf(buf, cap, " (a faster input volume, or the input on another volume "
                       "with --layout split)");
}

/* The what-if's answer: the speed that would do, or what blocks it; "" when none was
 * asked (the volume does not limit the job, or the model does not explain it). */
static void whatif_words(const analysis_t *a, const analysis_series_t *s, char *buf,
                         size_t cap)
{
    char r1[32];
    if (s->whatif_threads <= 0)
        return;
    if (isfinite(s->whatif_seconds)) {
        if (s->whatif_write_bps > 0.0)
            strbuf_appendf(buf, cap, "a disk that writes %s would bring it down to %.3g s",
                           analysis_format_rate(s->whatif_write_bps, r1, sizeof r1),
                           s->whatif_seconds);
        if (s->whatif_read_bps > 0.0)
            strbuf_appendf(buf, cap, "%sa volume that reads %s would bring it down to %.3g s",
                           s->whatif_write_bps > 0.0 ? " together with " : "",
                           analysis_format_rate(s->whatif_read_bps, r1, sizeof r1),
                           s->whatif_seconds);
    } else {
        blocked_words(a, s, buf, cap);
    }
    if (s->whatif_direct_bps > 0.0 && !(s->whatif_direct_bps >= s->whatif_write_bps))
        strbuf_appendf(buf, cap, "; with O_DIRECT writes (--sync direct), which overlap the "
                       "compression, a disk writing %s would do",
                       analysis_format_rate(s->whatif_direct_bps, r1, sizeof r1));
}

const char *answer_whatif(const analysis_t *a, const analysis_series_t *s, char *buf,
                          size_t cap)
{
    buf[0] = '\0';
    if (s->cpu_ceiling || !(s->write_speed_bps > 0.0))
        return buf;
    const analysis_point_t *p = &s->points[s->npoints - 1];
    const analysis_verdict_t *v = &s->verdicts[s->npoints - 1];
    char have[32], have_in[32], need[32];
    double ratio = isfinite(s->output_ratio) ? s->output_ratio : 1.0;
    if (isinf(s->write_speed_bps))
        strbuf_appendf(buf, cap, "this volume is RAM (no disk speed limits it)");
    else
        strbuf_appendf(buf, cap, "this volume %s %s of output (%s of input at this job's ratio %.2f)",
               s->rate_cap_bps > 0.0 ? "is capped at" : "writes",
               analysis_format_rate(s->write_speed_bps, have, sizeof have),
               analysis_format_rate(s->write_speed_bps / ratio, have_in, sizeof have_in), ratio);
    strbuf_appendf(buf, cap, "; at %d %s the job needs %s of writes to keep up with the "
                   "cores while they compress", p->threads, threads_word(p->threads),
                   analysis_format_rate(v->cpu_ceiling_bps * ratio, need, sizeof need));
    if (s->whatif_threads > 0) {
        strbuf_appendf(buf, cap, "; ");
        whatif_words(a, s, buf, cap);
        strbuf_appendf(buf, cap, " (within %.0f%% of the CPU's %.3g s; measured here: %.3g s)",
                       100.0 * a->tolerance, cpu_seconds(p, v), p->seconds);
        if (strcmp(s->sync, "fsync") == 0 && s->whatif_write_bps > 2.0 * v->cpu_ceiling_bps * ratio)
            strbuf_appendf(buf, cap, "; that is more than the %s, because buffered output is "
                           "flushed after the compression rather than during it", need);
    }
    return buf;
}

/* Who sets the time, in the question's words: "the CPU", "the disk", "the disk's flush at
 * the end", "reading the input from src". With side_only, only the side: the CPU, the disk
 * or the reading. */
static const char *who_words(const analysis_series_t *s, verdict_cause_t cause, bool side_only,
                             char *buf, size_t cap)
{
    const char *what = s->decompress ? "archive" : "input";
    switch (cause) {
    case CAUSE_COMPUTE:
    case CAUSE_CPU_CONTENTION:
        snprintf(buf, cap, "the CPU");
        break;
    case CAUSE_CORES_SATURATED:
        snprintf(buf, cap, "%s", side_only     ? "the CPU"
                                 : s->decompress ? "the CPU work of the I/O"
                                                 : "the CPU work of writing");
        break;
    case CAUSE_READ_THROUGHPUT:
        if (s->read_from[0] && strcmp(s->read_from, s->name) != 0 && !side_only)
            snprintf(buf, cap, "reading the %s from %.60s", what, s->read_from);
        else
            snprintf(buf, cap, "reading the %s", what);
        break;
    case CAUSE_FLUSH_TAIL:
        snprintf(buf, cap, "%s", side_only ? "the disk" : "the disk's flush at the end");
        break;
    case CAUSE_WRITE_THROUGHPUT:
        snprintf(buf, cap, "%s", side_only || !(s->rate_cap_bps > 0.0) ? "the disk"
                                                                      : "the disk's cap");
        break;
    default:
        snprintf(buf, cap, "something unknown");
        break;
    }
    return buf;
}

/* What would change a CPU-bound answer: more threads until the volume takes over (from the
 * model's crossing past the measured counts), or faster cores when the volume keeps up. */
static void cpu_change_words(const analysis_t *a, const analysis_series_t *s, char *buf,
                             size_t cap)
{
    int lo, hi;
    analysis_ceiling_range(&a->ceilings[s->ceiling], &lo, &hi);
    double x = s->crossover_threads, reach = ANALYSIS_EXTRAPOLATION_REACH * hi;
    const char *side = s->crossover_limit == VERDICT_READ ? "reading the input" : "the disk";
    /* What takes over at the crossing: writing's own CPU work where it leads there. */
    const char *taker = s->crossover_lead == TERM_IO_CPU ? "writing's CPU work" : side;
    if (isnan(s->write_ceiling_bps) && isnan(s->read_ceiling_bps))
        strbuf_appendf(buf, cap, "faster or more cores would help while the disk keeps up "
                       "(its speed is unknown)");
    else if (s->crossover_model < 0)
        strbuf_appendf(buf, cap, "faster or more cores would help; the disk keeps up");
    else if (isfinite(x) && x > hi && x <= reach)
        strbuf_appendf(buf, cap, "more threads would help until about %d, where %s would "
                       "take over", figure_threads_from(x), taker);
    else if (!isfinite(x) || x > reach)
        strbuf_appendf(buf, cap, "more threads or faster cores would help; %s would keep up "
                       "to %.0f threads", side, reach);
    else
        strbuf_appendf(buf, cap, "faster or more cores would help; the disk keeps up");
}

bool answer_direct_differs(const analysis_series_t *s)
{
    return s->whatif_threads > 0 && s->whatif_direct_bps > 0.0 &&
           !(s->whatif_direct_bps >= s->whatif_write_bps);
}

/* What would change a volume-bound answer: the speed that would do, or what remains when
 * no faster volume does. */
static void volume_change_words(const analysis_t *a, const analysis_series_t *s, char *buf,
                                size_t cap)
{
    char r1[32], r2[32], who[96];
    if (s->whatif_threads <= 0)
        return;
    /* An emulated cap stands for a disk of that speed: the answer names the disk. */
    if (isfinite(s->whatif_seconds) && s->whatif_write_bps > 0.0)
        strbuf_appendf(buf, cap, "a disk writing %s would take %.3g s",
                       analysis_format_rate(s->whatif_write_bps, r1, sizeof r1),
                       s->whatif_seconds);
    else if (isfinite(s->whatif_seconds) && s->whatif_read_bps > 0.0)
        strbuf_appendf(buf, cap, "a volume reading %s would take %.3g s",
                       analysis_format_rate(s->whatif_read_bps, r1, sizeof r1),
                       s->whatif_seconds);
    else if (s->whatif_blocked_by == TERM_WRITE) /* past a cap: the device under it */
        strbuf_appendf(buf, cap, "no faster disk gets within %.0f%% of memory: the disk's own "
                       "writing remains", 100.0 * a->tolerance);
    else if (s->whatif_blocked_by < TERM_COUNT)
        strbuf_appendf(buf, cap, "no faster disk gets within %.0f%% of memory: %s remains",
                       100.0 * a->tolerance,
                       who_words(s, cause_of_term(s->whatif_blocked_by), false, who,
                                 sizeof who));
    else
        strbuf_appendf(buf, cap, "no faster disk gets within %.0f%% of memory",
                       100.0 * a->tolerance);
    if (answer_direct_differs(s))
        strbuf_appendf(buf, cap, " (%s with --sync direct)",
                       analysis_format_rate(s->whatif_direct_bps, r2, sizeof r2));
}

/* What would settle an unexplained answer: the model's figure, and a rerun when the
 * runs spread (a single run's is its note's); what was checked is in the details. */
static void unexplained_change_words(const analysis_point_t *p, const analysis_verdict_t *v,
                                     char *buf, size_t cap)
{
    if (v->miss == MISS_MODEL && v->evidence.predicted_s > 0.0)
        strbuf_appendf(buf, cap, "the model predicts %.3g s", v->evidence.predicted_s);
    else if (v->miss == MISS_BEYOND_VOLUME)
        strbuf_appendf(buf, cap, "it wrote faster than the volume can, so a figure is wrong");
    else if (v->miss == MISS_UNPROBED)
        strbuf_appendf(buf, cap, "the volume's speed was not measured (chokepoint probe "
                       "would say what it costs)");
    else
        strbuf_appendf(buf, cap, "no measured figure accounts for the gap");
    /* A single run's rerun is its note's (POINT_SINGLE_RUN_UNEXPLAINED), said once. */
    if (p->n > 1 && p->noisy)
        strbuf_appendf(buf, cap, "; rerun with more --reps");
}

/* The CPU ceiling's line: its time and rate at the largest thread count. */
static void ceiling_sentence(const analysis_series_t *s, const char *name, char *buf,
                             size_t cap)
{
    const analysis_point_t *p = &s->points[s->npoints - 1];
    char r1[32];
    strbuf_appendf(buf, cap, "%s: the CPU ceiling: %.3g s at %d %s (%s of %s).", name,
                   p->seconds, p->threads, threads_word(p->threads),
                   analysis_format_rate(p->bytes_per_s, r1, sizeof r1),
                   s->decompress ? "restored data" : "input");
}

const char *answer_sentence(const analysis_t *a, const analysis_series_t *s, char *buf,
                            size_t cap)
{
    const analysis_point_t *p = &s->points[s->npoints - 1];
    const analysis_verdict_t *v = &s->verdicts[s->npoints - 1];
    char name[300], reach[96], slower[48], who[96], other[96];
    buf[0] = '\0';
    figure_series_label(s, true, name, sizeof name);
    if (s->cpu_ceiling) {
        ceiling_sentence(s, name, buf, cap);
        return buf;
    }
    if (v->cpu_ceiling_source == CEILING_ESTIMATED && v->fastest != NULL &&
        strcmp(v->fastest, s->name) == 0) {
        /* Its own time is the ceiling: nothing to compare it with. */
        strbuf_appendf(buf, cap, "%s: the fastest target, the ceiling the others are held to: "
                       "%.3g s at %d %s; without memory runs, what limits it is not measured "
                       "(add the mem target to know).", name, p->seconds, p->threads,
                       threads_word(p->threads));
        return buf;
    }
    reach_words(s, reach, sizeof reach);
    if (v->verdict == VERDICT_NOT_JUDGED)
        strbuf_appendf(buf, cap, "%s: not judged %s: ", name, reach);
    else if (v->cause == CAUSE_UNKNOWN)
        strbuf_appendf(buf, cap, "%s: unexplained %s: ", name, reach);
    else if (v->verdict == VERDICT_BALANCED)
        strbuf_appendf(buf, cap, "%s: %s and %s together set the time %s: ", name,
                       who_words(s, v->cause, true, who, sizeof who),
                       who_words(s, v->second_cause, true, other, sizeof other), reach);
    else
        strbuf_appendf(buf, cap, "%s: %s sets the time %s: ", name,
                       who_words(s, v->cause, false, who, sizeof who), reach);
    double cpu_s = cpu_seconds(p, v);
    slower_words(p->seconds, cpu_s, slower, sizeof slower);
    strbuf_appendf(buf, cap, "%.3g s at %d %s, %s %s (%.3g s); ", p->seconds, p->threads,
                   threads_word(p->threads), slower,
                   a->ceilings[s->ceiling].estimated ? "the fastest target" : "memory", cpu_s);
    if (v->verdict == VERDICT_NOT_JUDGED)
        strbuf_appendf(buf, cap, "the runs are too %s to tell (the note below says what "
                       "would)", a->precision.short_runs ? "short" : "noisy");
    else if (v->cause == CAUSE_UNKNOWN)
        unexplained_change_words(p, v, buf, cap);
    else if (s->whatif_threads > 0)
        volume_change_words(a, s, buf, cap);
    else if (v->verdict == VERDICT_CPU)
        cpu_change_words(a, s, buf, cap);
    size_t n = strlen(buf);
    if (n >= 2 && strcmp(buf + n - 2, "; ") == 0)
        buf[n - 2] = '\0';
    strbuf_appendf(buf, cap, ".");
    return buf;
}

const char *answer_point_marks(const analysis_series_t *s, size_t k, char *buf, size_t cap)
{
    const analysis_point_t *p = &s->points[k];
    buf[0] = '\0';
    static const struct { unsigned flag; const char *word; } marks[] = {
        {POINT_OVERSUBSCRIBED, "oversubscribed"},
        {POINT_EFFICIENCY_HIGH, "efficiency over 100%?"},
        {POINT_BEYOND_PROBE, "faster than probed?"},
        {POINT_SINGLE_RUN_UNEXPLAINED, "one run"},
        {POINT_CPU_SPEED_MOVED, "CPU speed moved"},
        {POINT_EXCESS_NOT_VOLUME, "not the volume"},
        {POINT_SPEED_UNPROBED, "speed not probed"},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (p->flags & marks[i].flag)
            strbuf_appendf(buf, cap, "%s%s", buf[0] ? ", " : "", marks[i].word);
    if (p->noisy)
        strbuf_appendf(buf, cap, "%snoisy", buf[0] ? ", " : "");
    return buf;
}

/* "1 thread", "2 threads", "1, 2 and 4 threads": the thread counts of s whose points
 * carry flag, into buf; returns how many there are. */
static size_t flagged_threads(const analysis_series_t *s, unsigned flag, char *buf, size_t cap)
{
    size_t n = 0, total = 0;
    int last = 0;
    for (size_t k = 0; k < s->npoints; k++)
        total += (s->points[k].flags & flag) != 0;
    buf[0] = '\0';
    for (size_t k = 0; k < s->npoints; k++) {
        if (!(s->points[k].flags & flag))
            continue;
        n++;
        last = s->points[k].threads;
        strbuf_appendf(buf, cap, "%s%d", n == 1 ? "" : n == total ? " and " : ", ", last);
    }
    if (n > 0)
        strbuf_appendf(buf, cap, " %s", n == 1 ? threads_word(last) : "threads");
    return n;
}

/* The figures behind a series' notes: the largest efficiency and write rate, the CPUs
 * online and the largest CPU time shift over its flagged points. */
typedef struct note_figures {
    double efficiency, out_bps, cpus, shift;
} note_figures_t;

static note_figures_t note_figures(const analysis_series_t *s)
{
    note_figures_t f = {0.0, 0.0, 0.0, 0.0};
    for (size_t k = 0; k < s->npoints; k++) {
        const analysis_point_t *p = &s->points[k];
        if (p->flags & POINT_EFFICIENCY_HIGH)
            f.efficiency = fmax(f.efficiency, s->verdicts[k].efficiency);
        if (p->flags & POINT_BEYOND_PROBE)
            f.out_bps = fmax(f.out_bps, analysis_written_bytes(s, p) / p->seconds);
        if (p->flags & POINT_OVERSUBSCRIBED)
            f.cpus = p->online_cpus;
        double sh = s->verdicts[k].evidence.cpu_time_shift;
        if ((p->flags & POINT_CPU_SPEED_MOVED) && fabs(sh) > fabs(f.shift))
            f.shift = sh;
    }
    return f;
}

/* "256 MiB" and "256M": the power of two MiB at or above bytes. */
static void size_words(double bytes, char *words, size_t wcap, char *opt, size_t ocap)
{
    double mib = 1.0;
    while (mib * 1048576.0 < bytes && mib < 1048576.0)
        mib *= 2.0;
    if (mib >= 1024.0) {
        snprintf(words, wcap, "%.0f GiB", mib / 1024.0);
        snprintf(opt, ocap, "%.0fG", mib / 1024.0);
    } else {
        snprintf(words, wcap, "%.0f MiB", mib);
        snprintf(opt, ocap, "%.0fM", mib);
    }
}

const char *answer_precision_note(const analysis_t *a, char *buf, size_t cap)
{
    const analysis_precision_t *q = &a->precision;
    buf[0] = '\0';
    if (!q->too_short)
        return buf;
    char size[32], opt[16];
    size_words(q->input_needed_bytes, size, sizeof size, opt, sizeof opt);
    bool reps_do = q->reps_needed <= ANALYSIS_REPS_SUGGEST_MAX;
    strbuf_appendf(buf, cap, "The runs, %.2g s each, are too %s to judge: their %zu "
                   "repetitions spread %.0f%%, over the %.0f%% tolerance; ", q->run_s,
                   q->short_runs ? "short" : "noisy", q->reps, 100.0 * q->spread,
                   100.0 * a->tolerance);
    if (q->short_runs && reps_do)
        strbuf_appendf(buf, cap, "a %s input (--fixture-size %s) or --reps %zu would do.",
                       size, opt, q->reps_needed);
    else if (q->short_runs)
        strbuf_appendf(buf, cap, "a %s input (--fixture-size %s) would do.", size, opt);
    else if (reps_do)
        strbuf_appendf(buf, cap, "--reps %zu would do.", q->reps_needed);
    else
        strbuf_appendf(buf, cap, "--reps %zu would do, or a quieter machine.",
                       q->reps_needed);
    return buf;
}

/* One note: the bullet, the text escaped for the document, a line end. */
static void write_note(const doc_t *d, const char *bullet, const char *text)
{
    fputs(bullet, d->out);
    doc_text(d, text);
    fputc('\n', d->out);
}

size_t answer_write_notes(const analysis_t *a, const doc_t *d, const char *bullet,
                          bool with_matching)
{
    FILE *out = d->out;
    size_t notes = 0;
    char line[512];
    if (answer_precision_note(a, line, sizeof line)[0] && ++notes)
        write_note(d, bullet, line);
    for (size_t i = 0; with_matching && i < a->nnotes; i++, notes++)
        write_note(d, bullet, a->notes[i].text);
    for (size_t i = 0; i < a->nprobe_notes; i++, notes++)
        write_note(d, bullet, a->probe_notes[i].text);
    bool machine_io = false;
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++)
            machine_io = machine_io || (!a->series[i].cpu_ceiling &&
                                        a->series[i].points[k].io_wait_system);
    if (machine_io && ++notes)
        fprintf(out, "%sBlocked-on-I/O times are the machine's pressure figures (every "
                "process's), not the runs' own: delay accounting was off, and turning it on "
                "takes root.\n", bullet);
    bool direct = false;
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        char label[300], name[700], at[256], r1[32], r2[32];
        doc_escape(d, figure_series_label(s, true, label, sizeof label), name, sizeof name);
        note_figures_t f = note_figures(s);
        direct = direct || answer_direct_differs(s);
        if (flagged_threads(s, POINT_OVERSUBSCRIBED, at, sizeof at) > 0 && ++notes)
            fprintf(out, "%s%s at %s: more threads than the %.0f CPUs online, so they measure "
                    "time-slicing, not scaling; measure up to %.0f threads.\n", bullet, name,
                    at, f.cpus, f.cpus);
        if (flagged_threads(s, POINT_EFFICIENCY_HIGH, at, sizeof at) > 0 && ++notes)
            fprintf(out, "%s%s at %s: %.0f%% of its ceiling, faster than it can be: a ceiling "
                    "is too low (details below); rerun with --reps auto or --sync direct.\n",
                    bullet, name, at, 100.0 * f.efficiency);
        if (flagged_threads(s, POINT_BEYOND_PROBE, at, sizeof at) > 0 && ++notes)
            fprintf(out, "%s%s at %s: wrote up to %s, faster than the volume's %s %s; probe "
                    "again with a file as large as the output.\n", bullet,
                    name, at, analysis_format_rate(f.out_bps, r1, sizeof r1),
                    write_speed_kind(s),
                    analysis_format_rate(s->write_speed_bps > 0.0 ? s->write_speed_bps
                                                                  : s->rate_cap_bps,
                                         r2, sizeof r2));
        if (flagged_threads(s, POINT_SINGLE_RUN_UNEXPLAINED, at, sizeof at) > 0 && ++notes)
            fprintf(out, "%s%s at %s: unexplained on a single run, which noise alone can "
                    "make; rerun with --reps 3 or --reps auto.\n", bullet, name, at);
        if (flagged_threads(s, POINT_CPU_SPEED_MOVED, at, sizeof at) > 0 && ++notes)
            fprintf(out, "%s%s at %s: the CPU ran %.0f%% %s than in memory's runs of the same "
                    "work (details below); rerun on a quiet machine.\n", bullet, name, at,
                    100.0 * fabs(f.shift), f.shift > 0.0 ? "slower" : "faster");
    }
    if (direct && ++notes)
        fprintf(out, "%sBuffered output waits for its flush after the compression, so it needs "
                "a faster disk than --sync direct, whose writes overlap the compression.\n",
                bullet);
    return notes;
}

void answer_write_point_details(const analysis_series_t *s, const doc_t *d)
{
    FILE *out = d->out;
    const char *indent = doc_indent(d, "  ");
    char at[256], r1[32], r2[32];
    note_figures_t f = note_figures(s);
    if (flagged_threads(s, POINT_OVERSUBSCRIBED, at, sizeof at) > 0)
        fprintf(out, "%sat %s: more threads than the %.0f CPUs online (oversubscribed): the "
                "threads take turns on the cores, so these points measure time-slicing, not "
                "scaling, and bend the models%s", indent, at, f.cpus, doc_break(d));
    if (flagged_threads(s, POINT_EFFICIENCY_HIGH, at, sizeof at) > 0)
        fprintf(out, "%sat %s: efficiency up to %.0f%%, above 100%%: the run beat its own "
                "ceiling, so a ceiling is too low. Likely the page cache (output still in "
                "memory when the clock stopped%s), an emulated cap that paces less than it "
                "claims, or noise in the memory target's time%s", indent, at,
                100.0 * f.efficiency,
                strcmp(s->sync, "none") == 0 ? ": this series did not fsync" : "",
                doc_break(d));
    if (flagged_threads(s, POINT_BEYOND_PROBE, at, sizeof at) > 0)
        fprintf(out, "%sat %s: wrote up to %s of output, faster than the volume's %s speed of "
                "%s. Likely the page cache absorbed the writes (a probe file or timing that "
                "kept the output in memory), or the probe ran while something else used the "
                "disk; probe again with a file as large as the output, or sweep with --sync "
                "direct%s", indent, at, analysis_format_rate(f.out_bps, r1, sizeof r1),
                write_speed_kind(s),
                analysis_format_rate(s->write_speed_bps > 0.0 ? s->write_speed_bps
                                                              : s->rate_cap_bps,
                                     r2, sizeof r2),
                doc_break(d));
    if (flagged_threads(s, POINT_SINGLE_RUN_UNEXPLAINED, at, sizeof at) > 0)
        fprintf(out, "%sat %s: unexplained, and resting on a single run: anything else on the "
                "machine can slow one run (noise)%s", indent, at, doc_break(d));
    if (flagged_threads(s, POINT_CPU_SPEED_MOVED, at, sizeof at) > 0)
        fprintf(out, "%sat %s: the runs spent up to %.0f%% %s user CPU time than memory's on "
                "the same work, so the CPU itself ran at another speed (another load on its "
                "core or host, thermal limits, a slower core), and the comparison with memory "
                "carries that much doubt%s", indent, at, 100.0 * fabs(f.shift),
                f.shift > 0.0 ? "more" : "less", doc_break(d));
}

void answer_write_failed(const analysis_t *a, const doc_t *d, const char *prefix)
{
    for (size_t i = 0; i < a->nfailed; i++) {
        const run_failure_t *f = &a->failed[i];
        char why[sizeof f->error], line[sizeof f->error + 512];
        snprintf(line, sizeof line, "%s%s%s%s: no result from its %zu run%s: %s", f->target,
                 f->codec[0] ? " (" : "", f->codec, f->codec[0] ? ")" : "", f->count,
                 f->count == 1 ? "" : "s", run_failure_reason(f, why, sizeof why));
        fputs(prefix, d->out);
        doc_text(d, line);
        fputc('\n', d->out);
    }
}

size_t answer_write(const analysis_t *a, const doc_t *d)
{
    FILE *out = d->out;
    char buf[1024], marks[128];
    doc_section(d, 2, "the answer:\n", "The answer");
    if (decision_write(a, d, doc_item(d, "  ")) > 0)
        fputc('\n', out);
    for (size_t i = 0; i < a->nseries; i++) {
        fputs(doc_item(d, "  "), out);
        doc_text(d, answer_sentence(a, &a->series[i], buf, sizeof buf));
        fputc('\n', out);
    }
    answer_write_failed(a, d, doc_item(d, "  "));
    size_t width = 6;
    for (size_t i = 0; i < a->nseries; i++) {
        size_t w = strlen(figure_series_label(&a->series[i], true, buf, sizeof buf));
        width = w > width ? w : width;
    }
    /* Against memory's runs, or the fastest target's at each T for a codec with none; a
     * table that has both says "vs ceiling" and explains both. */
    size_t with_memory = 0;
    for (size_t i = 0; i < a->nceilings; i++)
        with_memory += a->ceilings[i].mem != NULL;
    const char *vs_title = with_memory == a->nceilings ? "vs memory"
                           : with_memory == 0          ? "vs fastest"
                                                       : "vs ceiling";
    const doc_column_t columns[] = {
        {.title = "target", .left = true, .width = (int)width},
        {.title = "threads", .width = 7},
        {.title = "seconds", .width = 9},
        {.title = "verdict (cause)", .left = true, .width = 46, .gap = "  "},
        {.title = vs_title, .width = 10},
        {.title = "notes", .left = true, .gap = "  "},
    };
    const doc_table_t table = {.columns = columns, .ncolumns = 6, .indent = "  "};
    fputc('\n', out);
    doc_table_head(d, &table);
    for (size_t i = 0; i < a->nseries; i++) {
        const analysis_series_t *s = &a->series[i];
        figure_series_label(s, true, buf, sizeof buf);
        for (size_t k = 0; k < s->npoints; k++) {
            const analysis_point_t *p = &s->points[k];
            const analysis_verdict_t *v = &s->verdicts[k];
            char verdict[96], vs[16] = "-", threads[16], seconds[32];
            verdict_label(v, verdict, sizeof verdict);
            double slower = p->seconds / cpu_seconds(p, v) - 1.0;
            if (!s->cpu_ceiling && isfinite(slower))
                snprintf(vs, sizeof vs, "%+.0f%%", 100.0 * slower);
            answer_point_marks(s, k, marks, sizeof marks);
            snprintf(threads, sizeof threads, "%d", p->threads);
            snprintf(seconds, sizeof seconds, "%.3f", p->seconds);
            const char *cells[] = {buf, threads, seconds, verdict, vs, marks};
            doc_table_row(d, &table, cells, NULL);
        }
    }
    fputc('\n', out);
    if (with_memory == a->nceilings)
        doc_legend(d, "\"vs memory\": the run's time against the same input at the CPU "
                      "ceiling, the memory target.");
    else if (with_memory == 0)
        doc_legend(d, "\"vs fastest\": the run's time against the fastest target's at each "
                      "thread count, the ceiling where there are no memory runs.");
    else
        doc_legend(d, "\"vs ceiling\": the run's time against the same input at the CPU "
                      "ceiling: the memory target's, or for a codec without memory runs the "
                      "fastest target's at each thread count.");
    bool any = a->nnotes > 0 || a->nprobe_notes > 0 || a->precision.too_short;
    for (size_t i = 0; i < a->nseries; i++) {
        any = any || answer_direct_differs(&a->series[i]);
        for (size_t k = 0; k < a->series[i].npoints; k++)
            any = any || a->series[i].points[k].flags != 0 ||
                  (!a->series[i].cpu_ceiling && a->series[i].points[k].io_wait_system);
    }
    if (!any)
        return 0;
    doc_section(d, 0, "  check these figures:\n", "Check these figures:");
    size_t notes = answer_write_notes(a, d, doc_item(d, "  ! "), true);
    fputc('\n', out);
    return notes;
}
