/* plot_kinds.h - the registry of the plots of an analysis: one row per plot (its name,
 * which is its template scripts/plots/NAME.gp and its image NAME.png or .svg, its heading
 * in report.md, the writer of its data files, why it is left out for a study, and its
 * caption), listed in report order in plot_kinds.c. plot.c draws and captions what the
 * rows say, report_md.c titles a plot by its row, and the tests count the rows. */
#ifndef CP_REPORT_PLOT_KINDS_H
#define CP_REPORT_PLOT_KINDS_H

#include <stddef.h>
#include <stdio.h>

#include "common/err.h"
#include "report/plot_data.h"

typedef struct plot_kind {
    const char *name;    /* "time_vs_threads": the template NAME.gp and the image NAME.EXT */
    const char *heading; /* report.md's "### heading" and the image's alt text */
    /* Writes the plot's own data files into datadir (which exists) and its variables into
     * vars (vars.gp, open), each file renamed into place when complete, and sets *drawn to
     * what the plot has to draw for this study: 0 leaves it out. Reads d only (its
     * analysis, probe table and ranges; d->drawn is being filled). CP_OK, or CP_EIO,
     * CP_ENOSPC or CP_ENOMEM naming the file. */
    int (*write)(const plot_data_t *d, const owned_dir_t *datadir, FILE *vars, size_t *drawn,
                 cp_err_t *err);
    /* Why the plot is left out (*drawn was 0), as report.md's "Not drawn" list says it:
     * a static string. NULL: the plot is left out without a word. */
    const char *(*not_drawn)(const plot_data_t *d);
    /* One sentence of reading under the plot, into buf (cap bytes, NUL-terminated, cut
     * short when it does not fit); called only for a plot that is drawn. */
    void (*caption)(const plot_data_t *d, char *buf, size_t cap);
} plot_kind_t;

/* Every plot of an analysis, in report order (at most PLOT_MAX); the rows are constant
 * and never freed. */
extern const plot_kind_t *const plot_kinds[];
extern const size_t plot_kinds_count;

/* The row named name, or NULL when no plot has that name. */
const plot_kind_t *plot_kind_find(const char *name);

#endif
