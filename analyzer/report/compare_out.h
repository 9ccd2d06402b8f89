/* compare_out.h - the result of `chokepoint compare` as JSON (docs/formats.md, "compare
 * JSON"), as text for a terminal, as Markdown (the compare.md of --plots, with the plots
 * and their captions when given) and any other text-like format, through report_write and
 * the renderer (report/doc_writer.h). */
#ifndef CP_REPORT_COMPARE_OUT_H
#define CP_REPORT_COMPARE_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "common/err.h"
#include "model/compare.h"
#include "report/doc_writer.h"
#include "report/plot.h"
#include "report/report_format.h"

/* Writes r as one JSON object to out; studies[0..n) are the studies compared (for their
 * labels). CP_EIO or CP_ENOMEM on failure. */
int compare_write_json(const compare_result_t *r, const compare_study_t *studies, size_t n,
                       FILE *out, cp_err_t *err);

/* The object compare_write_json writes, for embedding (history's JSON); the caller owns
 * the reference (json_decref). NULL when out of memory. */
json_t *compare_result_json(const compare_result_t *r, const compare_study_t *studies,
                            size_t n);

/* Per pair its heading (level in Markdown), table, fitted figures and summary, in d's
 * style: the body of compare_document's text-like formats, and history's latest against
 * the one before. Nothing is kept. CP_EIO when out has an error. */
int compare_write_pairs(const compare_result_t *r, const compare_study_t *studies,
                        const doc_t *d, int level, cp_err_t *err);

/* A comparison as one document, for report_write: the result, the studies[0..n) compared
 * and the plots Markdown shows (NULL for none). Nothing here is owned. */
typedef struct compare_doc {
    const compare_result_t *r;
    const compare_study_t *studies;
    size_t n;
    const plot_set_t *plots;
} compare_doc_t;

/* The comparison as one document, for report_write with a const compare_doc_t * as the
 * view: rendered in every text-like format (per pair a table of thread counts with the
 * ratio, its interval and the call, then the fitted figures and changed verdicts; in
 * Markdown the plots' images and captions after the tables), and its JSON. CP_EIO or
 * CP_ENOMEM with err set on failure. */
extern const report_document_t compare_document;

/* The regression c of pair p in words for an error line, into buf: "disk (zstd:3) at 4
 * threads, B/A 0.820 (410.0 against 500.0 MB/s)"; "a (codec) -> b (codec)" when the pair
 * joins two targets. Returns buf. */
const char *compare_regression_text(const compare_pair_t *p, const compare_point_t *c,
                                    char *buf, size_t cap);

/* One sentence for pair p: how many points were slower, faster or the same, and the
 * largest change, into buf. */
void compare_pair_summary(const compare_result_t *r, const compare_pair_t *p, char *buf,
                          size_t cap);

#endif
