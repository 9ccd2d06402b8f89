/* analysis_text.h - an analysis for people: plain text, Markdown or any text-like format
 * (through report_write and the renderer, report/doc_writer.h), and the compact summary.
 *
 * Rates in decimal MB/s or GB/s, each model as an equation, the verdict table, the
 * crossover in words and a what-if line per target. */
#ifndef CP_REPORT_ANALYSIS_TEXT_H
#define CP_REPORT_ANALYSIS_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "common/err.h"
#include "model/analysis.h"
#include "report/report_format.h"

/* Writes the compact answer: one line per series with the verdict at its largest thread
 * count, the rate and its ceilings, then the crossover in words per volume. CP_EIO on
 * write failure. */
int analysis_write_summary(const analysis_t *analysis, FILE *out, cp_err_t *err);

/* The analysis as one document, for report_write with a const analysis_t * as the view:
 * rendered in every text-like format (the answer first, then per series its models as
 * equations, the verdict table, crossovers and what-ifs; CP_EIO with err set when the
 * stream fails), its JSON (report/analysis_json.h) and analysis_write_summary. */
extern const report_document_t analysis_document;

#endif
