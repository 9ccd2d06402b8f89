/* history_out.h - the result of `chokepoint history` as JSON (docs/formats.md, "history
 * JSON"), as text and as Markdown (the history.md of --plots, with each host's plot). Per
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

/* Writes r as text. CP_EIO on failure. */
int history_write_text(const history_result_t *r, const history_set_t *set,
                       const history_study_t *studies, FILE *out, cp_err_t *err);

/* Writes r as Markdown; plots (NULL, or one set per host of r) adds each host's image and
 * caption. CP_EIO on failure. */
int history_write_markdown(const history_result_t *r, const history_set_t *set,
                           const history_study_t *studies, const plot_set_t *plots,
                           FILE *out, cp_err_t *err);

/* A history as one document, for report_write: the result, the set and studies it was
 * built from, and the plots Markdown shows (NULL for none). Nothing here is owned. */
typedef struct history_doc {
    const history_result_t *r;
    const history_set_t *set;
    const history_study_t *studies;
    const plot_set_t *plots;
} history_doc_t;

/* The history in each document format, for report_write with a const history_doc_t *. */
extern const report_writer_fn history_writers[REPORT_FORMAT_COUNT];

#endif
