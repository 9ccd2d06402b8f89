/* plot_gnuplot.h - the gnuplot driver behind plot_render: finds the program and the
 * templates (plot_templates_dir and plot_gnuplot_quote are declared in plot.h), and runs
 * one template into one image, written to a temporary file renamed into place. */
#ifndef CP_REPORT_PLOT_GNUPLOT_H
#define CP_REPORT_PLOT_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "common/owned_dir.h"
#include "report/plot.h"

/* The gnuplot program: $CHOKEPOINT_GNUPLOT when set and not empty, else "gnuplot". */
const char *plot_gnuplot_program(void);

/* Whether program (a path, or a name looked up in $PATH) can be executed. */
bool plot_gnuplot_found(const char *program);

/* What plot_gnuplot_draw works on: the template NAME.gp in plotsdir draws from datadir
 * into results_dir/NAME.EXT; both directories open and checked (common/owned_dir.h). */
typedef struct plot_gnuplot_job {
    const char *program;
    const char *plotsdir;
    const owned_dir_t *datadir;     /* gnuplot's datadir: /dev/fd/3, this descriptor */
    const owned_dir_t *results_dir; /* where the image goes */
    const char *name; /* "time_vs_threads" */
    const char *ext;  /* "png" or "svg": gnuplot's fmt, and the file's extension */
    bool replace;     /* an existing NAME.EXT is replaced (--force); else refused */
} plot_gnuplot_job_t;

/* Runs gnuplot on the job's template into a temporary file made in results_dir by
 * descriptor and handed to gnuplot as /dev/fd/4 (outfile; the data directory as
 * /dev/fd/3, datadir), renamed to NAME.EXT only when gnuplot succeeded and wrote
 * something; the path made goes to made (cap bytes). Returns CP_OK, CP_EIO naming the
 * template (with gnuplot's last line of output) or the file, CP_EUSAGE when NAME.EXT
 * exists and job->replace is not set, CP_ENOMEM, or CP_EINTR when interrupted; nothing
 * is left behind on failure. When the program cannot be executed at all, returns CP_OK
 * with *cannot_run set and made "" (the caller treats gnuplot as missing). */
int plot_gnuplot_draw(const plot_gnuplot_job_t *job, char *made, size_t cap,
                      bool *cannot_run, cp_err_t *err);

/* Draws every plot of out (their names set, files empty) in the formats of fmt with the
 * templates, reading data from datadir (named data_name in notices) into results_dir,
 * replacing existing images only with replace, and records each file made in out.
 * Without a runnable gnuplot: CP_OK with out->gnuplot_missing and a notice. Errors as
 * plot_gnuplot_draw. */
int plot_gnuplot_draw_set(const owned_dir_t *results_dir, const owned_dir_t *datadir,
                          const char *data_name, plot_format_t fmt, bool replace,
                          plot_set_t *out, cp_err_t *err);

#endif
