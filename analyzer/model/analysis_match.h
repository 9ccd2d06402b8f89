/* analysis_match.h - which probe target gives a runs target its speeds, and the notes the
 * analysis adds on that matching and on the probe's own noise. Called by analysis.c while
 * it builds the series; not a public interface outside model/. */
#ifndef CP_MODEL_ANALYSIS_MATCH_H
#define CP_MODEL_ANALYSIS_MATCH_H

#include "model/analysis.h"

/* Matches the series' target with the probe's (probe_target, and read_from to the probe
 * target of the input's volume), by name, else by directory (runs gives each runs
 * target's directory). */
void match_series_probe(analysis_series_t *s, const run_row_t *first, const runs_table_t *runs,
                        const probe_table_t *probe);

/* Adds a's notes on the matching: a warning per runs target that matched no probe target
 * (naming the probe targets left unmatched), a note per match by directory. CP_OK or
 * CP_ENOMEM. */
int match_notes(analysis_t *a, const probe_table_t *probe);

/* a's probe notes (analysis_t.probe_notes) on the probe's figures the analysis uses: one
 * per probe target whose repetitions at the largest size spread more than the tolerance
 * or fall into two groups, or whose reads were bound by the kernel's own work, and one
 * per series that read its input faster than its read ceiling. CP_OK or CP_ENOMEM. */
int probe_noise_notes(analysis_t *a, const probe_table_t *probe, double tolerance);

#endif
