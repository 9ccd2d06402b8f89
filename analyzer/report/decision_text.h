/* decision_text.h - the recommendation reports open with: per codec and thread count, the
 * target that runs the job fastest and what each other target costs against it ("zstd:3
 * at 8 threads: local 3.38 s (+13%), shm 3.00 s (fastest)"). The memory target is the CPU
 * ceiling, not a place for the output, so it is left out; the targets come in the
 * analysis's order (as given on the command line). */
#ifndef CP_REPORT_DECISION_TEXT_H
#define CP_REPORT_DECISION_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "model/analysis.h"
#include "report/doc_writer.h"

/* The line for ceiling c's codec at threads into buf (no newline); "" when no target
 * other than memory ran it. Returns buf. */
const char *decision_line(const analysis_t *a, size_t c, int threads, char *buf, size_t cap);

/* Writes into d one line per codec and thread count that a target other than memory ran,
 * each after prefix (the document's own, as it is), its names escaped for d (doc_text),
 * codecs in the analysis's order, thread counts ascending. Returns the number of lines
 * written. */
size_t decision_write(const analysis_t *a, const doc_t *d, const char *prefix);

#endif
