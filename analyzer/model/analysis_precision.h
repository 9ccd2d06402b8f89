/* analysis_precision.h - whether a study's repetitions can judge a difference of the
 * tolerance: from their own spread, a study too short (or too noisy) to judge, and the
 * repetitions or input size that would judge it (docs/method.md, "Too short to judge").
 * Called by analysis.c once the points are built; not a public interface outside model/. */
#ifndef CP_MODEL_ANALYSIS_PRECISION_H
#define CP_MODEL_ANALYSIS_PRECISION_H

#include "model/analysis.h"

/* Fills a->precision from every series' points (scratch: room for one double per
 * point of the study). A point's runs give its spread, (max - min) / median; over the
 * points with two or more runs, the median spread over the range's expected multiple of
 * the standard deviation for that many runs is one run's relative noise s. The medians
 * judge the tolerance tau when twice a median's standard error (1.2533 s / sqrt(n), n the
 * median repetitions) is within tau; else the study is too short, and
 * reps_needed = ceil((2 x 1.2533 s / tau)^2) repetitions, or an input
 * reps_needed / n times as large (a run's noise averaged over a longer run as over more
 * runs), would judge it. Fewer than two such points: not judged (points 0). */
void precision_judge(analysis_t *a, double *scratch);

#endif
