/* probe_summary.h - the probe's rows as a table for people (`chokepoint probe` prints it on
 * stderr); probe.csv itself is written by tables/probe_writer.h. */
#ifndef CP_REPORT_PROBE_SUMMARY_H
#define CP_REPORT_PROBE_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "measure/probe.h"

/* Prints, per target and op, the median MB/s at each size with min and max, and the
 * sustained speed (the median at the largest size; for a --sustained run the overall rate
 * and the slowest and fastest interval). RAM volumes and emulated caps are labelled
 * ("emulated 60 MB/s read cap": a write cap from the write and sustained rows, a read cap
 * from the read rows). rows are not modified; nothing is printed for n == 0. */
void probe_summary_print(FILE *out, const probe_row_t *rows, size_t n);

#endif
