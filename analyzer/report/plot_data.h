/* plot_data.h - the data files gnuplot reads, written into RESULTS_DIR/plot-data/: medians
 * with min/max per series, dense curves sampled from the fitted models, ceilings,
 * crossovers, probe speeds, and vars.gp (counts, titles and equations as gnuplot arrays).
 * Each file is written to a temporary file renamed into place (common/tempfile). */
#ifndef CP_REPORT_PLOT_DATA_H
#define CP_REPORT_PLOT_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "common/owned_dir.h"
#include "model/analysis.h"
#include "model/probe_speeds.h"
#include "report/plot.h"

typedef struct plot_data {
    const analysis_t *a;
    const probe_table_t *probe; /* NULL without a probe table */
    const char **targets;       /* the probe table's targets, first-seen order (into it) */
    size_t ntargets;
    bool multi_codec;           /* series differ in codec: titles name it */
    int tmin, tmax;             /* thread counts measured, over all series */
    double bottleneck_xmax;     /* x range of the bottleneck plot (crossovers included) */
    double bottleneck_ymax;     /* its y range in MB/s: the data and the ceilings near it */
    bool probe_sized;           /* probe write or read rows with a size */
    bool probe_sustained;       /* probe sustained rows */
    /* Filled by plot_data_write: what each plot of plot_kinds (same index) has to draw,
     * 0 when it is left out. */
    size_t drawn[PLOT_MAX];
} plot_data_t;

/* Prepares d for analysis a (at least one series) and probe (NULL = none): axis ranges
 * and the probe targets. CP_ENOMEM on failure; release with plot_data_free either way. */
int plot_data_init(plot_data_t *d, const analysis_t *a, const probe_table_t *probe,
                   cp_err_t *err);

/* Writes every data file into datadir (open, checked: common/owned_dir.h): vars.gp and points.dat, then each
 * plot's own files through its row's writer (plot_kinds.h), in report order, filling
 * d->drawn. CP_EIO or CP_ENOMEM naming the file on failure (vars.gp is then not written;
 * other files already written stay). */
int plot_data_write(plot_data_t *d, const owned_dir_t *datadir, cp_err_t *err);

/* Releases what plot_data_init allocated. */
void plot_data_free(plot_data_t *d);

#endif
