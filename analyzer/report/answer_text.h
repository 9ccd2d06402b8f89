/* answer_text.h - the answer first: one plain sentence per target (verdict, cause, what it
 * costs in time, what a faster disk would do), the decision table (target x threads:
 * seconds, verdict and cause, how much slower than memory) and the notes on figures that
 * look wrong (efficiency above 100%, output faster than the probed speed, an unexplained
 * verdict on one repetition, more threads than CPUs), each with its likely reason.
 * analysis_text.c and report.md open with these; the models follow. */
#ifndef CP_REPORT_ANSWER_TEXT_H
#define CP_REPORT_ANSWER_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/analysis.h"
#include "report/doc_writer.h"

/* The sentence for series s at its largest thread count ("usb (zstd:3): write-bound from
 * 3 threads on: ..."), into buf (NUL-terminated, truncated to cap). Returns buf. */
const char *answer_sentence(const analysis_t *a, const analysis_series_t *s, char *buf,
                            size_t cap);

/* The what-if in one form: "this volume writes X MB/s of output (Y MB/s of input); at T
 * threads the job needs Z MB/s of writes to run at CPU speed; a disk writing W MB/s would
 * take S s (measured: M s)". "" for the memory target or without a volume speed. */
const char *answer_whatif(const analysis_t *a, const analysis_series_t *s, char *buf,
                          size_t cap);

/* The remarks on point k of s in a few words ("oversubscribed, noisy"), "" for none. */
const char *answer_point_marks(const analysis_series_t *s, size_t k, char *buf, size_t cap);

/* One line per (target, codec) none of whose runs succeeded, "NAME (CODEC): no result
 * from its N runs: WHY" (run_failure_reason: an exit status and first stderr line), each
 * after prefix (as it is), the line escaped for d (doc_text). */
void answer_write_failed(const analysis_t *a, const doc_t *d, const char *prefix);

/* True when the what-if of s names, beside its buffered speed, a lower one with --sync
 * direct (the answer then says why the two differ, once). */
bool answer_direct_differs(const analysis_series_t *s);

/* The study's one note when its runs are too short or too noisy to judge
 * (analysis_precision_t): what they spread, and the input size or --reps that would
 * judge them; "" when they can judge. Returns buf. */
const char *answer_precision_note(const analysis_t *a, char *buf, size_t cap);

/* The notes under the answer, each at most 30 words, one line each after bullet: the
 * study's precision note, with with_matching the probe matching's notes (a->notes; the
 * loader also logs them), the probe notes, once that blocked-on-I/O times are the
 * machine's (delay accounting off, not root), the series' flagged points, and once why
 * buffered and --sync direct speeds differ. Their detail is in the series' details.
 * Returns how many were written. */
size_t answer_write_notes(const analysis_t *a, const doc_t *d, const char *bullet,
                          bool with_matching);

/* The long form of the notes on s's flagged points (the answer gives each in at most 30
 * words), one line each, for the series' details in d. */
void answer_write_point_details(const analysis_series_t *s, const doc_t *d);

/* Writes the answer section into d (text or Markdown): the sentences, the decision table
 * and the notes. Returns the number of notes written. */
size_t answer_write(const analysis_t *a, const doc_t *d);

#endif
