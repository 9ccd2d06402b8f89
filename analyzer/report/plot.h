/* plot.h - the plots of an analysis: data files for every plot, then one gnuplot process
 * per template in scripts/plots/.
 *
 * Everything a template needs is precomputed into RESULTS_DIR/plot-data/ (plot_data.h):
 * medians with min/max per series, dense curves sampled from the fitted models, ceilings,
 * crossovers, probe speeds, and vars.gp (counts, titles and equations as gnuplot arrays),
 * so a template knows nothing of the models and can be restyled freely. Each plot also
 * gets a one-sentence caption computed from the analysis, for report.md
 * (plot_captions.h). Which plots there are, their data writers, captions and headings:
 * one row each in the registry, plot_kinds.h. Running gnuplot is plot_gnuplot.h. */
#ifndef CP_REPORT_PLOT_H
#define CP_REPORT_PLOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "model/analysis.h"
#include "tables/probe_csv.h"

typedef enum plot_format { PLOT_PNG = 1, PLOT_SVG = 2, PLOT_BOTH = 3 } plot_format_t;

#define PLOT_MAX 16
#define PLOT_DATA_DIR "plot-data"

/* Parses "png", "svg" or "both" into *out. CP_EUSAGE naming the text otherwise. */
int plot_format_parse(const char *text, plot_format_t *out, cp_err_t *err);

typedef struct plot_file {
    char name[64];            /* template name, "time_vs_threads" */
    char files[2][PATH_MAX];  /* [0] png, [1] svg: paths actually made ("" if not) */
    char caption[512];        /* one sentence of reading, computed from the analysis */
} plot_file_t;

typedef struct plot_set {
    plot_file_t plots[PLOT_MAX];
    size_t n;
    bool gnuplot_missing;
    char notice[256];         /* set when gnuplot is missing ("" otherwise) */
    char skipped[PLOT_MAX][160]; /* "probe: no probe.csv", one per plot left out */
    size_t nskipped;
} plot_set_t;

/* Logs "wrote PATH" (cp_log_info) for each file drawn in set, in order. */
void plot_set_log_written(const plot_set_t *set);

/* Writes the data files into RESULTS_DIR/plot-data/ and draws each plot that has data as
 * RESULTS_DIR/NAME.png and/or .svg (temp file + rename: a failed plot leaves nothing).
 * RESULTS_DIR must be the caller's own and plot-data/ is made or must be
 * (common/owned_dir.h: never a symlink, owned by the caller, writable by nobody else),
 * else CP_EUSAGE naming it; both are held by descriptor, and gnuplot gets them as
 * descriptors (plot_gnuplot.h). An existing image is replaced only with replace, else
 * CP_EUSAGE "output '...' exists; use --force to replace it".
 * probe may be NULL. gnuplot is $CHOKEPOINT_GNUPLOT or "gnuplot"; templates come from
 * $CHOKEPOINT_PLOTS_DIR, else the built-in location. When gnuplot cannot be run, sets
 * out->gnuplot_missing and out->notice and still returns CP_OK (data and captions made).
 * Returns CP_EIO naming the template when gnuplot fails on it, CP_EIO/CP_ENOSPC when a
 * data file cannot be written, CP_EINTR when interrupted. *out is always initialised. */
int plot_render(const char *results_dir, const analysis_t *a, const probe_table_t *probe,
                plot_format_t fmt, bool replace, plot_set_t *out, cp_err_t *err);

/* Whether an image plot_render may draw in fmt (any row of the registry) exists in
 * results_dir; the first one found goes to found (cap bytes). */
bool plot_outputs_exist(const char *results_dir, plot_format_t fmt, char *found, size_t cap);

/* The directory the templates are read from, into buf (cap bytes). CP_EIO with a message
 * saying where it looked when none is found. */
int plot_templates_dir(char *buf, size_t cap, cp_err_t *err);

/* Writes s into out as a single-quoted gnuplot string literal ('' doubles a quote), each
 * byte below 0x20 and DEL as '?' so that no line end or control byte reaches a script.
 * Returns the length needed (like snprintf). When s does not fit, out holds as much of it
 * as fits and still its closing quote (a literal is never left open); out is
 * NUL-terminated when cap > 0 and a whole literal when cap >= 3. */
size_t plot_gnuplot_quote(const char *s, char *out, size_t cap);

#endif
