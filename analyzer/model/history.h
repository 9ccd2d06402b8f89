/* history.h - studies over time: results directories grouped by host and ordered by their
 * start time, per host, target, codec and thread count the median rate of each study (the
 * rate over time), and the latest study of each host against the one before it, judged as
 * `compare` judges (model/compare.h).
 *
 * Pure computation on the studies handed in; loading them is tables/history_load.h. */
#ifndef CP_MODEL_HISTORY_H
#define CP_MODEL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "model/analysis.h"
#include "model/compare.h"
#include "model/runs.h"

/* One study as history sees it. Nothing is copied: keep the strings and tables alive. */
typedef struct history_study {
    const char *label;          /* how reports name it: its directory */
    const char *host;           /* the machine it ran on */
    double started;             /* start time, seconds since the epoch (UTC) */
    const char *started_text;   /* the start time as recorded ("2026-11-30T14:53:33+0000") */
    const analysis_t *analysis;
    const runs_table_t *runs;   /* may be NULL: then every call is on the threshold */
    data_source_t source;       /* the program that measured its runs (runs_table_source) */
} history_study_t;

/* One study's median rate of one series at one thread count. */
typedef struct history_point {
    size_t study;               /* index into the studies handed to history_build */
    double started;
    double rate;                /* bytes/s of input: input bytes over the median seconds */
    double rate_min, rate_max;  /* from the slowest and fastest repetition */
    size_t n;                   /* repetitions */
} history_point_t;

/* The rate over time of one (target, codec, threads) on one host. */
typedef struct history_line {
    const char *target, *codec; /* point into an analysis ("" codec: none given) */
    int threads;
    history_point_t *points;    /* oldest first */
    size_t npoints;
} history_line_t;

typedef struct history_host {
    const char *host;
    size_t *studies;            /* indices into the studies, oldest first */
    size_t nstudies;
    history_line_t *lines;      /* by target, codec, then threads */
    size_t nlines;
    /* The latest study (B) against the one before it (A): studies[nstudies-2] and
     * studies[nstudies-1]. NULL with one study, or when the two have nothing in common
     * (then note says so). */
    compare_result_t *latest;
    compare_study_t pair[2];    /* the two studies latest was made from */
    char note[512];
} history_host_t;

typedef struct history_result {
    compare_options_t options;
    history_host_t *hosts;      /* by host name */
    size_t nhosts;
    size_t regressions;         /* over the latest comparisons of all hosts */
} history_result_t;

/* The order history puts studies in: by host name, then start time, then label. Returns
 * <0, 0 or >0 like strcmp. */
int history_study_order(const history_study_t *a, const history_study_t *b);

/* Groups studies[0..n) by host, orders each host's studies by start time, builds the rate
 * lines and compares each host's latest study with the one before it with options. On
 * success *out is the caller's (history_free). CP_EUSAGE when n is 0, CP_ENOMEM; *out is
 * NULL then. Two studies with nothing in common are not an error: that host's latest is
 * NULL and its note says why. */
int history_build(const history_study_t *studies, size_t n, const compare_options_t *options,
                  history_result_t **out, cp_err_t *err);

/* Frees a result; NULL is fine. */
void history_free(history_result_t *result);

#endif
