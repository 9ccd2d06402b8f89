/* predict_out.c - predict's answer and the list of storage classes (predict_out.h): each
 * one render function for every text-like format and a JSON writer, as the documents
 * report_write takes (predict_document, storage_classes_document). */
#include "report/predict_out.h"

#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "report/doc_writer.h"
#include "report/figure_text.h"
#include "report/strbuf.h"
#include "tables/json_number.h"

/* ---- words shared by the formats ---------------------------------------------------- */

static const char *format_bytes(double bytes, char *buf, size_t cap)
{
    if (!isfinite(bytes))
        snprintf(buf, cap, "-");
    else if (bytes >= 1e9)
        snprintf(buf, cap, "%.2f GB", bytes / 1e9);
    else
        snprintf(buf, cap, "%.1f MB", bytes / 1e6);
    return buf;
}

/* How a volume is named in sentences: a class says so. */
static const char *volume_label(const predict_volume_t *v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", v->name, v->source == PREDICT_CLASS ? " class" : "");
    return buf;
}

/* The verdict a crossover's term gives. */
static verdict_kind_t crossover_verdict(wbm_term_t term)
{
    return term == TERM_READ ? VERDICT_READ : VERDICT_WRITE;
}

/* The thread count from which the volume limits codec c's job, 0 when none is within
 * reach of the memory target's measured range. */
static int crossover_from(const predict_t *f, size_t c, size_t v)
{
    const predict_crossover_t *x = &f->crossovers[c * f->nvolumes + v];
    double reach = ANALYSIS_EXTRAPOLATION_REACH * f->codecs[c].measured_hi;
    if (!(x->threads >= 1.0) || x->threads > reach)
        return 0;
    return figure_threads_from(x->threads);
}

/* The crossover of codec c on volume v in words. */
static void crossover_words(const predict_t *f, size_t c, size_t v, char *buf, size_t cap)
{
    const predict_codec_t *fc = &f->codecs[c];
    const predict_crossover_t *x = &f->crossovers[c * f->nvolumes + v];
    int from = crossover_from(f, c, v);
    buf[0] = '\0';
    if (fc->cpu_model < 0) {
        snprintf(buf, cap, "no model describes the CPU curve, so no crossover is drawn");
        return;
    }
    if (from == 0) {
        snprintf(buf, cap, "the volume does not limit the job within reach of the measured "
                 "range (%d..%d threads; looked up to %.0f)", fc->measured_lo, fc->measured_hi,
                 ANALYSIS_EXTRAPOLATION_REACH * fc->measured_hi);
        return;
    }
    const char *how = x->term == TERM_FLUSH  ? "the flush at the end adds more than the tolerance"
                      : x->term == TERM_READ ? "reading the input comes within the tolerance "
                                               "of the compression"
                                             : "its write time comes within the tolerance of "
                                               "the compression";
    if (from == 1)
        snprintf(buf, cap, "%s from 1 thread: %s (%s model of the CPU curve)",
                 verdict_name(crossover_verdict(x->term)), how,
                 fit_kind_name((fit_kind_t)fc->cpu_model));
    else
        snprintf(buf, cap, "%s from %d threads: %s at T = %.1f (%s model of the CPU curve, "
                 "%s %d..%d threads)", verdict_name(crossover_verdict(x->term)), from, how,
                 x->threads, fit_kind_name((fit_kind_t)fc->cpu_model),
                 x->threads > fc->measured_hi ? "extrapolated beyond the measured" : "measured",
                 fc->measured_lo, fc->measured_hi);
    if (isfinite(x->lo) || isfinite(x->hi)) {
        char lo[16] = "-", hi[16] = "-";
        if (isfinite(x->lo))
            snprintf(lo, sizeof lo, "%.1f", x->lo);
        if (isfinite(x->hi))
            snprintf(hi, sizeof hi, "%.1f", x->hi);
        strbuf_appendf(buf, cap, "; %s..%s within one standard error of the fit", lo, hi);
    }
}

/* What a volume's figures are and what the prediction assumes of it. */
static void volume_words(const predict_volume_t *v, char *buf, size_t cap)
{
    char w[32], r[32], d[32], size[32];
    analysis_format_rate(v->write_bps, w, sizeof w);
    analysis_format_rate(v->read_bps, r, sizeof r);
    analysis_format_rate(v->drain_bps, d, sizeof d);
    buf[0] = '\0';
    switch (v->source) {
    case PREDICT_PROBE:
        strbuf_appendf(buf, cap, "probed now at %s: drain rate %s (%s), write %s, read %s "
                       "(median of %zu repetitions of %s, fsync'd)", v->dir, d, v->drain_source,
                       w, r, v->probe_reps, format_bytes(v->probe_bytes, size, sizeof size));
        if (v->io_cpu_per_byte >= 0.0)
            strbuf_appendf(buf, cap, "; writing costs %.2f s of system CPU per GB",
                           v->io_cpu_per_byte * 1e9);
        if (v->rate_cap_bps > 0.0)
            strbuf_appendf(buf, cap, "; an emulated cap of %s paces the writes",
                           analysis_format_rate(v->rate_cap_bps, d, sizeof d));
        break;
    case PREDICT_PROBE_FILE:
        strbuf_appendf(buf, cap, "from %s (measured by %s, sync %s): drain rate %s (%s), "
                       "write %s, read %s (median of %zu repetitions of %s)", v->probe_file,
                       data_source_name(v->measured_by) ? data_source_name(v->measured_by)
                                                        : "a program not recorded",
                       v->sync[0] ? v->sync : "not recorded", d, v->drain_source, w, r,
                       v->probe_reps, format_bytes(v->probe_bytes, size, sizeof size));
        if (strcmp(v->sync, "none") == 0)
            strbuf_appendf(buf, cap, "; its writes were never synced: the page cache's speed, "
                           "no drain rate");
        break;
    case PREDICT_TYPED:
        strbuf_appendf(buf, cap, "typed: write %s, read %s; no drain-rate measurement: the "
                       "stated write speed is taken as the drain rate, and the I/O path's CPU "
                       "cost as none", w, r);
        break;
    default:
        strbuf_appendf(buf, cap, "storage class %s (%s): write %s, read %s, %s; no drain-rate "
                       "measurement: the class's write speed is taken as the drain rate, and "
                       "the I/O path's CPU cost as none", v->storage_class->name,
                       v->storage_class->description, w, r, STORAGE_CLASS_LABEL);
    }
}

/* The page cache's part in words. */
static void page_cache_words(const predict_report_t *r, char *buf, size_t cap)
{
    const predict_writeback_t *wb = &r->forecast->writeback;
    if (r->meta_path == NULL || !(wb->dirty_background_bytes >= 0.0)) {
        snprintf(buf, cap, "unknown (no meta.json with the host's write-back thresholds): "
                 "each buffered prediction is an interval, from the disk writing while the "
                 "cores compress (no output held in the page cache) to the disk writing after "
                 "them (all of it held to the fsync)");
        return;
    }
    snprintf(buf, cap, "the study host's write-back thresholds (%s): background write-back "
             "from %.2f GB dirty, writers throttled from %.2f GB", r->meta_path,
             wb->dirty_background_bytes / 1e9, wb->dirty_bytes / 1e9);
    if (isfinite(wb->dirty_expire_s))
        strbuf_appendf(buf, cap, ", pages written once %.0f s old", wb->dirty_expire_s);
    if (isfinite(wb->dirty_writeback_s))
        strbuf_appendf(buf, cap, ", the flusher waking every %.0f s", wb->dirty_writeback_s);
    strbuf_appendf(buf, cap, "; an output below the first waits in memory until its fsync");
}

static void cause_words(const predict_point_t *p, char *buf, size_t cap)
{
    if (p->second_cause != CAUSE_UNKNOWN)
        snprintf(buf, cap, "%s+%s", cause_name(p->cause), cause_name(p->second_cause));
    else
        snprintf(buf, cap, "%s", cause_name(p->cause));
}

const char *predict_first_line(const predict_report_t *r, char *buf, size_t cap)
{
    const predict_t *f = r->forecast;
    buf[0] = '\0';
    if (f->npoints == 0 || f->ncodecs == 0)
        return buf;
    /* The first codec at its largest thread count. */
    int T = 0;
    for (size_t i = 0; i < f->npoints; i++)
        if (f->points[i].codec == 0 && f->points[i].threads > T)
            T = f->points[i].threads;
    double fastest = INFINITY;
    size_t best = 0;
    for (size_t v = 0; v < f->nvolumes; v++) {
        const predict_point_t *p = predict_find(f, 0, v, T);
        if (p != NULL && p->prediction.seconds < fastest)
            fastest = p->prediction.seconds, best = v;
    }
    const predict_point_t *first = predict_find(f, 0, 0, T);
    strbuf_appendf(buf, cap, "For %s at %d thread%s%s on %s:", f->codecs[0].codec, T,
                   T == 1 ? "" : "s",
                   first != NULL && first->extrapolated ? " (CPU time extrapolated)" : "",
                   r->machine);
    for (size_t v = 0; v < f->nvolumes; v++) {
        const predict_point_t *p = predict_find(f, 0, v, T);
        char label[RUNS_NAME_MAX + 8], secs[32], notes[160] = "";
        if (p == NULL)
            continue;
        double s = p->prediction.seconds;
        if (v != best) {
            double more = s / fastest - 1.0;
            if (more < 0.01)
                strbuf_appendf(notes, sizeof notes, "within 1%%");
            else
                strbuf_appendf(notes, sizeof notes, "+%.0f%%", 100.0 * more);
        }
        if (p->verdict != VERDICT_CPU) {
            int from = crossover_from(f, 0, v);
            strbuf_appendf(notes, sizeof notes, "%s%s", notes[0] ? ", " : "",
                           verdict_name(p->verdict));
            if (from > 0 && from <= T)
                strbuf_appendf(notes, sizeof notes, " from %d thread%s", from,
                               from == 1 ? "" : "s");
        }
        analysis_format_seconds(s, secs, sizeof secs);
        if (p->seconds_high > 0.0) {
            char high[32];
            strbuf_appendf(secs, sizeof secs, "-%s",
                           analysis_format_seconds(p->seconds_high, high, sizeof high));
        }
        strbuf_appendf(buf, cap, "%s %s %s s%s%s%s", v == 0 ? "" : ",",
                       volume_label(&f->volumes[v], label, sizeof label), secs,
                       notes[0] ? " (" : "", notes, notes[0] ? ")" : "");
    }
    strbuf_appendf(buf, cap, ".");
    return buf;
}

static int stream_status(FILE *out, cp_err_t *err)
{
    if (ferror(out))
        return cp_err_errno(err, CP_EIO, errno ? errno : EIO, "writing the prediction");
    return CP_OK;
}

/* ---- text-like formats, through the renderer ------------------------------------------ */

static void write_check(const predict_report_t *r, const doc_t *d)
{
    FILE *out = d->out;
    const predict_t *f = r->forecast;
    const predict_check_t *c = r->check;
    if (c == NULL)
        return;
    fputc('\n', out);
    char study[2 * PATH_MAX];
    doc_heading(d, 2, "Checked against %s", doc_escape(d, r->check_study, study, sizeof study));
    bool now = c->rows_now > 0;
    static const doc_column_t columns[] = {
        {.title = "volume", .left = true, .width = 14},
        {.title = "target", .left = true, .width = 14},
        {.title = "codec", .left = true, .width = 10},
        {.title = "T", .width = 4},
        {.title = "predicted s", .width = 11},
        {.title = "measured s (min..max, runs)", .text_title = "measured s (min..max, n)",
         .width = 24},
        {.title = "error", .width = 8},
        /* with the check's own memory runs */
        {.title = "memory s, then / in the check", .text_title = "memory s then/check",
         .width = 17, .gap = "   "},
        {.title = "predicted from the check's memory s", .text_title = "from check's memory",
         .width = 19, .gap = "   "},
        {.title = "error", .width = 7},
    };
    const doc_table_t table = {.columns = columns, .ncolumns = now ? 10 : 7, .indent = "  "};
    doc_table_head(d, &table);
    for (size_t i = 0; i < c->nrows; i++) {
        const predict_check_row_t *row = &c->rows[i];
        const predict_point_t *p = &f->points[row->point];
        char a[32], b[32], lo[32], hi[32], measured[96], then_s[32], now_s[32], pred_now[32];
        char cpu[80] = "-", error_now[16] = "-", threads[16], error[16];
        snprintf(measured, sizeof measured, "%s (%s..%s, %zu)",
                 analysis_format_seconds(row->measured_s, b, sizeof b),
                 analysis_format_seconds(row->measured_min_s, lo, sizeof lo),
                 analysis_format_seconds(row->measured_max_s, hi, sizeof hi), row->runs);
        snprintf(pred_now, sizeof pred_now, "-");
        if (!isnan(row->predicted_now_s)) {
            snprintf(cpu, sizeof cpu, "%s / %s",
                     analysis_format_seconds(row->cpu_then_s, then_s, sizeof then_s),
                     analysis_format_seconds(row->cpu_now_s, now_s, sizeof now_s));
            analysis_format_seconds(row->predicted_now_s, pred_now, sizeof pred_now);
            snprintf(error_now, sizeof error_now, "%+.1f%%", 100.0 * row->error_now);
        }
        snprintf(threads, sizeof threads, "%d", p->threads);
        snprintf(error, sizeof error, "%+.1f%%", 100.0 * row->error);
        const char *cells[] = {f->volumes[p->volume].name, row->target,
                               f->codecs[p->codec].codec, threads,
                               analysis_format_seconds(row->predicted_s, a, sizeof a),
                               measured, error, cpu, pred_now, error_now};
        doc_table_row(d, &table, cells, NULL);
    }
    fprintf(out, "%s%zu point%s checked: median error %.1f%%, largest %.1f%% (|predicted - "
            "measured| / measured).\n", doc_aside(d, "  "), c->nrows, c->nrows == 1 ? "" : "s",
            100.0 * c->median_abs_error, 100.0 * c->max_abs_error);
    if (now)
        fprintf(out, "%sThe CPU's speed between the two studies: the memory target's time at T "
                "in each (then / in the check). The same prediction made from the check's own "
                "memory runs, at the CPU speed the volume's runs met: median error %.1f%%, "
                "largest %.1f%% over %zu point%s. The difference between the two errors is "
                "the CPU's, not the volume's.\n", doc_aside(d, "  "),
                100.0 * c->median_abs_error_now, 100.0 * c->max_abs_error_now, c->rows_now,
                c->rows_now == 1 ? "" : "s");
    if (c->unmatched_volumes > 0)
        fprintf(out, "%s%zu predicted volume%s did not run in that study (matched by target "
                "name, or a probed volume by its directory).\n", doc_aside(d, "  "),
                c->unmatched_volumes, c->unmatched_volumes == 1 ? "" : "s");
    if (c->input_mismatches > 0)
        fprintf(out, "%s%zu point%s read an input of another size than the predicting study's: "
                "there the check compares different jobs.\n", doc_aside(d, "  "),
                c->input_mismatches, c->input_mismatches == 1 ? "" : "s");
}

/* A line for each thread count of codec c whose memory runs spread beyond the tolerance:
 * the CPU's speed moved while they ran, and the predictions there start from their
 * median (predict_point_t's cpu_noisy). Nothing when none did. */
static void cpu_spread_words(const predict_t *f, size_t c, const doc_t *d)
{
    for (size_t i = 0; i < f->npoints; i++) {
        const predict_point_t *p = &f->points[i];
        if (p->codec != c || p->volume != 0 || !p->cpu_noisy)
            continue;
        char lo[32], hi[32], mid[32];
        analysis_format_seconds(p->cpu_min_s, lo, sizeof lo);
        analysis_format_seconds(p->cpu_max_s, hi, sizeof hi);
        analysis_format_seconds(p->cpu_s, mid, sizeof mid);
        fprintf(d->out, "%sCPU spread: at %d thread%s its runs took %s-%s s, more than the "
                "%.0f%% tolerance apart: the CPU's speed moved while they ran, and the "
                "predictions at %d thread%s start from their median, %s s (measure again "
                "for a steadier figure).\n", doc_item(d, ""), p->threads,
                p->threads == 1 ? "" : "s", lo, hi, 100.0 * f->tolerance, p->threads,
                p->threads == 1 ? "" : "s", mid);
    }
}

static void write_people(const predict_report_t *r, const doc_t *d)
{
    FILE *out = d->out;
    const predict_t *f = r->forecast;
    char line[2048], shown[4200], words[1536], size_in[32], size_out[32];
    doc_heading(d, 1, "%s", doc_escape(d, predict_first_line(r, line, sizeof line), shown,
                                       sizeof shown));
    doc_section(d, 2, "", "What the predictions assume");
    for (size_t c = 0; c < f->ncodecs; c++) {
        const predict_codec_t *fc = &f->codecs[c];
        char codec[2 * RUNS_NAME_MAX], study[2 * PATH_MAX];
        fprintf(out, "%sCPU: the memory target's runs of %s in %s, %d..%d threads, %s of input "
                "(%s of output)%s.\n", doc_item(d, ""),
                doc_escape(d, fc->codec, codec, sizeof codec),
                doc_escape(d, r->study, study, sizeof study), fc->measured_lo,
                fc->measured_hi, format_bytes(fc->input_bytes, size_in, sizeof size_in),
                format_bytes(fc->output_bytes, size_out, sizeof size_out),
                fc->cpu_model >= 0 ? "" : "; no model describes its CPU curve");
        cpu_spread_words(f, c, d);
    }
    page_cache_words(r, words, sizeof words);
    fprintf(out, "%sPage cache: ", doc_item(d, ""));
    doc_text(d, words);
    fputs(".\n", out);
    fprintf(out, "%sInput: %s.\n", doc_item(d, ""),
            f->same_layout ? "read from each volume (--layout same): its read speed counts"
                           : "read from where the study read it (its time is in the memory "
                             "target's)");
    fputc('\n', out);
    doc_section(d, 2, "Volumes:\n", "Volumes");
    for (size_t v = 0; v < f->nvolumes; v++) {
        volume_words(&f->volumes[v], words, sizeof words);
        fputs(doc_item(d, "  "), out);
        doc_bold(d, f->volumes[v].name);
        fputs(": ", out);
        doc_text(d, words);
        fputs(".\n", out);
    }
    for (size_t c = 0; c < f->ncodecs; c++)
        for (size_t v = 0; v < f->nvolumes; v++) {
            const predict_volume_t *vol = &f->volumes[v];
            fputc('\n', out);
            char codec[2 * RUNS_NAME_MAX], name[2 * RUNS_NAME_MAX];
            doc_heading(d, 2, "%s on %s (%s)",
                        doc_escape(d, f->codecs[c].codec, codec, sizeof codec),
                        doc_escape(d, vol->name, name, sizeof name),
                        predict_source_name(vol->source));
            crossover_words(f, c, v, words, sizeof words);
            doc_label(d, "  ", "crossover");
            fputs(": ", out);
            doc_text(d, words); /* it may name the volume */
            fputs(doc_sentence_end(d), out);
            static const doc_column_t columns[] = {
                {.title = "T", .width = 5},
                {.title = "seconds", .width = 9},
                {.title = "verdict", .left = true, .width = 12, .gap = "  "},
                {.title = "cause", .left = true, .width = 22},
                {.title = "regime", .left = true, .width = 10},
                {.title = "compute", .width = 8},
                {.title = "io-cpu", .width = 8},
                {.title = "read", .width = 8},
                {.title = "write", .width = 8},
                {.title = "flush", .width = 8},
            };
            const doc_table_t table = {.columns = columns, .ncolumns = 10, .indent = "  "};
            doc_table_head(d, &table);
            bool any_extrapolated = false, any_interval = false;
            for (size_t i = 0; i < f->npoints; i++) {
                const predict_point_t *p = &f->points[i];
                if (p->codec != c || p->volume != v)
                    continue;
                char T[16], secs[32], cause[64], parts[TERM_COUNT][32];
                snprintf(T, sizeof T, "%d%s", p->threads, p->extrapolated ? "*" : "");
                any_extrapolated = any_extrapolated || p->extrapolated;
                cause_words(p, cause, sizeof cause);
                for (int t = 0; t < TERM_COUNT; t++)
                    analysis_format_seconds(p->prediction.part_s[t], parts[t], sizeof parts[t]);
                analysis_format_seconds(p->prediction.seconds, secs, sizeof secs);
                if (p->seconds_high > 0.0) { /* "1.20-1.75": the unknown context's interval */
                    char high[32];
                    analysis_format_seconds(p->seconds_high, high, sizeof high);
                    strbuf_appendf(secs, sizeof secs, "-%s", high);
                    any_interval = true;
                }
                const char *cells[] = {T, secs, verdict_name(p->verdict), cause,
                                       wbm_regime_name(p->prediction.regime),
                                       parts[TERM_COMPUTE], parts[TERM_IO_CPU],
                                       parts[TERM_READ], parts[TERM_WRITE], parts[TERM_FLUSH]};
                doc_table_row(d, &table, cells, NULL);
            }
            if (any_interval)
                fprintf(out, "%sa-b: when the disk starts writing is not known here (no "
                        "page-cache thresholds in the study, or a run longer than the "
                        "flusher's period, whose wake-up starts write-back only past the "
                        "device's share of the background threshold, set by every device's "
                        "recent writes): between starting as early as can be (a; its terms "
                        "and verdict shown) and as late (b)\n", doc_aside(d, "  "));
            if (any_extrapolated)
                fprintf(out, "%s* extrapolated: the memory target did not run this thread "
                        "count; its time is the %s model's of the CPU curve, held to the measured "
                        "rates\n", doc_aside(d, "  "),
                        fit_kind_name((fit_kind_t)f->codecs[c].cpu_model));
        }
    fprintf(out, "\nThe terms add up to the seconds: compute is the memory target's time, each "
            "other term what it adds (docs/method.md, \"Predicting another volume\").\n");
    write_check(r, d);
}

/* The prediction in d's style (report_render_fn; view is a const predict_report_t *). */
static int render_prediction(const void *view, const doc_t *d, cp_err_t *err)
{
    write_people(view, d);
    return stream_status(d->out, err);
}

/* ---- JSON ------------------------------------------------------------------------------ */

static json_t *volume_json(const predict_volume_t *v)
{
    char words[1536];
    volume_words(v, words, sizeof words);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(v->name));
    json_object_set_new(o, "source", json_string(predict_source_name(v->source)));
    json_object_set_new(o, "class", v->storage_class ? json_string(v->storage_class->name)
                                                     : json_null());
    json_object_set_new(o, "label", v->storage_class ? json_string(STORAGE_CLASS_LABEL)
                                                     : json_null());
    json_object_set_new(o, "dir", v->dir[0] ? json_string(v->dir) : json_null());
    json_object_set_new(o, "write_bytes_per_s", json_number_or_null(v->write_bps));
    json_object_set_new(o, "read_bytes_per_s", json_number_or_null(v->read_bps));
    json_object_set_new(o, "drain_bytes_per_s", json_number_or_null(v->drain_bps));
    json_object_set_new(o, "drain_source", json_string(v->drain_source));
    json_object_set_new(o, "io_cpu_s_per_byte", json_number_or_null(v->io_cpu_per_byte));
    json_object_set_new(o, "rate_cap_bytes_per_s", json_number_or_null(v->rate_cap_bps));
    json_object_set_new(o, "measured_by", data_source_name(v->measured_by)
                                              ? json_string(data_source_name(v->measured_by))
                                              : json_null());
    json_object_set_new(o, "probe_reps", v->source == PREDICT_PROBE ||
                                                 v->source == PREDICT_PROBE_FILE
                                             ? json_integer((json_int_t)v->probe_reps)
                                             : json_null());
    json_object_set_new(o, "probe_bytes", json_number_or_null(v->probe_bytes));
    json_object_set_new(o, "assumption", json_string(words));
    return o;
}

static json_t *point_json(const predict_t *f, const predict_point_t *p)
{
    const predict_volume_t *v = &f->volumes[p->volume];
    json_t *terms = json_object();
    for (int t = 0; t < TERM_COUNT; t++)
        json_object_set_new(terms, wbm_term_name((wbm_term_t)t),
                            json_number_or_null(p->prediction.part_s[t]));
    json_t *o = json_object();
    json_object_set_new(o, "volume", json_string(v->name));
    json_object_set_new(o, "source", json_string(predict_source_name(v->source)));
    json_object_set_new(o, "codec", json_string(f->codecs[p->codec].codec));
    json_object_set_new(o, "threads", json_integer(p->threads));
    json_object_set_new(o, "seconds", json_number_or_null(p->prediction.seconds));
    json_object_set_new(o, "seconds_high", json_number_or_null(p->seconds_high));
    json_object_set_new(o, "verdict", json_string(verdict_name(p->verdict)));
    json_object_set_new(o, "cause", json_string(cause_name(p->cause)));
    json_object_set_new(o, "second_cause", p->second_cause != CAUSE_UNKNOWN
                                               ? json_string(cause_name(p->second_cause))
                                               : json_null());
    json_object_set_new(o, "regime", json_string(wbm_regime_name(p->prediction.regime)));
    json_object_set_new(o, "terms", terms);
    json_object_set_new(o, "cpu_seconds", json_number_or_null(p->cpu_s));
    json_object_set_new(o, "cpu_min_seconds", json_number_or_null(p->cpu_min_s));
    json_object_set_new(o, "cpu_max_seconds", json_number_or_null(p->cpu_max_s));
    json_object_set_new(o, "cpu_noisy", json_boolean(p->cpu_noisy));
    json_object_set_new(o, "extrapolated", json_boolean(p->extrapolated));
    return o;
}

static json_t *check_json(const predict_report_t *r)
{
    const predict_t *f = r->forecast;
    const predict_check_t *c = r->check;
    if (c == NULL)
        return json_null();
    json_t *points = json_array();
    for (size_t i = 0; i < c->nrows; i++) {
        const predict_check_row_t *row = &c->rows[i];
        const predict_point_t *p = &f->points[row->point];
        json_t *o = json_object();
        json_object_set_new(o, "volume", json_string(f->volumes[p->volume].name));
        json_object_set_new(o, "target", json_string(row->target));
        json_object_set_new(o, "codec", json_string(f->codecs[p->codec].codec));
        json_object_set_new(o, "threads", json_integer(p->threads));
        json_object_set_new(o, "predicted_seconds", json_number_or_null(row->predicted_s));
        json_object_set_new(o, "measured_seconds", json_number_or_null(row->measured_s));
        json_object_set_new(o, "measured_min_seconds", json_number_or_null(row->measured_min_s));
        json_object_set_new(o, "measured_max_seconds", json_number_or_null(row->measured_max_s));
        json_object_set_new(o, "runs", json_integer((json_int_t)row->runs));
        json_object_set_new(o, "error", json_number_or_null(row->error));
        json_object_set_new(o, "memory_seconds", json_number_or_null(row->cpu_then_s));
        json_object_set_new(o, "check_memory_seconds", json_number_or_null(row->cpu_now_s));
        json_object_set_new(o, "predicted_from_check_memory_seconds",
                            json_number_or_null(row->predicted_now_s));
        json_object_set_new(o, "error_from_check_memory", json_number_or_null(row->error_now));
        json_array_append_new(points, o);
    }
    json_t *o = json_object();
    json_object_set_new(o, "study", json_string(r->check_study));
    json_object_set_new(o, "points", points);
    json_object_set_new(o, "median_abs_error", json_number_or_null(c->median_abs_error));
    json_object_set_new(o, "max_abs_error", json_number_or_null(c->max_abs_error));
    json_object_set_new(o, "median_abs_error_from_check_memory",
                        json_number_or_null(c->median_abs_error_now));
    json_object_set_new(o, "max_abs_error_from_check_memory",
                        json_number_or_null(c->max_abs_error_now));
    json_object_set_new(o, "unmatched_volumes", json_integer((json_int_t)c->unmatched_volumes));
    json_object_set_new(o, "input_mismatches", json_integer((json_int_t)c->input_mismatches));
    return o;
}

static int dump_json(json_t *root, FILE *out, cp_err_t *err)
{
    if (root == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory building the JSON");
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc != 0 || fputc('\n', out) == EOF)
        return cp_err_errno(err, CP_EIO, errno ? errno : EIO, "writing the JSON");
    return stream_status(out, err);
}

int predict_write_json(const predict_report_t *r, FILE *out, cp_err_t *err)
{
    const predict_t *f = r->forecast;
    char line[2048], words[1536];
    json_t *root = json_object();
    json_object_set_new(root, "study", json_string(r->study));
    json_object_set_new(root, "machine", json_string(r->machine));
    json_object_set_new(root, "first_line", json_string(predict_first_line(r, line, sizeof line)));
    json_object_set_new(root, "tolerance", json_real(f->tolerance));
    json_object_set_new(root, "layout", json_string(f->same_layout ? "same" : "split"));
    page_cache_words(r, words, sizeof words);
    json_t *cache = json_object();
    json_object_set_new(cache, "source", r->meta_path ? json_string(r->meta_path) : json_null());
    json_object_set_new(cache, "dirty_background_bytes",
                        json_number_or_null(f->writeback.dirty_background_bytes));
    json_object_set_new(cache, "dirty_bytes", json_number_or_null(f->writeback.dirty_bytes));
    json_object_set_new(cache, "dirty_expire_s", json_number_or_null(f->writeback.dirty_expire_s));
    json_object_set_new(cache, "dirty_writeback_s",
                        json_number_or_null(f->writeback.dirty_writeback_s));
    json_object_set_new(cache, "assumption", json_string(words));
    json_object_set_new(root, "page_cache", cache);
    json_t *volumes = json_array(), *codecs = json_array(), *points = json_array(),
           *crossovers = json_array();
    for (size_t v = 0; v < f->nvolumes; v++)
        json_array_append_new(volumes, volume_json(&f->volumes[v]));
    for (size_t c = 0; c < f->ncodecs; c++) {
        const predict_codec_t *fc = &f->codecs[c];
        json_array_append_new(
            codecs, json_pack("{s:s, s:o, s:i, s:i, s:o, s:o}", "codec", fc->codec, "cpu_model",
                              fc->cpu_model >= 0 ? json_string(fit_kind_name((fit_kind_t)fc->cpu_model))
                                                 : json_null(),
                              "measured_threads_min", fc->measured_lo, "measured_threads_max",
                              fc->measured_hi, "input_bytes", json_number_or_null(fc->input_bytes),
                              "output_bytes", json_number_or_null(fc->output_bytes)));
        for (size_t v = 0; v < f->nvolumes; v++) {
            const predict_crossover_t *x = &f->crossovers[c * f->nvolumes + v];
            int from = crossover_from(f, c, v);
            crossover_words(f, c, v, words, sizeof words);
            json_array_append_new(
                crossovers,
                json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:s}", "volume",
                          f->volumes[v].name, "codec", fc->codec, "threads",
                          json_number_or_null(x->threads), "threads_lo", json_number_or_null(x->lo),
                          "threads_hi", json_number_or_null(x->hi), "from_threads",
                          from > 0 ? json_integer(from) : json_null(), "term",
                          x->term != TERM_COUNT ? json_string(wbm_term_name(x->term))
                                                : json_null(),
                          "words", words));
        }
    }
    for (size_t i = 0; i < f->npoints; i++)
        json_array_append_new(points, point_json(f, &f->points[i]));
    json_object_set_new(root, "volumes", volumes);
    json_object_set_new(root, "codecs", codecs);
    json_object_set_new(root, "predictions", points);
    json_object_set_new(root, "crossovers", crossovers);
    json_object_set_new(root, "check", check_json(r));
    return dump_json(root, out, err);
}

/* ---- storage classes ----------------------------------------------------------------- */

/* The classes' table: a terminal's header is shorter, puts each speed's unit in its cell
 * and leaves the sources out (its closing note says where they are). */
static const doc_column_t class_columns[] = {
    {.title = "class", .width = 16, .left = true},
    {.title = "write MB/s", .text_title = "write", .width = 10},
    {.title = "read MB/s", .text_title = "read", .width = 10},
    {.title = "description", .text_title = "what", .left = true, .gap = "  "},
    {.title = "sources", .left = true, .text_hidden = true},
};

/* The storage classes in d's style (report_render_fn; view is unused, NULL). */
static int render_classes(const void *none, const doc_t *d, cp_err_t *err)
{
    (void)none;
    FILE *out = d->out;
    doc_section(d, 1, "", "Storage classes");
    /* The opening's words differ: a terminal's names the option the list is for (a
     * document has its title) and is wrapped for 80 columns. */
    fprintf(out, "%s every cache has filled, %s (decimal MB/s).\n\n",
            doc_pick(d, "Storage classes for 'chokepoint predict --class NAME': sustained "
                        "rates of one large stream\nafter",
                     "Sustained rates of one large stream after"),
            STORAGE_CLASS_LABEL);
    const doc_table_t table = {
        .columns = class_columns, .ncolumns = sizeof class_columns / sizeof class_columns[0]};
    /* A speed's unit: in a terminal's cell, in a document's column title. */
    const char *unit = doc_pick(d, " MB/s", "");
    doc_table_head(d, &table);
    for (size_t i = 0; i < storage_class_count(); i++) {
        const storage_class_t *c = storage_class_at(i);
        char wr[32], rd[32];
        snprintf(wr, sizeof wr, "%5.0f%s", c->write_bps / 1e6, unit);
        snprintf(rd, sizeof rd, "%5.0f%s", c->read_bps / 1e6, unit);
        const char *cells[] = {c->name, wr, rd, c->description, c->sources};
        doc_table_row(d, &table, cells, NULL);
    }
    /* The table ends a document; a terminal, which has no sources column, is told where
     * the sources are. */
    fputs(doc_pick(d, "\nThe sources of each figure (review articles, vendors' data sheets, "
                      "the standards of the\nlinks) and the reasoning: docs/method.md, "
                      "\"Storage classes\"; --format json or markdown\nnames them per "
                      "class.\n",
                   ""),
          out);
    return stream_status(out, err);
}

int storage_classes_write_json(FILE *out, cp_err_t *err)
{
    json_t *classes = json_array();
    for (size_t i = 0; i < storage_class_count(); i++) {
        const storage_class_t *c = storage_class_at(i);
        json_array_append_new(classes,
                              json_pack("{s:s, s:s, s:f, s:f, s:s}", "name", c->name,
                                        "description", c->description, "write_bytes_per_s",
                                        c->write_bps, "read_bytes_per_s", c->read_bps,
                                        "sources", c->sources));
    }
    return dump_json(json_pack("{s:s, s:o}", "label", STORAGE_CLASS_LABEL, "classes", classes),
                     out, err);
}

static int prediction_json(const void *r, FILE *out, cp_err_t *err)
{
    return predict_write_json(r, out, err);
}
const report_document_t predict_document = {
    .render = render_prediction,
    .writers = {[REPORT_FORMAT_JSON] = prediction_json},
};

static int classes_json(const void *none, FILE *out, cp_err_t *err)
{
    (void)none;
    return storage_classes_write_json(out, err);
}
const report_document_t storage_classes_document = {
    .render = render_classes,
    .writers = {[REPORT_FORMAT_JSON] = classes_json},
};
