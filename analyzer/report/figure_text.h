/* figure_text.h - figures in words as every output writes them: rates in decimal units,
 * durations, fitted models as equations, and series by name. Pure formatting into caller
 * buffers. */
#ifndef CP_REPORT_FIGURE_TEXT_H
#define CP_REPORT_FIGURE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/analysis.h"
#include "model/fit.h"

/* Formats a rate in bytes/s as "310 MB/s" / "1.23 GB/s" (decimal units) into buf;
 * "-" for NAN. Returns buf. */
const char *analysis_format_rate(double bytes_per_s, char *buf, size_t cap);

/* Formats seconds for people with three significant figures or more: "0.563", "3.38",
 * "41.2", "138"; "-" for NAN. Returns buf. */
const char *analysis_format_seconds(double seconds, char *buf, size_t cap);

/* Formats a fitted model as an equation ("time = 49.9 / T^0.912",
 * "rate = 0.046 + 0.264 x T GB/s") into buf, or "skipped: REASON". Returns buf. */
const char *analysis_format_model(const fit_result_t *model, char *buf, size_t cap);

/* The same with rate equations in a fixed unit (rate_scale bytes/s per unit, e.g. 1e6 and
 * "MB/s", as a plot's axis); rate_scale 0 picks the unit as analysis_format_model does. */
const char *analysis_format_model_in(const fit_result_t *model, double rate_scale,
                                     const char *rate_unit_name, char *buf, size_t cap);

/* How reports name a series: "usb (zstd:3)", or "usb" without a codec. With mark_unpaced
 * an unpaced series says so: "usb (zstd:3, unpaced)", "usb (unpaced)". Returns buf. */
const char *figure_series_label(const analysis_series_t *s, bool mark_unpaced, char *buf,
                                size_t cap);

/* The first whole thread count at or past a crossover at T = crossover_threads as the
 * reports print it, to one decimal ("T = 6.0" gives 6, "T = 1.6" gives 2); 1 at or below
 * one thread. */
int figure_from_threads(double crossover_threads);

#endif
