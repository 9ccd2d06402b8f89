/* plot_series.h - private to report/plot*.c: which series each plot shows, so that the
 * data files (plot_data.c) and the captions (plot_captions.c) always agree. */
#ifndef CP_REPORT_PLOT_SERIES_H
#define CP_REPORT_PLOT_SERIES_H

#include <stdbool.h>

#include "model/analysis.h"

#define PLOT_MB 1e6 /* rates and sizes in the data files are decimal MB */

/* The bottleneck plot: a series with a measured write or read ceiling (not mem). */
static inline bool plot_has_volume_ceiling(const analysis_series_t *s)
{
    return !s->cpu_ceiling && (s->write_ceiling_bps > 0.0 || s->read_ceiling_bps > 0.0);
}

/* The ceiling behind the series' crossover: its read or write ceiling. */
static inline double plot_crossover_limit_bps(const analysis_series_t *s)
{
    return s->crossover_limit == VERDICT_READ ? s->read_ceiling_bps : s->write_ceiling_bps;
}

/* Where the bottleneck plot marks the crossover: the model's rate there (the ceiling when
 * the model gave none). */
static inline double plot_crossover_rate_bps(const analysis_series_t *s)
{
    return s->crossover_rate_bps > 0.0 ? s->crossover_rate_bps : plot_crossover_limit_bps(s);
}

/* The rate-against-write-speed plot: a series whose volume write speed is known. */
static inline bool plot_on_rate_vs_write(const analysis_series_t *s)
{
    /* A decompression restoring to memory writes nothing: its volume's write speed
     * says nothing about its rate. */
    return !s->cpu_ceiling && s->write_speed_bps > 0.0 && (!s->decompress || s->restores_to_volume);
}

/* qsort order for doubles, ascending. */
static inline int plot_compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Points per fitted curve in every plot's data: smooth at 1000 px wide. */
#define PLOT_CURVE_SAMPLES 121

#endif
