/* plot.c - plot_render: the data files (plot_data.c), the list of plots with their
 * captions and the reasons for the ones left out, as the registry's rows say
 * (plot_kinds.h), then one gnuplot run per plot and format (plot_gnuplot.c). */
#include "report/plot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/log.h"
#include "common/owned_dir.h"
#include "report/plot_data.h"
#include "report/plot_gnuplot.h"
#include "report/plot_kinds.h"

int plot_format_parse(const char *text, plot_format_t *out, cp_err_t *err)
{
    if (strcmp(text, "png") == 0)
        *out = PLOT_PNG;
    else if (strcmp(text, "svg") == 0)
        *out = PLOT_SVG;
    else if (strcmp(text, "both") == 0)
        *out = PLOT_BOTH;
    else
        return cp_err_set(err, CP_EUSAGE, "--format '%s': expected png, svg or both", text);
    return CP_OK;
}

/* ---- the plots to draw and their captions --------------------------------------------- */

/* A new plot in set with its caption buffer cleared; NULL when set is full. */
static plot_file_t *add_plot(plot_set_t *set, const char *name)
{
    if (set->n >= PLOT_MAX)
        return NULL;
    plot_file_t *pf = &set->plots[set->n++];
    memset(pf, 0, sizeof *pf);
    snprintf(pf->name, sizeof pf->name, "%s", name);
    return pf;
}

static void add_skipped(plot_set_t *set, const char *name, const char *reason)
{
    if (set->nskipped < PLOT_MAX)
        snprintf(set->skipped[set->nskipped++], sizeof set->skipped[0], "%s: %s", name, reason);
}

/* The plots of the registry (plot_kinds.h) that have something to draw, in report order,
 * each with its caption; the others go to set->skipped with their reason (or nowhere when
 * their row gives none). */
static void list_plots(const plot_data_t *d, plot_set_t *set)
{
    for (size_t i = 0; i < plot_kinds_count; i++) {
        const plot_kind_t *k = plot_kinds[i];
        plot_file_t *pf;
        if (d->drawn[i] > 0) {
            if ((pf = add_plot(set, k->name)) != NULL)
                k->caption(d, pf->caption, sizeof pf->caption);
        } else if (k->not_drawn != NULL) {
            add_skipped(set, k->name, k->not_drawn(d));
        }
    }
}

/* ---- putting it together -------------------------------------------------------------- */

void plot_set_log_written(const plot_set_t *set)
{
    for (size_t i = 0; i < set->n; i++)
        for (int f = 0; f < 2; f++)
            if (set->plots[i].files[f][0])
                cp_log_info("wrote %s", set->plots[i].files[f]);
}

int plot_render(const char *results_dir, const analysis_t *a, const probe_table_t *probe,
                plot_format_t fmt, bool replace, plot_set_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (a == NULL || a->nseries == 0)
        return cp_err_set(err, CP_EDATA, "nothing to plot: the analysis has no series");
    if (!(fmt & PLOT_BOTH))
        return cp_err_set(err, CP_EUSAGE, "plot format %d is not png, svg or both", (int)fmt);
    owned_dir_t results = OWNED_DIR_INIT, datadir = OWNED_DIR_INIT;
    int rc = owned_dir_open(&results, results_dir, false, err);
    if (rc == CP_OK)
        rc = owned_dir_open_in(&datadir, &results, PLOT_DATA_DIR, true, err);
    if (rc == CP_OK) {
        plot_data_t d;
        rc = plot_data_init(&d, a, probe, err);
        if (rc == CP_OK)
            rc = plot_data_write(&d, &datadir, err);
        if (rc == CP_OK)
            list_plots(&d, out);
        plot_data_free(&d);
    }
    if (rc == CP_OK)
        rc = plot_gnuplot_draw_set(&results, &datadir, PLOT_DATA_DIR, fmt, replace, out, err);
    owned_dir_close(&datadir);
    owned_dir_close(&results);
    return rc;
}

bool plot_outputs_exist(const char *results_dir, plot_format_t fmt, char *found, size_t cap)
{
    for (size_t i = 0; i < plot_kinds_count; i++)
        for (int slot = 0; slot < 2; slot++) {
            if (!(fmt & (slot == 0 ? PLOT_PNG : PLOT_SVG)))
                continue;
            char path[PATH_MAX];
            struct stat st;
            if ((size_t)snprintf(path, sizeof path, "%s/%s.%s", results_dir,
                                 plot_kinds[i]->name, slot == 0 ? "png" : "svg") < sizeof path &&
                lstat(path, &st) == 0) {
                snprintf(found, cap, "%s", path);
                return true;
            }
        }
    return false;
}
