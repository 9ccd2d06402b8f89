/* history_plot.h - the plots of `chokepoint history --plots DIR`: per host, the rate of
 * each (target, codec, threads) against the study's start time. Data files go to
 * DIR/HOST/history-data/ (rates.dat and vars.gp, docs/formats.md "history-data/"), the
 * image, drawn by gnuplot from scripts/plots/history_rate.gp, to DIR/HOST/history_rate.png
 * and/or .svg (HOST with anything but letters, digits, '.', '-' and '_' made '_'). */
#ifndef CP_REPORT_HISTORY_PLOT_H
#define CP_REPORT_HISTORY_PLOT_H

#include "common/err.h"
#include "model/history.h"
#include "report/plot.h"

#define HISTORY_PLOT_DATA_DIR "history-data"

/* The directory name for host under DIR, into buf (NUL-terminated, cut to cap): the
 * host's name when it is all letters, digits, '.', '-' and '_' (and not "", "." or "..")
 * and fits; else that name with every other character replaced by '_', cut to leave room,
 * and "-" and 8 hex digits of the XXH3-64 of the host's name appended, so that two hosts
 * ("a b" and "a_b") never share a directory. */
void history_plot_host_dir(const char *host, char *buf, size_t cap);

/* The look of the k-th line (0-based) of a history plot: its linetype (colour) 1..8, its
 * point type and its dash type. No two of the first 96 lines share all three, and no two
 * of the first 24 share a colour and a point type. */
typedef struct history_line_style {
    int colour, marker, dash;
} history_line_style_t;
history_line_style_t history_plot_line_style(size_t k);

/* Writes host h's data files and draws its plot under dir (created when missing), with a
 * caption; studies are those handed to history_build. dir, dir/HOST and its data
 * directory are made now or must be the caller's own (common/owned_dir.h), else CP_EUSAGE
 * naming them; an existing image is replaced only with replace (else CP_EUSAGE). When
 * gnuplot cannot be run, sets out->gnuplot_missing and out->notice and still returns
 * CP_OK. CP_EIO naming the file or template on failure, CP_EINTR when interrupted. *out
 * is always initialised. */
int history_plot_render(const char *dir, const history_host_t *h,
                        const history_study_t *studies, plot_format_t fmt, bool replace,
                        plot_set_t *out, cp_err_t *err);

#endif
