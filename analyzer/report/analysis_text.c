/* analysis_text.c - an analysis for people, as plain text or Markdown: the answer first,
 * then per series its models as equations, the verdict table, crossovers and what-ifs
 * (analysis_text.h): one render function for every text-like format, and the document
 * report_write takes (analysis_document) with its JSON and summary writers. */
#include "report/analysis_text.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis_json.h"
#include "report/answer_text.h"
#include "report/figure_text.h"
#include "report/decision_text.h"
#include "report/cause_text.h"
#include "report/doc_writer.h"

/* "name (codec)", with the volume's nature when the runs say it: RAM, or an emulated cap. */
static const char *series_label(const analysis_series_t *s, char *buf, size_t cap)
{
    char nature[96] = "";
    bool write_cap = isfinite(s->rate_cap_bps), read_cap = isfinite(s->read_cap_bps);
    const char *writes = s->disk_emulated ? "disk" : "cap";
    if (s->emulated == 1 && write_cap && read_cap)
        snprintf(nature, sizeof nature, "emulated %.0f MB/s write %s, %.0f MB/s read cap",
                 s->rate_cap_bps / 1e6, writes, s->read_cap_bps / 1e6);
    else if (s->emulated == 1 && write_cap)
        snprintf(nature, sizeof nature, "emulated %.0f MB/s %s", s->rate_cap_bps / 1e6, writes);
    else if (s->emulated == 1 && read_cap)
        snprintf(nature, sizeof nature, "emulated %.0f MB/s read cap", s->read_cap_bps / 1e6);
    else if (s->emulated == 1)
        snprintf(nature, sizeof nature, "emulated cap");
    else if (s->ram == 1 && !s->cpu_ceiling)
        snprintf(nature, sizeof nature, "RAM");
    else if (s->unpaced)
        snprintf(nature, sizeof nature, "unpaced: the target's emulated cap paces no command");
    if (s->codec[0] && nature[0])
        snprintf(buf, cap, "%s (%s, %s)", s->name, s->codec, nature);
    else if (s->codec[0] || nature[0])
        snprintf(buf, cap, "%s (%s)", s->name, s->codec[0] ? s->codec : nature);
    else
        snprintf(buf, cap, "%s", s->name);
    return buf;
}

/* How the series' figures were taken, in words: repetitions and sync mode. */
static void series_method(const analysis_series_t *s, char *buf, size_t cap)
{
    size_t lo = SIZE_MAX, hi = 0;
    for (size_t i = 0; i < s->npoints; i++) {
        lo = s->points[i].n < lo ? s->points[i].n : lo;
        hi = s->points[i].n > hi ? s->points[i].n : hi;
    }
    char reps[48];
    if (lo == hi)
        snprintf(reps, sizeof reps, "%zu run%s", lo, lo == 1 ? "" : "s");
    else
        snprintf(reps, sizeof reps, "%zu to %zu runs", lo, hi);
    const char *sync = s->decompress && s->cpu_ceiling ? "archive in RAM, restored to memory"
                       : s->decompress && !s->restores_to_volume
                           ? "archive read from the volume (cache dropped), restored to memory"
                       : s->cpu_ceiling                         ? "output counted in memory"
                       : strcmp(s->sync, "fsync") == 0  ? "timed to fsync + close"
                       : strcmp(s->sync, "direct") == 0 ? "O_DIRECT writes, timed to fsync + close"
                       : strcmp(s->sync, "none") == 0   ? "no fsync (page cache included)"
                       : strcmp(s->sync, "mixed") == 0  ? "mixed sync modes"
                                                        : "sync mode not recorded";
    snprintf(buf, cap, "each point: median of %s (min and max shown); %s", reps, sync);
}

static void model_quality(const fit_result_t *m, char *buf, size_t cap)
{
    char rmse[32];
    if (fit_kind_is_time(m->kind))
        snprintf(rmse, sizeof rmse, "%.3g s", m->rmse);
    else
        analysis_format_rate(m->rmse, rmse, sizeof rmse);
    int n;
    if (m->exact) {
        snprintf(buf, cap, "exact fit: %zu thread counts for %d parameters, no R2", m->n,
                 m->nparams);
        return;
    }
    if (isfinite(m->r2))
        n = snprintf(buf, cap, "R2 %.4f, RMSE %s", m->r2, rmse);
    else
        n = snprintf(buf, cap, "R2 -, RMSE %s", rmse);
    if (isfinite(m->holdout_error) && n > 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, ", predicts T=%g within %+.1f%%",
                      m->holdout_threads, 100.0 * m->holdout_error);
    if (m->kind == FIT_USL && isfinite(m->peak_threads) && n > 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, ", peak at T = %.3g", m->peak_threads);
}

/* Why a fitted model does not describe its points: "R2 0.85", "predicts T=4 27% off" or
 * both. */
static void model_miss_words(const fit_result_t *m, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (isfinite(m->r2) && m->r2 < ANALYSIS_MODEL_MIN_R2)
        snprintf(buf, cap, "R2 %.2f", m->r2);
    if (isfinite(m->holdout_error) && fabs(m->holdout_error) > ANALYSIS_MODEL_MAX_HOLDOUT)
        snprintf(buf + strlen(buf), cap - strlen(buf), "%spredicts T=%g %.0f%% off",
                 buf[0] ? ", " : "", m->holdout_threads, 100.0 * fabs(m->holdout_error));
}

/* Under the models: which one describes the rate and why the others were passed over, or
 * that none does (with the closest one's misses). */
static void write_model_choice(const analysis_series_t *s, const doc_t *d)
{
    char why[96];
    int lowest = fit_best_rate_model(s->models);
    if (s->rejected_rate_model >= 0) {
        model_miss_words(&s->models[s->rejected_rate_model], why, sizeof why);
        fprintf(d->out, "%sno model describes these points (the closest, %s, has %s; one "
                "needs R2 %.2f and a holdout error within %.0f%%): nothing is extrapolated "
                "from them\n", doc_aside(d, "    "),
                fit_kind_name((fit_kind_t)s->rejected_rate_model), why,
                ANALYSIS_MODEL_MIN_R2, 100.0 * ANALYSIS_MODEL_MAX_HOLDOUT);
    } else if (s->best_rate_model >= 0 && lowest != s->best_rate_model) {
        model_miss_words(&s->models[lowest], why, sizeof why);
        fprintf(d->out, "%s%s describes the rate: %s scores better for its fewer parameters "
                "but has %s (a model needs R2 %.2f and a holdout error within %.0f%%)\n",
                doc_aside(d, "    "), fit_kind_name((fit_kind_t)s->best_rate_model),
                fit_kind_name((fit_kind_t)lowest), why, ANALYSIS_MODEL_MIN_R2,
                100.0 * ANALYSIS_MODEL_MAX_HOLDOUT);
    }
}

/* Appends, where the runs at the model's first limited thread count were judged
 * CPU-bound, that the measurement says otherwise. */
static void measured_otherwise_words(const analysis_series_t *s, int threads, char *buf,
                                     size_t cap)
{
    const analysis_point_t *p = analysis_point_at(s, threads);
    if (p == NULL || s->verdicts[p - s->points].verdict != VERDICT_CPU)
        return;
    size_t n = strlen(buf);
    snprintf(buf + n, cap > n ? cap - n : 0, "; the runs at %d %s measured the CPU setting "
             "the time, which the verdict follows", threads, threads == 1 ? "thread" : "threads");
}

/* The crossover in words: the measured range beside anything extrapolated, nothing drawn
 * from a model that does not describe the CPU rate. */
static void crossover_words(const analysis_t *a, const analysis_series_t *s, char *buf,
                            size_t cap)
{
    const analysis_ceiling_t *cpu = &a->ceilings[s->ceiling];
    const char *kind = s->crossover_limit == VERDICT_READ ? "read" : "write";
    char rate[32], whose[RUNS_NAME_MAX + 48];
    double limit = s->crossover_limit == VERDICT_READ ? s->read_ceiling_bps : s->write_ceiling_bps;
    analysis_format_rate(limit, rate, sizeof rate);
    int lo, hi;
    analysis_ceiling_range(cpu, &lo, &hi);
    /* A decompression reads its archive from this volume; a compression may read its
     * input from another target's (read_from, "" when none is known). */
    if (s->crossover_limit == VERDICT_READ && !s->decompress && s->read_from[0] != '\0' &&
        strcmp(s->read_from, s->name) != 0)
        snprintf(whose, sizeof whose, "reading the input from %s", s->read_from);
    else
        snprintf(whose, sizeof whose, "this volume");
    const char *job = s->decompress ? "decompression" : "compression";
    const char *bytes = s->decompress ? "restored data" : "input";
    double x = s->crossover_threads;
    if (s->cpu_ceiling)
        snprintf(buf, cap, "this is the CPU ceiling (output discarded)");
    else if (isnan(s->write_ceiling_bps) && isnan(s->read_ceiling_bps))
        snprintf(buf, cap, "no write or read speed is known for this volume (%s) so there is "
                 "no crossover", a->probe_path ? "the probe table has no row for it" :
                 "no probe figures: analyze takes them with --probe PROBE.csv, and run "
                 "probes unless --no-probe is given");
    else if (cpu->rejected_rate_model >= 0) {
        const fit_result_t *m = &cpu->models[cpu->rejected_rate_model];
        char why[96];
        model_miss_words(m, why, sizeof why);
        snprintf(buf, cap, "no model describes the CPU rate (the closest, %s, has %s), so no "
                 "crossover is drawn from it", fit_kind_name(m->kind), why);
    } else if (s->crossover_model < 0)
        snprintf(buf, cap, "too few thread counts to model the CPU rate, so no crossover");
    else if (isnan(x) || x > ANALYSIS_EXTRAPOLATION_REACH * hi)
        snprintf(buf, cap, "%s does not limit the job within reach of the measured range "
                 "(%d..%d threads): along the fitted CPU rate, the model keeps its %s time "
                 "more than %.0f%% under the %s's up to %.0f threads",
                 whose, lo, hi, kind, 100.0 * a->tolerance, job,
                 ANALYSIS_EXTRAPOLATION_REACH * hi);
    else {
        char range[96] = "", when[160];
        if (isfinite(s->crossover_lo) || isfinite(s->crossover_hi)) {
            char a_txt[16] = "-", b_txt[24] = "beyond reach";
            if (isfinite(s->crossover_lo))
                snprintf(a_txt, sizeof a_txt, "%.1f", s->crossover_lo);
            if (isfinite(s->crossover_hi) && s->crossover_hi <= ANALYSIS_EXTRAPOLATION_REACH * hi)
                snprintf(b_txt, sizeof b_txt, "%.1f", s->crossover_hi);
            snprintf(range, sizeof range, " (%s..%s within one standard error of the fit)",
                     a_txt, b_txt);
        }
        if (s->crossover_term == TERM_FLUSH)
            snprintf(when, sizeof when, "the flush at the end adds more than %.0f%% to the "
                     "%s", 100.0 * a->tolerance, job);
        else
            snprintf(when, sizeof when, "the volume's %s time comes within %.0f%% of the "
                     "%s's (its %s ceiling: %s of %s)", kind, 100.0 * a->tolerance, job,
                     kind, rate, bytes);
        int from = figure_threads_from(x);
        const char *model = fit_kind_name((fit_kind_t)s->crossover_model);
        if (x <= 1.0)
            snprintf(buf, cap, "%s limits the job from 1 thread on: %s (%s model of the CPU "
                     "rate)", whose, when, model);
        else
            snprintf(buf, cap, "%s starts to limit the job at T = %.1f%s, where %s, so from %d "
                     "%s on it sets the time; the model's rate there: %s (%s model, %s %d..%d "
                     "threads)", whose, x, range, when, from, from == 1 ? "thread" : "threads",
                     analysis_format_rate(s->crossover_rate_bps, rate, sizeof rate), model,
                     x > hi ? "extrapolated beyond the measured" : "measured", lo, hi);
        measured_otherwise_words(s, from, buf, cap);
    }
}

/* Which programs measured the series' runs and its volume's speeds, in words, when a
 * figure came from another program (an imported table); false (buf untouched) when all
 * are chokepoint's own or none says. */
static bool series_sources(const analysis_series_t *s, char *buf, size_t cap)
{
    const char *runs = data_source_name(s->source), *probe = data_source_name(s->probe_source);
    bool imported = (runs != NULL && s->source != DATA_SOURCE_CHOKEPOINT) ||
                    (probe != NULL && s->probe_source != DATA_SOURCE_CHOKEPOINT);
    if (!imported)
        return false;
    int n = snprintf(buf, cap, "measured by: runs %s", runs != NULL ? runs : "not recorded");
    if (s->probe_target[0] != '\0' && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, ", volume speeds %s (probe target %s)",
                 probe != NULL ? probe : "not recorded", s->probe_target);
    return true;
}

static void write_series(const analysis_t *a, const analysis_series_t *s, const doc_t *d)
{
    FILE *out = d->out;
    char label[300], buf[1024], r1[32], r2[32], r3[32], r4[32], r5[32];
    char esc[2 * sizeof buf + 8]; /* buf escaped: its words may quote names and paths */
    const analysis_ceiling_t *ceil = &a->ceilings[s->ceiling];
    series_method(s, buf, sizeof buf);
    char heading[700];
    doc_heading(d, 3, "%s", doc_escape(d, series_label(s, label, sizeof label), heading,
                                       sizeof heading));
    doc_sentence(d, "  ", "%s", doc_escape(d, buf, esc, sizeof esc));
    if (series_sources(s, buf, sizeof buf))
        doc_sentence(d, "  ", "%s", doc_escape(d, buf, esc, sizeof esc));

    static const doc_column_t point_columns[] = {
        {.title = "threads", .width = 7},
        {.title = "seconds (median)", .text_title = "seconds", .width = 10},
        {.title = "min .. max", .width = 19},
        {.title = "rate", .width = 11},
        {.title = "runs", .width = 5},
        {.title = "flush", .width = 8},
        {.title = "predicted", .width = 10},
    };
    /* A point's marks ("noisy") follow its min .. max in Markdown, the row in text. */
    const doc_table_t points = {.columns = point_columns, .ncolumns = 7, .indent = "  ",
                                .note_column = 2};
    doc_table_head(d, &points);
    for (size_t i = 0; i < s->npoints; i++) {
        const analysis_point_t *p = &s->points[i];
        analysis_format_rate(p->bytes_per_s, r1, sizeof r1);
        char flush[16] = "-", predicted[16] = "-", threads[16], seconds[32], range[64], n[24];
        if (!isnan(p->flush_s) && !s->cpu_ceiling)
            snprintf(flush, sizeof flush, "%.3f", p->flush_s);
        if (p->predicted_seconds > 0.0)
            snprintf(predicted, sizeof predicted, "%.3f", p->predicted_seconds);
        char marks[128] = " ";
        answer_point_marks(s, i, marks + 1, sizeof marks - 1);
        snprintf(threads, sizeof threads, "%d", p->threads);
        snprintf(seconds, sizeof seconds, "%.3f", p->seconds);
        snprintf(range, sizeof range, "%8.3f .. %-8.3f", p->seconds_min, p->seconds_max);
        snprintf(n, sizeof n, "%zu", p->n);
        const char *cells[] = {threads, seconds, range, r1, n, flush, predicted};
        doc_table_row(d, &points, cells, marks[1] ? marks : NULL);
    }
    if (s->noisy_points > 0)
        fprintf(out, "%s%zu point%s marked noisy: the repetitions spread more than the %.0f%% "
                "tolerance of the median; rerun with more --reps\n",
                doc_aside(d, "  "), s->noisy_points, s->noisy_points == 1 ? "" : "s",
                100.0 * a->tolerance);
    if (isfinite(s->prediction_error_median))
        fprintf(out, "%spredicted from the memory target's times, the volume's %s speed and %s "
                "(docs/method.md): median error %.0f%%, worst %.0f%%\n", doc_aside(d, "  "),
                s->decompress && !s->restores_to_volume   ? "probed cold read"
                : strcmp(s->drain_source, "probe-drain") == 0 ? "drain"
                : strcmp(s->drain_source, "ram") == 0       ? "RAM"
                : strcmp(s->drain_source, "emulated-cap") == 0 ? "emulated cap (its probe's)"
                : strcmp(s->drain_source, "emulated-cap-unprobed") == 0
                    ? "emulated cap (the device's own flush after it not probed: taken as instant)"
                    : "probed (fsync'd) write",
                isnan(s->points[s->npoints - 1].dirty_background_bytes)
                    ? "no write-back thresholds (not recorded: an interval from the writes "
                      "overlapping the compression to the writes following it, the end nearer "
                      "the measured time shown)"
                    : "the kernel's write-back thresholds",
                100.0 * s->prediction_error_median, 100.0 * s->prediction_error_max);

    doc_fold_begin(d, "  models:\n", "Models of this series");
    for (int k = 0; k < FIT_KIND_COUNT; k++) {
        const fit_result_t *m = &s->models[k];
        analysis_format_model(m, buf, sizeof buf);
        char quality[200] = "";
        if (m->fitted)
            model_quality(m, quality, sizeof quality);
        const char *best = k == s->best_rate_model ? " (best for rate)" : "";
        /* Two shapes, not two spellings: a list of code spans in Markdown, and in text
         * columns aligned for the eye with a pointer line under the best. */
        if (doc_is_markdown(d)) {
            fprintf(out, "- %s%s: `%s`%s%s\n", fit_kind_name((fit_kind_t)k), best, buf,
                    m->fitted ? " - " : "", quality);
            continue;
        }
        fprintf(out, "    %-12s %s%s%s%s\n", fit_kind_name((fit_kind_t)k), buf,
                m->fitted ? "  [" : "", quality, m->fitted ? "]" : "");
        if (best[0])
            fprintf(out, "    %-12s ^ best describes the rate\n", "");
    }
    write_model_choice(s, d);
    doc_fold_end(d);

    const char *unit = s->decompress ? "restored" : "input";
    const char *source = s->cpu_ceiling ? "this series" : ceil->estimated
        ? "estimated: the fastest target at each T (no mem runs)" : "the mem target";
    /* The caption's words differ: the terminal's column titles are shorter and it says
     * which column is in output bytes. */
    char caption_text[512], caption[512];
    snprintf(caption_text, sizeof caption_text, "  verdicts (CPU ceiling: %s; %s bytes per "
             "second except 'volume writes', the volume's speed in output bytes):\n", source,
             unit);
    snprintf(caption, sizeof caption, "Verdicts (CPU ceiling: %s; rates and ceilings in %s "
             "bytes per second, the volume's own write speed in output bytes):", source, unit);
    doc_section(d, 0, caption_text, caption);
    char t_rate[48], t_cpu[48], t_write[48], t_read[48];
    snprintf(t_rate, sizeof t_rate, "rate (%s)", unit);
    snprintf(t_cpu, sizeof t_cpu, "CPU ceiling (%s)", unit);
    snprintf(t_write, sizeof t_write, "write ceiling (%s)", unit);
    snprintf(t_read, sizeof t_read, "read ceiling (%s)", unit);
    const doc_column_t verdict_columns[] = {
        {.title = "threads", .width = 7},
        {.title = t_rate, .text_title = "rate", .width = 11},
        {.title = t_cpu, .text_title = "CPU ceiling", .width = 11},
        {.title = "volume writes (output)", .text_title = "volume writes", .width = 13},
        {.title = t_write, .text_title = "write ceiling", .width = 13},
        {.title = t_read, .text_title = "read ceiling", .width = 12},
        {.title = "efficiency", .width = 10},
        {.title = "vs fastest", .width = 11},
        {.title = "verdict", .left = true, .gap = "  "},
    };
    const doc_table_t verdicts = {.columns = verdict_columns, .ncolumns = 9, .indent = "  "};
    doc_table_head(d, &verdicts);
    for (size_t i = 0; i < s->npoints; i++) {
        const analysis_verdict_t *v = &s->verdicts[i];
        analysis_format_rate(v->bytes_per_s, r1, sizeof r1);
        analysis_format_rate(v->cpu_ceiling_bps, r2, sizeof r2);
        analysis_format_rate(v->write_ceiling_bps, r3, sizeof r3);
        analysis_format_rate(v->read_ceiling_bps, r4, sizeof r4);
        analysis_format_rate(s->cpu_ceiling ? NAN : s->write_speed_bps, r5, sizeof r5);
        char stage[96] = "", vl[96], verdict[200], threads[16], cpu[48], eff[16], rel[16];
        if (v->stage_disagrees)
            snprintf(stage, sizeof stage, " (pipeline stages say %s)", verdict_name(v->stage_verdict));
        /* "*": a ceiling from the memory target's model, in the column beside the figure */
        snprintf(cpu, sizeof cpu, "%10s%1s", r2,
                 v->cpu_ceiling_source == CEILING_MEM_MODEL ? "*" : "");
        snprintf(threads, sizeof threads, "%d", v->threads);
        snprintf(eff, sizeof eff, "%.0f%%", 100.0 * v->efficiency);
        snprintf(rel, sizeof rel, "%.0f%%", 100.0 * v->relative_speed);
        snprintf(verdict, sizeof verdict, "%s%s", verdict_label(v, vl, sizeof vl), stage);
        const char *cells[] = {threads, r1, cpu, r5, r3, r4, eff, rel, verdict};
        doc_table_row(d, &verdicts, cells, NULL);
    }
    doc_table_end(d);
    const analysis_verdict_t *last = &s->verdicts[s->npoints - 1];
    const char *indent = doc_indent(d, "  ");
    fprintf(out, "%sverdict at %d thread%s: %s", indent, last->threads,
            last->threads == 1 ? "" : "s", verdict_name(s->verdict));
    if (!s->cpu_ceiling && strcmp(last->fastest, s->name) != 0) {
        fprintf(out, "; runs at %.0f%% of ", 100.0 * last->relative_speed);
        doc_text(d, last->fastest);
        fputs("'s speed", out);
    }
    fputs(doc_break(d), out);
    const analysis_point_t *top = &s->points[s->npoints - 1];
    cause_words(s, top, last, a->tolerance, buf, sizeof buf);
    fprintf(out, "%swhy: %s%s", indent, doc_escape(d, buf, esc, sizeof esc), doc_break(d));
    prediction_words(top, buf, sizeof buf);
    if (buf[0])
        fprintf(out, "%sat %d thread%s: %s%s", indent, top->threads,
                top->threads == 1 ? "" : "s", doc_escape(d, buf, esc, sizeof esc), doc_break(d));
    if (last->has_stage_verdict)
        fprintf(out, "%spipeline at %d thread%s: reader busy %.0f%%, %s %.0f%%, writer "
                     "%.0f%% of the run (busiest: %s)%s",
                indent, top->threads, top->threads == 1 ? "" : "s", 100.0 * top->reader_busy,
                s->decompress ? "decoders" : "compressors", 100.0 * top->compress_busy,
                100.0 * top->writer_busy,
                last->stage_verdict == VERDICT_WRITE  ? "writer"
                : last->stage_verdict == VERDICT_READ ? "reader"
                : s->decompress                       ? "decoders"
                                                      : "compressors",
                doc_break(d));
    answer_write_point_details(s, d);
    for (size_t k = 0; k < s->npoints; k++)
        if (time_split_words(&s->points[k], buf, sizeof buf)[0])
            fprintf(out, "%sat %d thread%s, %s%s", indent, s->points[k].threads,
                    s->points[k].threads == 1 ? "" : "s", doc_escape(d, buf, esc, sizeof esc),
                    doc_break(d));
    crossover_words(a, s, buf, sizeof buf);
    fprintf(out, "%s%s%s", indent, doc_escape(d, buf, esc, sizeof esc), doc_break(d));
    answer_whatif(a, s, buf, sizeof buf);
    if (buf[0])
        fprintf(out, "%swhat-if: %s\n", indent, doc_escape(d, buf, esc, sizeof esc));
    fputc('\n', out);
}

/* The whole analysis in d's style (report_render_fn; view is a const analysis_t *). */
static int render(const void *view, const doc_t *d, cp_err_t *err)
{
    const analysis_t *a = view;
    FILE *out = d->out;
    doc_section(d, 1, "", "What limits the job");
    /* The opening line's words differ: a terminal's is a lower-case line with the
     * tolerance in parentheses, a document's a sentence with the paths as code. */
    bool md = doc_is_markdown(d);
    fputs(md ? "Analysis of " : "analysis of ", out);
    doc_code(d, a->runs_path);
    if (a->probe_path) {
        fputs(" with probe ", out);
        doc_code(d, a->probe_path);
    }
    fprintf(out, md ? ", tolerance %.0f%%.\n\n" : " (tolerance %.0f%%)\n", 100.0 * a->tolerance);
    fprintf(out, "%zu run%s in %zu series", a->runs_used, a->runs_used == 1 ? "" : "s",
            a->nseries);
    if (a->runs_skipped > 0)
        fprintf(out, "; %zu failed run%s skipped (error or valid = 0)", a->runs_skipped,
                a->runs_skipped == 1 ? "" : "s");
    fputs(".\n\n", out);
    bool capped = false; /* an emulated cap stands in for a probed speed */
    for (size_t i = 0; i < a->nseries; i++)
        capped = capped || a->series[i].emulated == 1;
    if (!a->probe_path)
        fprintf(out, "no probe data: write and read ceilings are unknown%s.%s",
                capped ? " except where an emulated cap sets them" : "", doc_paragraph_end(d));
    answer_write(a, d);
    doc_section(d, 2, "details per target:\n\n",
                "Details: points, verdicts and models per target");
    for (size_t i = 0; i < a->nseries; i++)
        write_series(a, &a->series[i], d);
    bool full = false;
    for (size_t i = 0; i < a->nprobe_notes; i++)
        full = full || a->probe_notes[i].detail != NULL;
    if (full) {
        doc_section(d, 0, "  the probe's figures in full:\n", "The probe's figures in full:");
        for (size_t i = 0; i < a->nprobe_notes; i++)
            if (a->probe_notes[i].detail != NULL) {
                fputs(doc_item(d, "  "), out);
                doc_text(d, a->probe_notes[i].detail);
                fputc('\n', out);
            }
        fputc('\n', out);
    }
    if (fflush(out) != 0 || ferror(out))
        return cp_err_errno(err, CP_EIO, errno, "cannot write the report");
    return 0;
}

int analysis_write_summary(const analysis_t *a, FILE *out, cp_err_t *err)
{
    char label[300], shown[4 * sizeof label], rate[32], cpu[32], vol[32], wr[32], rd[32];
    char words[1024];
    const doc_t text = {.out = out, .style = &doc_style_text};
    /* The analysis' own order (by codec, memory first, targets as given), as every
     * report has it. */
    if (decision_write(a, &text, "") > 0)
        fputc('\n', out);
    int width = 14;
    for (size_t i = 0; i < a->nseries; i++) {
        int w = (int)strlen(doc_escape(&text, series_label(&a->series[i], label, sizeof label),
                                       shown, sizeof shown));
        width = w > width ? w : width;
    }
    fprintf(out, "%-*s %8s %-12s %11s %11s %13s %11s %11s %6s\n", width, "target (codec)",
            "threads", "verdict", "rate", "CPU ceiling", "volume writes", "write ceil.",
            "read ceil.", "eff.");
    for (size_t j = 0; j < a->nseries; j++) {
        const analysis_series_t *s = &a->series[j];
        const analysis_verdict_t *v = &s->verdicts[s->npoints - 1];
        fprintf(out, "%-*s %8d %-12s %11s %11s %13s %11s %11s %5.0f%%\n", width,
                doc_escape(&text, series_label(s, label, sizeof label), shown, sizeof shown),
                v->threads, verdict_name(v->verdict),
                analysis_format_rate(v->bytes_per_s, rate, sizeof rate),
                analysis_format_rate(v->cpu_ceiling_bps, cpu, sizeof cpu),
                analysis_format_rate(s->cpu_ceiling ? NAN : s->write_speed_bps, vol, sizeof vol),
                analysis_format_rate(v->write_ceiling_bps, wr, sizeof wr),
                analysis_format_rate(v->read_ceiling_bps, rd, sizeof rd), 100.0 * v->efficiency);
    }
    bool any_decompress = false;
    for (size_t j = 0; j < a->nseries; j++)
        any_decompress = any_decompress || a->series[j].decompress;
    fprintf(out, "(rates and ceilings in %s bytes per second; 'volume writes' is the volume's "
            "own speed in output bytes; 'eff.' is the rate over the lowest known ceiling, "
            "CPU, write or read)\n\n",
            any_decompress ? "uncompressed (restored, for a decompression)" : "input");
    answer_write_failed(a, &text, "");
    for (size_t j = 0; j < a->nseries; j++) {
        doc_text(&text, answer_sentence(a, &a->series[j], words, sizeof words));
        fputc('\n', out);
    }
    /* The notes under the answer; the probe matching's are on stderr already. */
    answer_write_notes(a, &text, "! ", false);
    if (fflush(out) != 0 || ferror(out))
        return cp_err_errno(err, CP_EIO, errno, "cannot write the summary");
    return 0;
}

static int as_json(const void *a, FILE *out, cp_err_t *err)
{
    return analysis_write_json(a, out, err);
}
static int as_summary(const void *a, FILE *out, cp_err_t *err)
{
    return analysis_write_summary(a, out, err);
}
const report_document_t analysis_document = {
    .render = render,
    .writers = {[REPORT_FORMAT_JSON] = as_json, [REPORT_FORMAT_SUMMARY] = as_summary},
};
