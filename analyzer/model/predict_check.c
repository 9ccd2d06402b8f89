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

int predict_check_run(const predict_t *f, const analysis_t *later, predict_check_t **out,
                      cp_err_t *err)
{
    *out = NULL;
    predict_check_t *c = calloc(1, sizeof *c);
    double *errors = calloc(f->npoints ? f->npoints : 1, sizeof *errors);
    if (c == NULL || errors == NULL ||
        (c->rows = calloc(f->npoints ? f->npoints : 1, sizeof *c->rows)) == NULL) {
        free(errors);
        predict_check_free(c);
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    for (size_t v = 0; v < f->nvolumes; v++) {
        bool matched = false;
        for (size_t k = 0; k < f->ncodecs; k++)
            matched = matched || series_for(later, &f->volumes[v], f->codecs[k].codec) != NULL;
        c->unmatched_volumes += !matched;
    }
    c->max_abs_error = NAN;
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
        r->predicted_s = fp->prediction.seconds;
        if (fp->seconds_high > 0.0) /* an interval: its point nearest the measured time */
            r->predicted_s = fmin(fmax(p->seconds, fp->prediction.seconds), fp->seconds_high);
        r->measured_s = p->seconds;
        r->measured_min_s = p->seconds_min;
        r->measured_max_s = p->seconds_max;
        r->runs = p->n;
        r->input_bytes = p->input_bytes;
        r->error = (r->predicted_s - r->measured_s) / r->measured_s;
        c->input_mismatches += fabs(p->input_bytes - fc->input_bytes) > 0.01 * fc->input_bytes;
        errors[c->nrows] = fabs(r->error);
        c->max_abs_error = isnan(c->max_abs_error) ? errors[c->nrows]
                                                   : fmax(c->max_abs_error, errors[c->nrows]);
        c->nrows++;
    }
    c->median_abs_error = stats_median(errors, c->nrows);
    free(errors);
    if (c->nrows == 0) {
        predict_check_free(c);
        return cp_err_set(err, CP_EDATA, "--check %s: it ran none of the predicted points "
                          "(no target named as a predicted volume, or on its directory, with "
                          "the same codec and thread count)", later->runs_path);
    }
    *out = c;
    return CP_OK;
}
