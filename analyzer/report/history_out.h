/* history_out.h - the result of `chokepoint history` as JSON (docs/formats.md, "history
 * JSON"), as text, as Markdown (the history.md of --plots, with each host's plot) and any
 * other text-like format, through report_write and the renderer (report/doc_writer.h). Per
 * host: its studies oldest first, the rate table (target, codec, threads x study), and the
 * latest study against the one before it as compare reports it (report/compare_out.h). */
#ifndef CP_REPORT_HISTORY_OUT_H
#define CP_REPORT_HISTORY_OUT_H

#include <stdio.h>

#include "common/err.h"
#include "model/history.h"
#include "report/plot.h"
#include "report/report_format.h"
#include "tables/history_load.h"

/* Writes r (built from set's studies, in set's order) as one JSON object to out, the
 * skipped directories included. CP_EIO or CP_ENOMEM on failure. */
int history_write_json(const history_result_t *r, const history_set_t *set,
                       const history_study_t *studies, FILE *out, cp_err_t *err);

/* A history as one document, for report_write: the result, the set and studies it was
 * built from, and the plots Markdown shows (NULL for none). Nothing here is owned. */
typedef struct history_doc {
    const history_result_t *r;
    const history_set_t *set;
    const history_study_t *studies;
    const plot_set_t *plots;
} history_doc_t;

/* The history as one document, for report_write with a const history_doc_t * as the
 * view: rendered in every text-like format (in Markdown with plots, NULL or one set per
 * host of r, each host's images and captions), and its JSON. CP_EIO or CP_ENOMEM with
 * err set on failure. */
extern const report_document_t history_document;

#endif
