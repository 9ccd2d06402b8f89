/* cause_text.h - a verdict's cause in words, with the figures it rests on: "write-bound:
 * the output waited in the page cache; its flush took 2.2 s of the 5.7 s run". */
#ifndef CP_REPORT_CAUSE_TEXT_H
#define CP_REPORT_CAUSE_TEXT_H

#include <stddef.h>

#include "model/analysis.h"

/* Writes the sentence for verdict v (point p of series s, tolerance as analysed) into
 * buf (always NUL-terminated, truncated to cap). Returns buf. */
const char *cause_words(const analysis_series_t *s, const analysis_point_t *p,
                        const analysis_verdict_t *v, double tolerance, char *buf, size_t cap);

/* The prediction of point p in words ("predicted 5.69 s (serial: compression, then a
 * 2.24 s flush), measured 5.75 s, +1%"), or "" when p has none. Returns buf. */
const char *prediction_words(const analysis_point_t *p, char *buf, size_t cap);

#endif
