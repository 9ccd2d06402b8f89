/* predict_check.h - predictions held against a later study that did run on the predicted
 * volumes (`chokepoint predict --check`): predicted and measured median seconds per point,
 * and the errors; and, where the later study ran the memory target too, the same
 * prediction made from its memory runs, which separates what the CPU's speed did between
 * the two studies from what the model said about the volume. Pure computation: no I/O. */
#ifndef CP_MODEL_PREDICT_CHECK_H
#define CP_MODEL_PREDICT_CHECK_H

#include <stddef.h>

#include "common/err.h"
#include "model/analysis.h"
#include "model/predict.h"

typedef struct predict_check_row {
    size_t point;              /* index into the forecast's points */
    char target[RUNS_NAME_MAX]; /* the later study's target that ran on the volume */
    double predicted_s, measured_s; /* measured: the median over its repetitions */
    double measured_min_s, measured_max_s;
    size_t runs;               /* repetitions behind the median */
    double error;              /* (predicted - measured) / measured */
    double input_bytes;        /* the later runs' input (median) */
    /* The CPU between the studies: the compute term (the memory target's time at T) in
     * the predicting study and in the later one, and the prediction made from the later
     * study's memory runs with its error. NAN where the later study has no memory run
     * of that codec and T. */
    double cpu_then_s, cpu_now_s;
    double predicted_now_s, error_now;
} predict_check_row_t;

typedef struct predict_check {
    predict_check_row_t *rows; /* in the forecast's order */
    size_t nrows;
    double median_abs_error, max_abs_error; /* NAN when no row */
    /* The same over the rows that have a prediction from the later study's own memory
     * runs (rows_now of them); NAN when none. */
    double median_abs_error_now, max_abs_error_now;
    size_t rows_now;
    size_t unmatched_volumes;   /* volumes the later study did not run on */
    /* Points whose later runs read a different input size (more than 1% apart) than the
     * study the prediction came from: the check compares different jobs there. */
    size_t input_mismatches;
} predict_check_t;

/* Matches each forecast volume with the later study's series of the same codec: the
 * target of the same name, else (a probed volume) the one whose directory is the probed
 * directory; then pairs every forecast point with that series' point at the same T.
 * at_later (may be NULL) is the same forecast made from the later study's memory runs
 * (the same volumes, in the same order): its points give each row's *_now figures.
 * On success *out is the caller's (predict_check_free); CP_EDATA naming the later study
 * when it ran none of the forecast's points; CP_ENOMEM. */
int predict_check_run(const predict_t *f, const analysis_t *later, const predict_t *at_later,
                      predict_check_t **out, cp_err_t *err);

/* Frees a check; NULL is fine. */
void predict_check_free(predict_check_t *c);

#endif
