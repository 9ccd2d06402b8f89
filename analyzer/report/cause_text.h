/* cause_text.h - a verdict's cause in words, with the figures it rests on: "write-bound:
 * the output waited in the page cache; its flush took 2.2 s of the 5.7 s run". */
#ifndef CP_REPORT_CAUSE_TEXT_H
#define CP_REPORT_CAUSE_TEXT_H

#include <stddef.h>

#include "model/analysis.h"

/* "emulated" when the volume's write speed is an emulated cap, else "probed". */
const char *write_speed_kind(const analysis_series_t *s);

/* "write-bound (flush-tail)", "balanced (compute + write-throughput)", "unexplained
 * (the model missed)": the verdict and its cause(s), or what an unexplained point's check
 * found, as every table prints them. Returns buf. */
const char *verdict_label(const analysis_verdict_t *v, char *buf, size_t cap);

/* A cause in a user's words, with its figure: "the disk writing at 185 MB/s (O_DIRECT)",
 * "the flush of the page cache at the end (the disk drains 2.26 GB/s)". Returns buf. */
const char *cause_plain_words(const analysis_series_t *s, verdict_cause_t cause, char *buf,
                              size_t cap);

/* The model's decomposition of a point's time ("1.53 s = compute 1.27 s + waiting for the
 * disk 0.26 s"); "" when the point has no prediction. Returns buf. */
const char *decomposition_words(const cause_evidence_t *e, char *buf, size_t cap);

/* Appends to buf what the checks of an unexplained point (v->cause CAUSE_UNKNOWN) found:
 * the model's prediction against the measured time, a write faster than the volume can,
 * or the figures checked without a model; and a hint when the point rests on one run or
 * is noisy. */
void cause_miss_words(const analysis_series_t *s, const analysis_point_t *p,
                      const analysis_verdict_t *v, double tolerance, char *buf, size_t cap);

/* Writes the sentence for verdict v (point p of series s, tolerance as analysed) into
 * buf (always NUL-terminated, truncated to cap). Returns buf. */
const char *cause_words(const analysis_series_t *s, const analysis_point_t *p,
                        const analysis_verdict_t *v, double tolerance, char *buf, size_t cap);

/* Appends to buf[cap] the kernel's figure that witnesses v's cause against its gap to
 * the CPU ceiling ("; its threads were blocked on writes 0.52 s of the 0.61 s gap"), and
 * "(which disagrees)" when it contradicts it; nothing when unknown or not applicable. */
void accounting_words(const analysis_verdict_t *v, char *buf, size_t cap);

/* "the 3.38 s of its median run waited for: writes (the disk) 2.10 s, ..." along its
 * critical path (analysis_path_split), then "; where the 3.38 s went (per thread, over its
 * 4): on a core ..." (analysis_time_split), each when its runs recorded it; "" when they
 * recorded neither. */
const char *time_split_words(const analysis_point_t *p, char *buf, size_t cap);

/* The prediction of point p in words ("predicted 5.69 s (serial: compression, then a
 * 2.24 s flush), measured 5.75 s, +1%"), or "" when p has none. Returns buf. */
const char *prediction_words(const analysis_point_t *p, char *buf, size_t cap);

#endif
