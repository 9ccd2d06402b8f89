/* history_plot.c - data files, caption and gnuplot run for history (history_plot.h). */
#include "report/history_plot.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report/datafile.h"
#include "report/plot_gnuplot.h"

void history_plot_host_dir(const char *host, char *buf, size_t cap)
{
    if (cap == 0)
        return;
    size_t n = 0;
    for (const char *p = host; *p && n + 1 < cap; p++)
        buf[n++] = isalnum((unsigned char)*p) || *p == '.' || *p == '-' || *p == '_'
                       ? *p : '_';
    buf[n] = '\0';
    /* "", "." and ".." name no directory of their own: underscores instead. */
    if (strspn(buf, ".") == n) {
        size_t len = n > 0 ? n : (cap > 1 ? 1 : 0);
        memset(buf, '_', len);
        buf[len] = '\0';
    }
}

static void line_title(const history_line_t *l, char *buf, size_t cap)
{
    if (l->codec[0])
        snprintf(buf, cap, "%s (%s) T=%d", l->target, l->codec, l->threads);
    else
        snprintf(buf, cap, "%s T=%d", l->target, l->threads);
}

static void num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, " %.8g", x);
    else
        fputs(" NaN", f);
}

static void write_rates(FILE *f, const history_host_t *h)
{
    fputs("# columns: started_unix_s rate_MBps rate_min_MBps rate_max_MBps runs study\n", f);
    for (size_t k = 0; k < h->nlines; k++) {
        const history_line_t *l = &h->lines[k];
        char title[400];
        line_title(l, title, sizeof title);
        if (k > 0)
            fputs("\n\n", f);
        fprintf(f, "# index %zu: %s\n", k, title);
        for (size_t i = 0; i < l->npoints; i++) {
            const history_point_t *p = &l->points[i];
            fprintf(f, "%.0f", p->started);
            num(f, p->rate / 1e6);
            num(f, p->rate_min / 1e6);
            num(f, p->rate_max / 1e6);
            fprintf(f, " %zu %zu\n", p->n, p->study);
        }
    }
}

static void write_vars(FILE *f, const history_host_t *h, const history_study_t *studies)
{
    char quoted[1024];
    plot_gnuplot_quote(h->host, quoted, sizeof quoted);
    fprintf(f, "host = %s\n", quoted);
    fprintf(f, "time_min = %.0f\ntime_max = %.0f\n", studies[h->studies[0]].started,
            studies[h->studies[h->nstudies - 1]].started);
    fprintf(f, "n_studies = %zu\n", h->nstudies);
    fprintf(f, "\nn_line_title = %zu\narray line_title[%zu]\n", h->nlines,
            h->nlines ? h->nlines : 1);
    if (h->nlines == 0)
        fputs("line_title[1] = ''\n", f);
    for (size_t k = 0; k < h->nlines; k++) {
        char title[400];
        line_title(&h->lines[k], title, sizeof title);
        plot_gnuplot_quote(title, quoted, sizeof quoted);
        fprintf(f, "line_title[%zu] = %s\n", k + 1, quoted);
    }
}

/* "Rate over time on H: N studies from X to Y; ..." with the latest comparison's tally. */
static void caption(const history_host_t *h, const history_study_t *studies, char *buf,
                    size_t cap)
{
    int n = snprintf(buf, cap, "Rate over time on %s, one line per target, codec and thread "
                     "count: %zu stud%s from %s to %s", h->host, h->nstudies,
                     h->nstudies == 1 ? "y" : "ies", studies[h->studies[0]].started_text,
                     studies[h->studies[h->nstudies - 1]].started_text);
    if (n < 0 || (size_t)n >= cap)
        return;
    if (h->latest == NULL) {
        snprintf(buf + n, cap - (size_t)n, ".");
        return;
    }
    size_t slower = 0, faster = 0, points = 0;
    for (size_t i = 0; i < h->latest->npairs; i++) {
        slower += h->latest->pairs[i].slower;
        faster += h->latest->pairs[i].faster;
        points += h->latest->pairs[i].npoints;
    }
    snprintf(buf + n, cap - (size_t)n, "; the latest against the one before: %zu of %zu "
             "points slower, %zu faster.", slower, points, faster);
}

int history_plot_render(const char *dir, const history_host_t *h,
                        const history_study_t *studies, plot_format_t fmt, plot_set_t *out,
                        cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    char hostdir_name[256], hostdir[PATH_MAX], datadir[PATH_MAX], data_name[PATH_MAX];
    history_plot_host_dir(h->host, hostdir_name, sizeof hostdir_name);
    if ((size_t)snprintf(hostdir, sizeof hostdir, "%s/%s", dir, hostdir_name) >= sizeof hostdir ||
        (size_t)snprintf(datadir, sizeof datadir, "%s/%s", hostdir, HISTORY_PLOT_DATA_DIR) >=
            sizeof datadir)
        return cp_err_set(err, CP_EUSAGE, "%s: path too long", dir);
    snprintf(data_name, sizeof data_name, "%s/%s", hostdir_name, HISTORY_PLOT_DATA_DIR);
    const char *mk[] = {dir, hostdir, datadir};
    for (size_t i = 0; i < 3; i++)
        if (mkdir(mk[i], 0777) != 0 && errno != EEXIST)
            return cp_err_errno(err, CP_EIO, errno, "%s: cannot create", mk[i]);
    static const char *const names[] = {"rates.dat", "vars.gp"};
    for (int k = 0; k < 2; k++) {
        datafile_t d;
        int rc = datafile_open(&d, datadir, names[k], "history", err);
        if (rc != CP_OK)
            return rc;
        if (k == 0)
            write_rates(d.f, h);
        else
            write_vars(d.f, h, studies);
        rc = datafile_commit(&d, err);
        if (rc != CP_OK)
            return rc;
    }
    plot_file_t *pf = &out->plots[out->n++];
    snprintf(pf->name, sizeof pf->name, "history_rate");
    caption(h, studies, pf->caption, sizeof pf->caption);
    return plot_gnuplot_draw_set(hostdir, datadir, data_name, fmt, out, err);
}
