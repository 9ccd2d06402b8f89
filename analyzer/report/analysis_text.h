/* analysis_text.h - an analysis for people: plain text or Markdown.
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

/* Writes the text report to out. CP_EIO with err set when writing fails. */
int analysis_write_text(const analysis_t *analysis, FILE *out, cp_err_t *err);

/* Writes the Markdown report (headings and tables) to out. CP_EIO on write failure. */
int analysis_write_markdown(const analysis_t *analysis, FILE *out, cp_err_t *err);

/* Writes the compact answer: one line per series with the verdict at its largest thread
 * count, the rate and its ceilings, then the crossover in words per volume. CP_EIO on
 * write failure. */
int analysis_write_summary(const analysis_t *analysis, FILE *out, cp_err_t *err);

/* The analysis in each format analyze writes (REPORT_FORMATS_ANALYZE), for report_write
 * with a const analysis_t * as the document. */
extern const report_writer_fn analysis_writers[REPORT_FORMAT_COUNT];

#endif
