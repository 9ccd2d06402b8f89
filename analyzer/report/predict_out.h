/* predict_out.h - `chokepoint predict`'s answer for people (text, Markdown, any text-like
 * format, through report_write and the renderer) and programs (JSON, docs/formats.md
 * "predict --format json"), and the storage classes' list.
 *
 * Every report opens with the answer line (predict_first_line), then says what the
 * predictions assume: the study's CPU curve, the page cache's thresholds, and per volume
 * where its speed comes from (a class: "typical, from published tests", its speed taken as
 * the drain rate). */
#ifndef CP_REPORT_PREDICT_OUT_H
#define CP_REPORT_PREDICT_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "common/err.h"
#include "model/predict.h"
#include "model/predict_check.h"
#include "report/report_format.h"

typedef struct predict_report {
    const predict_t *forecast;
    const char *study;            /* RESULTS_DIR as given */
    const char *meta_path;        /* where the write-back thresholds are from; NULL: unknown */
    const char *machine;          /* "this machine", or "host NAME" (the study's) */
    const predict_check_t *check; /* NULL without --check */
    const char *check_study;      /* RESULTS_DIR2 as given */
} predict_report_t;

/* The answer for the first codec at its largest thread count, e.g. "For zstd:3 at 8
 * threads on this machine: internal 41.2 s, usb 58.0 s (+41%, write-bound from 3
 * threads), tb3-ssd class 41.5 s (within 1%)." (no newline) into buf; returns buf. Each
 * volume after the fastest gets its cost against it; one the model holds back by more
 * than the tolerance names its verdict and, where known, the thread count it starts at. */
const char *predict_first_line(const predict_report_t *r, char *buf, size_t cap);

/* Writes the report as one JSON object to out. CP_EIO with err set when the stream fails;
 * CP_ENOMEM when building the JSON does. */
int predict_write_json(const predict_report_t *r, FILE *out, cp_err_t *err);

/* The storage classes (model/storage_class.h) with their speeds and sources as one JSON
 * object to out. CP_EIO when the stream fails; CP_ENOMEM. */
int storage_classes_write_json(FILE *out, cp_err_t *err);

/* The prediction as one document, for report_write with a const predict_report_t * as
 * the view: rendered in every text-like format, and its JSON. CP_EIO with err set when
 * the stream fails. */
extern const report_document_t predict_document;

/* The storage classes as one document, for report_write with no view (NULL): a table of
 * the classes' speeds in every text-like format (the sources in a column where the back
 * end shows it: not in text, which says where they are), and its JSON. */
extern const report_document_t storage_classes_document;

#endif
