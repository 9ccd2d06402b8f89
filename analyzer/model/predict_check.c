/* predict_check.c - owns pairing predictions with a later study's medians and their
 * errors (predict_check.h). */
#include "model/predict_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/stats.h"

void predict_check_free(predict_check_t *c)
{
    if (c == NULL)
        return;
    free(c->rows);
    free(c);
}

/* The later series that ran codec on volume v: by name, else by the probed directory. */
static const analysis_series_t *series_for(const analysis_t *later, const predict_volume_t *v,
                                           const char *codec)
{
    const analysis_series_t *by_dir = NULL;
    for (size_t i = 0; i < later->nseries; i++) {
        const analysis_series_t *s = &later->series[i];
        if (s->cpu_ceiling || s->decompress || strcmp(s->run_codec, codec) != 0)
            continue;
        if (strcmp(s->name, v->name) == 0)
            return s;
        if (by_dir == NULL && v->dir[0] != '\0' && strcmp(s->dir, v->dir) == 0)
            by_dir = s;
    }
    return by_dir;
}

/* A prediction's figure nearest the measured time: its point, or for an interval the
 * point of the interval nearest the measurement. */
static double nearest_predicted(const predict_point_t *fp, double measured_s)
{
    if (fp->seconds_high > 0.0)
        return fmin(fmax(measured_s, fp->prediction.seconds), fp->seconds_high);
    return fp->prediction.seconds;
}

/* at's point for the same codec (by name), volume and T as f's point fp; NULL if none. */
static const predict_point_t *same_point(const predict_t *at, const predict_t *f,
                                         const predict_point_t *fp)
{
    if (at == NULL || fp->volume >= at->nvolumes)
        return NULL;
    for (size_t k = 0; k < at->ncodecs; k++)
        if (strcmp(at->codecs[k].codec, f->codecs[fp->codec].codec) == 0)
            return predict_find(at, k, fp->volume, fp->threads);
    return NULL;
}

/* The median and largest of the n absolute errors; NANs when n is 0. */
static void error_summary(double *errors, size_t n, double *median, double *max)
{
    *median = stats_median(errors, n);
    *max = NAN;
    for (size_t i = 0; i < n; i++)
        *max = isnan(*max) ? errors[i] : fmax(*max, errors[i]);
}

int predict_check_run(const predict_t *f, const analysis_t *later, const predict_t *at_later,
                      predict_check_t **out, cp_err_t *err)
{
    *out = NULL;
    predict_check_t *c = calloc(1, sizeof *c);
    double *errors = calloc(f->npoints ? f->npoints : 1, sizeof *errors);
    double *errors_now = calloc(f->npoints ? f->npoints : 1, sizeof *errors_now);
    if (c == NULL || errors == NULL || errors_now == NULL ||
        (c->rows = calloc(f->npoints ? f->npoints : 1, sizeof *c->rows)) == NULL) {
        free(errors);
        free(errors_now);
        predict_check_free(c);
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    for (size_t v = 0; v < f->nvolumes; v++) {
        bool matched = false;
        for (size_t k = 0; k < f->ncodecs; k++)
            matched = matched || series_for(later, &f->volumes[v], f->codecs[k].codec) != NULL;
        c->unmatched_volumes += !matched;
    }
    for (size_t i = 0; i < f->npoints; i++) {
        const predict_point_t *fp = &f->points[i];
        const predict_codec_t *fc = &f->codecs[fp->codec];
        const analysis_series_t *s = series_for(later, &f->volumes[fp->volume], fc->codec);
        const analysis_point_t *p = s != NULL ? analysis_point_at(s, fp->threads) : NULL;
        if (p == NULL || !(fp->prediction.seconds > 0.0))
            continue;
        predict_check_row_t *r = &c->rows[c->nrows];
        r->point = i;
        memcpy(r->target, s->name, sizeof r->target);
        r->predicted_s = nearest_predicted(fp, p->seconds);
        r->measured_s = p->seconds;
        r->measured_min_s = p->seconds_min;
        r->measured_max_s = p->seconds_max;
        r->runs = p->n;
        r->input_bytes = p->input_bytes;
        r->error = (r->predicted_s - r->measured_s) / r->measured_s;
        c->input_mismatches += fabs(p->input_bytes - fc->input_bytes) > 0.01 * fc->input_bytes;
        errors[c->nrows] = fabs(r->error);
        const predict_point_t *now = same_point(at_later, f, fp);
        r->cpu_then_s = fp->cpu_s;
        r->cpu_now_s = r->predicted_now_s = r->error_now = NAN;
        if (now != NULL && !now->extrapolated && now->prediction.seconds > 0.0) {
            r->cpu_now_s = now->cpu_s;
            r->predicted_now_s = nearest_predicted(now, p->seconds);
            r->error_now = (r->predicted_now_s - r->measured_s) / r->measured_s;
            errors_now[c->rows_now++] = fabs(r->error_now);
        }
        c->nrows++;
    }
    error_summary(errors, c->nrows, &c->median_abs_error, &c->max_abs_error);
    error_summary(errors_now, c->rows_now, &c->median_abs_error_now, &c->max_abs_error_now);
    free(errors);
    free(errors_now);
    if (c->nrows == 0) {
        predict_check_free(c);
        return cp_err_set(err, CP_EDATA, "--check %s: it ran none of the predicted points "
                          "(no target named as a predicted volume, or on its directory, with "
                          "the same codec and thread count)", later->runs_path);
    }
    *out = c;
    return CP_OK;
}
