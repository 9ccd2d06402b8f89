/* compare_plot.h - the plots of `chokepoint compare --plots DIR`: data files in
 * DIR/compare-data/ (formats.md, "compare-data/"), then gnuplot on the templates
 * compare_time.gp, compare_rate.gp and compare_ratio.gp (scripts/plots/):
 *   compare_time   time against threads, log-log, each study's points with min-max bars
 *                  and its power_time fit, one colour per study;
 *   compare_rate   rate against threads with each linear_rate fit, the same colours;
 *   compare_ratio  B/A per thread count with its interval and the threshold band. */
#ifndef CP_REPORT_COMPARE_PLOT_H
#define CP_REPORT_COMPARE_PLOT_H

#include "common/err.h"
#include "model/compare.h"
#include "report/plot.h"

#define COMPARE_PLOT_DATA_DIR "compare-data"

/* Writes the data files into dir/compare-data/ (dir is created when missing) and draws
 * dir/NAME.png and/or .svg for each plot, each with a caption. dir and compare-data/ are
 * made now or must be the caller's own (common/owned_dir.h), else CP_EUSAGE naming them;
 * an existing image is replaced only with replace (else CP_EUSAGE). When gnuplot cannot
 * be run, sets out->gnuplot_missing and out->notice and still returns CP_OK. CP_EIO
 * naming the file or template on failure, CP_EINTR when interrupted. *out is always
 * initialised. */
int compare_plot_render(const char *dir, const compare_result_t *r,
                        const compare_study_t *studies, size_t nstudies, plot_format_t fmt,
                        bool replace, plot_set_t *out, cp_err_t *err);

#endif
