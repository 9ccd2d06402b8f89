/* report_md.h - report.md: the analysis in Markdown followed by the plots, each embedded
 * with a relative link and one sentence of reading. */
#ifndef CP_REPORT_REPORT_MD_H
#define CP_REPORT_REPORT_MD_H

#include <stdio.h>

#include <jansson.h>

#include "model/analysis.h"
#include "report/plot.h"

/* Writes the report into out: the analysis in Markdown (analysis_document), then a
 * "Plots" section (PNG when made, else SVG; links relative to the directory holding the
 * images, which is where report.md goes). plots may be NULL (no Plots section). When
 * gnuplot was missing the section says so and still gives the captions. Returns 0, or
 * CP_EIO when writing fails (nothing is closed or removed here: the caller owns out). */
int report_markdown_write(FILE *out, const analysis_t *a, const plot_set_t *plots);

/* The one report.md of a results directory, for `run` and `plot` alike: as
 * report_markdown_write, then the "How this was measured" section from meta (the study's
 * meta.json; NULL for a directory without one, which the report then says). */
int report_markdown_write_study(FILE *out, const analysis_t *a, const plot_set_t *plots,
                                const json_t *meta);

#endif
