/* compare.c - pairing series of two studies, rate ratios per common thread count, the
 * bootstrap interval over repetitions and the calls made on it (compare.h). */
#include "model/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "common/prng.h"

compare_options_t compare_defaults(void)
{
    return (compare_options_t){
        .threshold = COMPARE_DEFAULT_THRESHOLD,
        .fail_threshold = NAN,
        .confidence = 0.95,
        .resamples = COMPARE_DEFAULT_RESAMPLES,
        .seed = COMPARE_DEFAULT_SEED,
    };
}

const char *compare_change_name(compare_change_t change)
{
    switch (change) {
    case COMPARE_SLOWER: return "slower";
    case COMPARE_FASTER: return "faster";
    default: return "same";
    }
}

const char *compare_basis_name(compare_basis_t basis)
{
    return basis == COMPARE_BASIS_CI ? "ci" : "threshold";
}

void compare_decide(double ratio, double ci_low, double ci_high, double threshold,
                    compare_change_t *change, compare_basis_t *basis)
{
    bool has_ci = isfinite(ci_low) && isfinite(ci_high);
    /* With an interval, the whole of it must lie beyond the threshold: noise that
     * straddles the band (or 1) is no change. */
    double hi = has_ci ? ci_high : ratio, lo = has_ci ? ci_low : ratio;
    *basis = has_ci ? COMPARE_BASIS_CI : COMPARE_BASIS_THRESHOLD;
    if (hi < 1.0 - threshold)
        *change = COMPARE_SLOWER;
    else if (lo > 1.0 + threshold)
        *change = COMPARE_FASTER;
    else
        *change = COMPARE_SAME;
}

bool compare_is_regression(double ratio, double ci_low, double ci_high, double fail)
{
    if (!isfinite(fail))
        return false;
    double hi = isfinite(ci_low) && isfinite(ci_high) ? ci_high : ratio;
    return hi < 1.0 - fail;
}

/* The median of n values drawn with replacement from values, using scratch (n slots). */
static double resample_median(prng_t *g, const double *values, size_t n, double *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = values[prng_below(g, n)];
    gsl_sort(scratch, 1, n);
    return gsl_stats_median_from_sorted_data(scratch, 1, n);
}

int compare_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
                            unsigned resamples, double confidence, uint64_t seed,
                            double *low, double *high)
{
    *low = *high = NAN;
    if (na < COMPARE_MIN_REPS || nb < COMPARE_MIN_REPS || resamples < 2)
        return CP_OK;
    double *ratios = malloc(resamples * sizeof *ratios);
    double *scratch = malloc((na > nb ? na : nb) * sizeof *scratch);
    if (ratios == NULL || scratch == NULL) {
        free(ratios);
        free(scratch);
        return CP_ENOMEM;
    }
    prng_t g = prng_make(seed);
    for (unsigned r = 0; r < resamples; r++) {
        double ma = resample_median(&g, a, na, scratch);
        double mb = resample_median(&g, b, nb, scratch);
        ratios[r] = mb / ma;
    }
    gsl_sort(ratios, 1, resamples);
    double alpha = 1.0 - confidence;
    *low = gsl_stats_quantile_from_sorted_data(ratios, 1, resamples, alpha / 2.0);
    *high = gsl_stats_quantile_from_sorted_data(ratios, 1, resamples, 1.0 - alpha / 2.0);
    free(ratios);
    free(scratch);
    return CP_OK;
}

/* ---- pairing ------------------------------------------------------------------------ */

typedef struct pair_list {
    compare_pair_t *items;
    size_t n, cap;
} pair_list_t;

static compare_pair_t *pair_add(pair_list_t *list, size_t study_b,
                                const analysis_series_t *a, const analysis_series_t *b)
{
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 8;
        compare_pair_t *items = realloc(list->items, cap * sizeof *items);
        if (items == NULL)
            return NULL;
        list->items = items;
        list->cap = cap;
    }
    compare_pair_t *p = &list->items[list->n++];
    memset(p, 0, sizeof *p);
    p->study_b = study_b;
    p->a = a;
    p->b = b;
    return p;
}

static bool pair_has_side(const pair_list_t *list, size_t study_b,
                          const analysis_series_t *a, const analysis_series_t *b)
{
    for (size_t i = 0; i < list->n; i++)
        if (list->items[i].study_b == study_b && (list->items[i].a == a || list->items[i].b == b))
            return true;
    return false;
}

static size_t count_target(const analysis_t *an, const char *name)
{
    size_t n = 0;
    for (size_t i = 0; i < an->nseries; i++)
        n += strcmp(an->series[i].name, name) == 0;
    return n;
}

/* "usb (zstd:3), mem (zstd:3)" into buf: what a study holds, for messages. */
static void list_series(const analysis_t *an, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < an->nseries && used < cap; i++) {
        const analysis_series_t *s = &an->series[i];
        int n = snprintf(buf + used, cap - used, "%s%s%s%s%s", i ? ", " : "", s->name,
                         s->codec[0] ? " (" : "", s->codec, s->codec[0] ? ")" : "");
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* Pairings named with --pair between A and the study at index ib. */
static int pair_named(pair_list_t *list, const compare_study_t *studies, size_t ib,
                      const compare_name_pair_t *names, size_t nnames, cp_err_t *err)
{
    const analysis_t *A = studies[0].analysis, *B = studies[ib].analysis;
    for (size_t k = 0; k < nnames; k++) {
        const char *na = names[k].a, *nb = names[k].b;
        if (count_target(A, na) == 0)
            return cp_err_set(err, CP_EUSAGE, "--pair %s:%s: no target '%s' in %s", na, nb,
                              na, studies[0].label);
        if (count_target(B, nb) == 0)
            return cp_err_set(err, CP_EUSAGE, "--pair %s:%s: no target '%s' in %s", na, nb,
                              nb, studies[ib].label);
        bool single = count_target(A, na) == 1 && count_target(B, nb) == 1;
        for (size_t i = 0; i < A->nseries; i++)
            for (size_t j = 0; j < B->nseries; j++) {
                const analysis_series_t *sa = &A->series[i], *sb = &B->series[j];
                if (strcmp(sa->name, na) != 0 || strcmp(sb->name, nb) != 0)
                    continue;
                if (!single && strcmp(sa->codec, sb->codec) != 0)
                    continue;
                if (!pair_has_side(list, ib, sa, sb) && pair_add(list, ib, sa, sb) == NULL)
                    return cp_err_set(err, CP_ENOMEM, "out of memory");
            }
    }
    return CP_OK;
}

/* Pairs by equal (target, codec), then one series against one. */
static int pair_auto(pair_list_t *list, const compare_study_t *studies, size_t ib,
                     cp_err_t *err)
{
    const analysis_t *A = studies[0].analysis, *B = studies[ib].analysis;
    size_t before = list->n;
    for (size_t j = 0; j < B->nseries; j++)
        for (size_t i = 0; i < A->nseries; i++) {
            const analysis_series_t *sa = &A->series[i], *sb = &B->series[j];
            if (strcmp(sa->name, sb->name) != 0 || strcmp(sa->codec, sb->codec) != 0 ||
                pair_has_side(list, ib, sa, sb))
                continue;
            if (pair_add(list, ib, sa, sb) == NULL)
                return cp_err_set(err, CP_ENOMEM, "out of memory");
        }
    bool any = false;
    for (size_t i = 0; i < list->n; i++)
        any |= list->items[i].study_b == ib;
    /* One series each: paired whatever their names, but never a compression with a
     * decompression. */
    if (!any && list->n == before && A->nseries == 1 && B->nseries == 1 &&
        A->series[0].decompress == B->series[0].decompress &&
        pair_add(list, ib, &A->series[0], &B->series[0]) == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    return CP_OK;
}

/* ---- points ------------------------------------------------------------------------- */

/* True when run r is a repetition of series s at T. */
static bool run_of_series(const run_row_t *r, const analysis_series_t *s, int threads)
{
    return r->threads == threads && strcmp(r->target, s->name) == 0 &&
           strcmp(r->codec, s->run_codec) == 0 && r->decompress == s->decompress;
}

/* The rates of the repetitions of series s at T from runs, into a new array (*n of them);
 * NULL with *n = 0 when runs gives none (or out of memory: *oom set). */
static double *rep_rates(const runs_table_t *runs, const analysis_series_t *s, int threads,
                         size_t *n, bool *oom)
{
    *n = 0;
    if (runs == NULL)
        return NULL;
    size_t count = 0;
    for (size_t i = 0; i < runs->nrows; i++)
        count += run_of_series(&runs->rows[i], s, threads);
    if (count == 0)
        return NULL;
    double *rates = malloc(count * sizeof *rates);
    if (rates == NULL) {
        *oom = true;
        return NULL;
    }
    for (size_t i = 0; i < runs->nrows; i++)
        if (run_of_series(&runs->rows[i], s, threads))
            rates[(*n)++] = runs->rows[i].input_bytes / runs->rows[i].seconds;
    return rates;
}

/* One side's rate at T, the analysis' own figure (median input bytes over median seconds,
 * the same number every report gives), and its repetitions' rates from the runs for the
 * bootstrap interval. *values (owned by the caller) is NULL without repetitions. */
static int side_rates(const runs_table_t *runs, const analysis_series_t *s,
                      const analysis_point_t *pt, double **values, size_t *n, double *median)
{
    bool oom = false;
    *values = rep_rates(runs, s, pt->threads, n, &oom);
    if (oom)
        return CP_ENOMEM;
    if (*values == NULL)
        *n = pt->n;
    *median = pt->bytes_per_s;
    return CP_OK;
}

static int fill_point(compare_point_t *cp, const compare_study_t *sa_study,
                      const compare_study_t *sb_study, const analysis_series_t *a,
                      const analysis_point_t *pa, const analysis_series_t *b,
                      const analysis_point_t *pb, const compare_options_t *o, uint64_t seed)
{
    double *ra = NULL, *rb = NULL;
    memset(cp, 0, sizeof *cp);
    cp->threads = pa->threads;
    int rc = side_rates(sa_study->runs, a, pa, &ra, &cp->n_a, &cp->rate_a);
    if (rc == CP_OK)
        rc = side_rates(sb_study->runs, b, pb, &rb, &cp->n_b, &cp->rate_b);
    cp->rate_ratio = cp->rate_b / cp->rate_a;
    cp->ci_low = cp->ci_high = NAN;
    if (rc == CP_OK && ra != NULL && rb != NULL)
        rc = compare_bootstrap_ratio(ra, cp->n_a, rb, cp->n_b, o->resamples, o->confidence,
                                     seed, &cp->ci_low, &cp->ci_high);
    free(ra);
    free(rb);
    compare_decide(cp->rate_ratio, cp->ci_low, cp->ci_high, o->threshold, &cp->change,
                   &cp->basis);
    cp->regression = compare_is_regression(cp->rate_ratio, cp->ci_low, cp->ci_high,
                                           o->fail_threshold);
    return rc;
}

static double fit_param(const analysis_series_t *s, fit_kind_t kind, int i)
{
    return s->models[kind].fitted ? s->models[kind].param[i] : NAN;
}

/* The points, figures and verdict changes of pair p (index pi among the pairs). */
static int fill_pair(compare_pair_t *p, size_t pi, const compare_study_t *studies,
                     const compare_options_t *o)
{
    const analysis_series_t *a = p->a, *b = p->b;
    p->slope_a = fit_param(a, FIT_LINEAR_RATE, 1);
    p->slope_b = fit_param(b, FIT_LINEAR_RATE, 1);
    p->slope_ratio = p->slope_b / p->slope_a;
    p->exponent_a = fit_param(a, FIT_POWER_TIME, 1);
    p->exponent_b = fit_param(b, FIT_POWER_TIME, 1);
    p->crossover_a = a->crossover_threads;
    p->crossover_b = b->crossover_threads;
    size_t cap = a->npoints < b->npoints ? a->npoints : b->npoints;
    p->points = calloc(cap ? cap : 1, sizeof *p->points);
    p->verdict_changes = calloc(cap ? cap : 1, sizeof *p->verdict_changes);
    if (p->points == NULL || p->verdict_changes == NULL)
        return CP_ENOMEM;
    for (size_t i = 0; i < a->npoints; i++)
        for (size_t j = 0; j < b->npoints; j++) {
            if (a->points[i].threads != b->points[j].threads)
                continue;
            int threads = a->points[i].threads;
            /* One generator per (pair, T): a point's interval does not depend on what
             * else is compared. */
            uint64_t seed = o->seed + 0x9E3779B97F4A7C15ULL * (pi + 1) + (uint64_t)threads;
            compare_point_t *cp = &p->points[p->npoints++];
            int rc = fill_point(cp, &studies[0], &studies[p->study_b], a, &a->points[i], b,
                                &b->points[j], o, seed);
            if (rc != CP_OK)
                return rc;
            p->slower += cp->change == COMPARE_SLOWER;
            p->faster += cp->change == COMPARE_FASTER;
            p->same += cp->change == COMPARE_SAME;
            p->regressions += cp->regression;
            if (a->verdicts[i].verdict != b->verdicts[j].verdict)
                p->verdict_changes[p->nverdict_changes++] = (compare_verdict_change_t){
                    .threads = threads, .a = a->verdicts[i].verdict, .b = b->verdicts[j].verdict};
        }
    return CP_OK;
}

const compare_point_t *compare_worst_regression(const compare_result_t *r,
                                                const compare_pair_t **pair)
{
    const compare_point_t *worst = NULL;
    for (size_t k = 0; r != NULL && k < r->npairs; k++)
        for (size_t i = 0; i < r->pairs[k].npoints; i++) {
            const compare_point_t *c = &r->pairs[k].points[i];
            if (c->regression && (worst == NULL || c->rate_ratio < worst->rate_ratio)) {
                worst = c;
                *pair = &r->pairs[k];
            }
        }
    return worst;
}

void compare_free(compare_result_t *result)
{
    if (result == NULL)
        return;
    for (size_t i = 0; i < result->npairs; i++) {
        free(result->pairs[i].points);
        free(result->pairs[i].verdict_changes);
    }
    free(result->pairs);
    free(result);
}

int compare_run(const compare_study_t *studies, size_t nstudies,
                const compare_name_pair_t *names, size_t nnames,
                const compare_options_t *options, compare_result_t **out, cp_err_t *err)
{
    *out = NULL;
    if (nstudies < 2)
        return cp_err_set(err, CP_EUSAGE, "compare needs at least two studies");
    compare_result_t *res = calloc(1, sizeof *res);
    if (res == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    res->options = *options;
    pair_list_t list = {0};
    int rc = CP_OK;
    for (size_t ib = 1; ib < nstudies && rc == CP_OK; ib++) {
        rc = pair_named(&list, studies, ib, names, nnames, err);
        if (rc == CP_OK)
            rc = pair_auto(&list, studies, ib, err);
    }
    res->pairs = list.items;
    res->npairs = list.n;
    for (size_t i = 0; i < res->npairs && rc == CP_OK; i++) {
        if (fill_pair(&res->pairs[i], i, studies, options) != CP_OK)
            rc = cp_err_set(err, CP_ENOMEM, "out of memory");
        res->regressions += res->pairs[i].regressions;
    }
    /* Every study must share at least one thread count of one series with A. */
    for (size_t ib = 1; ib < nstudies && rc == CP_OK; ib++) {
        size_t points = 0, pairs = 0;
        for (size_t i = 0; i < res->npairs; i++)
            if (res->pairs[i].study_b == ib) {
                points += res->pairs[i].npoints;
                pairs++;
            }
        if (points > 0)
            continue;
        char la[256], lb[256];
        list_series(studies[0].analysis, la, sizeof la);
        list_series(studies[ib].analysis, lb, sizeof lb);
        if (pairs > 0)
            rc = cp_err_set(err, CP_EDATA, "%s and %s have nothing in common to compare: no "
                            "thread count in common in any paired series (%s: %s; %s: %s)",
                            studies[0].label, studies[ib].label, studies[0].label, la,
                            studies[ib].label, lb);
        else
            rc = cp_err_set(err, CP_EDATA, "%s and %s have nothing in common to compare (%s: "
                            "%s; %s: %s)%s",
                            studies[0].label, studies[ib].label, studies[0].label, la,
                            studies[ib].label, lb,
                            options->pair_option
                                ? "; pair targets with --pair NAME_A:NAME_B"
                                : "; name the targets alike in both studies");
    }
    if (rc != CP_OK) {
        compare_free(res);
        return rc;
    }
    *out = res;
    return CP_OK;
}
