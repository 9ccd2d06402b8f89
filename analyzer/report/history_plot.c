/* history_plot.c - data files, caption and gnuplot run for history (history_plot.h). */
#include "report/history_plot.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <xxhash.h>

#include "common/owned_dir.h"
#include "report/datafile.h"
#include "report/gnuplot_vars.h"
#include "report/plot_gnuplot.h"

void history_plot_host_dir(const char *host, char *buf, size_t cap)
{
    if (cap == 0)
        return;
    /* Room kept for "-" and 8 hex digits of the hash of a name that had to change. */
    const size_t tag = 9;
    size_t room = cap > tag + 1 ? cap - 1 - tag : cap - 1;
    size_t n = 0;
    bool changed = false;
    const char *p = host;
    for (; *p && n < room; p++) {
        bool kept = isalnum((unsigned char)*p) || *p == '.' || *p == '-' || *p == '_';
        buf[n++] = kept ? *p : '_';
        changed = changed || !kept;
    }
    changed = changed || *p != '\0';
    buf[n] = '\0';
    /* "", "." and ".." name no directory of their own: underscores instead. */
    if (strspn(buf, ".") == n) {
        size_t len = n > 0 ? n : (cap > 1 ? 1 : 0);
        memset(buf, '_', len);
        buf[len] = '\0';
        n = len;
        changed = true;
    }
    /* Two hosts whose names differ only where characters were replaced ("a b" and
     * "a_b") would share one directory: a changed name carries its host's own hash. */
    if (changed && cap > tag + 1)
        snprintf(buf + n, cap - n, "-%08x",
                 (unsigned)(XXH3_64bits(host, strlen(host)) & 0xffffffffu));
}

static void line_title(const history_line_t *l, char *buf, size_t cap)
{
    if (l->codec[0])
        snprintf(buf, cap, "%s (%s) T=%d", l->target, l->codec, l->threads);
    else
        snprintf(buf, cap, "%s T=%d", l->target, l->threads);
}

/* A decompression line: its codec is "<codec> decompression" (model/analysis.h). */
static bool restores(const history_line_t *l)
{
    size_t n = strlen(l->codec);
    return n > 14 && strcmp(l->codec + n - 14, " decompression") == 0;
}

/* The position (1-based) of study index `study` among the host's, oldest first. */
static size_t study_column(const history_host_t *h, size_t study)
{
    for (size_t j = 0; j < h->nstudies; j++)
        if (h->studies[j] == study)
            return j + 1;
    return 0;
}

static void write_rates(FILE *f, const history_host_t *h)
{
    fputs("# columns: study (1 = oldest) rate_MBps rate_min_MBps rate_max_MBps runs "
          "started_unix_s\n", f);
    for (size_t k = 0; k < h->nlines; k++) {
        const history_line_t *l = &h->lines[k];
        char title[400];
        line_title(l, title, sizeof title);
        gnuplot_block_start(f, k, title);
        for (size_t i = 0; i < l->npoints; i++) {
            const history_point_t *p = &l->points[i];
            fprintf(f, "%zu", study_column(h, p->study));
            gnuplot_value(f, 8, p->rate / 1e6);
            gnuplot_value(f, 8, p->rate_min / 1e6);
            gnuplot_value(f, 8, p->rate_max / 1e6);
            fprintf(f, " %zu %.0f\n", p->n, p->started);
        }
    }
}

/* The data indices (1-based) of one operation's lines, as a gnuplot array NAME. */
static size_t write_line_set(FILE *f, const history_host_t *h, const char *name, bool restore)
{
    size_t n = 0;
    for (size_t k = 0; k < h->nlines; k++)
        n += restores(&h->lines[k]) == restore;
    char count_name[64];
    snprintf(count_name, sizeof count_name, "n_%s", name);
    gnuplot_array_head(f, count_name, name, n);
    if (n == 0)
        gnuplot_array_number(f, name, 0, 0);
    n = 0;
    for (size_t k = 0; k < h->nlines; k++)
        if (restores(&h->lines[k]) == restore)
            gnuplot_array_number(f, name, n++, (double)(k + 1));
    return n;
}

history_line_style_t history_plot_line_style(size_t k)
{
    /* Per round of eight colours: filled points, open ones, then plain marks. */
    static const int markers[3][8] = {
        {7, 5, 9, 11, 13, 15, 7, 5}, {6, 4, 8, 10, 12, 14, 6, 4}, {1, 2, 3, 1, 2, 3, 1, 2},
    };
    history_line_style_t st = {(int)(k % 8) + 1, markers[(k / 8) % 3][k % 8],
                               (int)(k / 24) % 4 + 1};
    return st;
}

/* The style arrays line_colour, line_marker and line_dash for the first n lines. */
static void write_line_styles(FILE *f, size_t n)
{
    static const char *const names[] = {"line_colour", "line_marker", "line_dash"};
    for (size_t a = 0; a < 3; a++) {
        gnuplot_array(f, names[a], n > 0 ? n : 1);
        for (size_t k = 0; k < (n > 0 ? n : 1); k++) {
            history_line_style_t st = history_plot_line_style(k);
            gnuplot_array_number(f, names[a], k, a == 0 ? st.colour : a == 1 ? st.marker
                                                                              : st.dash);
        }
    }
}

static void write_vars(FILE *f, const history_host_t *h, const history_study_t *studies,
                       size_t *ncompress, size_t *nrestore)
{
    gnuplot_var_string(f, "host", h->host);
    /* One column per study, oldest first, each labelled with its start: studies minutes
     * apart get columns of their own. */
    gnuplot_array_head(f, "n_studies", "study_label", h->nstudies);
    for (size_t j = 0; j < h->nstudies; j++)
        gnuplot_array_string(f, "study_label", j, studies[h->studies[j]].started_text);
    gnuplot_array(f, "line_title", h->nlines);
    for (size_t k = 0; k < h->nlines; k++) {
        char title[400];
        line_title(&h->lines[k], title, sizeof title);
        gnuplot_array_string(f, "line_title", k, title);
    }
    *ncompress = write_line_set(f, h, "compress_line", false);
    *nrestore = write_line_set(f, h, "restore_line", true);
    write_line_styles(f, *ncompress > *nrestore ? *ncompress : *nrestore);
}

/* "Compression rate over time on H: N studies from X to Y; ..." with the latest
 * comparison's tally. */
static void caption(const history_host_t *h, const history_study_t *studies, const char *what,
                    char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s rate on %s, one line per target, codec and thread count, "
                     "one column per study: %zu stud%s from %s to %s", what, h->host,
                     h->nstudies, h->nstudies == 1 ? "y" : "ies",
                     studies[h->studies[0]].started_text,
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
                        const history_study_t *studies, plot_format_t fmt, bool replace,
                        plot_set_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    char hostdir_name[256], data_name[PATH_MAX];
    history_plot_host_dir(h->host, hostdir_name, sizeof hostdir_name);
    if ((size_t)snprintf(data_name, sizeof data_name, "%s/%s", hostdir_name,
                         HISTORY_PLOT_DATA_DIR) >= sizeof data_name)
        return cp_err_set(err, CP_EUSAGE, "%s: path too long", dir);
    /* DIR, DIR/HOST and its data directory: each made now or the caller's own, and held
     * by descriptor (common/owned_dir.h), so nothing is written through a planted link. */
    owned_dir_t top = OWNED_DIR_INIT, hostdir = OWNED_DIR_INIT, datadir = OWNED_DIR_INIT;
    int rc = owned_dir_open(&top, dir, true, err);
    if (rc == CP_OK)
        rc = owned_dir_open_in(&hostdir, &top, hostdir_name, true, err);
    if (rc == CP_OK)
        rc = owned_dir_open_in(&datadir, &hostdir, HISTORY_PLOT_DATA_DIR, true, err);
    static const char *const names[] = {"rates.dat", "vars.gp"};
    size_t ncompress = 0, nrestore = 0;
    for (int k = 0; k < 2 && rc == CP_OK; k++) {
        datafile_t d;
        rc = datafile_open(&d, &datadir, names[k], "history", err);
        if (rc != CP_OK)
            break;
        if (k == 0)
            write_rates(d.f, h);
        else
            write_vars(d.f, h, studies, &ncompress, &nrestore);
        rc = datafile_commit(&d, err);
    }
    /* One plot per operation: compression and decompression rates are not one scale. */
    if (rc == CP_OK && ncompress > 0) {
        plot_file_t *pf = &out->plots[out->n++];
        snprintf(pf->name, sizeof pf->name, "history_rate");
        caption(h, studies, "Compression", pf->caption, sizeof pf->caption);
    }
    if (rc == CP_OK && nrestore > 0) {
        plot_file_t *pf = &out->plots[out->n++];
        snprintf(pf->name, sizeof pf->name, "history_restore");
        caption(h, studies, "Decompression", pf->caption, sizeof pf->caption);
    }
    if (rc == CP_OK)
        rc = plot_gnuplot_draw_set(&hostdir, &datadir, data_name, fmt, replace, out, err);
    owned_dir_close(&datadir);
    owned_dir_close(&hostdir);
    owned_dir_close(&top);
    return rc;
}
