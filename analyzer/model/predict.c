/* predict.c - owns the prediction for a volume the study did not run on: the series
 * analyze would build for it, and analyze's own prediction and crossover (predict.h). */
#include "model/predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis_explain.h"

const char *predict_source_name(predict_source_t source)
{
    switch (source) {
    case PREDICT_PROBE: return "probe";
    case PREDICT_PROBE_FILE: return "probe-file";
    case PREDICT_TYPED: return "typed";
    default: return "class";
    }
}

static void copy_name(char out[RUNS_NAME_MAX], const char *name)
{
    snprintf(out, RUNS_NAME_MAX, "%s", name != NULL ? name : "");
}

/* A volume whose stated write speed is taken as its drain rate. */
static predict_volume_t stated_volume(const char *name, predict_source_t source,
                                      double write_bps, double read_bps)
{
    predict_volume_t v = {0};
    copy_name(v.name, name);
    v.source = source;
    v.write_bps = write_bps;
    v.read_bps = read_bps > 0.0 ? read_bps : NAN;
    v.drain_bps = write_bps;
    v.drain_source = predict_source_name(source);
    v.io_cpu_per_byte = NAN;
    v.rate_cap_bps = NAN;
    v.probe_bytes = NAN;
    return v;
}

predict_volume_t predict_volume_typed(const char *name, double write_bps, double read_bps)
{
    return stated_volume(name, PREDICT_TYPED, write_bps, read_bps);
}

predict_volume_t predict_volume_class(const char *name, const storage_class_t *c)
{
    predict_volume_t v = stated_volume(name, PREDICT_CLASS, c->write_bps, c->read_bps);
    v.storage_class = c;
    return v;
}

int predict_volume_probed(const char *name, const char *dir, const probe_table_t *probe,
                          const char *target, double rate_cap_bps, predict_volume_t *out,
                          cp_err_t *err)
{
    /* The analysis's own choice of drain rate and I/O cost for a target probed so. */
    analysis_series_t s = {0};
    copy_name(s.name, name);
    copy_name(s.probe_target, target);
    snprintf(s.sync, sizeof s.sync, "fsync");
    s.rate_cap_bps = rate_cap_bps > 0.0 ? rate_cap_bps : NAN;
    s.write_bps = probe_table_speed(probe, target, PROBE_OP_WRITE);
    if (!(s.write_bps > 0.0))
        return cp_err_set(err, CP_EDATA, "the probe of %s measured no write speed", name);
    s.ram = 0;
    double largest = NAN;
    for (size_t i = 0; i < probe->nrows; i++) {
        const probe_speed_row_t *r = &probe->rows[i];
        if (strcmp(r->target, target) != 0 || r->op != PROBE_OP_WRITE)
            continue;
        if (r->ram == 1)
            s.ram = 1;
        if (r->disk_emulated)
            s.disk_emulated = true;
        if (!(r->size_bytes <= largest))
            largest = r->size_bytes;
    }
    explain_series_drain(&s, probe);

    predict_volume_t v = stated_volume(name, PREDICT_PROBE, s.write_bps,
                                       probe_table_speed(probe, target, PROBE_OP_READ));
    snprintf(v.dir, sizeof v.dir, "%s", dir != NULL ? dir : "");
    v.drain_bps = s.drain_bps;
    v.drain_source = s.drain_source;
    v.io_cpu_per_byte = s.io_cpu_per_byte;
    v.rate_cap_bps = s.rate_cap_bps;
    v.disk_emulated = s.disk_emulated;
    double lo, hi;
    size_t reps = 0;
    if (probe_table_spread(probe, target, PROBE_OP_WRITE, &lo, &hi, &reps))
        v.probe_reps = reps;
    v.probe_bytes = largest;
    v.measured_by = probe_table_source(probe, target);
    *out = v;
    return CP_OK;
}

/* The sync mode of a target's write rows: "direct", "none", "fsync" or "mixed". */
static void table_write_sync(const probe_table_t *probe, const char *target, char out[16])
{
    out[0] = '\0';
    for (size_t i = 0; i < probe->nrows; i++) {
        const probe_speed_row_t *r = &probe->rows[i];
        if (r->op != PROBE_OP_WRITE || strcmp(r->target, target) != 0)
            continue;
        const char *sync = r->direct ? "direct" : r->page_cache ? "none" : "fsync";
        snprintf(out, 16, "%s", out[0] == '\0' || strcmp(out, sync) == 0 ? sync : "mixed");
    }
}

int predict_volume_from_table(const probe_table_t *probe, const char *target,
                              predict_volume_t *out, cp_err_t *err)
{
    const char *dir = "";
    for (size_t i = 0; i < probe->nrows; i++)
        if (strcmp(probe->rows[i].target, target) == 0 && probe->rows[i].dir[0] != '\0')
            dir = probe->rows[i].dir;
    double cap = NAN;
    if (!probe_table_emulated(probe, target, PROBE_OP_WRITE, &cap) || !(cap > 0.0))
        cap = NAN;
    int rc = predict_volume_probed(target, dir, probe, target, cap, out, err);
    if (rc != CP_OK)
        return rc;
    out->source = PREDICT_PROBE_FILE;
    snprintf(out->probe_file, sizeof out->probe_file, "%s", probe->path);
    table_write_sync(probe, target, out->sync);
    return CP_OK;
}

predict_request_t predict_defaults(void)
{
    return (predict_request_t){
        .writeback = {NAN, NAN, NAN, NAN},
        .tolerance = 0.10,
    };
}

void predict_free(predict_t *f)
{
    if (f == NULL)
        return;
    free(f->volumes);
    free(f->codecs);
    free(f->points);
    free(f->crossovers);
    free(f);
}

const predict_point_t *predict_find(const predict_t *f, size_t codec, size_t volume,
                                    int threads)
{
    for (size_t i = 0; i < f->npoints; i++) {
        const predict_point_t *p = &f->points[i];
        if (p->codec == codec && p->volume == volume && p->threads == threads)
            return p;
    }
    return NULL;
}

/* The memory series of ceiling c when it is a compression's; NULL otherwise. */
static const analysis_series_t *compression_mem(const analysis_ceiling_t *c)
{
    return c->mem != NULL && !c->mem->decompress ? c->mem : NULL;
}

/* The measured point of mem with the largest thread count not above threads (the first
 * point when all are above): the bytes, work and thresholds a T it did not run is given. */
static const analysis_point_t *base_point(const analysis_series_t *mem, int threads)
{
    const analysis_point_t *base = &mem->points[0];
    for (size_t k = 0; k < mem->npoints; k++)
        if (mem->points[k].threads <= threads)
            base = &mem->points[k];
    return base;
}

/* Lists the codecs with memory runs into buf, for messages. */
static const char *codec_list(const analysis_t *a, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t c = 0; c < a->nceilings && len < cap; c++)
        if (compression_mem(&a->ceilings[c]) != NULL)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "",
                                    compression_mem(&a->ceilings[c])->run_codec);
    return buf[0] ? buf : "none";
}

/* True when a has memory runs and all of them are decompressions. */
static bool decompression_only(const analysis_t *a)
{
    bool any = false;
    for (size_t c = 0; c < a->nceilings; c++) {
        if (a->ceilings[c].mem == NULL)
            continue;
        if (!a->ceilings[c].mem->decompress)
            return false;
        any = true;
    }
    return any;
}

/* Fills f->codecs from the request. */
static int choose_codecs(const analysis_t *a, const predict_request_t *r, predict_t *f,
                         cp_err_t *err)
{
    char have[512];
    if (decompression_only(a))
        return cp_err_set(err, CP_EDATA, "%s: a decompression study: predict forecasts a "
                          "compression's writes to another volume, not a decompression's "
                          "reads from it; compare the volumes with 'chokepoint run "
                          "--decompress' on each", a->runs_path);
    f->codecs = calloc(a->nceilings ? a->nceilings : 1, sizeof *f->codecs);
    if (f->codecs == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    size_t wanted = r->codecs != NULL ? r->ncodecs : a->nceilings;
    for (size_t i = 0; i < wanted; i++) {
        size_t found = a->nceilings;
        for (size_t c = 0; c < a->nceilings && found == a->nceilings; c++) {
            const analysis_series_t *mem = compression_mem(&a->ceilings[c]);
            if (mem != NULL && (r->codecs == NULL ? c == i
                                                  : strcmp(mem->run_codec, r->codecs[i]) == 0))
                found = c;
        }
        if (found == a->nceilings) {
            if (r->codecs == NULL)
                continue;
            return cp_err_set(err, CP_EUSAGE, "--codec %s: the study has no memory-target "
                              "runs of it (it has: %s)", r->codecs[i],
                              codec_list(a, have, sizeof have));
        }
        bool duplicate = false;
        for (size_t k = 0; k < f->ncodecs; k++)
            duplicate = duplicate || f->codecs[k].ceiling == found;
        if (duplicate)
            continue;
        const analysis_ceiling_t *ceil = &a->ceilings[found];
        const analysis_series_t *mem = ceil->mem;
        predict_codec_t *fc = &f->codecs[f->ncodecs++];
        copy_name(fc->codec, mem->run_codec);
        fc->ceiling = found;
        fc->cpu_model = mem->best_rate_model;
        fc->measured_lo = mem->points[0].threads;
        fc->measured_hi = mem->points[mem->npoints - 1].threads;
        fc->input_bytes = mem->points[mem->npoints - 1].input_bytes;
        fc->output_bytes = mem->points[mem->npoints - 1].output_bytes;
    }
    if (f->ncodecs == 0)
        return cp_err_set(err, CP_EDATA, "%s: no runs on the memory target ('mem') to take "
                          "the CPU time from", a->runs_path);
    return CP_OK;
}

/* The thread counts of codec fc: the request's, each either measured or within reach of a
 * model that describes the CPU curve; else the memory target's own. *out is malloc'd. */
static int choose_threads(const analysis_t *a, const predict_request_t *r,
                          const predict_codec_t *fc, int **out, size_t *n, cp_err_t *err)
{
    const analysis_series_t *mem = a->ceilings[fc->ceiling].mem;
    size_t count = r->threads != NULL ? r->nthreads : mem->npoints;
    *out = calloc(count ? count : 1, sizeof **out);
    if (*out == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    *n = count;
    for (size_t i = 0; i < count; i++) {
        int T = r->threads != NULL ? r->threads[i] : mem->points[i].threads;
        (*out)[i] = T;
        if (analysis_point_at(mem, T) != NULL)
            continue;
        if (mem->best_rate_model < 0)
            return cp_err_set(err, CP_EUSAGE, "--threads %d: the memory target ran %s at "
                              "%d..%d threads and no model describes its CPU curve, so %d "
                              "threads cannot be predicted", T, fc->codec, fc->measured_lo,
                              fc->measured_hi, T);
        if (T > ANALYSIS_EXTRAPOLATION_REACH * fc->measured_hi)
            return cp_err_set(err, CP_EUSAGE, "--threads %d: beyond reach of the memory "
                              "target's %d..%d threads of %s (at most %.0f)", T,
                              fc->measured_lo, fc->measured_hi, fc->codec,
                              ANALYSIS_EXTRAPOLATION_REACH * fc->measured_hi);
    }
    return CP_OK;
}

/* The series the analysis would have for volume v had the study run codec fc on it, its
 * points at threads[0..n) from the memory target's runs (points: n, the caller's). */
static analysis_series_t volume_series(const analysis_t *a, const predict_t *f,
                                       const predict_codec_t *fc, const predict_volume_t *v,
                                       const int *threads, size_t n, analysis_point_t *points)
{
    const analysis_series_t *mem = a->ceilings[fc->ceiling].mem;
    analysis_series_t s = {0};
    copy_name(s.name, v->name);
    copy_name(s.codec, fc->codec);
    copy_name(s.run_codec, fc->codec);
    snprintf(s.sync, sizeof s.sync, "fsync");
    s.ram = isinf(v->drain_bps) ? 1 : 0;
    s.emulated = v->rate_cap_bps > 0.0 ? 1 : 0;
    s.rate_cap_bps = v->rate_cap_bps;
    s.disk_emulated = v->disk_emulated;
    s.read_cap_bps = NAN;
    s.same_layout = f->same_layout;
    s.write_bps = v->write_bps;
    s.read_bps = f->same_layout ? v->read_bps : NAN;
    s.drain_bps = v->drain_bps;
    s.drain_source = v->drain_source;
    s.io_cpu_per_byte = v->io_cpu_per_byte;
    s.output_ratio = fc->output_bytes / fc->input_bytes;
    s.write_speed_bps = explain_write_speed(&s);
    s.write_ceiling_bps = verdict_write_ceiling(s.write_speed_bps, s.output_ratio);
    s.read_ceiling_bps = s.read_bps;
    s.ceiling = fc->ceiling;
    for (size_t i = 0; i < n; i++) {
        const analysis_point_t *base = base_point(mem, threads[i]);
        analysis_point_t *p = &points[i];
        memset(p, 0, sizeof *p);
        p->threads = threads[i];
        p->n = 0;
        p->input_bytes = base->input_bytes;
        p->output_bytes = base->output_bytes;
        p->dirty_background_bytes = f->writeback.dirty_background_bytes;
        p->dirty_bytes = f->writeback.dirty_bytes;
        p->dirty_expire_s = f->writeback.dirty_expire_s;
        p->dirty_writeback_s = f->writeback.dirty_writeback_s;
        p->online_cpus = base->online_cpus;
        p->block_bytes = base->block_bytes;
        /* The compressors' work hardly changes with T (the crossover takes it so too). */
        p->mem_cpu_work_s = base->cpu_user_s + base->cpu_sys_s;
    }
    s.points = points;
    s.npoints = n;
    return s;
}

/* Fills fp's compute term for input_bytes from the memory target at fp's T: its measured
 * point (cpu_s from its rate; cpu_min_s and cpu_max_s from its fastest and slowest
 * repetition, scaled alike, and cpu_noisy as the point's) or, where it did not run T, its
 * best model's rate held to the measured rates (analysis_ceiling_rate_at; extrapolated,
 * no spread). Returns that rate, bytes per second. */
static double cpu_at(const analysis_ceiling_t *ceil, double input_bytes, predict_point_t *fp)
{
    const analysis_point_t *p = analysis_point_at(ceil->mem, fp->threads);
    double bps = p != NULL ? p->bytes_per_s : analysis_ceiling_rate_at(ceil, fp->threads);
    fp->extrapolated = p == NULL;
    fp->cpu_s = input_bytes / bps;
    fp->cpu_min_s = fp->cpu_max_s = NAN;
    fp->cpu_noisy = false;
    if (p != NULL && p->n >= 2 && p->seconds > 0.0) {
        double scale = fp->cpu_s / p->seconds;
        fp->cpu_min_s = p->seconds_min * scale;
        fp->cpu_max_s = p->seconds_max * scale;
        fp->cpu_noisy = p->noisy;
    }
    return bps;
}

/* Forecasts codec c on every volume at threads[0..n). */
static int predict_codec(const analysis_t *a, predict_t *f, size_t c, const int *threads,
                         size_t n, cp_err_t *err)
{
    const predict_codec_t *fc = &f->codecs[c];
    const analysis_ceiling_t *ceil = &a->ceilings[fc->ceiling];
    analysis_point_t *points = calloc(n ? n : 1, sizeof *points);
    predict_point_t *grown = realloc(f->points, (f->npoints + n * f->nvolumes + 1) *
                                                     sizeof *f->points);
    if (points == NULL || grown == NULL) {
        free(points);
        if (grown != NULL)
            f->points = grown;
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    f->points = grown;
    for (size_t v = 0; v < f->nvolumes; v++) {
        analysis_series_t s = volume_series(a, f, fc, &f->volumes[v], threads, n, points);
        for (size_t i = 0; i < n; i++) {
            predict_point_t *fp = &f->points[f->npoints++];
            memset(fp, 0, sizeof *fp);
            fp->volume = v;
            fp->codec = c;
            fp->threads = threads[i];
            double cpu_bps = cpu_at(ceil, points[i].input_bytes, fp);
            fp->prediction = explain_point_prediction(&s, &points[i], cpu_bps);
            fp->seconds_high = explain_late_seconds(&s, &points[i], cpu_bps);
            verdict_decision_t d = verdict_decide(&fp->prediction, f->tolerance);
            fp->verdict = d.verdict;
            fp->cause = d.cause;
            fp->second_cause = d.second_cause;
        }
        explain_crossover(&s, ceil, f->tolerance);
        f->crossovers[c * f->nvolumes + v] = (predict_crossover_t){
            s.crossover_threads, s.crossover_lo, s.crossover_hi, s.crossover_term};
    }
    free(points);
    return CP_OK;
}

int predict_run(const analysis_t *a, const predict_volume_t *volumes, size_t n,
                const predict_request_t *request, predict_t **out, cp_err_t *err)
{
    *out = NULL;
    predict_request_t r = request != NULL ? *request : predict_defaults();
    if (!(r.tolerance >= 0.0 && r.tolerance < 1.0))
        return cp_err_set(err, CP_EUSAGE, "tolerance %g is not in [0, 1)", r.tolerance);
    if (n == 0)
        return cp_err_set(err, CP_EUSAGE, "no volume to predict: give --volume, --write or "
                          "--class");
    predict_t *f = calloc(1, sizeof *f);
    if (f == NULL || (f->volumes = calloc(n, sizeof *f->volumes)) == NULL) {
        predict_free(f);
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    memcpy(f->volumes, volumes, n * sizeof *volumes);
    f->nvolumes = n;
    f->writeback = r.writeback;
    f->same_layout = r.same_layout;
    f->tolerance = r.tolerance;
    int rc = choose_codecs(a, &r, f, err);
    if (rc == CP_OK && (f->crossovers = calloc(f->ncodecs * n, sizeof *f->crossovers)) == NULL)
        rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    for (size_t c = 0; rc == CP_OK && c < f->ncodecs; c++) {
        int *threads = NULL;
        size_t nthreads = 0;
        rc = choose_threads(a, &r, &f->codecs[c], &threads, &nthreads, err);
        if (rc == CP_OK)
            rc = predict_codec(a, f, c, threads, nthreads, err);
        free(threads);
    }
    if (rc != CP_OK) {
        predict_free(f);
        return rc;
    }
    *out = f;
    return CP_OK;
}
