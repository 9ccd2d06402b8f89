/* history.c - grouping studies by host, ordering them by time, the rate lines and the
 * latest-against-previous comparison (history.h). */
#include "model/history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int history_study_order(const history_study_t *a, const history_study_t *b)
{
    int c = strcmp(a->host, b->host);
    if (c != 0)
        return c;
    if (a->started != b->started)
        return a->started < b->started ? -1 : 1;
    return strcmp(a->label, b->label);
}

static int by_order(const void *x, const void *y)
{
    return history_study_order(*(const history_study_t *const *)x,
                               *(const history_study_t *const *)y);
}

static int line_order(const history_line_t *l, const char *target, const char *codec,
                      int threads)
{
    int c = strcmp(l->target, target);
    if (c == 0)
        c = strcmp(l->codec, codec);
    if (c == 0)
        c = l->threads < threads ? -1 : l->threads > threads;
    return c;
}

/* The line of (target, codec, threads) in h, inserted in order when new; NULL when out
 * of memory. */
static history_line_t *line_get(history_host_t *h, size_t *cap, const char *target,
                                const char *codec, int threads)
{
    size_t i = 0;
    while (i < h->nlines && line_order(&h->lines[i], target, codec, threads) < 0)
        i++;
    if (i < h->nlines && line_order(&h->lines[i], target, codec, threads) == 0)
        return &h->lines[i];
    if (h->nlines == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        history_line_t *lines = realloc(h->lines, ncap * sizeof *lines);
        if (lines == NULL)
            return NULL;
        h->lines = lines;
        *cap = ncap;
    }
    memmove(&h->lines[i + 1], &h->lines[i], (h->nlines - i) * sizeof *h->lines);
    h->nlines++;
    h->lines[i] = (history_line_t){.target = target, .codec = codec, .threads = threads};
    /* Each line holds at most one point per study of the host. */
    h->lines[i].points = calloc(h->nstudies, sizeof *h->lines[i].points);
    return h->lines[i].points != NULL ? &h->lines[i] : NULL;
}

/* The rate lines of host h: its studies are visited oldest first, so points come in
 * time order. */
static int host_lines(history_host_t *h, const history_study_t *studies)
{
    size_t cap = 0;
    for (size_t k = 0; k < h->nstudies; k++) {
        const history_study_t *st = &studies[h->studies[k]];
        for (size_t i = 0; i < st->analysis->nseries; i++) {
            const analysis_series_t *s = &st->analysis->series[i];
            for (size_t j = 0; j < s->npoints; j++) {
                const analysis_point_t *p = &s->points[j];
                history_line_t *l = line_get(h, &cap, s->name, s->codec, p->threads);
                if (l == NULL)
                    return CP_ENOMEM;
                l->points[l->npoints++] = (history_point_t){
                    .study = h->studies[k],
                    .started = st->started,
                    .rate = p->bytes_per_s,
                    .rate_min = p->input_bytes / p->seconds_max,
                    .rate_max = p->input_bytes / p->seconds_min,
                    .n = p->n,
                };
            }
        }
    }
    return CP_OK;
}

/* h's latest study against the one before it; nothing in common is a note, not an error. */
static int host_latest(history_host_t *h, const history_study_t *studies,
                       const compare_options_t *options, cp_err_t *err)
{
    if (h->nstudies < 2) {
        snprintf(h->note, sizeof h->note, "one study only: nothing to compare it with");
        return CP_OK;
    }
    for (int k = 0; k < 2; k++) {
        const history_study_t *st = &studies[h->studies[h->nstudies - 2 + (size_t)k]];
        h->pair[k] = (compare_study_t){
            .label = st->label, .analysis = st->analysis, .runs = st->runs};
    }
    cp_err_t cerr = {0};
    int rc = compare_run(h->pair, 2, NULL, 0, options, &h->latest, &cerr);
    if (rc == CP_EDATA) {
        snprintf(h->note, sizeof h->note, "%s", cerr.msg);
        return CP_OK;
    }
    if (rc != CP_OK)
        return cp_err_set(err, rc, "%s", cerr.msg);
    return CP_OK;
}

void history_free(history_result_t *result)
{
    if (result == NULL)
        return;
    for (size_t i = 0; i < result->nhosts; i++) {
        history_host_t *h = &result->hosts[i];
        for (size_t j = 0; j < h->nlines; j++)
            free(h->lines[j].points);
        free(h->lines);
        free(h->studies);
        compare_free(h->latest);
    }
    free(result->hosts);
    free(result);
}

int history_build(const history_study_t *studies, size_t n, const compare_options_t *options,
                  history_result_t **out, cp_err_t *err)
{
    *out = NULL;
    if (n == 0)
        return cp_err_set(err, CP_EUSAGE, "history needs at least one study");
    history_result_t *res = calloc(1, sizeof *res);
    const history_study_t **sorted = malloc(n * sizeof *sorted);
    size_t *order = malloc(n * sizeof *order);
    if (res == NULL || sorted == NULL || order == NULL ||
        (res->hosts = calloc(n, sizeof *res->hosts)) == NULL) {
        free(sorted);
        free(order);
        history_free(res);
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    res->options = *options;
    for (size_t i = 0; i < n; i++)
        sorted[i] = &studies[i];
    qsort(sorted, n, sizeof *sorted, by_order);
    for (size_t i = 0; i < n; i++)
        order[i] = (size_t)(sorted[i] - studies);
    free(sorted);
    int rc = CP_OK;
    for (size_t i = 0; i < n && rc == CP_OK;) {
        size_t j = i;
        while (j < n && strcmp(studies[order[j]].host, studies[order[i]].host) == 0)
            j++;
        history_host_t *h = &res->hosts[res->nhosts++];
        h->host = studies[order[i]].host;
        h->nstudies = j - i;
        h->studies = malloc(h->nstudies * sizeof *h->studies);
        if (h->studies == NULL) {
            rc = cp_err_set(err, CP_ENOMEM, "out of memory");
            break;
        }
        memcpy(h->studies, &order[i], h->nstudies * sizeof *h->studies);
        if (host_lines(h, studies) != CP_OK)
            rc = cp_err_set(err, CP_ENOMEM, "out of memory");
        else
            rc = host_latest(h, studies, options, err);
        if (h->latest != NULL)
            res->regressions += h->latest->regressions;
        i = j;
    }
    free(order);
    if (rc != CP_OK) {
        history_free(res);
        return rc;
    }
    *out = res;
    return CP_OK;
}
